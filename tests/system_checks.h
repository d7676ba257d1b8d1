// Checks of the Simulation for any solver (tests/test_system.cpp runs them through `cpu-omp`,
// tests/gpu/test_gpu_system.cpp through the CUDA modules): its diagnostics against independent
// double sums on the host, the Plummer sphere staying in virial equilibrium under leapfrog, and
// the bookkeeping of phases, force evaluations, time and step count.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"

namespace orrery::test {

inline std::unique_ptr<Simulation> make_simulation(const std::string& solver, const BodyState& s,
                                           Integrator integrator, const SimParams& p) {
  std::unique_ptr<Solver> g = make_solver(solver);
  return std::make_unique<Simulation>(s, std::move(g), integrator, p);
}

inline double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

// The Simulation's diagnostics (GPU modules: potentials in float per body, sums in double on the
// device) against the host's double-precision pair sums.
inline void check_diagnostics_match_host(const std::string& solver, int n) {
  SimParams p;
  p.softening = 0.1f;
  const BodyState s = make_preset(Preset::plummer, n, 11);
  auto sys = make_simulation(solver, s, Integrator::leapfrog, p);
  const Diagnostics d = sys->measure();
  EXPECT_NEAR(d.mass, 1.0, 1e-5);
  EXPECT_LT(rel(d.kinetic, kinetic_energy(s.pos, s.vel)), 1e-9);
  EXPECT_LT(rel(d.potential, potential_energy(s.pos, p.softening)), 2e-6);
  const Vec3d l = angular_momentum(s.pos, s.vel), c = centre_of_mass(s.pos),
              m = total_momentum(s.pos, s.vel);
  const double lscale = momentum_scale(s.pos, s.vel) * 10.0;  // |r| of order 10
  EXPECT_NEAR(d.angular_momentum.x, l.x, 1e-9 * lscale);
  EXPECT_NEAR(d.angular_momentum.z, l.z, 1e-9 * lscale);
  EXPECT_NEAR(d.momentum.y, m.y, 1e-9 * d.momentum_scale);
  EXPECT_NEAR(d.centre_of_mass.x, c.x, 1e-9);
  EXPECT_NEAR(d.momentum_scale, momentum_scale(s.pos, s.vel), 1e-9 * d.momentum_scale);
  EXPECT_NEAR(d.virial(), virial_ratio(s.pos, s.vel, p.softening), 1e-5);
}

// The standard test: a Plummer sphere keeps 2K/|W| within 0.1 of 1 over five crossing
// times, t_cr = M^(5/2) / (2|E|)^(3/2) = 31.6 for the preset (M = 1, E = -1/20), with leapfrog at
// dt = 0.1 (1582 steps), and its energy to 1e-3.
inline void check_plummer_stays_virialised(const std::string& solver, int n) {
  SimParams p;
  p.dt = 0.1f;
  p.softening = 0.1f;
  const BodyState s = make_preset(Preset::plummer, n, 5);
  auto sys = make_simulation(solver, s, Integrator::leapfrog, p);
  const Diagnostics d0 = sys->measure();
  EXPECT_NEAR(d0.virial(), 1.0, 0.05);
  const double t_cr = std::pow(d0.mass, 2.5) / std::pow(2.0 * std::abs(d0.total()), 1.5);
  EXPECT_NEAR(t_cr, 31.6, 2.0);
  const int steps = static_cast<int>(std::ceil(5.0 * t_cr / p.dt));
  sys->step(steps);
  EXPECT_NEAR(sys->time(), steps * 0.1, 1e-3);
  const Diagnostics d1 = sys->measure();
  EXPECT_NEAR(d1.virial(), 1.0, 0.1) << "after " << steps << " steps";
  EXPECT_LT(std::abs(drift(d0, d1).energy), 1e-3);
  EXPECT_LT(drift(d0, d1).momentum, 1e-5);
}

// The module's per-body potentials (what a tree code gives the diagnostics, and what colouring by
// potential reads) against the host's double sums: phi_i = -sum_{j != i} m_j / sqrt(r^2 + eps^2).
inline void check_potentials_match_host(const std::string& solver, int n) {
  SimParams p;
  const BodyState s = make_preset(Preset::collision, n, 4);
  auto sys = make_simulation(solver, s, Integrator::euler, p);
  std::vector<Vec4> phi(static_cast<std::size_t>(n));
  const Vec4* pos = sys->bodies().pos;
  if (sys->solver().on_device()) {
    GpuBuffer<Vec4> out(static_cast<std::size_t>(n));
    sys->solver().potentials(pos, out.data(), n, p);
    out.download(phi.data(), phi.size());
  } else {
    sys->solver().potentials(pos, phi.data(), n, p);
  }
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    double want = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = double(s.pos[j].x) - s.pos[i].x, dy = double(s.pos[j].y) - s.pos[i].y,
                   dz = double(s.pos[j].z) - s.pos[i].z;
      want -=
          s.pos[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + double(p.softening) * p.softening);
    }
    worst = std::max(worst, rel(phi[i].w, want));
    ASSERT_EQ(phi[i].x, 0.0f);
  }
  EXPECT_LT(worst, 1e-5) << "N " << n;
}

