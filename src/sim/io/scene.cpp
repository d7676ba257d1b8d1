// A scene's settings: the preset's gravity and collision stage, with the command line's options
// over them.
#include "orrery/scene.h"

namespace orrery {

SceneOverrides parse_scene_options(const SceneTexts& t) {
  SceneOverrides o;
  if (t.collisions) o.collisions = parse_collisions_option(*t.collisions);
  if (t.restitution) o.restitution = parse_restitution_option(*t.restitution);
  if (t.box) o.box = parse_box_option(*t.box);
  if (t.gravity) o.gravity = parse_gravity_option(*t.gravity);
  if (t.radius) o.radius = parse_radius_option(*t.radius);
  return o;
}

void apply_scene(Preset preset, const SceneOverrides& o, SimParams& p) {
  const PresetSettings s = preset_settings(preset);
  p.gravity = s.gravity;
  p.collisions = s.collisions;
  apply_overrides(o, p);
}

void apply_overrides(const SceneOverrides& o, SimParams& p) {
  p.gravity = o.gravity.value_or(p.gravity);
  p.collisions.mode = o.collisions.value_or(p.collisions.mode);
  p.collisions.restitution = o.restitution.value_or(p.collisions.restitution);
  p.collisions.box = o.box.value_or(p.collisions.box);
}

}  // namespace orrery
