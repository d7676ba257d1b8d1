// White-box tests of `cuda-fast`: every kernel configuration and the autotuned one against `cpu`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../src/sim/gravity/cuda_fast.h"
#include "gpu_support.h"
#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

constexpr int k_steps = 3;
constexpr double k_tolerance = 1e-4;
const int k_sizes[] = {1, 7, 1000, 1023, 4097};

void expect_matches_cpu(Solver& solver, int n) {
  const BodyState got = test::run_on_device(solver, make_preset(Preset::collision, n, 1234),
                                            k_steps, test::gpu_check_params())
                            .end;
  const BodyState& want = test::cpu_reference(Preset::collision, n, 1234, k_steps);
  EXPECT_LT(max_relative_error(got.pos, want.pos), k_tolerance) << solver.config() << " N=" << n;
  EXPECT_LT(max_relative_error(got.vel, want.vel), k_tolerance) << solver.config() << " N=" << n;
}

TEST(CudaFastCandidates, CoverEveryBlockAndFillTheGpuAtSmallN) {
  for (int n : k_sizes) {
    const auto c = fast_candidates(n, 132, 0);
    ASSERT_FALSE(c.empty()) << "N=" << n;
    for (const auto& f : c) {
      EXPECT_TRUE(f.splits == 1 || f.splits * f.block <= n) << to_string(f) << " N=" << n;
    }
  }
  // At N = 16384 on 132 SMs one block row cannot fill the GPU: splits must be offered.
  bool split_offered = false;
  for (const auto& f : fast_candidates(16384, 132, 0)) split_offered |= f.splits > 1;
  EXPECT_TRUE(split_offered);
  // Pair mode is offered while its grid (one block per pair of tiles) fits, and not beyond.
  auto pairs_offered = [](int n) {
    bool any = false;
    for (const auto& f : fast_candidates(n, 132, 0)) any |= f.pairs;
    return any;
  };
  EXPECT_TRUE(pairs_offered(1 << 24));
  EXPECT_FALSE(pairs_offered(100000000));
  // A fixed block size restricts the candidates to it.
  for (const auto& f : fast_candidates(65536, 132, 128)) EXPECT_EQ(f.block, 128);
}

// One test per block size, so sharded runs (compute-sanitizer racecheck) can spread them.
class CudaFastBlock : public ::testing::TestWithParam<int> {};

TEST_P(CudaFastBlock, EveryConfigurationMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const int block = GetParam();
  for (int r : fast_bodies_per_thread())
    for (int splits : {1, 2, 3, 8}) {
      const FastConfig c{block, r, splits};
      auto solver = make_cuda_fast_solver(0, &c);
      for (int n : k_sizes) expect_matches_cpu(*solver, n);
    }
}

INSTANTIATE_TEST_SUITE_P(Blocks, CudaFastBlock, ::testing::ValuesIn(fast_block_sizes()));

TEST(CudaFast, EveryBlockSizeIsTested) {
  EXPECT_EQ(fast_block_sizes(), (std::vector<int>{64, 128, 256, 512}));
}

// Pair mode: tiles of 512 or 1024 bodies; 3000 gives an even tile count (its last grid column
// holds every tile pair twice and must do each once), 4097 an odd one.
TEST(CudaFast, EveryPairConfigurationMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  for (const FastConfig& c : fast_pair_configs()) {
    auto solver = make_cuda_fast_solver(0, &c);
    for (int n : k_sizes) expect_matches_cpu(*solver, n);
    expect_matches_cpu(*solver, 3000);
  }
}

TEST(CudaFast, AutotunedConfigurationMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  for (int n : k_sizes) {
    auto solver = make_solver("cuda-fast");
    expect_matches_cpu(*solver, n);
    EXPECT_NE(solver->config().find("autotuned for N=" + std::to_string(n)), std::string::npos)
        << solver->config();
    EXPECT_GT(solver->block_size(), 0);
  }
  for (int block : fast_block_sizes()) {
    auto solver = make_solver("cuda-fast", block);
    expect_matches_cpu(*solver, 1023);
    EXPECT_EQ(solver->block_size(), block) << solver->config();
  }
}

}  // namespace
}  // namespace orrery
