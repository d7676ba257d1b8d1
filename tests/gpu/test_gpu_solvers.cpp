// Every GPU solver in the registry x every block size it supports x N in {1, 7, 1000, 1023, 4097}
// against `cpu` after several steps. Generated from all_solvers(), so new solvers are covered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../support.h"
#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

constexpr int k_steps = 5;  // each step reads the previous one's output (ping-pong)
constexpr double k_tolerance = 1e-4;
constexpr std::uint64_t k_seed = 2026;

struct GpuCase {
  std::string solver;
  int block;
  int n;
};

void PrintTo(const GpuCase& c, std::ostream* os) {
  *os << c.solver << " block " << c.block << " N=" << c.n;
}

std::vector<GpuCase> gpu_cases() {
  std::vector<GpuCase> cases;
  for (const SolverInfo& s : all_solvers()) {
    if (!s.gpu) continue;
    for (int block : s.block_sizes)
      for (int n : {1, 7, 1000, 1023, 4097}) cases.push_back({s.name, block, n});
  }
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  std::string name = info.param.solver + "_block" + std::to_string(info.param.block) + "_n" +
                     std::to_string(info.param.n);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

SimParams params() {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.damping = 0.999f;
  return p;
}

// Two galaxies with heavy cores: large, varied accelerations, and the second disk tilted.
BodyState initial(int n) { return make_preset(Preset::collision, n, k_seed); }

// `cpu` after k_steps, computed once per N.
const BodyState& reference(int n) {
  static std::map<int, BodyState> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    auto cpu = make_solver("cpu");
    it = cache.emplace(n, test::run_host(*cpu, initial(n), k_steps, params())).first;
  }
  return it->second;
}

std::vector<Vec4> download(const DeviceArray& a, int n) {
  std::vector<Vec4> v(n);
  a.download(v.data(), n);
  return v;
}

class GpuSolver : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuSolver, MatchesCpuAfterSeveralSteps) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  const GpuCase& c = GetParam();
  auto solver = make_solver(c.solver, c.block);
  ASSERT_TRUE(solver->on_device());
  const BodyState start = initial(c.n);
  DeviceArray a(c.n), b(c.n), vel(c.n);
  a.upload(start.pos.data(), c.n);
  vel.upload(start.vel.data(), c.n);
  // NaN in the output buffer, so a body the kernel leaves unwritten cannot pass.
  const std::vector<Vec4> poison(c.n, Vec4{NAN, NAN, NAN, NAN});
  b.upload(poison.data(), c.n);

  for (int k = 0; k < k_steps; ++k) {
    solver->step(a.data(), b.data(), vel.data(), c.n, params());
    if (k == 0) {
      // The input positions are only read.
      const std::vector<Vec4> in = download(a, c.n);
      ASSERT_EQ(std::memcmp(in.data(), start.pos.data(), c.n * sizeof(Vec4)), 0)
          << solver->config() << " wrote to its input buffer";
    }
    std::swap(a, b);
  }
  device_synchronize();
  const std::vector<Vec4> pos = download(a, c.n), v = download(vel, c.n);
  const BodyState& want = reference(c.n);
  EXPECT_LT(max_relative_error(pos, want.pos), k_tolerance) << solver->config();
  EXPECT_LT(max_relative_error(v, want.vel), k_tolerance) << solver->config();
  for (int i = 0; i < c.n; ++i)
    ASSERT_EQ(pos[i].w, start.pos[i].w) << solver->config() << ": mass of body " << i << " changed";
  EXPECT_EQ(solver->block_size(), c.block) << solver->config();
}

INSTANTIATE_TEST_SUITE_P(Registry, GpuSolver, ::testing::ValuesIn(gpu_cases()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuSolver);

TEST(GpuSolvers, EverySolverSupportsAtLeastOneBlockSizeAndHasADefault) {
  for (const SolverInfo& s : all_solvers()) {
    if (!s.gpu) continue;
    EXPECT_FALSE(s.block_sizes.empty()) << s.name;
    const int d = default_block_size(s.name);
    // 0 means the solver chooses (autotunes); otherwise the default must be a supported size.
    EXPECT_TRUE(d == 0 || std::count(s.block_sizes.begin(), s.block_sizes.end(), d) == 1) << s.name;
  }
}

TEST(GpuSolvers, DefaultBlockSizeRunsAndMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  const int n = 1000;
  for (const SolverInfo& s : available_solvers()) {
    if (!s.gpu) continue;
    SCOPED_TRACE(s.name);
    auto solver = make_solver(s.name);
    const BodyState start = initial(n);
    DeviceArray a(n), b(n), vel(n);
    a.upload(start.pos.data(), n);
    vel.upload(start.vel.data(), n);
    for (int k = 0; k < k_steps; ++k) {
      solver->step(a.data(), b.data(), vel.data(), n, params());
      std::swap(a, b);
    }
    EXPECT_LT(max_relative_error(download(a, n), reference(n).pos), k_tolerance) << solver->config();
    EXPECT_GT(solver->block_size(), 0) << solver->config();
  }
}

}  // namespace
}  // namespace orrery
