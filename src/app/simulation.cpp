// Simulation: preset loading, solver switching, timed stepping (CPU runs on a worker thread), the
// non-finite check and the block-size sweep.
#include "simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace orrery::app {
namespace {

float median_speed(const std::vector<Vec4>& vel) {
  std::vector<float> s;
  s.reserve(vel.size());
  for (const Vec4& v : vel) s.push_back(std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
  if (s.empty()) return 1.0f;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
  return std::max(s[s.size() / 2], 1e-3f);
}

// Runs `steps` ping-pong steps a -> b -> a ...
void run_steps(Solver& solver, int steps, Vec4* a, Vec4* b, Vec4* vel, int n, const SimParams& p) {
  for (int k = 0; k < steps; ++k) {
    if (k % 2 == 0)
      solver.step(a, b, vel, n, p);
    else
      solver.step(b, a, vel, n, p);
  }
}

}  // namespace

Simulation::Simulation(gfx::DevicePath path) : m_buffers(path) {
  if (path != gfx::DevicePath::none) {
    m_timer = std::make_unique<GpuTimer>();
    m_probe = std::make_unique<FiniteProbe>();
  }
}

void Simulation::reset(Preset preset, int n, std::uint64_t seed) {
  const BodyState s = make_preset(preset, n, seed);  // may throw: keep the old state then
  cancel_job();
  collect_timer();               // the old state's last reading, before the new state's first
  if (m_probe) m_probe->wait();  // the old state's check, whose result no longer matters
  m_warming_up = true;
  m_buffers.load(s.pos, s.vel);  // fills every copy, whichever side the solver runs on
  m_speed_ref = median_speed(s.vel);
  double mass = 0.0;
  for (const Vec4& p : s.pos) mass += p.w;
  m_mass_ref = static_cast<float>(mass / n);
  m_steps = m_probe_step = m_last_finite_step = 0;
  m_frames_since_check = 0;
  m_blowup.reset();
  m_blown = false;
}

void Simulation::set_solver(const std::string& name, int block) {
  std::unique_ptr<Solver> next = make_solver(name, block);
  cancel_job();
  collect_timer();  // the old solver's last reading, before the new solver's first
  m_warming_up = true;
  m_buffers.set_on_device(next->on_device());
  m_solver = std::move(next);
}

void Simulation::cancel_job() {
  if (m_job.active()) m_job.cancel();
}

void Simulation::advance(int steps, const SimParams& params, const gfx::Companion* companion) {
  Solver& solver = *m_solver;
  const int n = m_buffers.count();
  m_last_ms = -1.0f;
  if (!solver.on_device()) {
    if (!m_job.active()) {
      const gfx::BodyBuffers::HostArrays h = m_buffers.host_arrays();
      m_job.start(solver, steps, h.a, h.b, h.vel, n, params);
    }
    settle_job(companion, k_cpu_wait_ms);
    return;
  }
  collect_timer();  // the previous frame's steps: finished by now, or nearly
  collect_probe();
  const bool check = !m_blown && ++m_frames_since_check >= k_finite_check_frames;
  m_buffers.advance(
      steps,
      [&](Vec4* a, Vec4* b, Vec4* vel) {
        m_timer->start();
        run_steps(solver, steps, a, b, vel, n, params);
        m_timer->stop();
        if (check && !m_probe->pending()) {  // on the newest positions, inside the mapping
          m_probe->launch(steps % 2 ? b : a, vel, n);
          m_frames_since_check = 0;
          m_probe_step = m_steps + steps;
        }
      },
      companion);
  m_steps += steps;
  m_pending_steps = steps;
  m_timer_pending = true;
}

void Simulation::idle(const gfx::Companion* companion) {
  m_last_ms = -1.0f;
  if (m_job.active()) {
    settle_job(companion, 0.0);
  } else if (companion) {
    m_buffers.view_on_device(*companion);
  }
  if (m_solver->on_device()) {
    collect_timer();
    collect_probe();
  }
}

// Publishes a CPU run that has ended within `wait_ms`; otherwise shows the published state.
void Simulation::settle_job(const gfx::Companion* companion, double wait_ms) {
  if (!m_job.wait_for(wait_ms)) {
    if (companion) m_buffers.view_on_device(*companion);
    return;
  }
  const int done = m_job.finish();
  if (done > 0)
    m_buffers.publish_host(done, companion);
  else if (companion)
    m_buffers.view_on_device(*companion);
  m_steps += done;
  const bool first = m_warming_up;
  m_warming_up = false;
  m_last_ms = first || done == 0 ? -1.0f : static_cast<float>(m_job.elapsed_ms());
  m_last_steps = done;
  if (m_job.nonfinite_body() >= 0 && !m_blown) {
    m_blowup = Blowup{m_steps, m_steps - 1, m_job.nonfinite_body()};
    m_blown = true;
  }
}

void Simulation::collect_timer() {
  if (!m_timer_pending) return;
  const float ms = m_timer->elapsed_ms();
  m_last_ms = m_warming_up ? -1.0f : ms;  // a first step's time says nothing about the next ones
  m_last_steps = m_pending_steps;
  m_warming_up = false;
  m_timer_pending = false;
}

void Simulation::collect_probe() {
  long long first = -1;
  if (!m_probe || !m_probe->poll(first)) return;
  if (first < 0) {
    m_last_finite_step = m_probe_step;
  } else if (!m_blown) {
    m_blowup = Blowup{m_probe_step, m_last_finite_step, first};
    m_blown = true;
  }
}

std::optional<Blowup> Simulation::take_blowup() {
  std::optional<Blowup> b;
  b.swap(m_blowup);
  return b;
}

std::vector<ui::SweepPoint> Simulation::sweep_blocks(const std::string& name,
                                                     const std::vector<int>& blocks,
                                                     const SimParams& params) {
  cancel_job();
  collect_timer();  // the sweep reuses the timer
  const int n = m_buffers.count();
  std::vector<Vec4> pos, vel;
  m_buffers.download(pos, vel);
  DeviceArray a(pos.size()), b(pos.size()), v(vel.size());
  std::vector<ui::SweepPoint> out;
  for (int block : blocks) {
    std::unique_ptr<Solver> s = make_solver(name, block);
    a.upload(pos.data(), pos.size());
    v.upload(vel.data(), vel.size());
    s->step(a.data(), b.data(), v.data(), n, params);  // warm-up (and cuda-fast's autotuning)
    m_timer->start();
    s->step(b.data(), a.data(), v.data(), n, params);
    m_timer->stop();
    const float once = std::max(m_timer->elapsed_ms(), 1e-3f);
    const int reps = std::clamp(static_cast<int>(60.0f / once), 2, 50);  // about 60 ms per block
    m_timer->start();
    run_steps(*s, reps, a.data(), b.data(), v.data(), n, params);
    m_timer->stop();
    out.push_back({block, m_timer->elapsed_ms() / static_cast<float>(reps)});
  }
  return out;
}

}  // namespace orrery::app
