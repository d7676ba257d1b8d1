// CPU steps on a worker thread, so the window keeps answering (Esc, close, the panel) while a step
// at large N takes seconds or minutes; with progress, cancellation, a per-step finite check and
// the diagnostics measured on the same thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "orrery/system.h"

namespace orrery::app {

class CpuJob {
 public:
  CpuJob() = default;
  ~CpuJob();  // cancels and joins
  CpuJob(const CpuJob&) = delete;
  CpuJob& operator=(const CpuJob&) = delete;

  // Starts `steps` steps of the system on the arrays (a holds the newest positions; ping-pong
  // a -> b -> a ..., velocities in place) on a worker thread. The arrays and the system must stay
  // untouched until finish() or cancel(). Each step is followed by a check for non-finite values;
  // the run stops at the first step that leaves one. measure_before / measure_after: the
  // diagnostics of the state before the first step / after the last.
  void start(System& system, int steps, Vec4* a, Vec4* b, Vec4* vel, int n, bool measure_before,
             bool measure_after);
  bool active() const { return m_thread.joinable(); }
  // Waits up to `ms` for the run to end; true when it has.
  bool wait_for(double ms);
  // After wait_for() said true: joins, rethrows the worker's exception, and returns the steps done
  // (fewer than asked when a step left non-finite values; see nonfinite_body()).
  int finish();
  // Stops the run at the next body, joins, and restores the positions in `a` and the velocities
  // as they were at start(): the state is the one before the run.
  void cancel();

  // Fraction of the run's body updates done, in [0, 1], and seconds since start().
  float progress() const;
  double running_s() const;
  long long nonfinite_body() const { return m_bad_body; }  // -1 when the state stayed finite
  // The diagnostics asked for at start(), once finish() returned.
  const std::optional<Diagnostics>& before() const { return m_before; }
  const std::optional<Diagnostics>& after() const { return m_after; }
  // The bodies left after the run (merges remove some), once finish() returned.
  int bodies_left() const { return m_bodies_left; }

 private:
  void run(int steps, Vec4* a, Vec4* b, Vec4* vel, int n, bool measure_before, bool measure_after);
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  StepControl m_control;
  System* m_system = nullptr;
  long long m_total = 1;  // body updates in the run
  int m_steps_done = 0;
  int m_bodies_left = 0;
  long long m_bad_body = -1;
  std::optional<Diagnostics> m_before, m_after;
  std::chrono::steady_clock::time_point m_start;
  Vec4* m_pos = nullptr;
  Vec4* m_vel = nullptr;
  std::vector<Vec4> m_pos_backup, m_vel_backup;
  std::exception_ptr m_error;
};

}  // namespace orrery::app
