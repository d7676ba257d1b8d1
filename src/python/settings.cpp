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

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

float as_float(double v, const char* keyword) {
  if (!std::isfinite(v))
    throw InputError(std::string(keyword) + "=" + number(v) + ": must be a finite number");
  if (std::fabs(v) > std::numeric_limits<float>::max())
    throw InputError(std::string(keyword) + "=" + number(v) + ": beyond the range of a float");
  return static_cast<float>(v);
}

Chosen choose(const RunSettings& base, const std::optional<Preset>& preset, const Keywords& k) {
  Chosen c;
  RunSettings& s = c.run;
  s = base;
  if (preset) {
    const PresetSettings ps = preset_settings(*preset);
    s.params.gravity = ps.gravity;
    s.params.collisions = ps.collisions;
  }
  if (k.solver) {
    blame("solver", *k.solver, [&] { solver_info(*k.solver); });
    s.solver = *k.solver;
    s.block = 0;  // the new solver's default unless a block is given
  }
  if (s.solver.empty()) s.solver = default_solver_name();
  const SolverInfo& info = solver_info(s.solver);
  if (info.gpu && !device_present()) {
    // The file's solver gives way to the default here, as in both programs; one asked for fails.
    if (k.solver)
      throw InputError("solver=" + s.solver + ": needs a CUDA device, and there is none (" +
                       device_info().reason + ")");
    s.solver = default_solver_name();
    s.block = 0;
  }
  if (k.block) s.block = *k.block;
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
  if (k.integrator)
    blame("integrator", *k.integrator, [&] { s.integrator = parse_integrator(*k.integrator); });
  if (k.collisions)
    blame("collisions", *k.collisions,
          [&] { s.params.collisions.mode = parse_collision_mode(*k.collisions); });
  SimParams& p = s.params;
  if (k.precision)
    blame("precision", *k.precision, [&] { p.precision = parse_precision(*k.precision); });
  if (k.dt) p.dt = as_float(*k.dt, "dt"), p.adaptive = false;
  if (k.dt_auto) p.adaptive = true;
  for (const auto& [given, keyword] : {std::pair{k.dt_max, "dt_max"}, std::pair{k.eta, "eta"}})
    if (given && !k.dt_auto)
      throw InputError(std::string(keyword) + "=" + number(*given) +
                       ": sets the adaptive step, which needs dt='auto'");
  if (k.dt_max) p.dt = as_float(*k.dt_max, "dt_max");
  if (k.eta) p.eta = as_float(*k.eta, "eta");
  for (const auto& [name, v] : k.params) {
    const ParamRow& row = param_row(name);
    row.set(p, as_float(v, row.name));
  }
  if (k.box) {
    p.collisions.box = as_float(*k.box, "box");
    if (!(p.collisions.box > 0.0f))
      throw InputError("box=" + number(*k.box) + ": the side must be > 0 (None: no walls)");
  }
  if (k.gravity) p.gravity = *k.gravity;
  check_settings(s);
  return c;
}

void check_settings(const RunSettings& s) {
  const SimParams& p = s.params;
  auto field = [&](const char* keyword, float v, float SimParams::*member) {
    SimParams one;  // the defaults pass, so only this field can fail
    one.*member = v;
    blame(keyword, number(v), [&] { validate(one); });
  };
  field(p.adaptive ? "dt_max" : "dt", p.dt, &SimParams::dt);
  field("eta", p.eta, &SimParams::eta);
  for (const ParamRow& row : param_rows())
    if (row.form != ParamForm::step)
      blame(row.name, number(row.get(p)), [&] { check_param(row, row.get(p)); });
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
