// CPU steps on a worker thread, so the window keeps answering (Esc, close, the panel) while a step
// at large N takes seconds or minutes: the Runner's loop on the worker over a Simulation of its
// own (the controller publishes its state when the run ends), with progress, cancellation, a
// finite check after every step and the diagnostics it was asked for.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "orrery/no_copy.h"
#include "orrery/runner.h"

namespace orrery::app {

class CpuJob : NoCopy {
 public:
  CpuJob() = default;
  ~CpuJob();  // cancels and joins

  // Starts `steps` steps of the simulation's own state on a worker thread. The simulation must
  // stay untouched until finish() or cancel(). The run stops at the first step that leaves a
  // non-finite value. measure_before / measure_after: readings of the state before the first step
  // / after the last.
  // after_step (may be empty) runs on the worker after each step (a series' outputs).
  void start(Simulation& sim, int steps, bool measure_before, bool measure_after,
             std::function<void(Simulation&, const Bodies&)> after_step = {});
  bool active() const { return m_thread.joinable(); }
  // Waits up to `ms` for the run to end; true when it has.
  bool wait_for(double ms);
  // After wait_for() said true: joins, rethrows the worker's exception, and returns the run (its
  // steps fewer than asked when a step left non-finite values); the simulation holds the newest
  // state.
  const RunResult& finish();
  // Stops the run at the next body and joins. The simulation is left part of the way through a
  // step: its state is no longer a run's, and its owner seeds it again before the next run.
  void cancel();

  // Fraction of the run's body updates done, in [0, 1], and seconds since start().
  float progress() const;
  double running_s() const;

 private:
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  StepControl m_control;
  Simulation* m_sim = nullptr;
  long long m_total = 1;  // body updates in the run
  RunResult m_result;
  std::chrono::steady_clock::time_point m_started;
  std::exception_ptr m_error;
};

}  // namespace orrery::app
