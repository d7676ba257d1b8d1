// The viewer's files besides screenshots: quick save and quick load (F5 / F9), --load at start
// (through the constructor), --save / --export-csv after the last frame, scenes, and recording.
// A failed load keeps the running simulation untouched and says why in the panel.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "app.h"
#include "gfx/colormap.h"
#include "gfx/screenshot.h"
#include "orrery/device.h"
#include "orrery/formats.h"
#include "orrery/param_table.h"
#include "orrery/run_settings.h"

namespace orrery::app {

void App::note_file(const std::string& line, bool error) {
  m_shown.readouts.file_note = line;
  m_shown.readouts.file_note_error = error;
  if (error)
    std::fprintf(stderr, "orrery: %s\n", line.c_str());
  else
    say(line);
}

bool App::save_state(const std::string& path) {
  try {
    return save_state(path, m_run->snapshot(m_settings.block));
  } catch (const std::exception& e) {
    m_capture.output_error = std::string("cannot save: ") + e.what();  // a lost save is exit 1
    note_file(m_capture.output_error, true);
    return false;
  }
}

namespace {

// Why a state must not be written ("" when it may): a non-finite one, which --load would refuse.
std::string unsavable(const Snapshot& s) {
  const long long bad = first_nonfinite(s.bodies.pos.data(), s.bodies.vel.data(), s.bodies.size());
  if (bad < 0) return "";
  return "the state is non-finite (body " + std::to_string(bad) + " at step " +
         std::to_string(s.run.steps) + "): not written";
}

}  // namespace

bool App::save_state(const std::string& path, const Snapshot& s) {
  try {
    const std::string why = unsavable(s);
    if (!why.empty()) throw std::runtime_error(path + ": " + why);
    save_snapshot(path, s);
    note_file("saved " + path + " (" + to_string(snapshot_format_for(path)) + ", " +
                  std::to_string(s.bodies.size()) + " bodies, step " + std::to_string(s.run.steps) +
                  ")",
              false);
    return true;
  } catch (const std::exception& e) {
    m_capture.output_error = std::string("cannot save: ") + e.what();  // a lost save is exit 1
    note_file(m_capture.output_error, true);
    return false;
  }
}

void App::load_state(const std::string& path) {
  start_load(path, m_opts.load_options, "loaded", true);
}

void App::start_load(const std::string& path, const LoadOptions& o, const std::string& what,
                     bool frame) {
  if (m_files.pending) {
    note_file("still reading " + m_files.pending->path + ": wait for it or cancel it", true);
    return;
  }
  auto p = std::make_unique<PendingLoad>();
  p->path = path, p->what = what, p->frame = frame;
  LoadOptions lo = o;
  lo.progress = &p->progress;  // the PendingLoad outlives the worker (its destructor waits)
  p->result = std::async(std::launch::async, [path, lo] { return load_snapshot(path, lo); });
  m_files.pending = std::move(p);
}

void App::poll_load() {
  m_shown.readouts.loading = -1.0f;
  if (!m_files.pending) return;
  PendingLoad& p = *m_files.pending;
  if (p.result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    const long long total = p.progress.total.load();
    const bool decoding = p.progress.decoding.load() || total <= 0;
    m_shown.readouts.loading =
        decoding ? 1.0f : static_cast<float>(static_cast<double>(p.progress.read.load()) / total);
    char line[200];
    std::snprintf(line, sizeof line, "%s %s (%.0f MB)", decoding ? "decoding" : "reading",
                  p.path.c_str(), static_cast<double>(total) / 1e6);
    m_shown.readouts.activity = line;
    return;
  }
  const std::unique_ptr<PendingLoad> done = std::move(m_files.pending);
  std::shared_ptr<const Snapshot> snap;
  try {
    snap = std::make_shared<const Snapshot>(done->result.get());
    if (snap->bodies.size() > k_max_bodies)
      throw InputError(done->path + ": " + std::to_string(snap->bodies.size()) +
                       " bodies, more than the viewer's " + std::to_string(k_max_bodies));
    start_from(*snap, done->path);
    if (done->frame) frame_bodies(true);
  } catch (const LoadCancelled& e) {
    note_file(std::string(e.what()) + " (the run goes on unchanged)", false);
    return;
  } catch (const std::exception& e) {
    note_file(std::string("cannot load: ") + e.what() + " (the run goes on unchanged)", true);
    return;
  }
  m_files.loaded = snap;
  m_files.loaded_preset = false;
  note_file(done->what + " " + done->path + " (" + to_string(snap->format) + ", " +
                std::to_string(snap->bodies.size()) + " bodies, step " +
                std::to_string(snap->run.steps) + ")",
            false);
}

void App::take_types(const Snapshot& snap, const std::string& from) {
  const std::string path = from;  // `from` may be m_files.path itself, cleared here
  forget_file();
  if (!snap.units_note.empty()) {  // Orrery's own file has no file units to tell
    char tail[160];
    std::snprintf(tail, sizeof tail, "; the file's time %g, redshift %g%s", snap.file_time,
                  snap.redshift, snap.box_size > 0 ? ", a periodic box" : "");
    say("orrery: " + snap.units_note + tail);
  }
  const std::string caveat = cosmology_caveat(snap.run.units);
  if (!caveat.empty()) say("orrery: " + caveat);
  if (snap.types.empty()) return;
  ui::FileReadout& f = m_shown.readouts.file;
  m_run->set_types(snap.types, snap.ids);  // colour by origin shows the particle types
  f.shown = true;
  f.name = path.empty() ? std::string("a scene's file") : path;
  f.format = to_string(snap.format);
  f.units = snap.units_note;
  f.time = snap.file_time, f.redshift = snap.redshift, f.box = snap.box_size;
  m_settings.types_edit = 0;
  for (std::uint8_t t : snap.types) {
    ++f.counts[t];
    m_settings.types_edit |= 1 << t;
  }
  f.reloadable = !path.empty();
  m_files.path = path;
  m_files.box_side = snap.box_size;
}

void App::forget_file() {
  m_shown.readouts.file = ui::FileReadout{};
  m_files.box_side = 0.0;
  m_files.path.clear();
}

// The snapshot's bodies, and (Orrery's format) its integrator, parameters, time and step count;
// the solver stays. Throws, keeping the old state, when the GPU cannot hold it or the parameters
// are refused.
void App::start_from(const Snapshot& snap, const std::string& path) {
  const RunState* run = snap.run_recorded ? &snap.run : nullptr;
  m_run->load(snap.bodies, run, snap.run.units);
  take_types(snap, path);
  if (!run && m_run->time_reversed()) m_run->set_time_reversed(false);  // a new state: forwards
  m_settings.time_reversed = m_run->time_reversed();  // a snapshot's direction comes with it
  m_settings.n = m_settings.n_edit = snap.bodies.size();
  if (run) {
    show_params(run->params);
    m_settings.integrator = run->integrator;
  }
  if (!m_shown.readouts.alert.empty()) {  // a paused, non-finite state is gone
    m_shown.readouts.alert.clear();
    m_settings.paused = false;
  }
}

void App::reload_types(int mask) {
  if (m_files.path.empty() || mask <= 0 || mask > 0x3f) return;
  LoadOptions o = m_opts.load_options;
  o.types.clear();
  std::string list;
  for (int t = 0; t < 6; ++t)
    if (mask & 1 << t) {
      o.types.push_back(t);
      list += (list.empty() ? "" : ",") + std::to_string(t);
    }
  start_load(m_files.path, o, "read types " + list + " of", false);
}

void App::write_run_outputs() {
  if (m_opts.save.empty() && m_opts.export_csv.empty()) return;
  Snapshot s;  // one read of the state for both files
  try {
    s = m_run->snapshot(m_settings.block);
  } catch (const std::exception& e) {
    m_capture.output_error = e.what();
    return;
  }
  // Failures are printed once, as the run's last line (m_capture.output_error), not here as well.
  const std::string why = unsavable(s);
  if (!why.empty()) {  // one line for both files
    std::string names;
    if (!m_opts.save.empty()) names = "--save " + m_opts.save;
    if (!m_opts.export_csv.empty())
      names += (names.empty() ? "" : ", ") + std::string("--export-csv ") + m_opts.export_csv;
    m_capture.output_error = names + ": " + why;
    return;
  }
  if (!m_opts.save.empty()) {
    try {
      save_snapshot(m_opts.save, s);
      say("saved " + m_opts.save + " (" + to_string(snapshot_format_for(m_opts.save)) + ", " +
          std::to_string(s.bodies.size()) + " bodies, step " + std::to_string(s.run.steps) + ")");
    } catch (const std::exception& e) {
      m_capture.output_error = e.what();
    }
  }
  if (!m_opts.export_csv.empty()) {
    try {
      save_snapshot(m_opts.export_csv, s, SnapshotFormat::csv);
      say("wrote " + m_opts.export_csv + " (" + std::to_string(s.bodies.size()) + " bodies)");
    } catch (const std::exception& e) {
      m_capture.output_error = e.what();
    }
  }
}

void App::start_recording(const std::string& path) {
  int w = 0, h = 0;
  target_size(w, h);
  try {
    m_capture.recorder = std::make_unique<Recorder>(path, w & ~1, h & ~1, m_opts.record_fps);
  } catch (const std::exception& e) {
    note_file(std::string("cannot record: ") + e.what(), true);
    m_capture.output_error = e.what();
    return;
  }
  m_capture.record_said = std::chrono::steady_clock::now();
  say("recording started " + path + " (" + std::to_string(m_capture.recorder->width()) + "x" +
      std::to_string(m_capture.recorder->height()) + ", " + std::to_string(m_opts.record_fps) +
      " fps)");
}

void App::record_frame() {
  int w = 0, h = 0;
  target_size(w, h);
  try {
    // A resized window keeps recording, fitted to the recording's size (it once stopped it).
    w &= ~1, h &= ~1;
    gfx::read_rgb(target_framebuffer(), w, h, m_capture.frame_rgb);
    m_capture.recorder->add_fitted(m_capture.frame_rgb.data(), w, h);
  } catch (const std::exception& e) {
    // The frames so far are kept where the file can still be closed; the run ends with exit 1.
    m_capture.output_error = std::string("recording stopped: ") + e.what();
    note_file(m_capture.output_error, true);
    std::unique_ptr<Recorder> r = std::move(m_capture.recorder);
    try {
      r->finish();
    } catch (const std::exception&) {  // the same cause, already said
    }
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - m_capture.record_said >= std::chrono::seconds(2)) {
    m_capture.record_said = now;
    say("orrery: " + m_capture.recorder->progress());
  }
}

void App::stop_recording() {
  if (!m_capture.recorder) return;
  std::unique_ptr<Recorder> r = std::move(m_capture.recorder);
  try {
    r->finish();
  } catch (const std::exception& e) {
    note_file(e.what(), true);
    m_capture.output_error = e.what();  // any recording's, the V key's too: a lost video is exit 1
    return;
  }
  std::string line = r->progress();  // "recording FILE: N frames, ..."
  line.replace(0, std::string("recording").size(), "recording stopped");
  say(line);
}

void App::open_scene(const std::string& path) {
  SceneFile sc;
  std::shared_ptr<Snapshot> snap = std::make_shared<Snapshot>();
  try {
    sc = load_scene(path);
    snap->run_recorded = true;  // the scene's settings, from step 0
    // The scene's settings by the command line's rule, with nothing typed over them.
    const ResolvedSettings r =
        resolve_settings(settings_of(sc), TypedSettings{}, "scene",
                         [&](const std::string& s) { return catalog_index(s) >= 0; });
    // A GPU scene where its solver cannot run keeps the current N, not the scene's.
    const bool here = r.note.empty();
    snap->bodies = scene_bodies(sc, sc.n > 0 && here ? sc.n : m_settings.n);
    if (!here)
      say("orrery: " + r.note + "; keeping " + m_run->solver().name() +
          (sc.n > 0 && sc.n != snap->bodies.size()
               ? " and " + std::to_string(snap->bodies.size()) + " bodies instead of the scene's " +
                     std::to_string(sc.n)
               : std::string()));
    if (snap->bodies.size() > k_max_bodies)
      throw InputError(std::to_string(snap->bodies.size()) + " bodies, more than the viewer's " +
                       std::to_string(k_max_bodies));
    snap->run.params = r.settings.params;
    snap->run.integrator = r.settings.integrator;
    // The scene's solver first (where it runs here), so its memory check covers the new N.
    const int index = r.settings.solver.empty() ? -1 : catalog_index(r.settings.solver);
    if (index >= 0 && index != m_settings.solver)
      switch_solver(index, r.settings.block > 0 ? r.settings.block : -1);
    start_from(*snap, "");
  } catch (const std::exception& e) {
    note_file(std::string("cannot open the scene: ") + e.what() + " (the run goes on unchanged)",
              true);
    return;
  }
  m_files.loaded = snap;
  m_files.loaded_preset = sc.snapshot.empty();
  m_settings.steps_per_frame = m_valid_steps = sc.steps_per_frame;
  if (sc.snapshot.empty()) {  // what R's preset, N and seed are, and Save scene writes
    m_settings.preset = sc.preset;
    m_settings.seed = sc.seed;
  }
  take_scene_camera(sc);
  note_file("scene " + (sc.name.empty() ? path : sc.name) + " (" +
                std::to_string(snap->bodies.size()) + " bodies)",
            false);
}

void App::save_current_scene() {
  SceneFile sc;
  sc.name = "Saved " + timestamp_text();  // "YYYYmmdd-HHMMSS"
  sc.description = "Saved from the viewer's panel.";
  sc.preset = m_settings.preset;
  sc.n = m_settings.n;
  sc.seed = m_settings.seed;
  sc.radius = m_opts.scene.radius;
  sc.solver = m_run->solver().name();
  sc.block = m_settings.block;
  sc.integrator = m_run->integrator();
  sc.params = m_run->params();
  sc.steps_per_frame = m_valid_steps;
  sc.view = camera_view();
  for (const ParamRow& row : view_rows()) sc.view_given.insert(row.name);
  sc.frame = to_string(m_opts.frame);
  const bool body = m_settings.follow == ui::Follow::picked_body;
  sc.follow = body && m_settings.picked < 0
                  ? std::string("none")
                  : to_string(FollowChoice{m_settings.follow, body ? m_settings.picked : -1});
  sc.keep_frame = m_settings.keep_frame;
  sc.camera_path = m_opts.camera_path;
  // Its look as it stands.
  sc.color = quantity_info(m_settings.color_quantity).name;
  sc.palette = gfx::k_palette_names[m_settings.palette];
  sc.color_scale = m_settings.color_log ? "log" : "linear";
  using Hud = ui::Settings::Hud;
  sc.hud = m_settings.hud == Hud::none      ? "none"
           : m_settings.hud == Hud::minimal ? "minimal"
                                            : "full";
  sc.mode = m_settings.density_map ? "density" : "bodies";
  if (!m_settings.color_auto)
    sc.color_range = std::make_pair(m_settings.color_lo, m_settings.color_hi);
  sc.trails = m_settings.trail_length;
  const std::string path = timestamped_name(".json", "orrery-scene");
  try {
    save_scene(path, sc);
  } catch (const std::exception& e) {
    m_capture.output_error = std::string("cannot save the scene: ") + e.what();
    note_file(m_capture.output_error, true);
    return;
  }
  note_file("scene saved to " + path +
                (m_files.loaded && !m_files.loaded_preset
                     ? " (its bodies: the preset, not the loaded state)"
                     : ""),
            false);
}

}  // namespace orrery::app
