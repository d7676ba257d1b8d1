// Tests of orrery-bench through its command line: bad input gives exit code 2 and one error line;
// good input gives the table, the skip lines, the comparison and the CSV/JSON files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cli_support.h"
#include "orrery/device.h"
#include "orrery/physics.h"

namespace orrery {
namespace {

using namespace test;

TEST(BenchCli, BadInputGivesOneErrorLineAndExitCode2) {
  REQUIRE_BENCH();
  // Small N and one step where N is not the subject, so a wrongly accepted run ends quickly.
  const std::vector<std::string> quick = {"--steps", "1", "--warmup", "0"};
  const BadInput cases[] = {
      {{"--n", "0"}, "--n '0'"},
      {{"--n", "-5"}, "--n '-5'"},
      {{"--n", "abc"}, "abc"},
      {{"--n", "16,abc"}, "abc"},
      {{"--n", "3000000000"}, "2147483647"},
      {{"--n", "8", "--block", "100"}, "--block 100"},
      {{"--n", "8", "--block", "2048"}, "--block 2048"},
      {{"--n", "8", "--block", "all,64"}, "--block"},
      {{"--n", "8", "--solver", "nope"}, "nope"},
      {{"--n", "8", "--solver", "all,cpu"}, "--solver"},
      {{"--n", "8", "--dt", "nan"}, "--dt"},
      {{"--n", "8", "--dt", "0"}, "--dt"},
      {{"--n", "8", "--softening", "-1"}, "--softening"},
      {{"--n", "8", "--damping", "2"}, "--damping"},
      {{"--n", "8", "--preset", "galaxy"}, "galaxy"},
      {{"--n", "8", "--steps", "0"}, "--steps"},
      {{"--n", "8", "--seed", "-1"}, "--seed"},
      {{"--n", "8", "--cpu-max-n", "-1"}, "--cpu-max-n"},
      {{"--n", "8", "--solver", "cpu", "--block", "128"}, "--block 128"},
      {{"--n", "8", "--compare", "--solver", "cpu"}, "--compare"},
      {{"--n", "8", "--csv", "/nonexistent-dir/x.csv"}, "--csv"},
      // The step pipeline's options (issue 9).
      {{"--n", "8", "--integrator", "nope"}, "--integrator: unknown integrator 'nope'"},
      {{"--n", "8", "--integrator", "leapfrog", "--damping", "0.9"}, "takes no damping"},
      {{"--n", "8", "--integrator", "yoshida4", "--damping", "0.9"}, "takes no damping"},
      {{"--max-n", "0"}, "--max-n '0'"},
      {{"--max-n", "abc"}, "--max-n 'abc'"},
      {{"--max-n", "-60"}, "--max-n"},
      {{"--max-n", "60", "--n", "100"}, "leave out --n"},
      {{"--max-n", "60", "--compare"}, "--compare"},
      {{"--max-n", "60", "--trace", "x.csv"}, "--trace"},
      {{"--n", "8", "--trace-every", "0"}, "--trace-every"},
      {{"--convergence", "--n", "8"}, "leave out --n"},
      {{"--convergence", "--compare"}, "--convergence"},
      // Barnes-Hut's opening angle (issue 10).
      {{"--n", "8", "--theta", "-1"}, "--theta '-1'"},
      {{"--n", "8", "--theta", "nan"}, "--theta 'nan'"},
      {{"--n", "8", "--theta", "5"}, "--theta '5'"},
      {{"--n", "8", "--theta", "abc"}, "--theta 'abc'"},
      {{"--n", "8", "--theta", "0.5,,1"}, "--theta"},
      {{"--accuracy", "--compare"}, "--accuracy"},
      // Collisions (issue 11).
      {{"--n", "8", "--restitution", "1.5"}, "--restitution '1.5'"},
      {{"--n", "8", "--restitution", "nan"}, "--restitution 'nan'"},
      {{"--n", "8", "--radius", "-1"}, "--radius '-1'"},
      {{"--n", "8", "--box", "0"}, "--box '0'"},
      {{"--n", "8", "--collisions", "nope"}, "--collisions: unknown collision mode 'nope'"},
      {{"--n", "8", "--gravity", "maybe"}, "--gravity 'maybe'"},
      // CLI11's own parse errors.
      {{"--n", "8", "--steps", "abc"}, "--steps"},
      {{"--n", "8", "--no-such-option"}, "--no-such-option"},
      {{"--n"}, "--n"},
  };
  for (const BadInput& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), quick.begin(), quick.end());
    expect_usage_error(args, c.names);
  }
}

