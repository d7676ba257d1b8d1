// Validation of simulation parameters and the Solver defaults.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

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
  if (!std::isfinite(p.eta) || p.eta <= 0.0f || p.eta > k_max_eta)
    fail("eta", p.eta,
         "must be in (0, 1] (the step is eta times the time a body's acceleration takes to "
         "change by its own size; 0.02 is usual)");
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

void parse_step_options(const std::optional<std::string>& dt,
                        const std::optional<std::string>& dt_max,
                        const std::optional<std::string>& eta, SimParams& p) {
  const bool automatic = dt && *dt == "auto";
  if (dt && !automatic) {
    try {
      parse_param(*dt, "--dt", &SimParams::dt, p);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " (or auto: the adaptive step)");
    }
    p.adaptive = false;
  }
  for (const auto& [text, option] : {std::pair{&dt_max, "--dt-max"}, std::pair{&eta, "--eta"}})
    if (*text && !automatic)
      throw InputError(std::string(option) + " '" + **text +
                       "': sets the adaptive step, which needs --dt auto");
  if (!automatic) return;
  p.adaptive = true;
  if (dt_max) parse_param(*dt_max, "--dt-max", &SimParams::dt, p);
  if (eta) parse_param(*eta, "--eta", &SimParams::eta, p);
}

}  // namespace orrery
