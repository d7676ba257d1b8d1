// The command line: options, parsing with CLI11 and validation of values before anything opens.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "orrery/camera_motion.h"
#include "orrery/param_table.h"
#include "orrery/playback.h"
#include "orrery/scene.h"
#include "orrery/scene_file.h"
#include "orrery/series.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"
#include "ui/settings.h"

namespace CLI {
class App;
}

namespace orrery::app {

struct Options {
  int n = 0;  // 0: 16384 with a CUDA device, 2048 with CPU solvers only
  std::string
      solver;     // empty: the first available of cuda-fast, cuda-static, cuda-dynamic, cpu-omp
  bool solver_default = false;  // neither the command line nor a file chose the solver
  int block = 0;  // 0: the solver's default (cuda-fast: autotuned)
  int gpus = 0;   // GPUs asked for a solver that spreads; 0: every visible one
  std::string preset = "collision";
  std::uint64_t seed = 1;
  SimParams params;      // gravity and collisions: the preset's, with `scene` over them
  SceneOverrides scene;  // --collisions, --restitution, --box, --gravity, --radius (kept for
                         // every preset the viewer switches to)
  std::string integrator = "euler";
  int steps_per_frame = 1;
  int width = 1280, height = 720;
  bool vsync = true;
  long long frames = 0;    // 0: until closed (headless: k_headless_frames)
  std::string screenshot;  // written after the last frame
  bool headless = false;
  bool hide_panel = false;
  std::string hud = "full";  // --hud: full, minimal or none
  std::string mode = "bodies";  // --mode: the bodies, or their density map
  std::string bloom = "on";     // --bloom: on or off
  bool paused = false;  // --paused: no steps until Space
  float point_radius = 0.2f;
  bool point_radius_given = false;  // else a loaded file's sprites scale with its extent
  // Where the camera starts (the view's rows: orrery/param_table.h); the rows typed or given by
  // a scene (a loaded file's framing keeps the others).
  ViewParams view;
  std::set<std::string> view_given;
  // How the camera frames the bodies and moves (orrery/camera_motion.h), and which of "frame",
  // "follow", "keep_frame" and "camera_path" were typed (a scene's fill the others).
  Framing frame;
  FollowChoice follow;
  bool keep_frame = false;
  CameraPath camera_path;
  std::set<std::string> camera_given;
  std::string draw = "auto";       // auto (cuda on the zero-copy path, else gl), gl or cuda
  std::vector<ui::Action> script;  // --keys: applied one per frame from the second frame
  // --load: the bodies to start from instead of the preset (an Orrery snapshot also gave the
  // solver, block, integrator and parameters above, where the command line did not).
  std::shared_ptr<const Snapshot> loaded;
  LoadOptions load_options;  // --types, --gadget-g, --units: how --load and F9 read a file
  UnitsChoice preset_units;  // --units for the presets (henon rescales them)
  std::string loaded_path;
  double load_seconds = 0;       // how long --load took to read and decode it
  bool loaded_scene = false;     // `loaded` holds a --scene's bodies
  // --load of a glob or a folder: the series to play back (`loaded` is its first output), and
  // --play-speed (outputs a second), --play-loop, --play-raw, --play-memory (MB read ahead).
  std::vector<PlaybackOutput> series;
  std::optional<SeriesPlan> series_plan;  // --save-every and --series: the run written as a series
  double play_speed = 2.0;
  bool play_speed_in_time = false;  // --play-speed time=T: simulation time a second
  bool play_loop = false, play_raw = false;
  // --play-clock: "frames" (each frame 1/--record-fps of play, waiting for its outputs: headless
  // and recording), "wall" (the wall clock, never waiting: a window), empty: by the mode.
  std::string play_clock;
  long long play_memory_mb = 2048;
  std::string save, export_csv;  // written after the last frame
  std::string note;              // a line to print at start (the snapshot's solver cannot run)
  std::string settings_from;     // "scene" or "snapshot" when a file's settings were taken
  std::string record;            // --record: from the first frame to the last
  int record_fps = 60;
  std::string color = "speed";                         // orrery::Quantity's name
  std::string palette;                                 // empty: the quantity's default
  std::string color_scale;                             // empty: the quantity's default
  std::optional<std::pair<float, float>> color_range;  // fixed; none: fitted from percentiles
  int trails = 0;                                      // 0: off
  int trail_bodies = 0;                                // 0: every body
  // --decompose: the run over the MPI ranks of an mpirun (rank_view.h), decomposed again every
  // --rebalance-every steps; rank 0 draws at most --draw-max of its bodies.
  bool decompose = false;  // without --n: k_ranks_default_n bodies
  int rebalance_every = 10;
  long long draw_max = 1 << 20;
};

constexpr long long k_headless_frames = 300;
constexpr int k_ranks_default_n = 1 << 20;
constexpr float k_min_point_radius = 0.01f, k_max_point_radius = 5.0f;
// Host memory a body costs the viewer on the CPU path: the published positions (two) and
// velocities, the worker Simulation's own state (three) and scratch (accelerations, potentials),
// the read Simulation's scratch, the values, and GL's buffers (host memory under Mesa): fifteen
// Vec4; and a tree code's own (host_scratch_bytes_per_body) on top.
constexpr double k_viewer_host_bytes_per_body = 15.0 * 16;
using ui::k_max_bodies;

// Parsing outcome: run with `options`, or stop with `exit_code` (0 after --help, 2 after a bad
// value, reported in one line on stderr).
struct ParseResult {
  bool run = false;
  int exit_code = 0;
  Options options;
};

// Parses and checks the command line (CLI11 and the shared rules of orrery/input.h). Opens no file
// and no window (the fuzz target calls it); prints --help to stdout and errors to stderr.
ParseResult parse_command_line(int argc, const char* const* argv);

// --decompose and its options (cli_ranks.cpp): registered on the parser, then checked once the
// run's settings are known.
struct RankTexts {
  std::optional<std::string> rebalance_every, draw_max;
};
void add_rank_options(CLI::App& cli, Options& o, RankTexts& t);
void check_decomposed(const RankTexts& t, bool solver_typed, Options& o);

}  // namespace orrery::app
