// The double-precision checks (--precision double), for any solver with a double path: its
// accelerations against `cpu` in double, the float view the viewer draws, energy on a Plummer
// sphere with yoshida4, the Kepler orbit against float, time reversal and exact restarts.
// tests/test_precision.cpp runs them through the CPU solvers, tests/gpu/test_gpu_precision.cpp
// through the CUDA ones.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "orrery/snapshot.h"

namespace orrery::test {

// A preset's bodies with their doubles (the floats widened).
inline BodyState double_preset(Preset p, int n, std::uint64_t seed = 1) {
  BodyState s = make_preset(p, n, seed);
  widen_to_doubles(s);
  return s;
}

inline SimParams double_params(float dt = 0.016f) {
  SimParams p;
  p.dt = dt;
  p.precision = Precision::double_;
  return p;
}

// A solver's double accelerations of `pos` (host or device, as the solver runs).
inline std::vector<Vec4d> double_accelerations(Solver& g, const std::vector<Vec4d>& pos,
                                               const SimParams& p) {
  const int n = static_cast<int>(pos.size());
  std::vector<Vec4d> acc(pos.size());
  if (!g.on_device()) {
    g.accelerations_double(pos.data(), acc.data(), n, p);
    return acc;
  }
  GpuBuffer<Vec4d> dp(pos.size()), da(pos.size());
  dp.upload(pos.data(), pos.size());
  g.accelerations_double(dp.data(), da.data(), n, p);
  da.download(acc.data(), acc.size());
  return acc;
}

// The largest |a - a_cpu| / |a_cpu| over the bodies, at sizes that are not multiples of any
// block, on a Plummer sphere.
inline double worst_double_error(const std::string& solver, int n) {
  const BodyState s = double_preset(Preset::plummer, n, 7);
  const SimParams p = double_params();
  std::unique_ptr<Solver> ref = make_solver("cpu"), g = make_solver(solver);
  const std::vector<Vec4d> want = double_accelerations(*ref, s.pos64, p);
  const std::vector<Vec4d> got = double_accelerations(*g, s.pos64, p);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const Vec4d &a = got[i], &b = want[i];
    const double d = std::hypot(a.x - b.x, a.y - b.y, a.z - b.z);
    const double m = std::hypot(b.x, b.y, b.z);
    worst = std::max(worst, m > 0 ? d / m : d);
  }
  return worst;
}

inline void check_double_matches_cpu(const std::string& solver) {
  for (int n : {1, 7, 65, 1023, 2049}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    EXPECT_LT(worst_double_error(solver, n), 1e-12) << solver;
  }
}

// |dE/E| of a run in the given precision over `steps` steps (energies from the Simulation's own
// diagnostics: in double, summed from the double state).
inline double energy_drift(const std::string& solver, const BodyState& s, Integrator kind,
                           SimParams p, long long steps) {
  Simulation sim(s, make_solver(solver), kind, p);
  const double e0 = sim.measure().total();
  for (long long k = 0; k < steps; k += 1000)
    sim.step(static_cast<int>(std::min(1000LL, steps - k)));
  return std::fabs(sim.measure().total() - e0) / std::fabs(e0);
}

// A Plummer sphere (total mass 1, energy -1/20: crossing time G M^(5/2) / (-2E)^(3/2) = 31.6) in
// double with yoshida4 over one crossing time.
inline double plummer_crossing_drift(const std::string& solver, int n, float dt) {
  const double crossing = 1.0 / std::pow(0.1, 1.5);
  const long long steps = static_cast<long long>(std::ceil(crossing / dt));
  return energy_drift(solver, double_preset(Preset::plummer, n, 3), Integrator::yoshida4,
                      double_params(dt), steps);
}