// Phases, force evaluations and interactions: euler's one fused pass; leapfrog evaluates twice on
// its first step and once after (the last kick's forces serve the next step), again twice after
// the state changed from outside; yoshida4 three times.
inline void check_bookkeeping(const std::string& solver) {
  const int n = 500;
  const BodyState s = make_preset(Preset::random, n, 3);
  SimParams p;
  auto sys = make_simulation(solver, s, Integrator::euler, p);
  sys->step(2);
  PhaseTimes t = sys->phases().take();
  EXPECT_GT(t[Phase::force_integrate], 0.0);
  EXPECT_EQ(t[Phase::force], 0.0);
  EXPECT_EQ(sys->last_evaluations(), 1);
  EXPECT_DOUBLE_EQ(sys->interactions_per_step(n), double(n) * n);
  sys->set_integrator(Integrator::leapfrog);
  sys->step(1);
  EXPECT_EQ(sys->last_evaluations(), 2);
  sys->step(1);
  EXPECT_EQ(sys->last_evaluations(), 1);
  EXPECT_DOUBLE_EQ(sys->interactions_per_step(n), double(n) * n);
  t = sys->phases().take();
  EXPECT_GT(t[Phase::force], 0.0);
  EXPECT_GT(t[Phase::integrate], 0.0);
  EXPECT_EQ(t[Phase::force_integrate], 0.0);
  sys->state_changed();
  sys->step(1);
  EXPECT_EQ(sys->last_evaluations(), 2);
  sys->set_integrator(Integrator::yoshida4);
  sys->step(1);
  EXPECT_EQ(sys->last_evaluations(), 3);
  EXPECT_DOUBLE_EQ(sys->interactions_per_step(n), 3.0 * n * n);
  EXPECT_EQ(sys->step_count(), 6);
  EXPECT_NEAR(sys->time(), 6.0 * static_cast<double>(p.dt), 1e-12);
  sys->measure();
  EXPECT_GT(sys->phases().take()[Phase::diagnostics], 0.0);
}

// Leapfrog with its kept forces gives the same state as leapfrog that evaluates them afresh each
// step (the cache changes the work, not the result).
inline void check_kept_forces_change_nothing(const std::string& solver) {
  const BodyState s = make_preset(Preset::collision, 700, 9);
  SimParams p;
  auto kept = make_simulation(solver, s, Integrator::leapfrog, p);
  auto fresh = make_simulation(solver, s, Integrator::leapfrog, p);
  for (int k = 0; k < 6; ++k) {
    kept->step(1);
    fresh->state_changed();
    fresh->step(1);
  }
  const BodyState a = kept->state(), b = fresh->state();
  EXPECT_EQ(max_relative_error(a.pos, b.pos), 0.0);
  EXPECT_EQ(max_relative_error(a.vel, b.vel), 0.0);
}

}  // namespace orrery::test
