// A run's parameters: the time step, softening, damping, the tree codes' opening angle, gravity on
// or off, and the collision stage's settings; their bounds and their checks (the numeric ones are
// rows of orrery/param_table.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace orrery {

// The collision stage's settings (the stage itself: orrery/collisions.h).
enum class CollisionMode { off, bounce, merge };

const std::vector<std::string>& collision_mode_names();  // "off", "bounce", "merge"
// Throws InputError naming the valid modes.
CollisionMode parse_collision_mode(std::string_view name);
const char* to_string(CollisionMode m);

struct CollisionParams {
  CollisionMode mode = CollisionMode::off;
  float restitution = 1.0f;  // e in [0, 1]: normal relative speed after = e x before (walls too)
  float box = 0.0f;          // side of the reflecting cube centred at the origin; 0: no walls
};
inline bool operator==(const CollisionParams& a, const CollisionParams& b) {
  return a.mode == b.mode && a.restitution == b.restitution && a.box == b.box;
}
inline bool operator!=(const CollisionParams& a, const CollisionParams& b) { return !(a == b); }
// Throws InputError with one line: restitution in [0, 1] and finite, box finite and >= 0.
void validate(const CollisionParams& c);
// "--collisions", "--restitution", "--box", "--gravity" and "--radius" as both programs read them
// (parse_float's rules, then the ranges above; radius finite and >= 0; gravity on or off).
// Each throws InputError naming the option and the text.
CollisionMode parse_collisions_option(std::string_view text);
float parse_restitution_option(std::string_view text);
float parse_box_option(std::string_view text);
float parse_radius_option(std::string_view text);
bool parse_gravity_option(std::string_view text);

// The smallest softening accepted. Every solver adds each body's own term with r = 0, where the
// result is 0 only while m eps^-3 is finite in float: at eps = 1e-10, eps^2 = 1e-20 is a normal
// float and eps^-3 = 1e30, so the self term stays finite for any mass below 3.4e8 (float's max is
// 3.4e38). Smaller eps turns the self term into 0 x inf = NaN (eps = 1e-13 did).
constexpr float k_min_softening = 1e-10f;

// The largest Barnes-Hut opening angle accepted: beyond it the tree's error grows past any use.
constexpr float k_max_theta = 2.0f;

// The arithmetic of a run's state and sums. double: positions, velocities, masses and the
// gravity sums in double, for the modules that have a double path (Solver::has_double()); the
// viewer still draws float positions converted from them.
enum class Precision { single, double_ };
const char* to_string(Precision p);
// "single" or "double"; throws InputError naming both.
Precision parse_precision(std::string_view text);

// The adaptive step (--dt auto): each step's size comes from the state (orrery/simulation.h,
// docs/physics.md): dt = eta x the shortest time in which a body's acceleration changes by its own
// size (plus the mean), at most twice the last step and at most SimParams::dt; never below
// k_min_dt_fraction of SimParams::dt, so a close pass cannot stall the run.
constexpr float k_max_eta = 1.0f;
constexpr double k_min_dt_fraction = 1e-6;

struct SimParams {
  // The time step (with `adaptive`, the largest step), in double: a double run steps by it as
  // given; a single run by its float rounding. The default is 0.016's float, as it always was, so
  // a default run's files stay readable by older builds (a dt that is not a float needs version 4).
  double dt = 0.016f;
  bool adaptive = false;       // the step follows the dynamics (--dt auto)
  float eta = 0.02f;           // the adaptive step's accuracy parameter, in (0, k_max_eta]
  float softening = 0.1f;      // eps; the interaction uses eps^2
  float damping = 1.0f;        // velocity damping per step, in [0, 1]
  float theta = 0.5f;          // tree codes' opening angle, in [0, 2] (0: every cell opened, exact)
  bool gravity = true;         // off: no forces (a gas of balls with collisions alone)
  CollisionParams collisions;  // the collision stage and the walls
  Precision precision = Precision::single;
};

inline bool operator==(const SimParams& a, const SimParams& b) {
  return a.dt == b.dt && a.adaptive == b.adaptive && a.eta == b.eta && a.softening == b.softening &&
         a.damping == b.damping && a.theta == b.theta && a.gravity == b.gravity &&
         a.collisions == b.collisions && a.precision == b.precision;
}
inline bool operator!=(const SimParams& a, const SimParams& b) { return !(a == b); }

// Throws InputError (an std::invalid_argument) with a one-line message naming the bad value:
// dt finite and > 0, eta in (0, k_max_eta], softening finite and >= k_min_softening, damping in [0,
// 1], theta in [0, k_max_theta]; the collision parameters by their validate().
void validate(const SimParams& p);
// Parses one parameter option's text (parse_number's rules) into `p`'s field of the named row and
// checks it by the row's rule; the InputError names the option ("--softening '1e-20': ...").
void parse_param(std::string_view text, std::string_view option, std::string_view row,
                 SimParams& p);
// The step's options as typed (none: not typed), over p: --dt a step ("0.01": fixed) or "auto"
// (the adaptive step); --dt-max, its largest step (SimParams::dt), and --eta, its accuracy. The
// last two need --dt auto on the same line. Throws InputError naming the option.
void parse_step_options(const std::optional<std::string>& dt,
                        const std::optional<std::string>& dt_max,
                        const std::optional<std::string>& eta, SimParams& p);

}  // namespace orrery