// The float view: after double steps, the lent float arrays hold the double state rounded, and
// the state's doubles come back with it.
inline void check_float_view(const std::string& solver) {
  const BodyState s = double_preset(Preset::plummer, 300);
  Simulation sim(s, make_solver(solver), Integrator::leapfrog, double_params());
  sim.step(5);
  const BodyState out = sim.state();
  ASSERT_EQ(out.pos64.size(), out.pos.size());
  ASSERT_EQ(out.vel64.size(), out.vel.size());
  for (std::size_t i = 0; i < out.pos.size(); ++i) {
    ASSERT_EQ(out.pos[i].x, float(out.pos64[i].x)) << i;
    ASSERT_EQ(out.pos[i].y, float(out.pos64[i].y)) << i;
    ASSERT_EQ(out.pos[i].z, float(out.pos64[i].z)) << i;
    ASSERT_EQ(out.vel[i].x, float(out.vel64[i].x)) << i;
  }
  // The doubles moved in their last bits where floats would not show it.
  double moved = 0;
  for (std::size_t i = 0; i < out.pos.size(); ++i)
    moved = std::max(moved, std::fabs(out.pos64[i].x - double(out.pos[i].x)));
  EXPECT_GT(moved, 0.0);
}

// leapfrog in double retraces its path: forward k steps, time reversed, k steps back.
inline void check_double_reversal(const std::string& solver) {
  const BodyState s = double_preset(Preset::plummer, 200);
  Simulation sim(s, make_solver(solver), Integrator::leapfrog, double_params());
  sim.step(50);
  sim.set_time_reversed(true);
  sim.step(50);
  const BodyState back = sim.state();
  double worst = 0;
  for (std::size_t i = 0; i < s.pos64.size(); ++i)
    worst = std::max({worst, std::fabs(back.pos64[i].x - s.pos64[i].x),
                      std::fabs(back.pos64[i].y - s.pos64[i].y),
                      std::fabs(back.pos64[i].z - s.pos64[i].z)});
  EXPECT_LT(worst, 1e-11);  // float's reversal returns to about 1e-6
}

// A double run saved (format version 2) and loaded continues with the same bits.
inline void check_double_restart(const std::string& solver) {
  const BodyState s = double_preset(Preset::plummer, 257);
  const SimParams p = double_params();
  Simulation straight(s, make_solver(solver), Integrator::yoshida4, p);
  straight.step(20);
  const BodyState want = straight.state();

  Simulation first(s, make_solver(solver), Integrator::yoshida4, p);
  first.step(10);
  Snapshot snap;
  snap.bodies = first.state();
  snap.run = first.run_state();
  const std::vector<std::uint8_t> bytes = encode_snapshot(snap, SnapshotFormat::orrery);
  const Snapshot back = decode_snapshot(bytes.data(), bytes.size(), "restart");
  ASSERT_EQ(back.run.params.precision, Precision::double_);
  ASSERT_EQ(back.bodies.pos64.size(), s.pos64.size());
  Simulation second(back.bodies, make_solver(solver), back.run.integrator, back.run.params);
  second.resume(back.run);
  second.step(10);
  const BodyState got = second.state();
  for (std::size_t i = 0; i < want.pos64.size(); ++i) {
    ASSERT_EQ(got.pos64[i].x, want.pos64[i].x) << i;
    ASSERT_EQ(got.pos64[i].y, want.pos64[i].y) << i;
    ASSERT_EQ(got.vel64[i].z, want.vel64[i].z) << i;
  }
}

// The adaptive step's e = 0.9 Kepler orbit (pericentre 0.1, at pericentre) in double with the
// parameters its tests use: a largest step of 0.1 and eta 0.004.
inline BodyState e09_orbit() {
  BodyState s = kepler_pair(0.9, 0.0);
  widen_to_doubles(s);
  return s;
}
inline SimParams e09_adaptive_params() {
  SimParams p = double_params(0.1f);
  p.softening = 1e-6f;
  p.adaptive = true;
  p.eta = 0.004f;
  return p;
}

}  // namespace orrery::test
