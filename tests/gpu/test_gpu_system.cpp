// The Simulation's checks of tests/system_checks.h through the CUDA modules (skipped without a
// device): device diagnostics against the host's double sums, the Plummer sphere under leapfrog,
// and the bookkeeping; and the CUDA modules' integrators against `cpu`'s.
#include <gtest/gtest.h>

#include "../system_checks.h"
#include "gpu_support.h"
#include "orrery/device.h"

namespace orrery::test {
namespace {

class GpuSystem : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

TEST_P(GpuSystem, DiagnosticsMatchTheHostsDoubleSums) {
  for (int n : {1, 7, 1000, 4097}) {
    SCOPED_TRACE("N " + std::to_string(n));
    if (n == 1) continue;  // one body has no potential energy to compare relatively
    check_diagnostics_match_host(GetParam(), n);
  }
}
TEST_P(GpuSystem, PotentialsMatchTheHostsDoubleSums) {
  for (int n : {2, 7, 1000, 4097}) check_potentials_match_host(GetParam(), n);
}
TEST_P(GpuSystem, PlummerStaysVirialisedForFiveCrossingTimes) {
  check_plummer_stays_virialised(GetParam(), 4096);
}
TEST_P(GpuSystem, CountsPhasesForceEvaluationsAndTime) { check_bookkeeping(GetParam()); }
TEST_P(GpuSystem, LeapfrogsKeptForcesChangeNothing) {
  check_kept_forces_change_nothing(GetParam());
}

// Every integrator through a CUDA module against the same integrator through `cpu`, at sizes
// that are not multiples of any block size.
TEST_P(GpuSystem, IntegratorsMatchCpu) {
  for (const std::string& name : integrator_names())
    for (int n : {1, 7, 1000, 4097}) {
      SCOPED_TRACE(name + " N " + std::to_string(n));
      const BodyState s = make_preset(Preset::collision, n, 21);
      SimParams p;
      p.dt = 0.01f;
      auto gpu = make_simulation(GetParam(), s, parse_integrator(name), p);
      auto cpu = make_simulation("cpu", s, parse_integrator(name), p);
      gpu->step(3);
      cpu->step(3);
      const BodyState a = gpu->state(), b = cpu->state();
      EXPECT_LT(max_relative_error(a.pos, b.pos), 1e-4);
      EXPECT_LT(max_relative_error(a.vel, b.vel), 1e-3);
    }
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuSystem, cuda_modules(), module_name);

}  // namespace
}  // namespace orrery::test
