// The viewer's playback clock (series_player.h).
#include "series_player.h"

#include <algorithm>
#include <cmath>

namespace orrery::app {

SeriesPlayer::SeriesPlayer(std::vector<PlaybackOutput> outputs, const LoadOptions& o,
                           std::size_t budget)
    : m_reader(std::move(outputs), o, budget) {
  m_reader.aim(0, 1);
}

void SeriesPlayer::seek(double position) {
  m_position = std::clamp(position, 0.0, static_cast<double>(outputs() - 1));
}

void SeriesPlayer::step(int by) {
  const int from = static_cast<int>(std::floor(m_position + (by < 0 ? -1e-9 : 0.0)));
  int k = from + (by < 0 ? (m_position > from ? 0 : -1) : 1);
  k = std::clamp(k, 0, outputs() - 1);
  const int found = readable_from(k, by < 0 ? -1 : 1);
  seek(found >= 0 ? found : k);
}

void SeriesPlayer::note_gap(int k, const std::string& line) {
  if (std::find(m_told.begin(), m_told.end(), k) != m_told.end()) return;
  m_told.push_back(k);
  m_new_gaps.push_back("output " + std::to_string(k) + " skipped: " + line);
}

std::vector<std::string> SeriesPlayer::take_gaps() {
  std::vector<std::string> out;
  out.swap(m_new_gaps);
  return out;
}

int SeriesPlayer::readable_from(int k, int direction) {
  for (; k >= 0 && k < outputs(); k += direction) {
    const PlaybackSlot s = slot(k);
    if (s.gap.empty()) return k;
    note_gap(k, s.gap);
  }
  return -1;
}

void SeriesPlayer::set_device_motion(bool on) {
  if (on == device_motion()) return;
  m_device = on ? std::make_unique<DevicePlayback>() : nullptr;
  m_shown_at = -1;  // show again, from where the motion runs now
}

std::shared_ptr<const PlaybackFrame> SeriesPlayer::output_now() {
  const int k = std::max(m_shown_output, 0);
  return m_reader.wait(k).frame;
}

const PlaybackFrame* SeriesPlayer::advance(double seconds, bool wait) {
  m_wait = wait;
  const double last = static_cast<double>(outputs() - 1);
  if (m_playing && !m_waiting && seconds > 0) {
    double rate = m_speed;  // outputs a second
    if (m_in_time) {        // time a second: over the times of the outputs about the clock
      const int k = static_cast<int>(std::floor(m_position)) -
                    (m_direction < 0 && m_position == std::floor(m_position) ? 1 : 0);
      if (m_wait && k >= 0 && k + 1 < outputs()) slot(k), slot(k + 1);  // their times, read
      const std::optional<double> ta = k >= 0 ? m_reader.time(k) : std::nullopt,
                                  tb = k + 1 < outputs() ? m_reader.time(k + 1) : std::nullopt;
      rate = ta && tb && *tb > *ta ? m_speed / (*tb - *ta) : 1.0;
    }
    m_position += m_direction * rate * seconds;
    if (m_position > last || m_position < 0) {
      if (m_loop && last > 0) {
        m_position = m_position > last ? 0.0 : last;
      } else {
        m_position = std::clamp(m_position, 0.0, last);
        m_playing = false;  // the end: play again from here with Space
      }
    }
  }
  const int at = static_cast<int>(std::floor(m_position));
  m_reader.aim(at, m_playing ? m_direction : 0);
  if (m_position == m_shown_at) return nullptr;
  // The readable outputs about the clock: a at or before it, b after a (gaps are stepped over).
  const int a = readable_from(at, -1);
  if (a < 0) return nullptr;
  const PlaybackSlot sa = slot(a);
  m_waiting = !sa.frame;
  if (!sa.frame) return nullptr;
  const bool between = m_smooth && m_position > a && a < last;
  int b = between ? readable_from(a + 1, 1) : -1;
  std::shared_ptr<const PlaybackFrame> fb;
  if (b >= 0) {
    const PlaybackSlot sb = slot(b);
    m_waiting = !sb.frame;
    if (!sb.frame) return nullptr;
    fb = sb.frame;
    if (!m_device && m_match_of != a * outputs() + b) {
      try {
        m_match = match_bodies(*sa.frame, *fb);
        m_match_of = a * outputs() + b;
      } catch (const InputError& e) {
        note_gap(b, std::string(e.what()) + " (shown without motion between them)");
        fb.reset();
      }
    }
  }
  const PlaybackFrame& fa = *sa.frame;
  if (!fb && a == m_shown_output && m_shown_raw) {  // the same output, already shown as it is
    m_shown_at = m_position;
    return nullptr;
  }
  if (m_device) {
    // The output play reaches after this pair, to upload ahead (never waited for).
    const int after = m_direction < 0 ? a - 1 : (b >= 0 ? b : a) + 1;
    const std::shared_ptr<const PlaybackFrame> next =
        after >= 0 && after < outputs() ? m_reader.slot(after).frame : nullptr;
    const bool up = m_device->ready(sa.frame, fb, next, m_wait);
    for (auto& [k, why] : m_device->take_unmatched())
      note_gap(k, why + " (shown without motion between them)");
    m_waiting = !up;
    if (!up) return nullptr;
  }
  m_shown_raw = !fb;
  m_shown.index = a;
  m_pair_a = sa.frame;
  if (fb) {
    const double s = std::clamp((m_position - a) / (b - a), 0.0, 1.0);
    m_shown.time = fa.time + s * (fb->time - fa.time);
    if (!m_device) hermite_between(fa, *fb, m_match, m_shown.time, m_shown.bodies);
  } else {
    m_shown.time = fa.time;
    if (!m_device) m_shown.bodies = fa.bodies;
  }
  m_shown_at = m_position;
  m_shown_output = a;
  return &m_shown;
}

}  // namespace orrery::app
