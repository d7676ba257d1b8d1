// orrery-bench --save-every and --series: a run's snapshot series from the command line, and the
// refusals, each one line and exit 2 before any step, with nothing written.
#include <gmock/gmock.h>

#include "bench_cli_support.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using namespace test;

TEST(BenchSeries, WritesTheStartAndEveryKSteps) {
  REQUIRE_BENCH();
  TempDir dir;
  const std::string pattern = dir.path + "/b_%02d.orrery";
  const Outcome o = run_bench({"--solver", "cpu", "--n", "37", "--steps", "6", "--warmup", "1",
                               "--save-every", "2", "--series", pattern});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_THAT(o.err, ::testing::HasSubstr("series: 4 outputs"));
  EXPECT_EQ(dir.entries(), 4);  // steps 0, 2, 4, 6 of the 7 (warm-up counted)
  for (int k = 0; k < 4; ++k) {
    const Snapshot s = load_snapshot(dir.path + "/b_0" + std::to_string(k) + ".orrery");
    EXPECT_EQ(s.run.steps, 2 * k);
    EXPECT_EQ(s.run.solver, "cpu");
    EXPECT_EQ(s.bodies.size(), 37);
  }
  // The same pattern again overwrites nothing: refused before any step.
  expect_usage_error(
      {"--solver", "cpu", "--n", "37", "--steps", "1", "--save-every", "2", "--series", pattern},
      "b_00.orrery exists already");
  EXPECT_EQ(dir.entries(), 4);
}

TEST(BenchSeries, BadSeriesOptionsAreOneLine) {
  REQUIRE_BENCH();
  TempDir dir;
  const std::string p = dir.path + "/s_%d.hdf5";
  const std::vector<std::string> one = {"--solver", "cpu", "--n", "8", "--steps", "1"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = one;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_usage_error(with({"--save-every", "0", "--series", p}), "--save-every '0'");
  expect_usage_error(with({"--save-every", "time=-1", "--series", p}), "--save-every");
  expect_usage_error(with({"--save-every", "", "--series", p}), "--save-every");
  expect_usage_error(with({"--series", p}), "give --save-every too");
  expect_usage_error(with({"--save-every", "3", "--series", dir.path + "/s.hdf5"}), "no %d");
  expect_usage_error(with({"--save-every", "3", "--series", dir.path + "/s_%d.out"}), ".out");
  expect_usage_error(with({"--save-every", "3", "--series", dir.path + "/no/s_%d.hdf5"}),
                     "cannot write in");
  expect_usage_error(
      {"--solver", "cpu,cpu-omp", "--n", "8", "--steps", "1", "--save-every", "3", "--series", p},
      "--save-every: keeps one run");
  expect_usage_error(
      {"--solver", "cpu-omp", "--n", "8", "--compare", "--save-every", "3", "--series", p},
      "--save-every: keeps a timing run");
  EXPECT_EQ(dir.entries(), 0);
}

}  // namespace
}  // namespace orrery
