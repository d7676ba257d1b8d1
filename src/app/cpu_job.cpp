// CpuJob: the worker thread, its progress counter and its cancellation.
#include "cpu_job.h"

#include <algorithm>
#include <chrono>

#include "orrery/device.h"

namespace orrery::app {

CpuJob::~CpuJob() {
  if (active()) cancel();
}

void CpuJob::start(Solver& solver, int steps, Vec4* a, Vec4* b, Vec4* vel, int n,
                   const SimParams& p) {
  if (active()) throw std::logic_error("CpuJob::start: a run is in flight");
  m_done = false;
  m_error = nullptr;
  m_steps_done = 0;
  m_bad_body = -1;
  m_ms = 0.0;
  m_total = static_cast<long long>(n) * steps;
  m_control.bodies_done = 0;
  m_control.cancel = false;
  m_pos = a;
  m_vel = vel;
  m_pos_backup.assign(a, a + n);  // a step after the first overwrites a
  m_vel_backup.assign(vel, vel + n);
  m_solver = &solver;
  m_start = std::chrono::steady_clock::now();
  solver.set_control(&m_control);
  m_thread = std::thread([=, &solver] { run(solver, steps, a, b, vel, n, p); });
}

void CpuJob::run(Solver& solver, int steps, Vec4* a, Vec4* b, Vec4* vel, int n,
                 const SimParams& p) {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    for (int k = 0; k < steps && !m_control.cancel; ++k) {
      Vec4* in = k % 2 ? b : a;
      Vec4* out = k % 2 ? a : b;
      solver.step(in, out, vel, n, p);
      if (m_control.cancel) break;
      m_steps_done = k + 1;
      m_bad_body = first_nonfinite(out, vel, n);
      if (m_bad_body >= 0) break;
    }
  } catch (...) {
    m_error = std::current_exception();
  }
  m_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(m_mutex);
  m_done = true;
  m_cv.notify_all();
}

bool CpuJob::wait_for(double ms) {
  if (!active()) return false;
  std::unique_lock<std::mutex> lock(m_mutex);
  return m_cv.wait_for(lock, std::chrono::duration<double, std::milli>(ms), [&] { return m_done; });
}

int CpuJob::finish() {
  m_thread.join();
  m_solver->set_control(nullptr);
  if (m_error) std::rethrow_exception(m_error);
  return m_steps_done;
}

void CpuJob::cancel() {
  if (!active()) return;
  m_control.cancel = true;
  m_thread.join();
  m_solver->set_control(nullptr);
  std::copy(m_pos_backup.begin(), m_pos_backup.end(), m_pos);
  std::copy(m_vel_backup.begin(), m_vel_backup.end(), m_vel);
}

double CpuJob::running_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

float CpuJob::progress() const {
  const double done = static_cast<double>(m_control.bodies_done.load(std::memory_order_relaxed));
  return static_cast<float>(std::clamp(done / static_cast<double>(m_total), 0.0, 1.0));
}

}  // namespace orrery::app
