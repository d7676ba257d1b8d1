// The double-precision checks of tests/precision_checks.h through the CUDA solvers (skipped
// without a device), and the 16,384-body Plummer sphere over a crossing time.
#include <gtest/gtest.h>

#include <cstdio>

#include "../../src/sim/gravity/cuda_fast.h"
#include "../precision_checks.h"
#include "gpu_support.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery::test {
namespace {

class GpuPrecision : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

TEST_P(GpuPrecision, DoubleMatchesCpuInDouble) { check_double_matches_cpu(GetParam()); }
TEST_P(GpuPrecision, FloatViewIsTheDoubleStateRounded) { check_float_view(GetParam()); }
TEST_P(GpuPrecision, LeapfrogRetracesItsPathInDouble) { check_double_reversal(GetParam()); }
TEST_P(GpuPrecision, DoubleRunRestartsExactlyFromVersion2) { check_double_restart(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cuda, GpuPrecision, cuda_modules(), module_name);

// Every double-precision kernel of cuda-fast, one-sided and pair mode, whichever the autotuner
// would pick, against cpu at sizes that are not multiples of any tile.
TEST(GpuPrecisionFast, EveryDoubleKernelMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  std::vector<FastConfig> configs = fast_double_configs();
  for (const FastConfig& c : fast_pair_double_configs()) configs.push_back(c);
  const SimParams p = double_params();
  const double eps2 = double(p.softening) * p.softening;
  std::unique_ptr<Solver> ref = make_solver("cpu");
  for (int n : {1, 100, 1023, 2049}) {
    const BodyState s = double_preset(Preset::plummer, n, 11);
    const std::vector<Vec4d> want = double_accelerations(*ref, s.pos64, p);
    GpuBuffer<Vec4d> dp(s.pos64.size()), da(s.pos64.size());
    dp.upload(s.pos64.data(), s.pos64.size());
    for (const FastConfig& c : configs) {
      SCOPED_TRACE(to_string(c) + ", N = " + std::to_string(n));
      launch_fast_double(c, dp.data(), da.data(), n, n, eps2);
      std::vector<Vec4d> got(s.pos64.size());
      da.download(got.data(), got.size());
      double worst = 0;
      for (int i = 0; i < n; ++i) {
        const double d =
            std::hypot(got[i].x - want[i].x, got[i].y - want[i].y, got[i].z - want[i].z);
        const double m = std::hypot(want[i].x, want[i].y, want[i].z);
        worst = std::max(worst, m > 0 ? d / m : d);
      }
      EXPECT_LT(worst, 1e-12);
    }
  }
}

TEST(GpuPrecisionPlummer, SixteenThousandBodiesKeepTheirEnergyOverACrossingTime) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  const double drift = plummer_crossing_drift("cuda-fast", 16384, 0.008f);
  std::printf("Plummer 16384, double, yoshida4, dt 0.008, one crossing time: |dE/E| %.3e\n", drift);
  EXPECT_LT(drift, 1e-10);
}

}  // namespace
}  // namespace orrery::test
