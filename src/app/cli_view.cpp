// The view's options: the camera's (CLI11 declarations, their words parsed by the core's rules)
// and the picture's look.
#include "cli_view.h"

#include "cli/run_options.h"
#include "gfx/colormap.h"
#include "orrery/camera_motion.h"

namespace orrery::app {

void add_camera_options(CLI::App& cli, CameraTexts& t) {
  cli.add_option("--frame", t.frame,
                 "how the camera frames the bodies at start (presets and files) and on K: all "
                 "(every body), mass:F (the sphere about the centre of mass holding the fraction "
                 "F of the mass), bodies:F (F of the bodies; default bodies:0.95, so a few strays "
                 "do not shrink the picture) or none (the view's rows alone)")
      ->check(orrery::cli::non_empty());
  cli.add_flag("--keep-frame", t.keep_frame,
               "keep the bodies framed as the run evolves (the camera eases to --frame's sphere; "
               "Shift+K toggles)");
  cli.add_option("--follow", t.follow,
                 "what the camera keeps in the middle: com (the centre of mass), body:I (the body "
                 "at index I) or none (default); F and G in the viewer")
      ->check(orrery::cli::non_empty());
  cli.add_option(
         "--camera-path", t.camera_path,
         "fly the camera along keyframes from this JSON file ({\"easing\": smooth|linear|"
         "ease, \"loop\": false, \"keys\": [{\"t\": 0, \"camera_distance\": 80}, {\"t\": 6, "
         "\"camera_azimuth\": 90}, ...]}, times in seconds; docs/usage.md); headless and "
         "recording, a frame is 1/--record-fps seconds of it")
      ->check(orrery::cli::non_empty());
  orrery::cli::name_value_types(
      cli, {{"--frame", "WORD"}, {"--follow", "WORD"}, {"--camera-path", "FILE"}});
}

void add_look_options(CLI::App& cli, Options& o) {
  cli.add_option("--hud", o.hud,
                 "what is drawn over the bodies: full (the panel and readouts; default), minimal "
                 "(a clean picture: the simulation time, a scale bar and the colour bar, in "
                 "physical units where the state has them) or none (the bodies alone); H brings "
                 "the panel back")
      ->check(CLI::IsMember({"full", "minimal", "none"}));
  cli.add_option("--palette", o.palette,
                 "classic (the viewer's own), viridis, magma, inferno, plasma, cividis "
                 "(perceptually uniform), coolwarm (diverging) or twilight (cyclic): 256-entry "
                 "tables made from matplotlib's (default: the quantity's, as --color lists)")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(gfx::k_palette_names),
                                                     std::end(gfx::k_palette_names))));
  cli.add_option("--color-scale", o.color_scale,
                 "linear or log (default: the quantity's, as --color lists)")
      ->check(CLI::IsMember(std::vector<std::string>{"linear", "log"}));
  cli.add_option("--mode", o.mode,
                 "the picture: bodies (sprites, coloured by --color; default) or density (their "
                 "smoothed surface density, the mass of each spread by a kernel as wide as the "
                 "distance to its 32nd neighbour, in log scale through --palette, magma by "
                 "default; M switches)")
      ->check(CLI::IsMember({"bodies", "density"}));
  cli.add_option("--bloom", o.bloom,
                 "on (default) or off: a glow around the densest parts of the bodies' picture "
                 "(the light above the tone map's knee, blurred and added back; the panel's View "
                 "section switches it)")
      ->check(CLI::IsMember({"on", "off"}));
  orrery::cli::name_value_types(cli, {{"--hud", "WORD"},
                                      {"--palette", "NAME"},
                                      {"--color-scale", "NAME"},
                                      {"--mode", "WORD"},
                                      {"--bloom", "WORD"}});
}

void take_camera_options(const CameraTexts& t, Options& o) {
  if (t.frame) {
    o.frame = parse_framing(*t.frame, "--frame");
    o.camera_given.insert("frame");
  }
  if (t.follow) {
    o.follow = parse_follow(*t.follow, "--follow");
    o.camera_given.insert("follow");
  }
  if (t.keep_frame) {
    o.keep_frame = true;
    o.camera_given.insert("keep_frame");
  }
  if (t.camera_path) {
    o.camera_path = load_camera_path(*t.camera_path);
    o.camera_given.insert("camera_path");
  }
}

void check_camera(const Options& o) {
  if (o.keep_frame && o.frame.kind == Framing::Kind::none)
    throw InputError("--keep-frame with --frame none: there is no frame to keep");
}

void look_from_scene(const SceneFile& sc, const LookTyped& typed, Options& o) {
  if (!sc.color.empty() && !typed.color) o.color = sc.color;
  if (!sc.palette.empty() && !typed.palette) o.palette = sc.palette;
  if (!sc.color_scale.empty() && !typed.color_scale) o.color_scale = sc.color_scale;
  if (!sc.hud.empty() && !typed.hud) o.hud = sc.hud;
  if (!sc.mode.empty() && !typed.mode) o.mode = sc.mode;
  if (sc.color_range && !typed.color_range) o.color_range = sc.color_range;
  if (o.color_range && o.color_scale == "log" && !(o.color_range->first > 0.0f))
    throw InputError("the scene's color_range with a log scale: lo must be above 0");
  if (sc.trails >= 0 && !typed.trails) o.trails = sc.trails;
}

void camera_from_scene(const SceneFile& sc, Options& o) {
  const auto untyped = [&](const char* key) { return !o.camera_given.count(key); };
  if (!sc.frame.empty() && untyped("frame")) o.frame = parse_framing(sc.frame, "frame");
  if (!sc.follow.empty() && untyped("follow")) o.follow = parse_follow(sc.follow, "follow");
  if (sc.keep_frame && untyped("keep_frame")) o.keep_frame = true;
  if (!sc.camera_path.empty() && untyped("camera_path")) o.camera_path = sc.camera_path;
}

}  // namespace orrery::app
