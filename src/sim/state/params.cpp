// Validation of simulation parameters and the Solver defaults.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "orrery/input.h"
#include "orrery/param_table.h"
#include "orrery/solver.h"

namespace orrery {

void validate(const SimParams& p) {
  for (const ParamRow& r : param_rows()) check_param(r, r.get(p));
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
  for (const ParamRow& r : param_rows())
    if (&r.field(p) == &(p.*field)) {
      p.*field = parse_param_text(r, text, option);
      return;
    }
  throw std::logic_error("parse_param: a field with no parameter row");
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
