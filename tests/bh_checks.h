// Checks of a Barnes-Hut solver (tests/test_barnes_hut.cpp runs them through `cpu-bh`;
// the GPU tree will run them too): accuracy against the exact double sum, theta -> 0 against
// all-pairs, the robustness cases, every integrator, interaction counts and potentials.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "orrery/accuracy.h"
#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"

namespace orrery::test {

inline SimParams bh_params(float theta) {
  SimParams p;
  p.theta = theta;
  return p;
}

// The accuracy bars at theta 0.5, softening 0.01, on every preset the tree codes are judged on,
// against the exact double sum (8,192 sampled targets above 16,384): RMS at most 3e-4 and the
// 99th percentile at most 1e-3. Each state is measured on a fresh solver (its first pass, walked
// twice: the box test alone, then with the relative test on those accelerations) and again on the
// same solver (the steady case: the relative test on its own last pass).
inline void check_accuracy_bars(const std::string& solver, int n) {
  SimParams p = bh_params(0.5f);
  p.softening = 0.01f;
  for (Preset preset : {Preset::plummer, Preset::collision, Preset::random, Preset::clumps,
                        Preset::plummer_halo, Preset::box}) {
    SCOPED_TRACE(to_string(preset));
    auto g = make_solver(solver);
    const BodyState s = make_preset(preset, n, 1);
    for (const char* pass : {"first", "steady"}) {
      SCOPED_TRACE(pass);
      const AccuracyStats a = measure_accuracy(*g, s, p, 16384);
      EXPECT_EQ(a.targets, n <= 16384 ? n : 8192);
      EXPECT_LE(a.rms, 3e-4);
      EXPECT_LE(a.p99, 1e-3);
      EXPECT_LT(a.interactions_per_body, 0.25 * n);  // far fewer than all pairs
      EXPECT_GT(a.interactions_per_body, 16.0);
    }
  }
}

// theta = 0 opens every cell: the all-pairs sum in another order, within float rounding. 16 and
// 17 bodies are one group each, on either side of cuda-bh's groups with two lanes a body.
inline void check_theta_zero_is_all_pairs(const std::string& solver) {
  for (int n : {16, 17, 1000, 4097}) {
    auto g = make_solver(solver);
    const AccuracyStats a =
        measure_accuracy(*g, make_preset(Preset::collision, n, 2), bh_params(0.0f));
    EXPECT_LT(a.max, 2e-5) << "N " << n;
    EXPECT_NEAR(a.interactions_per_body, n, 1e-9) << "every body meets every body";
  }
}

// Exact double accelerations of every body.
inline std::vector<Vec4> exact_accelerations(const BodyState& s, float softening) {
  const int n = s.size();
  std::vector<Vec4> a(static_cast<std::size_t>(n));
  const double eps2 = double(softening) * softening;
  for (int i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      const double dx = double(s.pos[j].x) - s.pos[i].x, dy = double(s.pos[j].y) - s.pos[i].y,
                   dz = double(s.pos[j].z) - s.pos[i].z;
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double f = s.pos[j].w / (r2 * std::sqrt(r2));
      ax += f * dx, ay += f * dy, az += f * dz;
    }
    a[static_cast<std::size_t>(i)] = Vec4{float(ax), float(ay), float(az), 0.0f};
  }
  return a;
}

// One acceleration pass of an existing solver (its memory kept) on state s, on its side.
inline std::vector<Vec4> accelerations_of(Solver& g, const BodyState& s, const SimParams& p) {
  std::vector<Vec4> out(static_cast<std::size_t>(s.size()));
  if (g.on_device()) {
    GpuBuffer<Vec4> pos(s.pos.size()), acc(s.pos.size());
    pos.upload(s.pos.data(), s.pos.size());
    g.accelerations(pos.data(), acc.data(), s.size(), p);
    acc.download(out.data(), out.size());
  } else {
    g.accelerations(s.pos.data(), out.data(), s.size(), p);
  }
  return out;
}

// The accelerations of state s from a fresh solver of this name.
inline std::vector<Vec4> module_accelerations(const std::string& solver, const BodyState& s,
                                              const SimParams& p) {
  return accelerations_of(*make_solver(solver), s, p);
}

// The relative test's memory of the last pass: a pass at another N forgets it (the same result
// to the bit as a fresh solver), and a memory of another state of the same N (a scene swapped
// under the solver) still leaves the box test's accuracy.
inline void check_relative_memory(const std::string& solver) {
  SimParams p = bh_params(0.5f);
  p.softening = 0.01f;
  const BodyState s = make_preset(Preset::random, 5001, 3);
  auto fresh = make_solver(solver), used = make_solver(solver);
  (void)accelerations_of(*used, make_preset(Preset::plummer, 7000, 4), p);
  EXPECT_EQ(max_relative_error(accelerations_of(*used, s, p), accelerations_of(*fresh, s, p)), 0.0);
  auto swapped = make_solver(solver);
  (void)accelerations_of(*swapped, make_preset(Preset::clumps, 5001, 5), p);
  const AccuracyStats a = measure_accuracy(*swapped, s, p);
  EXPECT_LE(a.rms, 6e-4);
  EXPECT_LE(a.p99, 2e-3);
}