TEST(BenchCli, CudaSolverWithoutADeviceNamesTheMissingDevice) {
  REQUIRE_BENCH();
  if (device_present()) GTEST_SKIP() << "a CUDA device is present: " << device_info().name;
  for (const char* solver : {"cuda-static", "cuda-dynamic"})
    expect_usage_error({"--solver", solver, "--n", "8", "--steps", "1"}, "CUDA device");
}

TEST(BenchCli, NTooLargeForTheGpuIsRejectedBeforeAllocating) {
  REQUIRE_BENCH();
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const long long n = std::numeric_limits<std::int32_t>::max();
  // Positions twice and velocities are the least any GPU run needs.
  if (static_cast<double>(device_free_memory()) >= 3.0 * sizeof(Vec4) * n)
    GTEST_SKIP() << device_info().name << " has room for " << n << " bodies";
  expect_usage_error({"--solver", "cuda-static", "--n", std::to_string(n), "--steps", "1"},
                     "GPU's memory");
  // The tree costs more a body: refused naming what it needs.
  expect_usage_error({"--solver", "cuda-bh", "--n", std::to_string(n), "--steps", "1"},
                     "cuda-bh with N = 2147483647 needs about");
}

// Issue 42: --accuracy --precision double printed the float pass's errors under a "precision
// double" header. A double run's pass sums in double: its errors are double rounding's.
TEST(BenchCli, AccuracyInDoubleMeasuresTheDoublePass) {
  REQUIRE_BENCH();
  const auto median_of = [](const std::string& out) {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line))
      if (line.rfind("cpu ", 0) == 0) {
        std::istringstream f(line);
        std::string solver, preset, n, theta, targets;
        double median = -1;
        f >> solver >> preset >> n >> theta >> targets >> median;
        return median;
      }
    return -1.0;
  };
  const std::vector<std::string> run = {"--accuracy", "--solver", "cpu",    "--n",
                                        "1500",       "--preset", "plummer"};
  Outcome single = run_bench(run);
  std::vector<std::string> twice = run;
  twice.insert(twice.end(), {"--precision", "double"});
  Outcome dbl = run_bench(twice);
  ASSERT_EQ(single.exit_code, 0) << single.err;
  ASSERT_EQ(dbl.exit_code, 0) << dbl.err;
  EXPECT_GT(median_of(single.out), 1e-8) << single.out;
  EXPECT_GT(median_of(dbl.out), 0.0) << dbl.out;
  EXPECT_LT(median_of(dbl.out), 1e-13) << dbl.out;
}

TEST(BenchCli, HelpExitsZero) {
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--help"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("--cpu-max-n"), std::string::npos) << o.out;
  EXPECT_EQ(o.err, "");
}

