// Frame and solver timing: FPS over half-second windows, the frame-time history, the run's means.
#pragma once

#include <chrono>
#include <vector>

#include "ui/settings.h"

namespace orrery::app {

class FrameStats {
 public:
  FrameStats();
  // Marks the start of the first frame.
  void start();
  // Call once per drawn frame; sim_ms < 0 when no step ran this frame. `interactions`: what the
  // steps it covers did (from the solver).
  void record(float sim_ms, double interactions);
  // The GPU time of the frame's drawing: gl_ms of GL work (GL sprites or tone mapping, the panel)
  // from GL timer queries read a few frames late (the first reading, the first frame's, is left
  // out; negative while none is available), and splat_ms of CUDA splat (CUDA events; negative
  // when the splat is not drawing).
  void record_draw(float gl_ms, float splat_ms);
  // Starts a new FPS window now: the time of a long pause in the loop (a block-size sweep) then
  // leaves the live FPS readout at once instead of holding it down for half a second.
  void restart_window();
  // Writes FPS, frame ms, sim ms, rates and the history into r.
  void fill(ui::Readouts& r) const;

  long long frames() const { return m_frames; }
  double elapsed_s() const;  // since the first frame started
  // Means over the frames after the first (which carries start-up work: the first map, shader
  // warm-up, cuda-fast's autotuning); over the first alone when it is the only one.
  double mean_fps() const;
  double mean_sim_ms() const;
  // GL and splat together, and GL's part: negative when none was read, or when a GL reading
  // was longer than the frames it could have taken (a driver's timer queries that do not time).
  double mean_draw_ms() const;
  double mean_gl_ms() const;
  long long implausible_gl_readings() const { return m_gl_implausible; }
  double mean_splat_ms() const;  // the splat's part; negative when it never drew
  float last_frame_ms() const { return m_last_ms; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point m_start, m_last, m_window_start, m_first_end;
  long long m_frames = 0, m_window_frames = 0, m_sim_frames = 0;
  double m_sim_total_ms = 0.0, m_first_sim_ms = 0.0, m_draw_total_ms = 0.0;
  long long m_draw_frames = 0, m_splat_frames = 0;
  double m_splat_total_ms = 0.0, m_gl_total_ms = 0.0;
  long long m_gl_implausible = 0;
  // A GL reading is read this many frames after its frame (gfx::GlGpuTimer's ring), plus one.
  static constexpr float k_gl_read_frames = 5.0f;
  bool m_first_draw_seen = false;
  float m_draw_ms = -1.0f;
  float m_last_ms = 0.0f, m_fps = 0.0f, m_window_ms = 0.0f;
  // Solver time and interactions a frame, smoothed: their ratio is the rate the panel shows.
  double m_sim_ms = 0.0, m_interactions = 0.0;
  std::vector<float> m_history;
  int m_head = 0;
};

}  // namespace orrery::app
