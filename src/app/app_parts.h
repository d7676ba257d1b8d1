// The parts of the viewer's state, each held by App as one member: what draws, the file the run
// came from, the colour values and trails, screenshots and the recording, what the panel reads,
// and the input of the frame. App's methods work on them, in files by topic (app_*.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frame_stats.h"
#include "gfx/body_buffers.h"
#include "gfx/density_map.h"
#include "gfx/gl_objects.h"
#include "gfx/particle_renderer.h"
#include "gfx/surface.h"
#include "gfx/trails.h"
#include "orrery/camera_motion.h"
#include "orrery/fields.h"
#include "orrery/output_file.h"
#include "orrery/snapshot.h"
#include "recorder.h"
#include "ui/imgui_layer.h"
#include "ui/settings.h"
#include "value_job.h"

namespace orrery::app {

// What draws: the surface (a window, or headless: EGL and a render target), the GL it runs, the
// path the bodies take to GL and why, the UI layer, the renderer and its timer. Declaration order
// is destruction order reversed: the GL objects go before the context.
struct Display {
  std::unique_ptr<gfx::Surface> surface;
  std::string gl_description;
  gfx::DevicePath path = gfx::DevicePath::none;
  std::string path_note;
  std::unique_ptr<ui::ImGuiLayer> imgui;
  std::unique_ptr<gfx::ParticleRenderer> renderer;
  gfx::GlGpuTimer draw_timer;
  float panel_right = 0.0f;  // the panel's right edge in pixels, last frame
  bool splat_ok = false;     // the CUDA splat can draw here (zero-copy path, and it has not failed)
};

// A file read on a worker thread. Going away cancels it and waits for the worker.
struct PendingLoad {
  std::string path, what;  // what: the note's words ("loaded", "read types 1,2 of")
  bool frame = false;      // point the camera at the bodies when they arrive
  LoadProgress progress;
  std::future<Snapshot> result;
  ~PendingLoad() {
    progress.cancel = true;
    if (result.valid()) result.wait();
  }
};

// The file the run came from.
struct FileState {
  double box_side = 0.0;                 // its periodic box (0: none)
  std::string path;                      // what the File section reads again
  std::unique_ptr<PendingLoad> pending;  // a file being read in the background
  // The snapshot the run started from (--load, F9): R goes back to it; a preset or N forgets it.
  std::shared_ptr<const Snapshot> loaded;
  bool loaded_preset = false;  // `loaded` came from a preset scene (Save scene can name it)
};

// The colour values and the trails: made inside the frame's mapping on the device, or after the
// steps on the host (the values on a worker thread).
struct ColourState {
  std::unique_ptr<gfx::Trails> trails;      // while trails are on
  std::uint64_t trail_version = 0;          // the buffers' version last appended
  std::uint64_t values_version = 0;         // the buffers' version the values were made from
  std::optional<Quantity> values_quantity;  // the quantity they hold (none yet)
  std::vector<float> values_host;           // the host path's values
  ValueJob value_job;                       // makes them off the UI thread
  bool trail_bodies_said = false;           // --trail-bodies above N was said once
  bool fit_pending = false;                 // fit the colour range once the job's values arrive
  bool fit_announce = false;                // and say the range then
  std::uint64_t state_epoch = 0;            // the simulation's state the tools were set for
};

// Screenshots and the recording, and why an output could not be written (the run still ends with
// its summary, and exit 1).
struct Capture {
  bool screenshot_now = false;
  OutputFile screenshot;  // --screenshot, written after the last frame
  std::unique_ptr<Recorder> recorder;
  std::vector<unsigned char> frame_rgb;
  std::chrono::steady_clock::time_point record_said;  // the last progress line
  std::string output_error;
};

// What the panel and the summary read, and the bookkeeping of its readouts.
struct Shown {
  ui::Readouts readouts;
  FrameStats stats;
  long long collision_steps = 0, collision_contacts = 0;  // at the last reading
  long long dt_steps_seen = -1;  // the step count of the adaptive step's last history entry
  long long floor_said = 0;      // floor hits already told about
  long long diag_readings = 0;   // for the summary: diagnostics readings and their cost
  double diag_total_ms = 0.0;
};

// The density map picture (gfx/density_map.h): the GPU's scratch, the map (mass per pixel) and
// its colours, and what they were made from (a paused frame draws them again).
struct DensityPicture {
  std::unique_ptr<gfx::DeviceDensityMap> device;
  std::vector<float> map, h;
  std::vector<std::uint8_t> rgba;
  float lo = 0.0f, hi = 0.0f;  // the map's range (mass per pixel), fitted on each new map
  std::uint64_t version = 0;
  gfx::SpriteParams params;
  int palette = -1;
  float ms = -1.0f;  // the newest map's time
};

// The camera moving on its own (App::drive_camera): the path's clock and the view it started
// from, and the sphere --keep-frame eases to.
struct CameraDrive {
  double clock = 0.0;  // seconds of the path's clock
  ViewParams path_start;
  bool path_playing = false;
  std::optional<Sphere> goal;
};

// The input since the last frame.
struct Input {
  std::vector<ui::Action> actions;
  std::vector<std::pair<int, int>> keys;  // (key, mods) pressed
  bool quit = false;
  bool step_once = false;
};

}  // namespace orrery::app
