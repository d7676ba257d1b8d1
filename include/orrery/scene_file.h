// Scene files (assets/scenes/*.json): initial conditions (a preset with its parameters, or a
// snapshot file) and the settings of a run, read and written with nlohmann/json. Unknown keys,
// wrong types and out-of-range values are refused in one line naming the file and the key.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "orrery/camera_motion.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "orrery/presets.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

namespace orrery {

struct SceneFile {
  std::string name;         // shown in the panel
  std::string description;  // one or two sentences
  // Initial conditions: a preset (with n, seed, scale, velocity_scale, radius), or a snapshot
  // (its path relative to the scene file's folder, or absolute).
  Preset preset = Preset::collision;
  int n = 0;  // 0: the program's default
  std::uint64_t seed = 1;
  float scale = 1.0f;           // positions and radii times this
  float velocity_scale = 1.0f;  // velocities times this
  std::optional<float> radius;  // every body's radius
  std::string snapshot;         // non-empty: the bodies come from this file instead
  // Settings.
  std::string solver;  // empty: the program's default
  int block = 0;       // 0: the solver's default
  Integrator integrator = Integrator::euler;
  SimParams params;  // the run's parameters (their rows' keys)
  int steps_per_frame = 1;
  // The units of its bodies (--units' grammar): a preset's (henon rescales it, after `scale`), or
  // a snapshot's that brings none. Empty: N-body units, or the file's own.
  std::string units;
  // How the viewer draws it (empty: its defaults, or what the command line typed): the colour
  // quantity, palette and scale, and the HUD (full, minimal or none).
  std::string color, palette, color_scale, hud;
  // The picture: the bodies or their density map ("bodies", "density"; empty: not given), a fixed
  // colour range (none: fitted), and trails of this many positions (-1: not given; 0: off).
  std::string mode;
  std::optional<std::pair<float, float>> color_range;
  int trails = -1;
  // Where the camera starts (the view rows' keys), for the rows the scene gives; how it frames
  // the bodies and what it follows (their words, as --frame and --follow; empty: not given),
  // whether it keeps them framed, and the path it flies (empty: none).
  ViewParams view;
  std::set<std::string> view_given;
  std::string frame, follow;
  bool keep_frame = false;
  CameraPath camera_path;
};

// Parses a scene's JSON text. Throws SnapshotError "<name>: <key>: <what>" (an InputError).
SceneFile parse_scene(const std::string& text, const std::string& name);
// Reads the file and parses it; a relative snapshot path becomes relative to the file's folder.
SceneFile load_scene(const std::string& path);
// The JSON text of a scene (every key, so a saved scene documents itself).
std::string scene_json(const SceneFile& s);
// scene_json() through a temporary file renamed over `path`.
void save_scene(const std::string& path, const SceneFile& s);
// The bodies a scene starts from: n bodies of its preset (the caller picks n: the scene's `n`, or
// an override), scaled, the radius applied; or its snapshot's (n unused). Throws SnapshotError
// for a bad snapshot, std::invalid_argument for n < 1.
BodyState scene_bodies(const SceneFile& s, int n);
// The same as a snapshot, so a scene's file keeps its particle types, read as `o` says.
Snapshot scene_snapshot(const SceneFile& s, int n, const LoadOptions& o);

// The *.json files of the folders where scenes are looked for, sorted by name: ORRERY_SCENE_DIR,
// then `scenes` next to the executable and ../share/orrery/scenes (installed).
std::vector<std::string> find_scenes();

}  // namespace orrery
