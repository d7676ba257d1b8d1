// Checks of test particles (Solver::set_sources): massless bodies after the last body with mass
// feel the others and pull on nothing, and a module that takes sources sums over the sources
// alone. Run by tests/test_test_particles.cpp (CPU modules) and tests/gpu/ (GPU modules).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bh_checks.h"
#include "orrery/accuracy.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "precision_checks.h"
#include "support.h"

namespace orrery::test {

// A Plummer sphere of n bodies whose last n - active are massless.
inline BodyState with_test_particles(int n, int active, std::uint64_t seed = 3) {
  BodyState s = make_preset(Preset::plummer, n, seed);
  for (int i = active; i < n; ++i) s.pos[static_cast<std::size_t>(i)].w = 0.0f;
  return s;
}

// The largest |a - b| / (|b| + mean |b|) over the bodies.
inline double worst_relative(const std::vector<Vec4>& a, const std::vector<Vec4>& b) {
  double mean = 0;
  for (const Vec4& v : b)
    mean += std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  mean /= b.size();
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double dx = double(a[i].x) - b[i].x, dy = double(a[i].y) - b[i].y,
                 dz = double(a[i].z) - b[i].z;
    const double nb =
        std::sqrt(double(b[i].x) * b[i].x + double(b[i].y) * b[i].y + double(b[i].z) * b[i].z);
    worst = std::max(worst, std::sqrt(dx * dx + dy * dy + dz * dz) / (nb + mean));
  }
  return worst;
}

// An all-pairs module summing over the sources alone gives what it gives over every body (the
// massless terms are zero: to float rounding where the sum is split differently), counts N x
// sources interactions, and leaves the test particles' accelerations right (the massive bodies'
// pull on them). Sizes that are not multiples of any block or tile.
inline void check_all_pairs_sources(const std::string& solver, int n, int active) {
  SCOPED_TRACE(solver + " N " + std::to_string(n) + " active " + std::to_string(active));
  const BodyState s = with_test_particles(n, active);
  SimParams p;
  p.softening = 0.05f;
  auto all = make_solver(solver), some = make_solver(solver);
  ASSERT_TRUE(some->takes_sources());
  some->set_sources(active, n);
  const std::vector<Vec4> want = accelerations_of(*all, s, p);
  const std::vector<Vec4> got = accelerations_of(*some, s, p);
  EXPECT_LE(worst_relative(got, want), 2e-6);
  EXPECT_EQ(some->interactions(n), double(n) * active);
  EXPECT_EQ(all->interactions(n), double(n) * n);
  // The test particles feel the sphere: against the exact sum in double at up to 600 bodies,
  // the last (a test particle) among them.
  std::vector<Vec4> at, exact;
  const int stride = std::max(1, n / 600);
  for (int i = n - 1; i >= 0; i -= stride) {
    double a[3] = {0, 0, 0};
    const double eps2 = double(p.softening) * p.softening;
    for (int j = 0; j < active; ++j) {
      const double d[3] = {double(s.pos[j].x) - s.pos[i].x, double(s.pos[j].y) - s.pos[i].y,
                           double(s.pos[j].z) - s.pos[i].z};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
      const double f = s.pos[j].w / (r2 * std::sqrt(r2));
      for (int k = 0; k < 3; ++k) a[k] += f * d[k];
    }
    exact.push_back(Vec4{float(a[0]), float(a[1]), float(a[2]), 0.0f});
    at.push_back(got[static_cast<std::size_t>(i)]);
  }
  EXPECT_LE(worst_relative(at, exact), 1e-4);
  // In double, where the module has a double path.
  if (some->has_double()) {
    SimParams pd = p;
    pd.precision = Precision::double_;
    std::vector<Vec4d> pos(s.pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i)
      pos[i] = Vec4d{s.pos[i].x, s.pos[i].y, s.pos[i].z, s.pos[i].w};
    const std::vector<Vec4d> a = double_accelerations(*all, pos, pd);
    const std::vector<Vec4d> b = double_accelerations(*some, pos, pd);
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      scale = std::max(scale, std::fabs(a[i].x) + std::fabs(a[i].y) + std::fabs(a[i].z));
      worst = std::max({worst, std::fabs(a[i].x - b[i].x), std::fabs(a[i].y - b[i].y),
                        std::fabs(a[i].z - b[i].z)});
    }
    EXPECT_LE(worst, 1e-12 * scale);
  }
}

