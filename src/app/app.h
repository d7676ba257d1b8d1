// The viewer application: owns the context, renderer, UI and simulation, and runs the frame loop.
// Its state is in parts (app_parts.h: what draws, the file, the colour values and trails, capture,
// what the panel reads, the input), the run in the RunController, the view in the camera; a
// panel or key action is a row of its command table (app_actions.cpp).
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app_parts.h"
#include "cli.h"
#include "frame_stats.h"
#include "gfx/body_buffers.h"
#include "gfx/camera.h"
#include "gfx/gl_objects.h"
#include "gfx/particle_renderer.h"
#include "gfx/surface.h"
#include "gfx/trails.h"
#include "orrery/input.h"
#include "orrery/no_copy.h"
#include "orrery/output_file.h"
#include "overlays.h"
#include "recorder.h"
#include "run_controller.h"
#include "series_player.h"
#include "ui/imgui_layer.h"
#include "ui/settings.h"
#include "value_job.h"

struct GLFWwindow;

namespace orrery::app {

// "stepping, 37% (12 s, about 20 s left)": a CPU run in flight, for the panel and overlay.
std::string activity_text(float done, double seconds);
// "dt 0.016, softening 0.1, damping 1": the parameters as the run uses them.
std::string params_text(const SimParams& p);

// Set by main's SIGINT and SIGTERM handler: the run ends after the frame in progress as if it
// were the last, finishing its recording, --save, --export-csv and --screenshot, and exits with
// 128 + the signal (a second signal ends it at once). A run stopped that way once left a
// 77 MB recording as .part.
extern volatile std::sig_atomic_t g_stop_signal;

class RankView;

class App : NoCopy {
 public:
  // Throws std::runtime_error with one clear line (orrery::InputError for a size this GL cannot
  // draw). `screenshot` is --screenshot's file, opened before (not open when none was asked).
  // ranks: the run over MPI ranks that rank 0 draws (--decompose), or null.
  App(const Options& options, OutputFile screenshot, RankView* ranks = nullptr);
  ~App();

  // Runs until the window closes, Esc, or --frames; prints the summary line. Returns the exit code.
  int run();

 private:
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);

