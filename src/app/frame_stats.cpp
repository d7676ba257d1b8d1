// FrameStats: windowed FPS, exponential smoothing of solver rates, ring-buffer history.
#include "frame_stats.h"

#include <algorithm>

#include "orrery/physics.h"

namespace orrery::app {

FrameStats::FrameStats()
    : m_start(Clock::now()), m_last(m_start), m_window_start(m_start), m_history(240, 0.0f) {}

void FrameStats::start() { m_start = m_last = m_window_start = Clock::now(); }

void FrameStats::record(float sim_ms, double interactions) {
  const Clock::time_point now = Clock::now();
  m_last_ms = std::chrono::duration<float, std::milli>(now - m_last).count();
  m_last = now;
  ++m_frames;
  ++m_window_frames;
  m_history[static_cast<std::size_t>(m_head)] = m_last_ms;
  m_head = (m_head + 1) % static_cast<int>(m_history.size());
  const float window = std::chrono::duration<float>(now - m_window_start).count();
  if (window >= 0.5f) {
    m_fps = static_cast<float>(m_window_frames) / window;
    m_window_ms = 1000.0f * window / static_cast<float>(m_window_frames);
    m_window_frames = 0;
    m_window_start = now;
  }
  if (m_frames == 1) m_first_end = now;
  if (sim_ms >= 0.0f && m_frames == 1) m_first_sim_ms = sim_ms;
  if (sim_ms >= 0.0f && m_frames > 1) {
    ++m_sim_frames;
    m_sim_total_ms += sim_ms;
  }
  if (sim_ms >= 0.0f) {
    // The rate is the smoothed interactions over the smoothed time, not a smoothed ratio: a
    // frame whose step reused a diagnostics pass's forces (cpu-bh) did little work in little
    // time, and its ratio alone says nothing.
    const double a = m_sim_ms == 0.0 ? 1.0 : 0.1;
    m_interactions += a * (interactions - m_interactions);
    m_sim_ms += a * (static_cast<double>(sim_ms) - m_sim_ms);
  }
}

void FrameStats::restart_window() {
  m_window_start = Clock::now();
  m_window_frames = 0;
}

void FrameStats::record_draw(float gl_ms, float splat_ms) {
  if (gl_ms < 0.0f) return;
  if (!m_first_draw_seen) {  // the first reading times the first frame: start-up, like its sim
    m_first_draw_seen = true;
    return;
  }
  // A frame's GL work cannot take longer than the frames that followed it until it was read: a
  // reading far longer (llvmpipe's headless queries gave 430,000 ms in a 0.06 s run) is the
  // driver's, not a time, and the run's GL figure is then not given at all.
  if (gl_ms > k_gl_read_frames * m_last_ms + 10.0f) {
    ++m_gl_implausible;
    return;
  }
  m_gl_total_ms += gl_ms;
  float draw_ms = gl_ms;
  if (splat_ms >= 0.0f) {
    draw_ms += splat_ms;
    m_splat_total_ms += splat_ms;
    ++m_splat_frames;
  }
  m_draw_ms = m_draw_ms < 0.0f ? draw_ms : m_draw_ms + 0.1f * (draw_ms - m_draw_ms);
  m_draw_total_ms += draw_ms;
  ++m_draw_frames;
}

double FrameStats::mean_splat_ms() const {
  return m_splat_frames ? m_splat_total_ms / static_cast<double>(m_splat_frames) : -1.0;
}

double FrameStats::mean_draw_ms() const {
  return m_draw_frames && !m_gl_implausible ? m_draw_total_ms / static_cast<double>(m_draw_frames)
                                            : -1.0;
}

double FrameStats::mean_gl_ms() const {
  return m_draw_frames && !m_gl_implausible ? m_gl_total_ms / static_cast<double>(m_draw_frames)
                                            : -1.0;
}

void FrameStats::fill(ui::Readouts& r) const {
  r.fps = m_fps > 0.0f
              ? m_fps
              : (m_last_ms > 0.0f ? 1000.0f / m_last_ms : 0.0f);  // before the first window
  r.frame_ms = m_window_ms > 0.0f ? m_window_ms : m_last_ms;
  r.sim_ms = static_cast<float>(m_sim_ms);
  const double rate = m_sim_ms > 0.0 ? m_interactions / (m_sim_ms * 1e-3) : 0.0;
  r.draw_ms = m_draw_ms;
  r.interactions_per_s = rate;
  r.gflops = rate * k_flops_per_interaction * 1e-9;
  r.frames = m_frames;
  // Only the frames recorded so far, oldest first (no run of zeros at the start).
  const std::size_t size = m_history.size();
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(m_frames), size);
  r.frame_ms_history.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    r.frame_ms_history[i] = m_history[(static_cast<std::size_t>(m_head) + size - count + i) % size];
  r.history_head = 0;
}

double FrameStats::elapsed_s() const {
  return std::chrono::duration<double>(m_last - m_start).count();
}

double FrameStats::mean_fps() const {
  const bool steady = m_frames > 1;
  const double s = std::chrono::duration<double>(m_last - (steady ? m_first_end : m_start)).count();
  return s > 0.0 ? static_cast<double>(steady ? m_frames - 1 : m_frames) / s : 0.0;
}

double FrameStats::mean_sim_ms() const {
  return m_sim_frames ? m_sim_total_ms / static_cast<double>(m_sim_frames) : m_first_sim_ms;
}

}  // namespace orrery::app
