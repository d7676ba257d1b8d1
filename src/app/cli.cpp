// CLI11 set-up, the --help text with the key list, and value checks that reuse the core's.
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>

#include "cli/launched_rank.h"
#include "cli/run_options.h"
#include "cli_view.h"
#include "gfx/colormap.h"
#include "orrery/device.h"
#include "orrery/fields.h"
#include "orrery/formats.h"
#include "orrery/host_memory.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/presets.h"
#include "orrery/run_settings.h"
#include "orrery/simulation.h"
#include "orrery/version.h"
#include "recorder.h"
#include "ui/keys.h"

namespace orrery::app {
namespace {


std::string names_of_solvers() {
  std::string s;
  for (const auto& i : all_solvers()) s += (s.empty() ? "" : ", ") + i.name;
  return s;
}

// --color's help from the quantities' records: each with what it is and how it starts.
std::string color_help() {
  std::string s = "colour bodies by ";
  const auto& t = quantity_table();
  for (std::size_t i = 0; i < t.size(); ++i) {
    s += std::string(i == 0              ? ""
                     : i + 1 == t.size() ? " or "
                                         : ", ") +
         t[i].name + " (" + t[i].description;
    if (!t[i].label) s += std::string(", ") + t[i].palette + (t[i].log_scale ? " log" : " linear");
    s += ")";
  }
  return s + "; default " + t.front().name + "; C cycles";
}

// The numeric options as typed; none when not given (an empty text is an error).
struct Texts {
  std::optional<std::string> n, block, gpus, seed, dt, dt_max, eta, steps_per_frame, width, height,
      frames, point_radius, record_fps, trails, trail_bodies, color_range, precision, play_speed,
      play_memory;
  SceneTexts scene;
  const orrery::cli::RunTexts* run = nullptr;  // the plain parameter rows as typed
};

template <class T>
void integer(const std::optional<std::string>& text, const char* what, long long lo, long long hi,
             T& out) {
  if (text) out = static_cast<T>(parse_integer(*text, what, lo, hi));
}

// --dt (--dt-max, --eta), the plain parameter rows and --precision as typed, over p.
void typed_params(const Texts& t, SimParams& p) {
  parse_step_options(t.dt, t.dt_max, t.eta, p);
  orrery::cli::parse_row_options(t.run->params, p);
  if (t.precision) {
    try {
      p.precision = parse_precision(*t.precision);
    } catch (const InputError& e) {
      throw InputError(std::string("--precision: ") + e.what());
    }
  }
}

// Throws InputError naming the option.
void parse_numbers(const Texts& t, Options& o) {
  // Over ranks the viewer holds a sample, and each rank its share.
  integer(t.n, "--n", 1, o.decompose ? std::numeric_limits<int>::max() : k_max_bodies, o.n);
  integer(t.block, "--block", 1, 4096, o.block);
  integer(t.gpus, "--gpus", 1, 4096, o.gpus);
  integer(t.steps_per_frame, "--steps-per-frame", 1, 1000, o.steps_per_frame);
  integer(t.width, "--width", 64, 16384, o.width);
  integer(t.height, "--height", 64, 16384, o.height);
  integer(t.frames, "--frames", 1, 1LL << 40, o.frames);
  integer(t.record_fps, "--record-fps", 1, 240, o.record_fps);
  integer(t.play_memory, "--play-memory", 64, 1LL << 24, o.play_memory_mb);
  if (t.play_speed) {  // K outputs a second, or time=T of simulation time a second
    const std::string& text = *t.play_speed;
    o.play_speed_in_time = text.rfind("time=", 0) == 0;
    o.play_speed = parse_number(o.play_speed_in_time ? text.substr(5) : text, "--play-speed");
    if (o.play_speed_in_time ? !(o.play_speed > 0)
                             : !(o.play_speed >= 0.01 && o.play_speed <= 1000))
      throw InputError(
          "--play-speed '" + text +
          "': " + (o.play_speed_in_time ? "a time a second > 0" : "out of range (0.01 to 1000)"));
  }
  integer(t.trails, "--trails", 0, ui::k_max_trail_length, o.trails);
  if (o.trails == 1) throw InputError("--trails 1: a trail needs at least 2 positions (0 is off)");
  integer(t.trail_bodies, "--trail-bodies", 0, ui::k_max_trail_bodies, o.trail_bodies);
  if (t.color_range) {
    const std::string& r = *t.color_range;
    const auto comma = r.find(',');
    if (comma == std::string::npos)
      throw InputError("--color-range '" + r + "': expected LO,HI (two numbers)");
    const float lo = parse_float(r.substr(0, comma), "--color-range's LO");
    const float hi = parse_float(r.substr(comma + 1), "--color-range's HI");
    if (!(hi > lo)) throw InputError("--color-range '" + r + "': HI must be above LO");
    o.color_range = {lo, hi};
  }
  if (t.seed) o.seed = parse_u64(*t.seed, "--seed");
  typed_params(t, o.params);
  if (t.point_radius)
    o.point_radius =
        parse_float_in(*t.point_radius, "--point-radius", k_min_point_radius, k_max_point_radius);
  o.point_radius_given = t.point_radius.has_value();
  o.scene = parse_scene_options(t.scene);
}

struct Given {
  bool n, preset, seed, solver, block, integrator;
  LookTyped look;  // a scene's look, under these
};

bool runs_here(const std::string& solver) {
  for (const auto& s : available_solvers())
    if (s.name == solver) return true;
  return false;
}

// What the command line typed of a run's settings, for resolve_settings (the integrator stays
// as typed text: check_values names it in its error).
TypedSettings typed_settings(const Given& given, const Texts& t, const Options& o) {
  TypedSettings typed;
  if (given.solver) typed.solver = o.solver;
  if (given.block) typed.block = o.block;
  SimParams p;
  typed_params(t, p);
  type_step_options(t.dt.has_value(), t.dt_max.has_value(), t.eta.has_value(), p, typed);
  typed.params = orrery::cli::typed_param_values(*t.run);
  if (t.precision) typed.precision = p.precision;
  typed.scene = o.scene;
  return typed;
}

// A file's run settings where the command line gave none (orrery/run_settings.h's rule): its
// solver and block where the solver runs here (else a note), its integrator, and its parameters
// under the typed ones.
void adopt_settings(const std::string& what, const RunSettings& file, const Given& given,
                    const Texts& t, Options& o) {
  const ResolvedSettings r = resolve_settings(file, typed_settings(given, t, o), what, runs_here);
  o.settings_from = what;
  if (!r.note.empty()) o.note = "orrery: " + r.note + "; using " + default_solver_name();
  if (!given.solver && !r.settings.solver.empty()) {
    o.solver = r.settings.solver;
    o.block = r.settings.block;
  }
  if (!given.integrator) o.integrator = to_string(r.settings.integrator);
  o.params = r.settings.params;
}

// The bodies a file brings, as the viewer's N; throws InputError beyond what it can draw.
int viewer_count(const std::string& option, const std::string& path, int bodies) {
  if (bodies > k_max_bodies)
    throw InputError(option + " " + path + ": " + std::to_string(bodies) +
                     " bodies, more than the viewer's " + std::to_string(k_max_bodies));
  return bodies;
}

// --load: the snapshot's bodies, and an Orrery snapshot's settings where the command line gave
// none. Throws InputError (SnapshotError) naming the file.
void load_into(const std::string& arg, const Given& given, const Texts& t, Options& o) {
  if (given.n || given.preset || given.seed)
    throw InputError("--load: the bodies come from the file: leave out --n, --preset and --seed");
  // A glob or a folder: a series to play back, which starts from its first output.
  if (names_series({arg})) o.series = list_series({arg});
  const std::string path = o.series.empty() ? arg : o.series.front().path;
  LoadOptions lo = o.load_options;
  LoadProgress progress;  // a line every 2 s of a long load, before the window opens
  print_load_progress(progress, "orrery", path);
  lo.progress = &progress;
  const auto start = std::chrono::steady_clock::now();
  auto snap = std::make_shared<const Snapshot>(load_snapshot(path, lo));
  o.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.n = viewer_count("--load", path, snap->bodies.size());
  if (snap->run_recorded) {
    adopt_settings("snapshot", settings_of(snap->run), given, t, o);
  }
  o.loaded = std::move(snap);
  o.loaded_path = path;
}

std::string palette_list() {
  std::string out;
  for (const char* n : gfx::k_palette_names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// --scene: its bodies (a preset, scaled, or a snapshot) as a loaded state, and its settings where
// the command line gave none. Throws InputError (SnapshotError) naming the file and the key.
void scene_into(const std::string& path, const Given& given, const Texts& t, Options& o) {
  if (given.preset || given.seed)
    throw InputError("--scene: the scene names its bodies: leave out --load, --preset and --seed");
  const SceneFile sc = load_scene(path);
  if (!given.n && sc.n > 0 && sc.snapshot.empty()) o.n = sc.n;
  // Before its bodies are made (n = 2^31 - 1 once ended in bad_alloc).
  if (o.n > k_max_bodies)
    throw InputError(path + ": initial.n " + std::to_string(o.n) + " is more than the viewer's " +
                     std::to_string(k_max_bodies) + " bodies");
  const bool solver_here = sc.solver.empty() || runs_here(sc.solver);
  if (!solver_here && !given.n && !given.solver && sc.snapshot.empty())
    o.n = 0;  // a GPU scene on a machine without one: the CPU default N, not the scene's
  Snapshot snap =
      scene_snapshot(sc, o.n > 0 ? o.n : (device_present() ? 16384 : 2048), o.load_options);
  o.n = viewer_count("--scene", path, snap.bodies.size());
  adopt_settings("scene", settings_of(sc), given, t, o);
  if (!o.note.empty() && sc.n > 0 && o.n != sc.n)  // both numbers, not a silent 2048
    o.note += ", with " + std::to_string(o.n) + " bodies instead of the scene's " +
              std::to_string(sc.n) + " (--n sets it)";
  if (!t.steps_per_frame) o.steps_per_frame = sc.steps_per_frame;
  for (const ParamRow& row : view_rows())  // its camera, under the rows typed
    if (sc.view_given.count(row.name) && o.view_given.insert(row.name).second)
      row.set(o.view, row.get(sc.view));
  camera_from_scene(sc, o);
  // Its look, under the options typed (its palette checked here: the palettes are the viewer's).
  if (!sc.palette.empty() &&
      std::find(std::begin(gfx::k_palette_names), std::end(gfx::k_palette_names), sc.palette) ==
          std::end(gfx::k_palette_names))
    throw InputError(path + ": palette: '" + sc.palette + "' is not one of the viewer's (" +
                     palette_list() + ")");
  look_from_scene(sc, given.look, o);
  // Its bodies start the run as a loaded state: R comes back to them.
  o.loaded = std::make_shared<const Snapshot>(std::move(snap));
  o.loaded_path = path;
  o.loaded_scene = true;
  o.preset = to_string(sc.preset);
}

// Checks values CLI11 cannot: the core's parameter rules, preset and solver names, the block size
// against the solver, the screenshot name. Throws std::invalid_argument / std::runtime_error.
// integrator_typed, damping_typed: on the command line (else the file's or the defaults), so a
// refusal blames what the user did type.
void check_values(Options& o, const std::string& keys, bool integrator_typed, bool damping_typed) {
  std::size_t start = 0;
  while (start < keys.size()) {
    const std::size_t comma = std::min(keys.find(',', start), keys.size());
    const std::string name = keys.substr(start, comma - start);
    const auto action = ui::action_for_name(name);
    if (!action)
      throw std::invalid_argument("--keys: unknown key '" + name + "' (use " + ui::key_names() +
                                  ")");
    o.script.push_back(*action);
    start = comma + 1;
  }
  validate(o.params);
  try {
    check_integrator(parse_integrator(o.integrator), o.params);
  } catch (const InputError& e) {
    throw InputError(integrator_damping_source(o.integrator, integrator_typed, o.params.damping,
                                               damping_typed, o.settings_from) +
                     ": " + e.what());
  }
  if (o.loaded)
    apply_overrides(o.scene, o.params);  // over the snapshot's (or, for TIPSY, the defaults)
  else
    apply_scene(parse_preset(o.preset), o.scene, o.params);
  if (o.solver.empty()) o.solver = default_solver_name(), o.solver_default = true;
  if (o.params.precision == Precision::double_) {
    // A GPU solver of a CUDA build, named in a build without one, is refused later for that.
    const auto& all = all_solvers();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const SolverInfo& s) { return s.name == o.solver; });
    try {
      check_precision(o.solver, it == all.end() || it->doubles, o.params);
    } catch (const InputError& e) {
      throw InputError(std::string("--precision double: ") + e.what());
    }
  }
  if (!o.save.empty()) check_save_format(o.save, "--save"), check_can_save(o.save, "--save");
  if (!o.export_csv.empty()) check_can_save(o.export_csv, "--export-csv");
  require_distinct_outputs({{"--save", o.save},
                            {"--export-csv", o.export_csv},
                            {"--screenshot", o.screenshot},
                            {"--record", o.record}});
  if (!o.record.empty()) {
    check_can_save(o.record, "--record");
    if (video_format_for(o.record, "--record") == VideoFormat::mp4 && !ffmpeg_available())
      throw InputError("--record " + o.record +
                       ": ffmpeg is not installed (apt-get install ffmpeg); --record FILE.y4m "
                       "needs none");
  }
  make_solver(o.solver, o.block);  // names the bad solver or block, or the missing device
  // Typed: more than this machine has, or a solver that cannot spread (--decompose: one a rank).
  if (o.gpus > 0 && !o.decompose) {
    try {
      resolve_gpus(solver_info(o.solver), o.gpus);
    } catch (const InputError& e) {
      throw InputError("--gpus " + std::to_string(o.gpus) + ": " +
                       (o.solver_default ? "the default solver here, " : "") + e.what());
    }
  }
  if (o.n > 0 && !o.decompose) {  // before anything is allocated
    check_device_memory(solver_info(o.solver), o.n);
    // The CPU path holds the bodies in host memory (N = 2^27 failed after 35 s in GL).
    if (!solver_info(o.solver).gpu || !device_present()) {
      try {
        check_host_memory(
            o.n, k_viewer_host_bytes_per_body +
                     host_scratch_bytes_per_body(solver_info(o.solver), o.params.precision));
      } catch (const InputError& e) {
        throw InputError("--n " + std::to_string(o.n) + ": " + e.what());
      }
    }
  }
  if (o.draw == "cuda" && !device_present())
    throw std::invalid_argument(
        "--draw cuda needs a CUDA device (" +
        (cuda_compiled() ? device_info().reason : std::string("this build has no CUDA")) +
        "); use --draw gl, cpu or auto");
  if (!o.screenshot.empty()) {
    const std::string ext =
        o.screenshot.size() >= 4 ? o.screenshot.substr(o.screenshot.size() - 4) : "";
    if (ext != ".png" && ext != ".PNG")
      throw std::invalid_argument("--screenshot: '" + o.screenshot + "' must end in .png");
  }
}

}  // namespace

ParseResult parse_command_line(int argc, const char* const* argv) {
  ParseResult r;
  Options& o = r.options;
  CLI::App cli(
      "Orrery: real-time gravitational N-body viewer. Bodies are drawn straight from "
      "CUDA-mapped OpenGL buffers; a panel switches solvers and block sizes.",
      "orrery");
  cli.set_version_flag("--version", "orrery " + version_description(),
                       "print the version (and the git checkout it was built from) and exit");
  std::string vsync = "on";
  // Numbers are read as text and parsed by the shared rules (orrery/input.h): decimal only, full
  // range checks, finite floats. Empty: not given.
  Texts t;
  cli.add_option(
      "--n", t.n,
      "number of bodies, 1 to 134217728 as the GPU's memory allows (default: sized to this "
      "machine, the largest power of two whose step fits the frame's budget, probed in under a "
      "second and printed; 16384 with a CUDA device and 2048 without where no size fits)");
  cli.add_option("--solver", o.solver,
                 "solver: " + names_of_solvers() +
                     " (default: the first available of cuda-fast, cuda-static, cuda-dynamic; "
                     "without a GPU, cpu-omp, or with no --n whichever of cpu-omp and cpu-bh "
                     "sizes N larger)")
      ->check(orrery::cli::non_empty());
  cli.add_option("--block", t.block,
                 "threads per block for GPU solvers (default: the solver's; one it supports)");
  cli.add_option("--gpus", t.gpus,
                 "GPUs to spread the solver over (cuda-dynamic, cuda-static, cuda-fast, cuda-bh; "
                 "through NCCL; GPU 0 keeps the bodies and draws them); default: every visible "
                 "GPU for those solvers; panel: GPUs");
  orrery::cli::RunTexts run;
  orrery::cli::add_run_options(cli, run, o.preset);
  orrery::cli::add_series_options(cli, run);
  orrery::cli::RowTexts view;
  orrery::cli::add_view_options(cli, view);
  CameraTexts camera;
  add_camera_options(cli, camera);
  cli.add_option("--steps-per-frame", t.steps_per_frame,
                 "simulation steps per drawn frame, 1 to 1000 (default 1)");
  cli.add_option("--width", t.width, "window or image width, 64 to 16384 (default 1280)");
  cli.add_option("--height", t.height, "window or image height, 64 to 16384 (default 720)");
  cli.add_option("--vsync", vsync, "on or off")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cli.add_option("--frames", t.frames,
                 "quit after this many frames, 1 to 2^40 (headless default: 300)");
  cli.add_option("--screenshot", o.screenshot, "write the last frame to this PNG file")
      ->check(orrery::cli::non_empty());
  cli.add_flag("--headless", o.headless,
               "render offscreen through EGL (device platform): for GPU servers with no display");
  cli.add_flag("--hide-panel", o.hide_panel, "start with the panel hidden (H shows it)");
  cli.add_flag("--paused", o.paused,
               "start paused (Space runs): frames draw the starting state, as for a picture of it");
  cli.add_option("--point-radius", t.point_radius,
                 "sprite radius in world units, 0.01 to 5 (default 0.2; panel: View)");
  cli.add_option("--draw", o.draw,
                 "how bodies are drawn: gl (OpenGL point sprites), cuda (a CUDA kernel splats the "
                 "same sprites from the mapped buffers: needs the zero-copy path), cpu (the CPU's "
                 "cores splat them: for an OpenGL that runs on the CPU, such as Mesa's llvmpipe) "
                 "or auto (cuda where the zero-copy path runs, else cpu where OpenGL runs on the "
                 "CPU, else gl); D switches")
      ->check(CLI::IsMember({"auto", "gl", "cuda", "cpu"}))
      ->capture_default_str();
  cli.add_option("--record", o.record,
                 "record every drawn frame from the first to the last: FILE.mp4 (H.264 through "
                 "ffmpeg) or FILE.y4m (uncompressed, no ffmpeg needed); V starts and stops a "
                 "recording too")
      ->check(orrery::cli::non_empty());
  cli.add_option("--color", o.color, color_help())->check(CLI::IsMember(quantity_names()));
  add_look_options(cli, o);
  cli.add_option("--color-range", t.color_range,
                 "LO,HI: a fixed range instead of the 1st to 99th percentile of the data");
  cli.add_option("--trails", t.trails,
                 "draw fading trails of the last K positions, 2 to 64 (0: off, the default); L "
                 "toggles");
  cli.add_option("--trail-bodies", t.trail_bodies,
                 "trails for a random sample of M bodies (default 0: every body)");
  cli.add_option("--play-speed", t.play_speed,
                 "a series (--load of a glob or folder): outputs a second, 0.01 to 1000 (default "
                 "2), or time=T: T of simulation time a second")
      ->type_name("FLOAT|time=T");
  cli.add_flag("--play-loop", o.play_loop, "a series: play it again from the start at its end");
  cli.add_option("--play-clock", o.play_clock,
                 "a series: frames (each frame 1/--record-fps of play, waiting for the outputs it "
                 "needs; the default headless and while recording) or wall (the wall clock, "
                 "never waiting for the disk; the default in a window)")
      ->check(CLI::IsMember({"frames", "wall"}));
  cli.add_flag("--play-raw", o.play_raw,
               "a series: show the outputs as they are, without the motion between them");
  cli.add_option("--play-memory", t.play_memory,
                 "a series: megabytes of outputs read ahead, 64 to 2^24 (default 2048)")
      ->type_name("INT");
  cli.add_option("--record-fps", t.record_fps,
                 "frame rate of recordings, 1 to 240 (default 60): each drawn frame is one video "
                 "frame, so a slow machine still records smoothly");
  RankTexts rank_texts;
  add_rank_options(cli, o, rank_texts);
  std::string keys;
  cli.add_option(
         "--keys", keys,
         "comma-separated keys to apply one per frame from the second frame, as if typed "
         "(s,S,b,B,space,.,r,i,0-9,h,d,t,v,c,C,l,f,g,k,K,m,home,backspace,f5,f9,f11,f12,esc; pick "
         "for "
         "the body nearest the middle, fit to refit the colour range, sweep for the panel's "
         "block-size sweep, scene1 to scene99 for its scene list, savescene for its Save "
         "scene): for scripts and headless runs")
      ->check(orrery::cli::non_empty());
  orrery::cli::name_value_types(cli, {{"--n", "INT"},
                                      {"--solver", "NAME"},
                                      {"--block", "INT"},
                                      {"--gpus", "INT"},
                                      {"--steps-per-frame", "INT"},
                                      {"--width", "INT"},
                                      {"--height", "INT"},
                                      {"--vsync", "NAME"},
                                      {"--frames", "INT"},
                                      {"--screenshot", "FILE"},
                                      {"--point-radius", "NUMBER"},
                                      {"--draw", "NAME"},
                                      {"--record", "FILE"},
                                      {"--color", "NAME"},
                                      {"--color-range", "LO,HI"},
                                      {"--trails", "INT"},
                                      {"--trail-bodies", "INT"},
                                      {"--record-fps", "INT"},
                                      {"--keys", "LIST"}});
  cli.footer(
      "Keys:\n" + ui::key_help_text() +
      "\nEvery switch prints one line to stdout (e.g. 'solver cuda-static block 128'); on exit "
      "a summary line.");
  try {
    cli.parse(argc, argv);
    if (run.preset) o.preset = *run.preset;
    if (run.integrator) o.integrator = *run.integrator;
    if (run.save) o.save = *run.save;
    if (run.export_csv) o.export_csv = *run.export_csv;
    t.seed = run.seed, t.dt = run.dt, t.dt_max = run.dt_max, t.eta = run.eta;
    t.run = &run;
    t.precision = run.precision;
    t.scene = run.scene_settings;
    const std::string scene = run.scene.value_or(""), load = run.load.value_or("");
    o.vsync = vsync == "on";
    parse_numbers(t, o);
    orrery::cli::parse_row_options(view, o.view, &o.view_given);
    take_camera_options(camera, o);
    if (o.color_range && o.color_scale == "log" && !(o.color_range->first > 0.0f))
      throw InputError("--color-range with --color-scale log: LO must be above 0");
    if (!load.empty() && !scene.empty()) throw InputError("--scene and --load: give one of them");
    if (load.empty() && scene.empty() && (run.types || run.gadget_g))
      throw InputError(std::string(run.types ? "--types" : "--gadget-g") +
                       ": only with --load or --scene of a GADGET file");
    if (load.empty() && scene.empty() && run.units)
      o.preset_units = parse_units(*run.units, "--units");
    else
      o.load_options = parse_load_options(run.types, run.gadget_g, run.units);
    const Given given{
        cli.count("--n") > 0,
        cli.count("--preset") > 0,
        cli.count("--seed") > 0,
        cli.count("--solver") > 0,
        cli.count("--block") > 0,
        cli.count("--integrator") > 0,
        LookTyped{cli.count("--color") > 0, cli.count("--palette") > 0,
                  cli.count("--color-scale") > 0, cli.count("--hud") > 0, cli.count("--mode") > 0,
                  cli.count("--color-range") > 0, cli.count("--trails") > 0}};
    if (!scene.empty()) scene_into(scene, given, t, o);
    if (!load.empty()) load_into(load, given, t, o);
    check_values(o, keys, given.integrator, run.params.at("damping").has_value());
    check_decomposed(rank_texts, given.solver, o);
    o.series_plan = orrery::cli::series_plan(run);
    if (o.series_plan && !o.series.empty())
      throw InputError("--save-every: a series played back is not written again: give one of them");
    check_camera(o);
  } catch (const CLI::CallForHelp&) {
    std::cout << cli.help();
    r.exit_code = 0;
    return r;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      cli.exit(e);
      return r;
    }
    if (!orrery::cli::another_rank())  // under mpirun: rank 0 says it
      std::fprintf(stderr, "orrery: error: %s\n", one_line(e.what()).c_str());
    r.exit_code = 2;
    return r;
  } catch (const std::exception& e) {  // the core's invalid_argument, or no CUDA device
    if (!orrery::cli::another_rank())
      std::fprintf(stderr, "orrery: error: %s\n", one_line(e.what()).c_str());
    r.exit_code = 2;
    return r;
  }
  r.run = true;
  return r;
}

}  // namespace orrery::app