TEST(BenchCli, TimesCpuSolversAndWritesCsvAndJson) {
  REQUIRE_BENCH();
  const std::string csv = temp_path("t.csv"), json = temp_path("t.json");
  const Outcome o = run_bench({"--solver", "cpu,cpu-omp", "--n", "1,7,300", "--steps", "3",
                               "--warmup", "1", "--preset", "disk", "--csv", csv, "--json", json});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  EXPECT_NE(o.out.find("GPU: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("interactions/s"), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "\ncpu "), 3u) << o.out;
  EXPECT_EQ(count(o.out, "\ncpu-omp "), 3u) << o.out;
  const std::string c = read_file(csv);
  EXPECT_EQ(c.rfind("solver,config,n,block,", 0), 0u) << c;
  EXPECT_EQ(count(c, "\n"), 7u) << c;  // header and six rows
  // cpu-omp's config names its SIMD level and threads: quoted, it has a comma.
  EXPECT_NE(c.find("\ncpu-omp,\"cpu-omp ("), std::string::npos) << c;
  EXPECT_NE(c.find(" threads)\",300,0,1,3,1,"), std::string::npos) << c;  // block -, 1 GPU
  const std::string j = read_file(json);
  EXPECT_EQ(count(j, "\"solver\": "), 6u) << j;
  EXPECT_NE(j.find("\"preset\": \"disk\""), std::string::npos) << j;
  std::remove(csv.c_str());
  std::remove(json.c_str());
}

TEST(BenchCli, CpuRunsAboveCpuMaxNAreSkippedWithALine) {
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--solver", "cpu,cpu-omp", "--n", "64,128", "--cpu-max-n", "100",
                               "--steps", "1", "--warmup", "0"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("skipped cpu at N=128"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("skipped cpu-omp at N=128"), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "raise --cpu-max-n"), 2u) << o.out;
  EXPECT_EQ(count(o.out, "\ncpu "), 1u) << o.out;
}

TEST(BenchCli, SolverAllSaysWhichSolversCannotRunHere) {
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--solver", "all", "--n", "16", "--steps", "1", "--warmup", "0"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(count(o.out, "\ncpu "), 1u) << o.out;
  if (cuda_compiled() && !device_present()) {
    EXPECT_NE(o.out.find("skipped cuda-static: no CUDA device"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("skipped cuda-dynamic: no CUDA device"), std::string::npos) << o.out;
  }
}

TEST(BenchCli, CompareChecksAgainstCpu) {
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--compare", "--solver", "all", "--n", "7,500,2000", "--cpu-max-n",
                               "1000", "--preset", "collision"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("skipped the comparison with cpu at N=2000"), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "\ncpu-omp "), 2u) << o.out;  // N = 7 and 500; cpu is the reference
  EXPECT_EQ(count(o.out, "\ncpu "), 0u) << o.out;
  EXPECT_EQ(count(o.out, " FAIL "), 0u) << o.out;
  EXPECT_NE(o.out.find("all within the tolerance"), std::string::npos) << o.out;
}

