#include "settings.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "orrery/device.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "orrery/scene.h"
#include "orrery/simulation.h"
#include "orrery/solver.h"

namespace orrery::python {

namespace {

std::string number(double v) { return number_text(v); }

// The keyword's name before the core's reason ("dt=0: invalid time step 0: ...").
template <class F>
void blame(const std::string& keyword, const std::string& value, F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    throw InputError(keyword + "=" + value + ": " + e.what());
  }
}

}  // namespace

int default_bodies() { return device_present() ? 16384 : 2048; }

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

double as_finite(double v, const char* keyword) {
  if (!std::isfinite(v))
    throw InputError(std::string(keyword) + "=" + number(v) + ": must be a finite number");
  if (std::fabs(v) > std::numeric_limits<float>::max())
    throw InputError(std::string(keyword) + "=" + number(v) + ": beyond the range of a float");
  return v;
}

float as_float(double v, const char* keyword) { return static_cast<float>(as_finite(v, keyword)); }

double as_row_value(const ParamRow& row, double v, const char* keyword) {
  return row.is_double() ? as_finite(v, keyword) : as_float(v, keyword);
}

namespace {

// The keywords as the engine's typed settings (orrery/run_settings.h), each checked as it is read
// so that a refusal names its keyword.
TypedSettings typed_settings(const Keywords& k) {
  TypedSettings t;
  if (k.solver) {
    blame("solver", *k.solver, [&] { solver_info(*k.solver); });
    if (solver_info(*k.solver).gpu && !device_present())
      throw InputError("solver=" + *k.solver + ": needs a CUDA device, and there is none (" +
                       device_info().reason + ")");
    t.solver = *k.solver;
  }
  if (k.block) t.block = *k.block;
  if (k.integrator)
    blame("integrator", *k.integrator, [&] { t.integrator = parse_integrator(*k.integrator); });
  if (k.collisions)
    blame("collisions", *k.collisions,
          [&] { t.scene.collisions = parse_collision_mode(*k.collisions); });
  if (k.precision)
    blame("precision", *k.precision, [&] { t.precision = parse_precision(*k.precision); });
  if (k.dt) t.dt = as_finite(*k.dt, "dt"), t.adaptive = false;
  if (k.dt_auto) t.adaptive = true;
  for (const auto& [given, keyword] : {std::pair{k.dt_max, "dt_max"}, std::pair{k.eta, "eta"}})
    if (given && !k.dt_auto)
      throw InputError(std::string(keyword) + "=" + number(*given) +
                       ": sets the adaptive step, which needs dt='auto'");
  if (k.dt_max) t.dt = as_finite(*k.dt_max, "dt_max");
  if (k.eta) t.eta = as_float(*k.eta, "eta");
  for (const auto& [name, v] : k.params) t.params[name] = as_float(v, name.c_str());
  if (k.box) {
    t.scene.box = as_float(*k.box, "box");
    if (!(*t.scene.box > 0.0f))
      throw InputError("box=" + number(*k.box) + ": the side must be > 0 (None: no walls)");
  }
  if (k.gravity) t.scene.gravity = *k.gravity;
  return t;
}

}  // namespace

Chosen choose(const RunSettings& base, const std::optional<Preset>& preset, const Keywords& k,
              long long n) {
  RunSettings file = base;
  if (preset) {  // a preset's gravity and collision stage under the file's other settings
    const PresetSettings ps = preset_settings(*preset);
    file.params.gravity = ps.gravity;
    file.params.collisions = ps.collisions;
  }
  // The one rule both programs resolve by: the keywords over the file's settings, and the file's
  // solver (with its block) only where it runs here.
  const ResolvedSettings r = resolve_settings(file, typed_settings(k), "file", [](const auto& s) {
    return !solver_info(s).gpu || device_present();
  });
  Chosen c;
  RunSettings& s = c.run;
  s = r.settings;
  if (s.solver.empty()) s.solver = default_solver_name();  // none asked for, or none that runs here
  // The viewer's rule without a GPU: the tree where it is the faster (a 65,536-body Plummer
  // sphere's integrate(2.0) took 205 s on cpu-omp, 3.9 times cpu-bh's).
  if (r.settings.solver.empty() && s.solver == "cpu-omp" && n >= k_cpu_tree_from &&
      s.params.gravity && (s.params.precision == Precision::single || solver_info("cpu-bh").doubles))
    for (const auto& info : available_solvers())
      if (info.name == "cpu-bh") s.solver = info.name;
  const SolverInfo& used = solver_info(s.solver);
  if (s.block != 0 && !used.gpu)
    throw InputError("block=" + std::to_string(s.block) + ": " + s.solver +
                     " is a CPU solver and takes no block size");
  if (s.block != 0) {
    bool ok = false;
    for (int b : used.block_sizes) ok |= b == s.block;
    if (!ok) {
      std::string list;
      for (int b : used.block_sizes) list += (list.empty() ? "" : ", ") + std::to_string(b);
      throw InputError("block=" + std::to_string(s.block) + ": " + s.solver + " supports " + list);
    }
  }
  blame("gpus", std::to_string(k.gpus.value_or(0)),
        [&] { c.gpus = resolve_gpus(used, k.gpus.value_or(0)); });
  check_settings(s);
  return c;
}

void check_settings(const RunSettings& s) {
  const SimParams& p = s.params;
  for (const ParamRow& row : param_rows()) {
    // The step's rows by their keywords: dt is dt_max with the adaptive step.
    const bool is_dt = row.field(const_cast<SimParams&>(p)).refers_to(&p.dt);
    const char* keyword = is_dt && p.adaptive ? "dt_max" : row.name;
    blame(keyword, number(row.get(p)), [&] { check_param(row, row.get(p)); });
  }
  blame("box", number(p.collisions.box), [&] { validate(p.collisions); });
  if (p.precision == Precision::double_)  // an empty solver is the default, which has it
    blame("precision", "double",
          [&] { check_precision(s.solver, s.solver.empty() || solver_info(s.solver).doubles, p); });
  blame("integrator", to_string(s.integrator), [&] {
    try {
      check_integrator(s.integrator, p);
    } catch (const std::invalid_argument& e) {
      throw InputError("with damping=" + number(p.damping) + ": " + e.what());
    }
  });
}

}  // namespace orrery::python
