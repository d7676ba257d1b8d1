// Validation of simulation parameters, the collision settings' names and options.
#include "orrery/params.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "orrery/input.h"
#include "orrery/param_table.h"

namespace orrery {

void validate(const SimParams& p) {
  for (const ParamRow& r : param_rows()) check_param(r, r.get(p));
  validate(p.collisions);
}

const std::vector<std::string>& collision_mode_names() {
  static const std::vector<std::string> names = {"off", "bounce", "merge"};
  return names;
}

CollisionMode parse_collision_mode(std::string_view name) {
  const auto& n = collision_mode_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<CollisionMode>(i);
  throw InputError("unknown collision mode '" + std::string(name) +
                   "' (choose off, bounce or merge)");
}

const char* to_string(CollisionMode m) {
  return collision_mode_names()[static_cast<std::size_t>(m)].c_str();
}

void validate(const CollisionParams& c) {
  auto fail = [](const char* what, float v, const char* rule) {
    std::ostringstream s;
    s << "invalid " << what << " " << v << ": " << rule;
    throw InputError(s.str());
  };
  if (!std::isfinite(c.restitution) || c.restitution < 0.0f || c.restitution > 1.0f)
    fail("restitution", c.restitution, "must be in [0, 1]");
  if (!std::isfinite(c.box) || c.box < 0.0f)
    fail("box side", c.box, "must be a finite number > 0 (or 0: no walls)");
}

CollisionMode parse_collisions_option(std::string_view text) {
  try {
    return parse_collision_mode(text);
  } catch (const InputError& e) {
    throw InputError(std::string("--collisions: ") + e.what());
  }
}

float parse_restitution_option(std::string_view text) {
  return parse_float_in(text, "--restitution", 0.0f, 1.0f);
}

float parse_box_option(std::string_view text) {
  const float v = parse_float(text, "--box");
  if (!(v > 0.0f)) throw InputError("--box '" + std::string(text) + "': the side must be > 0");
  return v;
}

float parse_radius_option(std::string_view text) {
  const float v = parse_float(text, "--radius");
  if (v < 0.0f) throw InputError("--radius '" + std::string(text) + "': must be >= 0");
  return v;
}

bool parse_gravity_option(std::string_view text) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw InputError("--gravity '" + std::string(text) + "': choose on or off");
}

const char* to_string(Precision p) { return p == Precision::double_ ? "double" : "single"; }

Precision parse_precision(std::string_view text) {
  if (text == "single") return Precision::single;
  if (text == "double") return Precision::double_;
  throw InputError("unknown precision '" + std::string(text) + "' (choose single or double)");
}

void parse_param(std::string_view text, std::string_view option, std::string_view row,
                 SimParams& p) {
  const ParamRow& r = param_row(row);
  r.set(p, parse_param_text(r, text, option));
}

void parse_step_options(const std::optional<std::string>& dt,
                        const std::optional<std::string>& dt_max,
                        const std::optional<std::string>& eta, SimParams& p) {
  const bool automatic = dt && *dt == "auto";
  if (dt && !automatic) {
    try {
      parse_param(*dt, "--dt", "dt", p);
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
  if (dt_max) parse_param(*dt_max, "--dt-max", "dt", p);
  if (eta) parse_param(*eta, "--eta", "eta", p);
}

}  // namespace orrery