// The step pipeline through the bench: every integrator, the phase columns, the diagnostics'
// drift, and the interactions per step from the solver.
TEST(BenchCli, IntegratorsPhasesAndDiagnostics) {
  REQUIRE_BENCH();
  const std::string csv = temp_path("p.csv"), json = temp_path("p.json");
  for (const char* integrator : {"euler", "leapfrog", "yoshida4"}) {
    SCOPED_TRACE(integrator);
    const Outcome o = run_bench({"--solver", "cpu", "--n", "200", "--steps", "4", "--warmup", "1",
                                 "--preset", "plummer", "--integrator", integrator, "--phases",
                                 "--diagnostics", "--csv", csv, "--json", json});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_NE(o.out.find("integrator " + std::string(integrator)), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("force+integrate"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("dE/|E0|"), std::string::npos) << o.out;
    const std::string c = read_file(csv);
    EXPECT_NE(c.find(",integrator,interactions_per_step,ms_force,ms_integrate,ms_force+integrate,"
                     "ms_bounds,ms_sort,ms_build,ms_moments,ms_walk,ms_grid,ms_contacts,ms_resolve,"
                     "ms_exchange,"
                     "energy_start,energy_end,energy_"
                     "drift,momentum_start,momentum_end,"
                     "momentum_drift,angular_momentum_start,angular_momentum_end,"
                     "angular_momentum_drift,virial_end,theta\n"),
              std::string::npos)
        << c;
    // Every row has the header's columns, the diagnostics filled in.
    const std::size_t row = c.find("\ncpu,");
    ASSERT_NE(row, std::string::npos) << c;
    const std::string line = c.substr(row + 1, c.find('\n', row + 1) - row - 1);
    EXPECT_EQ(count(line, ","), count(c.substr(0, c.find('\n')), ",")) << c;
    EXPECT_EQ(count(line, ",,"), 0u) << line;  // cpu is exact: its theta is empty (the last)
    // cpu at N = 200: 200^2 interactions per force evaluation; leapfrog's steady state does one
    // a step, yoshida4 three.
    const std::string per_step = std::string(integrator) == "yoshida4" ? ",120000," : ",40000,";
    EXPECT_NE(c.find(std::string(",") + integrator + per_step), std::string::npos) << c;
    const std::string j = read_file(json);
    EXPECT_NE(j.find("\"energy_drift\": "), std::string::npos) << j;
    EXPECT_NE(j.find("\"phases_ms\": {\"force\": "), std::string::npos) << j;
  }
  std::remove(csv.c_str());
  std::remove(json.c_str());
}

TEST(BenchCli, TraceWritesDiagnosticsEveryKSteps) {
  REQUIRE_BENCH();
  const std::string trace = temp_path("trace.csv");
  const Outcome o =
      run_bench({"--solver", "cpu", "--n", "300", "--steps", "6", "--warmup", "2", "--preset",
                 "plummer", "--integrator", "leapfrog", "--trace", trace, "--trace-every", "4"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string t = read_file(trace);
  EXPECT_EQ(t.rfind("solver,block,integrator,n,step,time,kinetic,potential,total,energy_drift,", 0),
            0u)
      << t;
  // Steps 0, 4 and 8 of the 2 + 6; the first reading is its own reference.
  EXPECT_NE(t.find("\ncpu,0,leapfrog,300,0,0,"), std::string::npos) << t;
  EXPECT_NE(t.find("\ncpu,0,leapfrog,300,4,"), std::string::npos) << t;
  EXPECT_NE(t.find("\ncpu,0,leapfrog,300,8,"), std::string::npos) << t;
  EXPECT_EQ(count(t, "\n"), 4u) << t;
  std::remove(trace.c_str());
}

// The measured orders of convergence, as a user gets them: halving dt divides euler's one-period
// error by about 2, leapfrog's by about 4 and yoshida4's by about 16 (in their regimes above
// float rounding).
TEST(BenchCli, ConvergenceShowsEachIntegratorsOrder) {
  REQUIRE_BENCH();
  const std::string csv = temp_path("conv.csv");
  const Outcome o = run_bench({"--convergence", "--solver", "cpu", "--csv", csv});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string c = read_file(csv);
  EXPECT_EQ(count(c, "\n"), 28u) << c;  // header, 3 integrators x 9 step counts
  auto error = [&](const char* integrator, int steps) {
    const std::string key = std::string("\ncpu,") + integrator + "," + std::to_string(steps) + ",";
    const std::size_t at = c.find(key);
    if (at == std::string::npos) return -1.0;
    const std::size_t comma = c.find(',', at + key.size());
    return std::stod(c.substr(comma + 1));
  };
  EXPECT_NEAR(std::log2(error("euler", 1600) / error("euler", 3200)), 1.0, 0.3);
  EXPECT_NEAR(std::log2(error("leapfrog", 100) / error("leapfrog", 200)), 2.0, 0.3);
  EXPECT_NEAR(std::log2(error("yoshida4", 50) / error("yoshida4", 100)), 4.0, 0.3);
  std::remove(csv.c_str());
}

TEST(BenchCli, MaxNFindsTheLargestNAtTheFrameRate) {
  REQUIRE_BENCH();
  const std::string csv = temp_path("m.csv");
  const Outcome o = run_bench(
      {"--solver", "cpu", "--max-n", "200", "--steps", "3", "--warmup", "1", "--csv", csv});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("max N"), std::string::npos) << o.out;
  const std::string c = read_file(csv);
  ASSERT_EQ(c.rfind("solver,config,block,fps,max_n,ms_per_step,too_slow_n,too_slow_ms,limit\n", 0),
            0u)
      << c;
  // One row: the N found takes at most 5 ms a step, the N above it more, within 5% of each other.
  int max_n = 0, too_slow = 0;
  double ms = 0, slow_ms = 0;
  const std::size_t row = c.find("\ncpu,cpu,0,200,");
  ASSERT_NE(row, std::string::npos) << c;
  ASSERT_EQ(std::sscanf(c.c_str() + row + 15, "%d,%lf,%d,%lf", &max_n, &ms, &too_slow, &slow_ms), 4)
      << c;
  EXPECT_GT(max_n, 0);
  EXPECT_LE(ms, 5.0);
  EXPECT_GT(slow_ms, 5.0);
  EXPECT_LE(too_slow - max_n, 0.05 * max_n + 1) << c;
  std::remove(csv.c_str());
}

}  // namespace
}  // namespace orrery
