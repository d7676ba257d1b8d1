// The viewer's playback of a snapshot series (issue 45): a clock over the outputs (play, pause,
// step, scrub, loop, backwards, a speed in outputs a second), the state it shows each frame - the
// cubic Hermite motion between the two outputs about it, or the raw outputs - read from the
// engine's SeriesReader, which reads ahead on its own thread: a frame whose outputs are not read
// yet keeps what it showed, and the clock waits for them, so drawing never waits on the disk.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "orrery/playback.h"

namespace orrery::app {

class SeriesPlayer {
 public:
  // budget: bytes of outputs the reader holds at once.
  SeriesPlayer(std::vector<PlaybackOutput> outputs, const LoadOptions& o, std::size_t budget);

  int outputs() const { return m_reader.size(); }
  bool playing() const { return m_playing; }
  void set_playing(bool on) { m_playing = on; }
  int direction() const { return m_direction; }
  void set_direction(int d) { m_direction = d < 0 ? -1 : 1; }
  // Outputs a second, or with `in_time` simulation time a second (the pace between two outputs
  // then follows their times; where they are not known yet, one output a second).
  double speed() const { return m_speed; }
  bool speed_in_time() const { return m_in_time; }
  void set_speed(double speed, bool in_time = false) { m_speed = speed, m_in_time = in_time; }
  bool loop() const { return m_loop; }
  void set_loop(bool on) { m_loop = on; }
  bool smooth() const { return m_smooth; }  // false: the raw outputs
  void set_smooth(bool on) { m_smooth = on, m_shown_at = -1, m_shown_raw = false; }
  // Where the clock is, in outputs (2.5: halfway from output 2 to 3); seek() moves it there
  // (clamped), a step to the next or previous readable output.
  double position() const { return m_position; }
  void seek(double position);
  void step(int by);

  // With `on`, the motion runs on the device (a GPU solver's buffers): advance() then gives only
  // the state's time, once the outputs it needs are on the device (uploaded on a thread of their
  // own: the clock waits for them as for a read), and move_on_device() writes its bodies. Off: on
  // the host, into the state advance() gives. Throws std::runtime_error where no device is.
  void set_device_motion(bool on);
  bool device_motion() const { return m_device != nullptr; }
  void move_on_device(double t, Vec4* out_pos, Vec4* out_vel) {
    m_device->move(t, out_pos, out_vel);
  }
  // The earlier of the two outputs the last state given is between (its bodies, labels, order).
  const std::shared_ptr<const PlaybackFrame>& pair_a() const { return m_pair_a; }
  // Advances the clock by `seconds` of the viewer's clock (while playing) and gives the state to
  // show when it changed since the last call (null: keep what is shown, or nothing is read yet):
  // its time and, with host motion, its bodies; its types and IDs are pair_a()'s. Throws
  // std::runtime_error where the device's upload failed.
  // Never waits, unless `wait` (headless and recording, where every frame must show its moment:
  // the outputs it needs are then waited for). New gap lines are in take_gaps().
  const PlaybackFrame* advance(double seconds, bool wait = false);
  // The output about the clock whose bodies (types, IDs, order) the shown state has: the earlier
  // of the two it is between.
  int shown_output() const { return m_shown_output; }
  double shown_time() const { return m_shown.time; }
  const std::string& label(int k) const { return m_reader.output(k).label; }
  bool waiting() const { return m_waiting; }  // the clock waits for outputs being read
  // Lines for outputs found unreadable since the last call, to print once each.
  std::vector<std::string> take_gaps();
  int gap_count() const { return static_cast<int>(m_told.size()); }
  const SeriesReader& reader() const { return m_reader; }
  // The frames' wall time while playing (the viewer's clock, after the first few frames): the
  // longest, for the exit line (a stall shows there).
  void note_frame(double ms) {
    if (m_playing && ++m_frames > 3) m_longest_ms = std::max(m_longest_ms, ms);
  }
  double longest_frame_ms() const { return m_longest_ms; }
  // The output under the clock as read (waits for it): "continue from here" starts a run from it.
  std::shared_ptr<const PlaybackFrame> output_now();

 private:
  // The readable output at or after (direction +1) or before (-1) k, or -1.
  int readable_from(int k, int direction);
  PlaybackSlot slot(int k) { return m_wait ? m_reader.wait(k) : m_reader.slot(k); }
  void note_gap(int k, const std::string& line);

  SeriesReader m_reader;
  bool m_playing = true, m_loop = false, m_smooth = true, m_waiting = false, m_wait = false;
  bool m_in_time = false;
  long long m_frames = 0;
  double m_longest_ms = 0.0;
  int m_direction = 1;
  double m_speed = 2.0, m_position = 0.0;
  // What was last shown: the clock position and its state (the earlier output's bodies).
  double m_shown_at = -1.0;
  int m_shown_output = -1;
  bool m_shown_raw = false;  // m_shown is output m_shown_output as read
  std::unique_ptr<DevicePlayback> m_device;
  std::shared_ptr<const PlaybackFrame> m_pair_a;
  PlaybackFrame m_shown;
  // Matching of the pair last interpolated on the host (outputs a, a + 1).
  int m_match_of = -1;
  std::vector<int> m_match;
  std::vector<int> m_told;  // gaps already reported
  std::vector<std::string> m_new_gaps;
};

}  // namespace orrery::app
