// Test particles on the GPU modules (tests/test_particle_checks.h): cuda-fast sums over the
// sources alone (one-sided kernels), cuda-bh leaves them out of its tree and walks them in runs
// of 32, and the Simulation counts the sources on the device.
#include "../test_particle_checks.h"
#include "orrery/device.h"

namespace orrery {
namespace {

using namespace test;

#define ORRERY_NEED_DEVICE() \
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason

TEST(GpuTestParticles, CudaFastSumsTheSourcesAlone) {
  ORRERY_NEED_DEVICE();
  check_all_pairs_sources("cuda-fast", 3001, 257);
  check_all_pairs_sources("cuda-fast", 70001, 9999);  // pair mode's sizes: one-sided instead
  check_all_pairs_sources("cuda-fast", 1000, 1);
}

TEST(GpuTestParticles, CudaBhLeavesThemOutAndKeepsItsAccuracy) {
  ORRERY_NEED_DEVICE();
  check_tree_sources("cuda-bh", 200003, 20011);
  check_tree_sources("cuda-bh", 50021, 25000);
  check_tree_sources("cuda-bh", 9001, 8000);  // too few to leave out: the whole tree
}

TEST(GpuTestParticles, TheSimulationCountsTheSourcesOnTheDevice) {
  ORRERY_NEED_DEVICE();
  for (const char* solver : {"cuda-fast", "cuda-bh"}) check_simulation_counts_sources(solver);
}

}  // namespace
}  // namespace orrery
