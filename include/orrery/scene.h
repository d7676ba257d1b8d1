// A scene's settings beside its bodies: gravity, the collision stage, the walls and the bodies'
// radius. Each preset comes with its own (presets.h); the command line of both programs may set
// any of them over the preset's.
#pragma once

#include <optional>
#include <string>

#include "orrery/collisions.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {

// The options as typed; none: not given.
struct SceneTexts {
  std::optional<std::string> collisions, restitution, box, gravity, radius;
};

// The checked options; none: the preset's.
struct SceneOverrides {
  std::optional<CollisionMode> collisions;
  std::optional<float> restitution, box, radius;
  std::optional<bool> gravity;
};

// Registers --collisions, --restitution, --radius, --box and --gravity, as text, on a CLI11 app
// (both programs take them alike).
template <class CliApp>
void add_scene_options(CliApp& app, SceneTexts& t) {
  app.add_option("--collisions", t.collisions,
                 "collision stage: off, bounce or merge (default: the preset's; box: bounce, "
                 "accretion: merge, the others off)");
  app.add_option("--restitution", t.restitution,
                 "bounce restitution e in [0, 1], for walls too (default 1: elastic)");
  app.add_option("--radius", t.radius, "every body's radius, >= 0 (default: the preset's radii)");
  app.add_option("--box", t.box,
                 "side of a cube of reflecting walls centred at the origin, > 0 (default: the "
                 "preset's; box: 20, the others none)");
  app.add_option("--gravity", t.gravity, "on or off (default: the preset's; box: off)");
}

// Checks each option (InputError naming it and its text: "--restitution '1.5': out of range").
SceneOverrides parse_scene_options(const SceneTexts& t);
// The preset's settings with the overrides over them, into p (dt, softening, damping and theta
// are left as they are).
void apply_scene(Preset preset, const SceneOverrides& o, SimParams& p);
// The overrides alone over p's settings (a loaded snapshot's).
void apply_overrides(const SceneOverrides& o, SimParams& p);

}  // namespace orrery
