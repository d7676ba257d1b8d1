// A scene's settings beside its bodies: gravity, the collision stage, the walls and the bodies'
// radius. Each preset comes with its own (presets.h); the command line of both programs may set
// any of them over the preset's.
#pragma once

#include <optional>
#include <string>

#include "orrery/params.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {

// The options as typed (--collisions, --restitution, --box, --gravity, --radius); none: not
// given. Both programs register them through src/cli/run_options.h.
struct SceneTexts {
  std::optional<std::string> collisions, restitution, box, gravity, radius;
};

// The checked options; none: the preset's.
struct SceneOverrides {
  std::optional<CollisionMode> collisions;
  std::optional<float> restitution, box, radius;
  std::optional<bool> gravity;
};

// Checks each option (InputError naming it and its text: "--restitution '1.5': out of range").
SceneOverrides parse_scene_options(const SceneTexts& t);
// The preset's settings with the overrides over them, into p (dt, softening, damping and theta
// are left as they are).
void apply_scene(Preset preset, const SceneOverrides& o, SimParams& p);
// The overrides alone over p's settings (a loaded snapshot's).
void apply_overrides(const SceneOverrides& o, SimParams& p);

}  // namespace orrery
