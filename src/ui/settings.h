// The plain state the panel and keys edit, the readouts they show and the actions they request.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/camera_motion.h"
#include "orrery/fields.h"
#include "orrery/integrators.h"
#include "orrery/params.h"
#include "orrery/presets.h"

namespace orrery::ui {

// The viewer's largest N (--n and the panel): 2^27 bodies. Whether they fit is the GPU's memory's
// call: an N a solver cannot hold is refused before allocating, naming the memory it needs.
constexpr long long k_max_bodies = 1LL << 27;

// What the camera follows (orrery/camera_motion.h).
using Follow = orrery::FollowKind;

// A solver as the panel lists it (filled in by the app from the solver registry).
struct SolverChoice {
  std::string name;
  bool gpu = false;
  std::vector<int> block_sizes;  // empty for CPU solvers
  bool block_auto = false;       // block 0 means "let the solver choose" (cuda-fast's autotuner)
  bool approximate = false;      // a tree code: the opening angle theta applies
  bool spreads = false;          // can run over several GPUs
  std::string description;
};

struct Catalog {
  std::vector<SolverChoice> solvers;
  int gpu_count = 0;  // CUDA devices visible (several: the panel offers spreading a solver)
  std::vector<std::string> presets;
  std::vector<std::string> integrators;
  std::vector<std::string> quantities;  // what bodies can be coloured by (orrery::Quantity's order)
  std::vector<std::string> palettes;    // gfx::Palette's order
  std::vector<std::string> scenes;      // the shipped scene files' names (assets/scenes)
  std::vector<std::string> scene_paths;  // and their files
};

// What the user can change. Plain values only: the app turns them into solvers and buffers.
// How bodies are drawn: GL point sprites, the CUDA splat kernel (zero-copy path), or the CPU splat
// (for a software OpenGL). The same picture each way.
enum class DrawMethod { gl_sprites, cuda_splat, cpu_splat };

// The playback of a series (--load of a glob or folder), as the panel shows and edits it: the app
// copies the clock in each frame and takes the panel's edits back (a moved slider sets `seek`).
struct PlaybackPanel {
  bool active = false;
  int outputs = 0;
  float position = 0.0f;  // in outputs: 2.5 is halfway from output 2 to 3
  bool seek = false;
  bool playing = false, backwards = false, loop = false, smooth = true;
  float speed = 2.0f;  // outputs a second, or simulation time a second
  bool speed_in_time = false;
  double time = 0.0;
  std::string label;  // the file about the clock
  int gaps = 0;       // outputs skipped as unreadable
  bool waiting = false;
  double held_mb = 0.0, budget_mb = 0.0;
};

struct Settings {
  int solver = 0;  // index into Catalog::solvers
  int block = 0;   // threads per block; 0 for CPU solvers or "auto"
  int gpus = 0;    // GPUs asked for a solver that spreads; 0: every visible one
  int n = 2048;
  int n_edit = 2048;  // the N typed in the panel, applied by "Apply"
  Preset preset = Preset::collision;
  Integrator integrator = Integrator::euler;
  std::uint64_t seed = 1;
  // The run's parameters as the panel edits them (its rows: orrery/param_table.h); the app
  // hands them to the run, which checks them once. The walls' side is `box` below while `walls`.
  SimParams params;
  bool walls = false;  // a cube of reflecting walls of side `box`
  // The camera as the panel shows and moves it (the view's rows): the app fills it from the
  // camera before the panel and takes it back where the panel changed it.
  ViewParams view;
  float box = 20.0f;
  int steps_per_frame = 1;
  bool paused = false;
  PlaybackPanel playback;
  bool time_reversed = false;  // shown by the panel; set by the app after the simulation agrees
  bool vsync = true;
  bool show_panel = true;
  // What is drawn over the bodies: full (the panel, or the overlay with H), minimal (the time, a
  // scale bar and the colour bar: a clean picture) or none.
  enum class Hud { full, minimal, none } hud = Hud::full;
  float point_radius = 0.2f;
  float brightness = 1.0f;
  float exposure = 1.0f;
  DrawMethod draw = DrawMethod::gl_sprites;  // how bodies are drawn (D, the View section)
  bool bloom = true;          // a glow around the densest parts of the sprites' picture (--bloom)
  bool density_map = false;   // the picture is the bodies' smoothed surface density (M, --mode)
  bool tree_overlay = false;  // draw the tree code's cells (T)
  bool file_box = true;       // draw a loaded file's periodic box
  int types_edit = 0x3f;      // the particle types ticked in the panel (bit t: type t)
  int tree_depth = 3;         // down to this octree level
  bool diagnostics = true;    // measure E, P, L every diag_every frames
  int diag_every = 10;
  // Colour by quantity (orrery::Quantity and gfx::Palette indices), its scale and range.
  Quantity color_quantity = Quantity::speed;
  int palette = 0;
  bool color_log = false;
  bool color_auto = true;  // the range from the percentiles below, refitted on each new state
  float color_lo_pct = 1.0f, color_hi_pct = 99.0f;
  float color_lo = 0.0f, color_hi = 1.0f;  // the range shown (fitted while color_auto)
  // Trails: the last trail_length positions (0: off) of every body (trail_bodies 0) or a sample.
  int trail_length = 0;
  int trail_length_on = 32;  // what L turns trails on with
  int trail_bodies = 0;
  float trail_brightness = 1.0f;
  // Picking and following: the picked body (-1: none), and what the camera follows.
  int picked = -1;
  Follow follow = Follow::nothing;
  // The camera keeps the bodies framed as the run evolves (--keep-frame).
  bool keep_frame = false;
};

// The maximum trail sample and length the panel and --trails accept.
constexpr int k_max_trail_length = 64;
constexpr int k_max_trail_bodies = 1 << 24;

// The diagnostics as the panel shows them: the newest reading, and the drifts since the first
// reading after a reset or an integrator change, oldest first.
struct DiagnosticsReadout {
  bool available = false;
  long long step = 0;
  double time = 0;
  std::string time_text, length_unit;  // the time and the length unit where the state has a scale
  double kinetic = 0, potential = 0, total = 0, virial = 0;
  double momentum[3] = {0, 0, 0}, angular_momentum[3] = {0, 0, 0}, centre_of_mass[3] = {0, 0, 0};
  double energy_drift = 0, momentum_drift = 0, angular_momentum_drift = 0;
  double cost_ms = -1;  // what the newest reading cost (GPU: CUDA events); negative: unknown
  bool cost_from_events = false;
  std::vector<float> energy, momentum_history, angular, virial_history;  // one value per reading
};

// The collision stage as the panel shows it (read every few frames).
struct CollisionReadout {
  int bodies = 0;                // bodies in the simulation now (merges remove some)
  double contacts_per_step = 0;  // touching pairs found per step since the last reading
  long long merges = 0, wall_hits = 0;
  double energy_offset = 0;  // the energy the collisions removed since the start
};

// The adaptive step as the panel shows it: the next step's size, the floor's count and the sizes
// of the last frames' steps, oldest first.
struct StepReadout {
  bool adaptive = false;
  double dt = 0;
  long long floor_hits = 0;
  std::vector<float> history;  // log10 of each frame's next step
};

// One frame's time by phase, in ms (0 for phases the frame did not have).
struct PhaseFrame {
  float force = 0, integrate = 0, force_integrate = 0, diagnostics = 0, draw = 0, ui = 0;
  float tree = 0, walk = 0;  // tree codes: bounds, sort, build and moments; the walk
  float collide = 0;         // collisions: grid, contacts, resolve
};

// The colour bar: what the bodies are coloured by and over which range.
struct LegendReadout {
  std::string label, unit;
  float lo = 0, hi = 1;
  int palette = 0;
  bool log_scale = false;
  bool categorical = false;  // origin: labels, not a range
  std::vector<std::string> categories;
  std::vector<float> colors;  // RGB triplets: the palette sampled from lo to hi, or per category
  std::string note;           // why a quantity cannot be shown now (origin after merges)
};

// A loaded GADGET, HDF5 or labelled Orrery file as the panel shows it.
struct FileReadout {
  bool shown = false;             // a file with particle types is loaded
  std::string name, format;       // its path, "GADGET-2" / "HDF5" / ...
  std::string units;              // how its units were taken (G), empty for Orrery's own files
  double time = 0, redshift = 0;  // the file's own (GADGET: the scale factor in cosmological runs)
  double box = 0;                 // its periodic box's side (0: none)
  long long counts[6] = {};       // bodies of each type loaded
  bool reloadable = false;        // loaded by --load or F9 (a scene's file is not reread here)
};

// The picked body as the panel shows it.
struct PickReadout {
  bool valid = false;
  int index = -1;
  float mass = 0, pos[3] = {0, 0, 0}, vel[3] = {0, 0, 0}, speed = 0, acc[3] = {0, 0, 0},
        acc_mag = 0;
  float screen_x = 0, screen_y = 0;  // where it is drawn (pixels from the top-left), for the ring
  bool on_screen = false;
};

struct SweepPoint {
  int block = 0;
  float ms_per_step = 0.0f;
};

// What the panel and overlay show; written by the app every frame.
struct Readouts {
  std::string camera_path;  // "camera path 2.5 of 6 s" while there is one (empty: none)
  float fps = 0.0f;
  float frame_ms = 0.0f;
  float sim_ms = 0.0f;  // solver time per frame (CUDA events for GPU solvers)
  bool sim_ms_from_events = false;
  float draw_ms = -1.0f;   // GPU time of drawing (GL timer queries); negative when unknown
  float splat_ms =
      -1.0f;  // a splat's part of draw_ms (CUDA events or the CPU clock); negative when unused
  bool splat_available = false;  // the CUDA splat can draw here (zero-copy interop path)
  double interactions_per_s = 0.0;
  bool tree_code = false;  // the solver is a tree code: its interactions are not all alike
  int tree_boxes = 0;      // cells the overlay draws
  double gflops = 0.0;
  long long frames = 0;
  std::string solver_config;  // the solver's own one-line description of its configuration
  std::string render_path;    // zero-copy interop / staged copy / CPU
  std::string path_note;      // why a fallback was taken, empty otherwise
  std::string draw_method;    // cuda-splat / gl-sprites
  std::string gpu_name;
  std::string gpu_memory;  // "3.1 of 139.8 GiB in use", refreshed every second; empty: no GPU
  std::string gl_renderer;
  std::vector<float> frame_ms_history;  // ring buffer
  int history_head = 0;                 // index of the oldest entry
  std::string activity;   // work in flight, e.g. "stepping, 37%" (a long CPU step); empty when none
  float loading = -1.0f;  // a file being read in the background: the fraction read (-1: none)
  std::string alert;      // a problem the user must act on (a non-finite state), empty when none
  std::string file_note;  // the last save or load: what was written or read, or why not
  bool file_note_error = false;   // file_note says why a save or load failed
  std::vector<SweepPoint> sweep;  // the last block-size sweep
  std::string sweep_label;        // "cuda-static, N = 16384"
  DiagnosticsReadout diagnostics;
  // The minimal HUD's time label ("t = 12.3 Myr") and scale bar (its length in pixels at the
  // point looked at, and what that is: "10 kpc").
  std::string hud_time, hud_bar_label;
  float hud_bar_px = 0.0f;
  CollisionReadout collisions;
  StepReadout step;
  LegendReadout legend;
  PickReadout pick;
  FileReadout file;
  std::string trails;               // "32 positions of 65536 bodies", empty when off
  std::vector<PhaseFrame> phases;   // the last frames, oldest first
  bool phases_from_events = false;  // the step phases were timed with CUDA events
};

enum class ActionKind {
  next_solver,
  prev_solver,
  set_solver,  // value: index for set_solver
  next_block,
  prev_block,
  set_block,  // value: block size for set_block
  set_gpus,   // value: the GPUs to spread the solver over
  toggle_pause,
  single_step,
  reset,
  set_preset,      // value: preset index
  set_integrator,  // value: integrator index
  next_integrator,
  apply_n,  // value: N
  toggle_panel,
  toggle_fullscreen,
  set_vsync,  // value: 0/1 for set_vsync
  screenshot,
  sweep_blocks,
  reset_camera,
  frame_bodies,        // K: the camera frames the bodies as they are now (--frame's rule)
  toggle_keep_frame,   // Shift+K: keep them framed as the run evolves
  restart_path,        // the camera path from its start
  toggle_density_map,  // M: the bodies / their density map
  toggle_draw,         // GL point sprites <-> the splat of this machine (CUDA's, else the CPU's)
  set_draw,            // value: a DrawMethod
  toggle_tree,         // the tree overlay
  quick_save,          // the run to the quick-save file
  quick_load,          // the run from it
  toggle_record,       // start or stop a recording
  reverse_time,        // time runs the other way
  load_scene,          // value: index into Catalog::scenes
  save_scene,          // the current settings to a new scene file
  next_color,          // C: the next quantity to colour by (value 1), the previous (value -1)
  set_color,           // value: quantity index
  fit_color,           // the range from the percentiles again
  toggle_trails,       // L
  apply_trails,        // the panel's trail length or sample changed
  follow_picked,       // F
  follow_centre,       // G
  pick_centre,         // the body nearest the middle of the view (scripts)
  play_step_back,      // , : playback: the output before
  continue_run,        // playback: a live run from the output on screen, with its settings
  reload_types,  // value: the particle types to read the loaded file again with (bit t: type t)
  cancel_load,   // stop the file being read in the background
  quit
};

struct Action {
  ActionKind kind;
  int value = 0;
};

}  // namespace orrery::ui
