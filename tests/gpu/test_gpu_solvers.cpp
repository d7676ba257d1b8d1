// Every GPU solver in the registry x every block size it supports x N in {1, 7, 1000, 1023, 4097}
// against `cpu` after several steps. Generated from all_solvers(), so new solvers are covered.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu_support.h"
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

// Two galaxies with heavy cores: large, varied accelerations, and the second disk tilted.
constexpr Preset k_preset = Preset::collision;

const BodyState& reference(int n) { return test::cpu_reference(k_preset, n, k_seed, k_steps); }

class GpuSolver : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuSolver, MatchesCpuAfterSeveralSteps) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  const GpuCase& c = GetParam();
  auto solver = make_solver(c.solver, c.block);
  ASSERT_TRUE(solver->on_device());
  const BodyState start = make_preset(k_preset, c.n, k_seed);
  const test::DeviceRun run =
      test::run_on_device(*solver, start, k_steps, test::gpu_check_params());
  EXPECT_TRUE(run.input_untouched_after_first) << solver->config() << " wrote to its input buffer";
  const BodyState& want = reference(c.n);
  EXPECT_LT(max_relative_error(run.end.pos, want.pos), k_tolerance) << solver->config();
  EXPECT_LT(max_relative_error(run.end.vel, want.vel), k_tolerance) << solver->config();
  for (int i = 0; i < c.n; ++i)
    ASSERT_EQ(run.end.pos[i].w, start.pos[i].w)
        << solver->config() << ": mass of body " << i << " changed";
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
    const test::DeviceRun run = test::run_on_device(*solver, make_preset(k_preset, n, k_seed),
                                                    k_steps, test::gpu_check_params());
    EXPECT_LT(max_relative_error(run.end.pos, reference(n).pos), k_tolerance) << solver->config();
    EXPECT_GT(solver->block_size(), 0) << solver->config();
  }
}

}  // namespace
}  // namespace orrery