  void choose_path();
  void choose_draw();
  const char* draw_name() const;
  // One frame's view of the scene and what the frame made: the target's size, the drawing style
  // and sprite parameters, whether the CUDA picture was made, the solver and UI times.
  struct FrameView {
    int w = 0, h = 0;
    gfx::RenderStyle style;
    gfx::SpriteParams sprites;
    bool splatted = false;
    float sim_ms = -1.0f, ui_ms = 0.0f;
  };
  // The frame (app_frame.cpp): poll, new frame, advance, build the UI, render, finish.
  void frame(long long index, bool last);
  void poll(long long index);
  FrameView new_frame(long long index);
  float device_work(FrameView& v);
  void build_ui(long long index, FrameView& v);
  void fill_readouts(long long index);
  void render(FrameView& v);
  void finish_frame(long long index, bool last, const FrameView& v);
  gfx::CudaGlBuffers* splat_image(int w, int h);
  void build_catalog();
  // The default N (no --n, no file), probed: the largest power of two whose step fits the budget,
  // on the GPU solver; without a GPU on cpu-omp and cpu-bh (or the typed solver), starting with
  // the faster. Each returns the line's note on N, or `note` where no size fits.
  std::string size_for_gpu(const std::string& note);
  std::string size_for_cpu(const std::string& note);
  int catalog_index(const std::string& name) const;  // -1 when not listed
  void handle_keys();
  void apply(const ui::Action& a);
  // One row a panel or key action: what it does (app_actions.cpp).
  struct Command {
    ui::ActionKind kind;
    void (*run)(App& app, const ui::Action& a);
  };
  static const std::vector<Command>& commands();
  // Returns false (the old solver kept, the reason printed) when the new one cannot be made.
  bool switch_solver(int index, int block);
  // The GPUs the current solver runs on (ui::gpus_in_use of the settings).
  int gpus_in_use() const;
  void cycle_block(int dir);
  void switch_integrator(int index);
  void restart(Preset preset, int n, const char* what);
  void run_sweep();
  void save_screenshot(OutputFile& file);
  void check_blowup();
  void fill_diagnostics();
  void record_phases(float ui_ms);
  void read_tree();
  void draw_overlays(GLuint target, const gfx::SpriteParams& sp);
  void fill_collisions();
  void fill_step();  // the adaptive step's readout; says once when its floor first holds
  void keep_params_valid();
  void target_size(int& w, int& h) const;
  GLuint target_framebuffer() const;
  gfx::RenderStyle style() const;
  SimParams sim_params() const;
  void show_scene(const SimParams& p);
  void show_params(const SimParams& p);
  void say(const std::string& line) const;  // one line to stdout, flushed
  // Files (app_files.cpp): a line to stdout (stderr for an error) and the panel.
  void note_file(const std::string& line, bool error);
  bool save_state(const std::string& path);  // the newest state
  bool save_state(const std::string& path, const Snapshot& s);
  // Reads a file on a worker thread (the panel shows a bar and Cancel); poll_load() starts the
  // run from it when it is read. On failure or cancel the run goes on unchanged.
  void load_state(const std::string& path);  // F9: all its types, the camera framed on it
  void start_load(const std::string& path, const LoadOptions& o, const std::string& what,
                  bool frame);
  void poll_load();
  // `path`: the file it came from, "" for a scene (see take_types).
  void start_from(const Snapshot& snap, const std::string& path);
  // A file's particle types as the origin colours, the panel's File section, and a line on its
  // units and time. `path`: the file to read again with other types ("" where it cannot be).
  void take_types(const Snapshot& snap, const std::string& path);
  void forget_file();  // the File section, the box and the path go
  // Reads the loaded file again with the types of `mask` (bit t: type t).
  void reload_types(int mask);
  // Camera (app_camera.cpp). Frames the run's bodies by --frame as its home view (Home comes back
  // to it), the view's rows typed over it; `size_sprites`: a file's sprites scale with its extent.
  void frame_bodies(bool size_sprites);
  // K: the camera frames the bodies as they are now (keeping its angles).
  void frame_now();
  // --follow, --keep-frame and the camera path, from the options (throws InputError for a body
  // that is not there).
  void start_camera_motion();
  void restart_path();
  // A scene opened from the panel: its framing (where it gives one), view rows, follow,
  // keep_frame and path.
  void take_scene_camera(const SceneFile& sc);
  void drive_camera(long long index);
  // The view as the options that give it again ("--camera-distance 52.3 ... --fov 45"): the exit
  // line's, so that a view found by hand can be rendered again.
  std::string view_options() const;
  // The camera's home view from the view's rows: angles and field of view always, the distance
  // where `given` names it (a framed file keeps its own otherwise); then goes there.
  void camera_from(const ViewParams& v, const std::set<std::string>& given);
  // The view's rows as the camera stands now (the panel, Save scene).
  ViewParams camera_view() const;
  // The camera where the panel moved it (a value that fails its row is refused with a line).
  void keep_view_valid(const ViewParams& shown);
  // The camera to the view's rows v (angles in degrees), the point looked at too.
  void apply_view(const ViewParams& v);
  void write_run_outputs();  // --save, --export-csv
  // Scenes (app_files.cpp): a scene file's bodies and settings (the solver too, where it runs
  // here); the current settings as a new scene file in the working folder.
  void open_scene(const std::string& path);
  void save_current_scene();
  // Recording (app_files.cpp): every drawn frame, read back before the swap.
  void start_recording(const std::string& path);
  void record_frame();
  void stop_recording();
  // Watching tools (app_view.cpp): colour by quantity, its range and legend; trails; picking and
  // following. Values and trails are made inside the frame's mapping on the device
  // (values_and_trails_on_device) or after the steps on the host (values_and_trails_on_host).
  void init_view_tools();
  gfx::ColorMap color_map() const;
  void set_color(int quantity, bool announce);
  void fit_color_range(bool announce);
  // The range from these values (have: false when there are none to fit).
  void fit_range_to(std::vector<float> values, bool have, bool announce);
  void configure_trails();
  void on_new_state();
  bool values_needed() const;
  bool values_on_device() const;
  void values_and_trails_on_device(gfx::Mapping& m);
  void values_and_trails_on_host(bool last);
  float trail_intensity(const gfx::RenderStyle& st) const;
  void pick_at(float x, float y_from_top, const gfx::SpriteParams& sp);
  void follow_and_read();
  void mark_pick(const gfx::SpriteParams& sp);  // where the picked body is drawn this frame
  void fill_legend();
  // The density map picture (app_density.cpp): made (or the last one kept) and blitted into
  // `target`; its legend's range and unit.
  void draw_density(const FrameView& v, GLuint target);
  void fill_density_legend();
  int density_palette() const;
  // The minimal HUD's time label and scale bar.
  // Playback of a series (app_playback.cpp): the clock and the state it shows each frame, the
  // keys and panel's actions while it plays, and a live run from the output on screen.
  void start_playback();
  void play_frame();
  bool playback_action(const ui::Action& a);
  void continue_run();
  void keep_picked(const PlaybackFrame& from, const PlaybackFrame& to);
  void report_playback();
  void fill_hud();

  static constexpr const char* k_quick_file = "orrery-quick.orrery";
  static constexpr float k_pick_radius_px = 8.0f;
  static constexpr long long k_refit_frames = 30;  // an auto colour range is refitted this often
  static constexpr double k_step_budget_ms = 8.0;  // the default N's step, of a 16.7 ms frame
  // Without a GPU: 30 steps a second (33.3 ms each) with a quarter of the time left to drawing,
  // which shares the cores (Mesa draws on the CPU); a frame waits as long for a CPU step.
  static constexpr double k_cpu_step_budget_ms = RunController::k_cpu_wait_ms;

  Options m_opts;
  // Declaration order is destruction order reversed: GL and CUDA objects go before the context.
  Display m_display;
  Overlays m_overlays;  // the tree's cells, the walls, a loaded file's box
  FileState m_files;
  std::unique_ptr<RunController> m_run;
  std::unique_ptr<SeriesPlayer> m_playback;  // a series played back (--load of a glob or folder)
  // The run over ranks (app_ranks.cpp): each frame's steps there, its sample shown here in place
  // of a step; Space and . run and step it; what would change the run is refused.
  void start_ranks();
  void rank_frame();
  bool rank_action(const ui::Action& a);
  RankView* m_ranks = nullptr;
  long long m_ranks_steps = 0;
  double m_ranks_interactions = 0.0;  // every rank's, in the last frame's steps
  float m_ranks_ms = 0.0f;           // the last frame's steps over the ranks, the sample gathered
  std::uint64_t m_shown_labels = 0;  // the labels_key of the output whose labels the run has
  gfx::OrbitCamera m_camera;
  ui::Catalog m_catalog;
  ui::Settings m_settings;
  int m_valid_steps = 1;  // the last valid steps per frame
  Shown m_shown;
  Input m_input;
  Capture m_capture;
  ColourState m_colour;
  CameraDrive m_drive;
  DensityPicture m_density;
  static constexpr std::size_t k_phase_frames = 120;
};

}  // namespace orrery::app
