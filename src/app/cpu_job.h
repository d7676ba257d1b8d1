// CPU steps on a worker thread, so the window keeps answering (Esc, close, the panel) while a step
// at large N takes seconds or minutes: the Runner's loop on the worker, with progress,
// cancellation, a finite check after every step and the diagnostics it was asked for.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "orrery/runner.h"

namespace orrery::app {

class CpuJob {
 public:
  CpuJob() = default;
  ~CpuJob();  // cancels and joins
  CpuJob(const CpuJob&) = delete;
  CpuJob& operator=(const CpuJob&) = delete;

  // Starts `steps` steps of the simulation on the host arrays b on a worker thread. The arrays and
  // the simulation must stay untouched until finish() or cancel(). The run stops at the first step
  // that leaves a non-finite value. measure_before / measure_after: readings of the state before
  // the first step / after the last.
  void start(Simulation& sim, int steps, const Bodies& b, bool measure_before, bool measure_after);
  bool active() const { return m_thread.joinable(); }
  // Waits up to `ms` for the run to end; true when it has.
  bool wait_for(double ms);
  // After wait_for() said true: joins, rethrows the worker's exception, and returns the run (its
  // steps fewer than asked when a step left non-finite values); bodies() holds the newest state.
  const RunResult& finish();
  // Stops the run at the next body, joins, and puts the state, the time and the step count back
  // as they were at start().
  void cancel();

  // Fraction of the run's body updates done, in [0, 1], and seconds since start().
  float progress() const;
  double running_s() const;
  // The arrays after the run (pos: the newest positions; n: the bodies left after merges).
  const Bodies& bodies() const { return m_bodies; }

 private:
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  StepControl m_control;
  Simulation* m_sim = nullptr;
  Simulation::Clock m_clock;  // at start()
  long long m_total = 1;      // body updates in the run
  Bodies m_start, m_bodies;
  RunResult m_result;
  std::chrono::steady_clock::time_point m_started;
  std::vector<Vec4> m_pos_backup, m_vel_backup;
  std::exception_ptr m_error;
};

}  // namespace orrery::app
