// White-box tests of `cuda-fast`: every kernel configuration and the autotuned one against `cpu`.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "../../src/sim/cuda_fast.h"
#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

constexpr int k_steps = 3;
constexpr double k_tolerance = 1e-4;
const int k_sizes[] = {1, 7, 1000, 1023, 4097};

SimParams params() {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.damping = 0.999f;
  return p;
}

struct Result {
  std::vector<Vec4> pos, vel;
};

// The `cpu` reference after k_steps from the collision preset, computed once per N.
const Result& reference(int n) {
  static std::map<int, Result> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  BodyState s = make_preset(Preset::collision, n, 1234);
  std::vector<Vec4> out(n);
  auto cpu = make_solver("cpu");
  for (int k = 0; k < k_steps; ++k) {
    cpu->step(s.pos.data(), out.data(), s.vel.data(), n, params());
    s.pos.swap(out);
  }
  return cache[n] = Result{s.pos, s.vel};
}

Result run_gpu(Solver& solver, int n) {
  BodyState s = make_preset(Preset::collision, n, 1234);
  DeviceArray a(n), b(n), v(n);
  a.upload(s.pos.data(), n);
  v.upload(s.vel.data(), n);
  // Poison the output buffer so an unwritten body cannot pass.
  std::vector<Vec4> poison(n, Vec4{NAN, NAN, NAN, NAN});
  b.upload(poison.data(), n);
  for (int k = 0; k < k_steps; ++k) {
    solver.step(a.data(), b.data(), v.data(), n, params());
    std::swap(a, b);
  }
  Result r{std::vector<Vec4>(n), std::vector<Vec4>(n)};
  a.download(r.pos.data(), n);
  v.download(r.vel.data(), n);
  return r;
}

void expect_matches_cpu(Solver& solver, int n) {
  const Result got = run_gpu(solver, n);
  const Result& want = reference(n);
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
  // A fixed block size restricts the candidates to it.
  for (const auto& f : fast_candidates(65536, 132, 128)) EXPECT_EQ(f.block, 128);
}

TEST(CudaFast, EveryConfigurationMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  for (int block : fast_block_sizes())
    for (int r : fast_bodies_per_thread())
      for (int splits : {1, 2, 3, 8}) {
        const FastConfig c{block, r, splits};
        auto solver = make_cuda_fast_solver(0, &c);
        for (int n : k_sizes) expect_matches_cpu(*solver, n);
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
