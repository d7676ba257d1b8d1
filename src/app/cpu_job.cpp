// CpuJob: the worker thread, its progress counter and its cancellation.
#include "cpu_job.h"

#include <algorithm>

namespace orrery::app {

CpuJob::~CpuJob() {
  if (active()) cancel();
}

void CpuJob::start(Simulation& sim, int steps, bool measure_before, bool measure_after,
                   std::function<void(Simulation&, const Bodies&)> after_step) {
  if (active()) throw std::logic_error("CpuJob::start: a run is in flight");
  m_done = false;
  m_error = nullptr;
  m_result = RunResult{};
  // Body updates: each force evaluation and each measurement visits every body once.
  const int passes = steps * force_evaluations(sim.integrator()) + (measure_before ? 1 : 0) +
                     (measure_after ? 1 : 0);
  m_total = static_cast<long long>(sim.bodies().n) * std::max(passes, 1);
  m_control.bodies_done = 0;
  m_control.cancel = false;
  m_sim = &sim;
  m_started = std::chrono::steady_clock::now();
  sim.solver().set_control(&m_control);
  RunPlan plan;
  plan.steps = steps;
  plan.finite = FiniteCheck::every_step;
  plan.measure_start = measure_before;
  plan.measure_end = measure_after;
  plan.phases = PhaseCollection::left;  // the frame loop takes them once the run is kept
  plan.cancel = &m_control.cancel;
  plan.after_step = std::move(after_step);
  m_thread = std::thread([this, plan] {
    try {
      m_result = Runner::run(*m_sim, plan);
    } catch (...) {
      m_error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_done = true;
    m_cv.notify_all();
  });
}

bool CpuJob::wait_for(double ms) {
  if (!active()) return false;
  std::unique_lock<std::mutex> lock(m_mutex);
  return m_cv.wait_for(lock, std::chrono::duration<double, std::milli>(ms), [&] { return m_done; });
}

const RunResult& CpuJob::finish() {
  m_thread.join();
  m_sim->solver().set_control(nullptr);
  if (m_error) std::rethrow_exception(m_error);
  return m_result;
}

void CpuJob::cancel() {
  if (!active()) return;
  m_control.cancel = true;
  m_thread.join();
  m_sim->solver().set_control(nullptr);
  if (m_sim->phases().pending()) m_sim->phases().take();  // the cancelled run's marks
}

double CpuJob::running_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
}

float CpuJob::progress() const {
  const double done = static_cast<double>(m_control.bodies_done.load(std::memory_order_relaxed));
  return static_cast<float>(std::clamp(done / static_cast<double>(m_total), 0.0, 1.0));
}

}  // namespace orrery::app
