// The integrator checks of tests/integrator_checks.h through the CUDA solvers (skipped
// without a device): the same orders, drift, reversal and conservation as through `cpu`.
#include <gtest/gtest.h>

#include "../integrator_checks.h"
#include "gpu_support.h"
#include "orrery/device.h"

namespace orrery::test {
namespace {

class GpuIntegrators : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

TEST_P(GpuIntegrators, ConvergeAtTheirOrderOnAKeplerOrbit) { check_convergence_orders(GetParam()); }
TEST_P(GpuIntegrators, LeapfrogKeepsACircularOrbitsRadius) { check_leapfrog_radius(GetParam()); }
TEST_P(GpuIntegrators, LeapfrogHasNoSecularEnergyDrift) { check_leapfrog_no_drift(GetParam()); }
TEST_P(GpuIntegrators, LeapfrogRetracesItsPathWhenTimeRuns) { check_leapfrog_reversal(GetParam()); }
TEST_P(GpuIntegrators, SeedEulerHasABoundedFirstOrderEnergyError) {
  check_seed_euler_energy(GetParam());
}
TEST_P(GpuIntegrators, ConserveAngularMomentumOnTheKeplerOrbit) {
  check_angular_momentum(GetParam());
}
TEST_P(GpuIntegrators, RefuseDamping) { check_refused_damping(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cuda, GpuIntegrators, cuda_modules(), module_name);

}  // namespace
}  // namespace orrery::test
