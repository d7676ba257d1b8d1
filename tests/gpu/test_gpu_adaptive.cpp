// The adaptive step on the device (skipped without one): its rate, two reductions in CUDA, gives
// the steps the host gives for the same forces, in float and double, through every CUDA module;
// and the e = 0.9 orbit keeps its energy through cuda-fast in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../integrator_checks.h"
#include "../precision_checks.h"
#include "gpu_support.h"
#include "orrery/device.h"

namespace orrery::test {
namespace {

// The sizes of a run's first steps (the first estimated from the forces and velocities, then
// from the change of the forces).
std::vector<double> step_sizes(const std::string& solver, const SimParams& p, int n) {
  BodyState s = make_preset(Preset::plummer, n, 9);
  if (p.precision == Precision::double_) widen_to_doubles(s);
  Simulation sim(s, make_solver(solver), Integrator::leapfrog, p);
  std::vector<double> dts;
  for (int k = 0; k < 12; ++k) {
    sim.step(1);
    dts.push_back(sim.last_dt());
  }
  return dts;
}

class GpuAdaptive : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

// At 1000 bodies (no block's multiple) the device's steps are the host's to the forces' own
// agreement: float sums in another order (1e-4), the same double sums (1e-9).
TEST_P(GpuAdaptive, StepsMatchTheHosts) {
  for (Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(to_string(precision));
    SimParams p;
    p.dt = 1.0f;  // a largest step the criterion stays under
    p.adaptive = true;
    p.precision = precision;
    const std::vector<double> want = step_sizes("cpu", p, 1000);
    const std::vector<double> got = step_sizes(GetParam(), p, 1000);
    const double tol = precision == Precision::double_ ? 1e-9 : 1e-4;
    for (std::size_t k = 0; k < want.size(); ++k) {
      EXPECT_NEAR(got[k], want[k], tol * want[k]) << "step " << k;
      EXPECT_LT(want[k], p.dt) << "step " << k;  // the criterion, not the largest step, chose it
    }
  }
}

// Euler's restart memory crosses to and from the device: a run saved (in memory) at step 10 and
// resumed gives the run that never stopped, bit for bit, in float and double.
TEST_P(GpuAdaptive, EulerRestartsBitForBitOnTheDevice) {
  for (Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(to_string(precision));
    SimParams p;
    p.dt = 1.0f;
    p.adaptive = true;
    p.precision = precision;
    BodyState s = make_preset(Preset::plummer, 1000, 9);
    if (precision == Precision::double_) widen_to_doubles(s);
    Simulation straight(s, make_solver(GetParam()), Integrator::euler, p);
    straight.step(20);
    Simulation first(s, make_solver(GetParam()), Integrator::euler, p);
    first.step(10);
    const RunState run = first.run_state();
    ASSERT_TRUE(run.has_memory());
    const BodyState mid = first.state();
    Simulation second(mid, make_solver(GetParam()), Integrator::euler, p);
    second.set_exact_state(mid);
    second.resume(run);
    second.step(10);
    EXPECT_EQ(second.time(), straight.time());
    const BodyState want = straight.state(), got = second.state();
    for (std::size_t i = 0; i < want.pos.size(); ++i) {
      ASSERT_EQ(got.pos[i].x, want.pos[i].x) << i;
      ASSERT_EQ(got.vel[i].y, want.vel[i].y) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuAdaptive, cuda_modules(), module_name);

TEST(GpuAdaptiveTree, CudaBhTakesTheHostsStepsToItsOwnAccuracy) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  SimParams p;
  p.adaptive = true;
  const std::vector<double> want = step_sizes("cpu-bh", p, 3000);
  const std::vector<double> got = step_sizes("cuda-bh", p, 3000);
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(got[k], want[k], 5e-2 * want[k]);
}

// The e = 0.9 orbit, 20 orbits through cuda-fast in double with yoshida4: the adaptive step's
// energy error stays near the host's (2.9e-7 over 100 orbits at this eta).
TEST(GpuAdaptiveFast, KeplerE09KeepsItsEnergyInDouble) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  Simulation sim(e09_orbit(), make_solver("cuda-fast"), Integrator::yoshida4,
                 e09_adaptive_params());
  const double e0 = sim.measure().total();
  sim.set_stop_time(20 * 2 * k_pi);
  while (!sim.at_stop()) sim.step(2000);
  const double drift = std::fabs(sim.measure().total() - e0) / std::fabs(e0);
  std::printf("cuda-fast double, e = 0.9, 20 orbits: %lld steps, |dE/E| %.3e\n", sim.step_count(),
              drift);
  EXPECT_LT(drift, 1e-7);
}

}  // namespace
}  // namespace orrery::test
