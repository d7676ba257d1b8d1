// Simulation: preset loading, solver switching, timed stepping and the block-size sweep.
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
  if (path != gfx::DevicePath::none) m_timer = std::make_unique<GpuTimer>();
}

void Simulation::reset(Preset preset, int n, std::uint64_t seed) {
  collect_timer();  // the old state's last reading, before the new state's first
  m_warming_up = true;
  const BodyState s = make_preset(preset, n, seed);
  m_buffers.load(s.pos, s.vel);  // fills every copy, whichever side the solver runs on
  m_speed_ref = median_speed(s.vel);
  double mass = 0.0;
  for (const Vec4& p : s.pos) mass += p.w;
  m_mass_ref = static_cast<float>(mass / n);
}

void Simulation::set_solver(const std::string& name, int block) {
  collect_timer();  // the old solver's last reading, before the new solver's first
  std::unique_ptr<Solver> next = make_solver(name, block);
  m_warming_up = true;
  m_buffers.set_on_device(next->on_device());
  m_solver = std::move(next);
}

void Simulation::advance(int steps, const SimParams& params, const gfx::Companion* companion) {
  Solver& solver = *m_solver;
  const int n = m_buffers.count();
  if (solver.on_device()) {
    collect_timer();  // the previous frame's steps: finished by now, or nearly
    m_buffers.advance(
        steps,
        [&](Vec4* a, Vec4* b, Vec4* vel) {
          m_timer->start();
          run_steps(solver, steps, a, b, vel, n, params);
          m_timer->stop();
        },
        companion);
    m_timer_pending = true;
  } else {
    m_buffers.advance(
        steps,
        [&](Vec4* a, Vec4* b, Vec4* vel) {
          const auto t0 = std::chrono::steady_clock::now();
          run_steps(solver, steps, a, b, vel, n, params);
          m_last_ms =
              std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count();
        },
        companion);
  }
}

void Simulation::collect_timer() {
  if (!m_timer_pending) return;
  const float ms = m_timer->elapsed_ms();
  m_last_ms = m_warming_up ? -1.0f : ms;  // a first step's time says nothing about the next ones
  m_warming_up = false;
  m_timer_pending = false;
}

std::vector<ui::SweepPoint> Simulation::sweep_blocks(const std::string& name,
                                                     const std::vector<int>& blocks,
                                                     const SimParams& params) {
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