// A tree code given test particles meets the accuracy bars of the whole sum (theta 0.5) on every
// body, test particles included; where they are at least half the bodies it leaves them out of the
// tree and walks less than with all of them in it (a fifth less where they are nine in ten; at
// half, cuda-bh walked 15% less and cpu-bh 1-9%), else no more.
inline void check_tree_sources(const std::string& solver, int n, int active) {
  SCOPED_TRACE(solver + " N " + std::to_string(n) + " active " + std::to_string(active));
  const BodyState s = with_test_particles(n, active);
  SimParams p;
  p.theta = 0.5f;
  p.softening = 0.01f;
  auto all = make_solver(solver), some = make_solver(solver);
  ASSERT_TRUE(some->takes_sources());
  some->set_sources(active, n);
  for (const char* pass : {"first", "steady"}) {
    SCOPED_TRACE(pass);
    const AccuracyStats a = measure_accuracy(*some, s, p);
    EXPECT_EQ(a.targets, n <= 131072 ? n : 8192);
    EXPECT_LE(a.rms, 3e-4);
    EXPECT_LE(a.p99, 1e-3);
    const AccuracyStats b = measure_accuracy(*all, s, p);
    if (10 * active <= n)
      EXPECT_LT(a.interactions_per_body, 0.8 * b.interactions_per_body);
    else if (2 * active <= n)
      EXPECT_LT(a.interactions_per_body, b.interactions_per_body);
    else
      EXPECT_LE(a.interactions_per_body, b.interactions_per_body);
  }
}

// Through a Simulation, which counts the sources itself: a massless body on a circular orbit
// about a unit mass comes back after one period (leapfrog) while the mass stays still, and the
// module sums over the one source (2 interactions a pass). A massless body that is not last
// leaves every body a source (exact all the same).
inline void check_simulation_counts_sources(const std::string& solver) {
  SCOPED_TRACE(solver);
  BodyState s;
  s.pos = {Vec4{0, 0, 0, 1}, Vec4{1, 0, 0, 0}};
  s.vel = {Vec4{0, 0, 0, 0}, Vec4{0, 1, 0, 0}};
  SimParams p;
  p.softening = 1e-4f;
  p.theta = 0.5f;
  const double period = 2 * 3.14159265358979;
  p.dt = period / 2000;
  auto sim = make_simulation(solver, s, p, Integrator::leapfrog);
  sim->step(2000);
  const BodyState e = sim->state();
  EXPECT_EQ(e.pos[0].x, 0.0f);
  EXPECT_EQ(e.pos[0].y, 0.0f);
  EXPECT_NEAR(e.pos[1].x, 1.0, 2e-3);
  EXPECT_NEAR(e.pos[1].y, 0.0, 2e-2);
  if (sim->solver().all_pairs()) {
    EXPECT_EQ(sim->solver().interactions(2), 2.0);
  }

  // Massless bodies in the middle: every body is a source.
  const BodyState mixed = with_test_particles(300, 300);
  BodyState m = mixed;
  for (int i = 0; i < 300; i += 3) m.pos[static_cast<std::size_t>(i)].w = 0.0f;
  auto mid = make_simulation(solver, m, SimParams{}, Integrator::leapfrog);
  mid->step(1);
  if (mid->solver().all_pairs()) {
    EXPECT_EQ(mid->solver().interactions(300), 300.0 * 300);
  }
  // New state, new count: the last 200 massless.
  mid->set_state(with_test_particles(300, 100));
  mid->step(1);
  if (mid->solver().all_pairs()) {
    EXPECT_EQ(mid->solver().interactions(300), 300.0 * 100);
  }
}

}  // namespace orrery::test
