// Validation of simulation parameters and the Solver defaults.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "orrery/input.h"
#include "orrery/solver.h"

namespace orrery {

void validate(const SimParams& p) {
  auto fail = [](const char* what, float v, const char* rule) {
    std::ostringstream s;
    s << "invalid " << what << " " << v << ": " << rule;
    throw InputError(s.str());
  };
  if (!std::isfinite(p.dt) || p.dt <= 0.0f) fail("time step", p.dt, "must be a finite number > 0");
  if (!std::isfinite(p.softening) || p.softening < k_min_softening)
    fail("softening", p.softening,
         "must be a finite number >= 1e-10 (below it a body's own term, m eps^-3 x 0, is no "
         "longer finite in float)");
  if (!std::isfinite(p.damping) || p.damping < 0.0f || p.damping > 1.0f)
    fail("damping", p.damping, "must be in [0, 1]");
  if (!std::isfinite(p.theta) || p.theta < 0.0f || p.theta > k_max_theta)
    fail("opening angle theta", p.theta,
         "must be in [0, 2] (0 opens every cell: the exact sum; 0.5 is usual)");
  validate(p.collisions);
}

const char* to_string(Precision p) { return p == Precision::double_ ? "double" : "single"; }

Precision parse_precision(std::string_view text) {
  if (text == "single") return Precision::single;
  if (text == "double") return Precision::double_;
  throw InputError("unknown precision '" + std::string(text) + "' (choose single or double)");
}

void parse_param(std::string_view text, std::string_view option, float SimParams::*field,
                 SimParams& p) {
  SimParams one;  // the defaults pass, so only this field can fail
  one.*field = parse_float(text, option);
  try {
    validate(one);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string(option) + " '" + std::string(text) + "': " + e.what());
  }
  p.*field = one.*field;
}

}  // namespace orrery
