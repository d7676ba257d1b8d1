// CpuJob: the worker thread, its progress counter and its cancellation.
#include "cpu_job.h"

#include <algorithm>
#include <chrono>

#include "orrery/device.h"

namespace orrery::app {

CpuJob::~CpuJob() {
  if (active()) cancel();
}

void CpuJob::start(System& system, int steps, Vec4* a, Vec4* b, Vec4* vel, int n,
                   bool measure_before, bool measure_after) {
  if (active()) throw std::logic_error("CpuJob::start: a run is in flight");
  m_done = false;
  m_error = nullptr;
  m_steps_done = 0;
  m_bodies_left = n;
  m_bad_body = -1;
  m_before.reset();
  m_after.reset();
  // Body updates: each force evaluation and each measurement visits every body once.
  const int passes = steps * force_evaluations(system.integrator()) + (measure_before ? 1 : 0) +
                     (measure_after ? 1 : 0);
  m_total = static_cast<long long>(n) * std::max(passes, 1);
  m_control.bodies_done = 0;
  m_control.cancel = false;
  m_pos = a;
  m_vel = vel;
  m_pos_backup.assign(a, a + n);  // a step after the first overwrites a
  m_vel_backup.assign(vel, vel + n);
  m_system = &system;
  m_start = std::chrono::steady_clock::now();
  system.gravity().set_control(&m_control);
  m_thread = std::thread([=] { run(steps, a, b, vel, n, measure_before, measure_after); });
}

void CpuJob::run(int steps, Vec4* a, Vec4* b, Vec4* vel, int n, bool measure_before,
                 bool measure_after) {
  try {
    System& system = *m_system;
    if (measure_before) m_before = system.measure_arrays(a, vel, n);
    const Vec4* newest = a;
    m_steps_done =
        system.step_arrays(a, b, vel, n, steps, [&](int, const Vec4* pos, const Vec4* v) {
          if (m_control.cancel) return false;
          newest = pos;
          m_bad_body = first_nonfinite(pos, v, n);
          return m_bad_body < 0;
        });
    if (m_control.cancel) m_steps_done = 0;
    m_bodies_left = n;
    if (measure_after && !m_control.cancel && m_bad_body < 0 && m_steps_done > 0)
      m_after = system.measure_arrays(newest, vel, n);
  } catch (...) {
    m_error = std::current_exception();
  }
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
  m_system->gravity().set_control(nullptr);
  if (m_error) std::rethrow_exception(m_error);
  return m_steps_done;
}

void CpuJob::cancel() {
  if (!active()) return;
  m_control.cancel = true;
  m_thread.join();
  m_system->gravity().set_control(nullptr);
  std::copy(m_pos_backup.begin(), m_pos_backup.end(), m_pos);
  std::copy(m_vel_backup.begin(), m_vel_backup.end(), m_vel);
  m_system->state_changed();
  if (m_system->phases().pending()) m_system->phases().take();  // the cancelled run's marks
}

double CpuJob::running_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

float CpuJob::progress() const {
  const double done = static_cast<double>(m_control.bodies_done.load(std::memory_order_relaxed));
  return static_cast<float>(std::clamp(done / static_cast<double>(m_total), 0.0, 1.0));
}

}  // namespace orrery::app
