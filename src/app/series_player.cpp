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

void DeviceMotion::hold(const std::shared_ptr<const PlaybackFrame>& fa,
                        const std::shared_ptr<const PlaybackFrame>& fb,
                        const std::vector<int>& b_of_a) {
  auto up = [](const std::vector<Vec4>& v, GpuBuffer<Vec4>& d) {
    d.enlarge(v.size());
    d.upload(v.data(), v.size());
  };
  if (fa != a) {
    if (fa == b) {  // play moved on a pair: the new a is on the device already, as the old b
      std::swap(a_pos, b_pos), std::swap(a_vel, b_vel);
    } else {
      up(fa->bodies.pos, a_pos), up(fa->bodies.vel, a_vel);
    }
    a = fa;
    b.reset();  // its matching was against the a before
  }
  if (fb && fb != b) {
    up(fb->bodies.pos, b_pos), up(fb->bodies.vel, b_vel);
    match.enlarge(b_of_a.size());
    match.upload(b_of_a.data(), b_of_a.size());
  }
  b = fb;
}

void DeviceMotion::move(double t, Vec4* out_pos, Vec4* out_vel) const {
  hermite_between_device(a_pos.data(), a_vel.data(), b ? b_pos.data() : nullptr, b_vel.data(),
                         match.data(), static_cast<int>(a->bodies.pos.size()), a->time,
                         b ? b->time : a->time, t, out_pos, out_vel);
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
    if (m_match_of != a * outputs() + b) {
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
  m_shown_raw = !fb;
  m_shown.index = a;
  m_pair_a = sa.frame, m_pair_b = fb;
  if (fb) {
    const double s = std::clamp((m_position - a) / (b - a), 0.0, 1.0);
    m_shown.time = fa.time + s * (fb->time - fa.time);
    if (m_host_motion) hermite_between(fa, *fb, m_match, m_shown.time, m_shown.bodies);
  } else {
    m_shown.time = fa.time;
    if (m_host_motion) m_shown.bodies = fa.bodies;
  }
  m_shown_at = m_position;
  m_shown_output = a;
  return &m_shown;
}

}  // namespace orrery::app
