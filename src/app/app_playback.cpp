// Playing a series back in the viewer (series_player.h): the clock each frame, its state shown in
// place of a step (the same buffers, so colour, trails, picking, recording and screenshots work on
// it as on a run), the keys and the panel, and "continue from here".
#include <algorithm>

#include "app.h"

namespace orrery::app {

void App::start_playback() {
  m_playback = std::make_unique<SeriesPlayer>(
      m_opts.series, m_opts.load_options, static_cast<std::size_t>(m_opts.play_memory_mb) << 20);
  SeriesPlayer& pb = *m_playback;
  m_shown_labels = 0;
  pb.set_speed(m_opts.play_speed, m_opts.play_speed_in_time);
  pb.set_loop(m_opts.play_loop);
  pb.set_smooth(!m_opts.play_raw);
  m_settings.paused = true;  // nothing steps: the series' outputs are the state
  ui::PlaybackPanel& p = m_settings.playback;
  p.active = true;
  p.outputs = pb.outputs();
  p.playing = true;
  p.loop = m_opts.play_loop;
  p.smooth = !m_opts.play_raw;
  p.speed = static_cast<float>(m_opts.play_speed);
  p.speed_in_time = m_opts.play_speed_in_time;
  p.budget_mb = static_cast<double>(m_opts.play_memory_mb);
  char speed[32];
  std::snprintf(speed, sizeof speed, "%g", m_opts.play_speed);
  say("orrery: playing a series of " + std::to_string(pb.outputs()) + " outputs (" + pb.label(0) +
      " to " + pb.label(pb.outputs() - 1) + ") at " + speed +
      (m_opts.play_speed_in_time ? " of simulation time a second, " : " outputs a second, ") +
      (m_opts.play_raw ? "as they are" : "smoothly between them") +
      "; Space pauses, . and , step, Backspace turns back");
}

void App::play_frame() {
  SeriesPlayer& pb = *m_playback;
  ui::PlaybackPanel& p = m_settings.playback;
  pb.set_playing(p.playing);
  pb.set_direction(p.backwards ? -1 : 1);
  pb.set_loop(p.loop);
  if (pb.smooth() != p.smooth) pb.set_smooth(p.smooth);
  pb.set_speed(std::max(1e-6, static_cast<double>(p.speed)), p.speed_in_time);
  if (p.seek) pb.seek(p.position), p.seek = false;
  // Headless and while recording, a frame is 1/--record-fps of play (as the camera's path).
  const bool fixed_rate = m_opts.play_clock.empty()
                              ? m_capture.recorder || m_opts.headless
                              : m_opts.play_clock == "frames" || m_capture.recorder;
  pb.note_frame(m_shown.stats.last_frame_ms());
  const double dt =
      fixed_rate ? 1.0 / m_opts.record_fps : std::min(m_shown.stats.last_frame_ms() * 1e-3, 0.1);
  const std::shared_ptr<const PlaybackFrame> was = pb.pair_a();
  // With a GPU solver the motion between outputs runs on the device, from each output uploaded
  // once on a thread of its own; else on the host, into a state uploaded each frame.
  const bool device = m_run->buffers().on_device();
  if (device != pb.device_motion()) {
    try {
      pb.set_device_motion(device);
    } catch (const std::exception& e) {
      say(std::string("orrery: playback: the motion runs on the host: ") + e.what());
    }
  }
  const PlaybackFrame* f = nullptr;
  try {
    f = pb.advance(dt, fixed_rate);
  } catch (const std::exception& e) {  // the device's upload failed: on the host from here
    say(std::string("orrery: playback: ") + e.what() + "; the motion runs on the host");
    pb.set_device_motion(false);
  }
  if (f) {
    try {
      const BodyState& a = pb.pair_a()->bodies;
      if (a.size() != m_run->count()) {  // merges between outputs: buffers for the new count
        RunState run = m_run->run_state();
        run.time = f->time;
        m_run->load(a, &run, run.units);
        m_shown_labels = 0;
      }
      if (pb.device_motion()) {
        m_run->show_on_device([&](Bodies& b) { pb.move_on_device(f->time, b.next, b.vel); },
                              f->time);
      } else {
        m_run->show(f->bodies, f->time);
      }
      // The shown state's bodies are a's; outputs with the same labels (the same bodies in ID
      // order) need not hand them over again (128 MB of IDs at 16M bodies).
      const PlaybackFrame& labels = *pb.pair_a();
      if (!labels.types.empty() && labels.labels_key != m_shown_labels) {
        m_run->set_types(labels.types, labels.ids);
        m_shown_labels = labels.labels_key;
      }
      if (was && was != pb.pair_a()) keep_picked(*was, *pb.pair_a());
    } catch (const std::exception& e) {
      say(std::string("orrery: playback: ") + e.what());
    }
  }
  for (const std::string& line : pb.take_gaps()) say("orrery: playback: " + line);
  p.playing = pb.playing();
  p.position = static_cast<float>(pb.position());
  p.time = pb.shown_time();
  p.label = pb.label(std::max(pb.shown_output(), 0));
  p.gaps = pb.gap_count();
  p.waiting = pb.waiting();
  p.held_mb = static_cast<double>(pb.reader().held_bytes()) / (1 << 20);
}

// The picked (and followed) body by its ID in the next output, whose order may differ (GADGET
// reorders its particles); by index where the outputs carry no IDs. Gone (merged): none picked.
void App::keep_picked(const PlaybackFrame& from, const PlaybackFrame& to) {
  int& picked = m_settings.picked;
  if (picked < 0 || from.ids.empty() || to.ids.empty() ||
      picked >= static_cast<int>(from.ids.size()))
    return;
  const std::uint64_t id = from.ids[static_cast<std::size_t>(picked)];
  const auto it = std::lower_bound(to.ids.begin(), to.ids.end(), id);  // outputs are in ID order
  const bool found = it != to.ids.end() && *it == id;
  if (found) picked = static_cast<int>(it - to.ids.begin());
  if (!found) {
    picked = -1;
    say("orrery: playback: the picked body (ID " + std::to_string(id) + ") is not in output " +
        std::to_string(to.index));
  }
}

// Space plays and pauses, . and , step an output, Backspace turns play around, and the panel's
// "Continue from here" starts a run; other actions are the viewer's own.
bool App::playback_action(const ui::Action& a) {
  ui::PlaybackPanel& p = m_settings.playback;
  switch (a.kind) {
    case ui::ActionKind::toggle_pause:
      p.playing = !p.playing;
      say(p.playing ? "playing" : "paused");
      return true;
    case ui::ActionKind::single_step:
    case ui::ActionKind::play_step_back:
      p.playing = false;
      m_playback->set_playing(false);
      m_playback->step(a.kind == ui::ActionKind::single_step ? 1 : -1);
      say("output " + std::to_string(static_cast<int>(m_playback->position())));
      return true;
    case ui::ActionKind::reverse_time:
      p.backwards = !p.backwards;
      say(p.backwards ? "playing backwards" : "playing forwards");
      return true;
    case ui::ActionKind::continue_run:
      continue_run();
      return true;
    default:
      return false;
  }
}

// A live run from the output on screen (as read, not the motion between outputs), with the run's
// settings; the series is closed.
void App::continue_run() {
  const std::shared_ptr<const PlaybackFrame> f = m_playback->output_now();
  if (!f) {
    say("orrery: playback: the output on screen cannot be read: no run started");
    return;
  }
  RunState run = m_run->run_state();
  run.time = f->time;
  try {
    m_run->load(f->bodies, &run, run.units);
    if (!f->types.empty()) m_run->set_types(f->types, f->ids);
  } catch (const std::exception& e) {
    say(std::string("orrery: playback: cannot continue: ") + e.what());
    return;
  }
  say("orrery: continuing from output " + std::to_string(f->index) + " (" +
      m_playback->label(f->index) + ", t = " + std::to_string(f->time) + ")");
  m_playback.reset();
  m_settings.playback.active = false;
  m_settings.paused = false;
}

void App::report_playback() {
  if (!m_playback) return;
  const SeriesPlayer& pb = *m_playback;
  char line[512];
  std::snprintf(line, sizeof line,
                "orrery: playback: at output %.2f of %d (%s), t = %.6g, %d skipped, %s; the "
                "longest frame while playing %.1f ms",
                pb.position(), pb.outputs(), pb.label(std::max(pb.shown_output(), 0)).c_str(),
                pb.shown_time(), pb.gap_count(), pb.smooth() ? "smooth" : "raw",
                pb.longest_frame_ms());
  say(line);
}

}  // namespace orrery::app
