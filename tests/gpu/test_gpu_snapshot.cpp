// Exact restart on the GPU: a run saved and loaded continues bit for bit, for the solvers that
// sum in a fixed order (docs/formats.md), with gravity and with the GPU collider's bounces.
#include <gtest/gtest.h>

#include "../snapshot_checks.h"
#include "orrery/device.h"

namespace orrery::test {
namespace {

class GpuSnapshot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

TEST_F(GpuSnapshot, ExactRestart) {
  check_exact_restarts("cuda-dynamic", 1001);
  check_exact_restarts("cuda-static", 1001);
  check_exact_restarts("cuda-bh", 5003);
}

// cuda-fast keeps its autotuner's choice for the process (per N and block), so a restart in the
// same process sums in the same order; a new process may time the candidates differently.
TEST_F(GpuSnapshot, ExactRestartCudaFastInOneProcess) { check_exact_restarts("cuda-fast", 1001); }

}  // namespace
}  // namespace orrery::test
