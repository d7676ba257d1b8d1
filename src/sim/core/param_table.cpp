// The rows of the run's numeric parameters, and the checks, texts and help built from them.
#include "orrery/param_table.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "orrery/input.h"
#include "orrery/registry.h"

namespace orrery {
namespace {

constexpr float k_no_top = std::numeric_limits<float>::max();

std::vector<ParamRow> make_rows() {
  using O = ParamOwner;
  using F = ParamForm;
  return {
      {"dt", "time step", O::integrator, F::step, "time",
       "time step (with the adaptive step: its largest)", "", 0.0f, k_no_top, true,
       "must be a finite number > 0", [](SimParams& p) { return ParamRef(p.dt); }, false, 0.0005f,
       0.05f, true, "%.4g", "", nullptr},
      {"eta", "eta", O::integrator, F::step, "",
       "the adaptive step's accuracy: smaller, smaller steps",
       "Each step is eta times the shortest time in which a body's acceleration changes by its "
       "own size (plus the mean).",
       0.0f, k_max_eta, true,
       "must be in (0, 1] (the step is eta times the time a body's acceleration takes to change "
       "by its own size; 0.02 is usual)",
       [](SimParams& p) { return ParamRef(p.eta); }, false, 0.001f, 0.2f, true, "%.3g", "",
       nullptr},
      {"softening", "softening", O::core, F::plain, "length", "softening length eps", "",
       k_min_softening, k_no_top, false,
       "must be a finite number >= 1e-10 (below it a body's own term, m eps^-3 x 0, is no "
       "longer finite in float)",
       [](SimParams& p) { return ParamRef(p.softening); }, false, 0.01f, 2.0f, true, "%.4g", "",
       nullptr},
      {"damping", "damping", O::integrator, F::plain, "", "velocity damping per step (euler only)",
       "", 0.0f, 1.0f, false, "must be in [0, 1]", [](SimParams& p) { return ParamRef(p.damping); },
       false, 0.9f, 1.0f, false, "%.4f",
       "only euler takes damping: leapfrog and yoshida4 are symplectic and time-reversible only "
       "without it",
       nullptr},
      {"theta", "opening angle theta", O::solver, F::plain, "",
       "opening angle of the tree codes (cpu-bh, cuda-bh; 0 opens every cell: the exact sum)",
       "A cell is used whole when the body is farther than l/theta + s from its centre of mass. "
       "Smaller is more accurate and slower (0 opens every cell: Ctrl+click to type it).",
       0.0f, k_max_theta, false,
       "must be in [0, 2] (0 opens every cell: the exact sum; 0.5 is usual)",
       [](SimParams& p) { return ParamRef(p.theta); }, true, 0.1f, 1.5f, false, "%.2f",
       "Only the tree codes (cpu-bh, cuda-bh) have an opening angle.", nullptr},
      {"restitution", "restitution", O::collider, F::scene, "",
       "bounce restitution e, for walls too (1: elastic)", "", 0.0f, 1.0f, false,
       "must be in [0, 1]", [](SimParams& p) { return ParamRef(p.collisions.restitution); }, false,
       0.0f, 1.0f, false, "%.2f", "", nullptr},
  };
}

// A coordinate of the point the camera looks at.
ParamRow centre_row(const char* name, const char* axis, float& (*field)(ViewParams&)) {
  static std::string labels[3], helps[3];
  const int k = axis[0] - 'x';
  labels[k] = std::string("camera ") + axis;
  helps[k] = std::string("the ") + axis +
             " of the point the camera looks at (default: the bodies' framed centre, or the "
             "origin)";
  return {name,
          labels[k].c_str(),
          ParamOwner::view,
          ParamForm::view,
          "length",
          helps[k].c_str(),
          "",
          -k_no_top,
          k_no_top,
          false,
          "must be a finite number",
          nullptr,
          false,
          -100.0f,
          100.0f,
          false,
          "%.3g",
          "",
          field};
}

// The camera's rows: where the viewer looks from, and its turning.
std::vector<ParamRow> make_view_rows() {
  using O = ParamOwner;
  using F = ParamForm;
  return {
      {"camera_distance", "camera distance", O::view, F::view, "length",
       "the camera's distance from the point it looks at (the origin, or a loaded file's centre)",
       "", 0.0f, k_no_top, true, "must be a finite number > 0", nullptr, false, 0.5f, 5000.0f, true,
       "%.3g", "", [](ViewParams& v) -> float& { return v.camera_distance; }},
      {"camera_azimuth", "camera azimuth", O::view, F::view, "degrees",
       "the camera's angle about the y axis (0: looking down -z)", "", -360.0f, 360.0f, false,
       "must be in [-360, 360] degrees", nullptr, false, -180.0f, 180.0f, false, "%.0f", "",
       [](ViewParams& v) -> float& { return v.camera_azimuth; }},
      {"camera_elevation", "camera elevation", O::view, F::view, "degrees",
       "the camera's angle above the x-z plane", "", -88.0f, 88.0f, false,
       "must be in [-88, 88] degrees (the camera stops short of the poles)", nullptr, false, -88.0f,
       88.0f, false, "%.0f", "", [](ViewParams& v) -> float& { return v.camera_elevation; }},
      {"camera_roll", "camera roll", O::view, F::view, "degrees",
       "the camera's turn about its line of sight (counter-clockwise)", "", -180.0f, 180.0f, false,
       "must be in [-180, 180] degrees", nullptr, false, -180.0f, 180.0f, false, "%.0f", "",
       [](ViewParams& v) -> float& { return v.camera_roll; }},
      {"fov", "field of view", O::view, F::view, "degrees", "the camera's vertical field of view",
       "", 5.0f, 120.0f, false, "must be in [5, 120] degrees", nullptr, false, 10.0f, 90.0f, false,
       "%.0f", "", [](ViewParams& v) -> float& { return v.fov; }},
      centre_row("camera_x", "x", [](ViewParams& v) -> float& { return v.camera_x; }),
      centre_row("camera_y", "y", [](ViewParams& v) -> float& { return v.camera_y; }),
      centre_row("camera_z", "z", [](ViewParams& v) -> float& { return v.camera_z; }),
      {"orbit", "orbit", O::view, F::view, "degrees/s",
       "the camera turns about the point it looks at by this many degrees of azimuth a second "
       "(of a recording's frames, else of the clock; 0: still)",
       "", -3600.0f, 3600.0f, false, "must be in [-3600, 3600] degrees a second", nullptr, false,
       -90.0f, 90.0f, false, "%.0f", "", [](ViewParams& v) -> float& { return v.orbit; }},
  };
}

}  // namespace

std::string ParamRow::option() const {
  std::string s = std::string("--") + name;
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

const std::vector<ParamRow>& view_rows() {
  static const std::vector<ParamRow> rows = make_view_rows();
  return rows;
}

void validate(const ViewParams& v) {
  for (const ParamRow& r : view_rows()) check_param(r, r.get(v));
}

const char* to_string(ParamOwner o) {
  static constexpr const char* k_names[] = {"core", "integrator", "solver", "collider", "view"};
  const auto i = static_cast<std::size_t>(o);
  return i < sizeof k_names / sizeof k_names[0] ? k_names[i] : "?";
}

const std::vector<ParamRow>& param_rows() {
  static const std::vector<ParamRow> rows = make_rows();
  return rows;
}

std::vector<const ParamRow*> param_rows(ParamForm form) {
  std::vector<const ParamRow*> out;
  for (const ParamRow& r : param_rows())
    if (r.form == form) out.push_back(&r);
  return out;
}

const ParamRow* find_param(std::string_view name) {
  if (const ParamRow* r = row_named(param_rows(), name)) return r;
  return row_named(view_rows(), name);
}

const ParamRow& param_row(std::string_view name) {
  if (const ParamRow* r = find_param(name)) return *r;
  throw std::logic_error("no parameter row '" + std::string(name) + "'");
}

bool ParamRow::is_double() const {
  SimParams p;
  return field && field(p).d != nullptr;
}

void check_param(const ParamRow& r, double v) {
  const bool low = r.lo_open ? !(v > r.lo) : !(v >= r.lo);
  if (std::isfinite(v) && !low && v <= r.hi) return;
  std::ostringstream s;
  s << "invalid " << r.label << " " << v << ": " << r.rule;
  throw InputError(s.str());
}

double parse_param_text(const ParamRow& r, std::string_view text, std::string_view what) {
  double v = parse_number(text, what);
  if (!r.is_double()) v = static_cast<float>(v);
  try {
    check_param(r, v);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string(what) + " '" + std::string(text) + "': " + e.what());
  }
  return v;
}

std::string param_value_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string param_help(const ParamRow& r) {
  std::string bounds;
  const std::string lo = param_value_text(r.lo), hi = param_value_text(r.hi);
  if (r.hi == k_no_top)
    bounds = std::string(r.lo_open ? "> " : ">= ") + lo;
  else
    bounds = std::string("in ") + (r.lo_open ? "(" : "[") + lo + ", " + hi + "]";
  return std::string(r.help) + ", " + bounds + " (default " + param_value_text(r.default_value()) +
         ")";
}

const ParamRow& sweep_row() {
  const ParamRow* found = nullptr;
  for (const ParamRow& r : param_rows())
    if (r.sweep) {
      if (found) throw std::logic_error("more than one sweep row");
      found = &r;
    }
  if (!found) throw std::logic_error("no sweep row");
  return *found;
}

std::string plain_params_text(const SimParams& p, bool sweeps) {
  std::string s;
  for (const ParamRow* r : param_rows(ParamForm::plain))
    if (sweeps || !r->sweep)
      s += (s.empty() ? "" : ", ") + std::string(r->name) + " " + param_value_text(r->get(p));
  return s;
}

void apply_params(const ParamValues& v, SimParams& p) {
  for (const auto& [name, value] : v) param_row(name);  // a name no row has is a caller's mistake
  for (const ParamRow& r : param_rows()) {
    const auto it = v.find(r.name);
    if (it != v.end()) r.set(p, it->second);
  }
}

}  // namespace orrery