// Every acceleration finite and, against the exact sum, within `tol` of the largest one (5e-3:
// the bar for the 99th percentile of the per-body error, here for the worst body).
inline void expect_close_to_exact(const std::string& solver, const BodyState& s, float theta,
                                  double tol) {
  const SimParams p = bh_params(theta);
  const std::vector<Vec4> got = module_accelerations(solver, s, p);
  const std::vector<Vec4> want = exact_accelerations(s, p.softening);
  for (const Vec4& a : got)
    ASSERT_TRUE(std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z));
  EXPECT_LT(max_relative_error(got, want), tol);
}

// The robustness cases: 1,000 bodies at one point, a body 1e6 units away, zero-mass
// bodies, and N in {1, 2, 7, 1000, 4097}; finite, correct, no hang.
inline void check_robustness(const std::string& solver) {
  for (int n : {1, 2, 7, 1000, 4097}) {
    SCOPED_TRACE("N " + std::to_string(n));
    expect_close_to_exact(solver, make_preset(Preset::plummer, n, 3), 0.5f, 5e-3);
  }
  {
    SCOPED_TRACE("1000 coincident bodies among 3000");
    BodyState s = make_preset(Preset::random, 3000, 4);
    for (int i = 0; i < 1000; ++i)
      s.pos[static_cast<std::size_t>(i)] = Vec4{1.5f, -2.0f, 0.25f, 1e-3f};
    expect_close_to_exact(solver, s, 0.5f, 5e-3);
  }
  {
    SCOPED_TRACE("a body 1e6 units away");
    BodyState s = make_preset(Preset::plummer, 2000, 5);
    s.pos[7] = Vec4{1e6f, -3e5f, 2e5f, s.pos[7].w};
    expect_close_to_exact(solver, s, 0.5f, 5e-3);
  }
  {
    SCOPED_TRACE("zero-mass bodies, and all massless");
    BodyState s = make_preset(Preset::collision, 2000, 6);
    for (int i = 0; i < 2000; i += 3) s.pos[static_cast<std::size_t>(i)].w = 0.0f;
    expect_close_to_exact(solver, s, 0.5f, 5e-3);
    for (Vec4& p : s.pos) p.w = 0.0f;
    for (const Vec4& a : module_accelerations(solver, s, bh_params(0.5f)))
      EXPECT_EQ(a.x * a.x + a.y * a.y + a.z * a.z, 0.0f);
  }
}

// Every integrator steps with the tree; the interactions per step are the walk's real count;
// the potentials (for the diagnostics: tree codes are not all-pairs) match the exact ones.
inline void check_pipeline(const std::string& solver) {
  const BodyState s = make_preset(Preset::plummer, 3000, 7);
  for (const std::string& name : integrator_names()) {
    SCOPED_TRACE(name);
    auto g = make_solver(solver);
    Simulation sys(s, std::move(g), parse_integrator(name), bh_params(0.5f));
    EXPECT_FALSE(sys.solver().all_pairs());
    const Diagnostics d0 = sys.measure();
    EXPECT_NEAR(d0.potential, potential_energy(s.pos, 0.1f), 2e-3 * std::abs(d0.potential));
    sys.step(20);
    const Diagnostics d1 = sys.measure();
    EXPECT_LT(std::abs(drift(d0, d1).energy), 1e-3);
    const double per_step = sys.interactions_per_step(3000);
    EXPECT_GT(per_step, 3000.0);
    EXPECT_LT(per_step, 3.0 * 3000.0 * 3000.0);
    const BodyState e = sys.state();
    EXPECT_LT(first_nonfinite(e.pos.data(), e.vel.data(), e.size()), 0);
  }
}

// The overlay's boxes: level 0 is the root alone, and it holds every body; deeper levels add
// cells inside it.
inline void check_tree_cells(const std::string& solver) {
  const BodyState s = make_preset(Preset::collision, 5000, 12);
  auto g = make_solver(solver);
  Simulation sys(s, std::move(g), Integrator::leapfrog, bh_params(0.5f));
  std::vector<Aabb> boxes;
  sys.solver().tree_cells(0, 1000, boxes);
  EXPECT_TRUE(boxes.empty()) << "no tree before the first pass";
  sys.step(1);  // the last pass ran at the new positions
  const BodyState now = sys.state();
  sys.solver().tree_cells(0, 1000, boxes);
  ASSERT_EQ(boxes.size(), 1u);
  const Aabb root = boxes[0];
  for (const Vec4& p : now.pos) {
    const float c[3] = {p.x, p.y, p.z};
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(c[k], root.lo[k] - 1e-4f * std::abs(root.lo[k]) - 1e-4f);
      ASSERT_LE(c[k], root.hi[k] + 1e-4f * std::abs(root.hi[k]) + 1e-4f);
    }
  }
  sys.solver().tree_cells(3, 100000, boxes);
  EXPECT_GT(boxes.size(), 9u);
  for (const Aabb& b : boxes)
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(b.lo[k], root.lo[k] - 1e-3f);
      EXPECT_LE(b.hi[k], root.hi[k] + 1e-3f);
    }
  sys.solver().tree_cells(3, 5, boxes);
  EXPECT_EQ(boxes.size(), 5u) << "the limit holds";
}

}  // namespace orrery::test
