// The view's options: the camera's beyond the view's rows - how it frames the bodies (--frame,
// --keep-frame), what it follows (--follow) and the path it flies (--camera-path; a scene's,
// under those typed) - and the picture's look (--hud, --palette, --color-scale).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli.h"

namespace orrery::app {

struct CameraTexts {
  std::optional<std::string> frame, follow, camera_path;
  bool keep_frame = false;
};

void add_camera_options(CLI::App& cli, CameraTexts& t);
void add_look_options(CLI::App& cli, Options& o);
// Parses what was typed into o (the path file is read here). Throws InputError.
void take_camera_options(const CameraTexts& t, Options& o);
// Refuses a combination that cannot work (keeping no frame). Throws InputError.
void check_camera(const Options& o);
// Which look options the command line typed (a scene's go under them).
struct LookTyped {
  bool color, palette, color_scale, hud, mode, color_range, trails;
};
// A scene's colour, palette, scale, HUD, picture, colour range and trails, where not typed.
void look_from_scene(const SceneFile& sc, const LookTyped& typed, Options& o);
// A scene's framing, follow, keep_frame and path, where the command line typed none.
void camera_from_scene(const SceneFile& sc, Options& o);

}  // namespace orrery::app
