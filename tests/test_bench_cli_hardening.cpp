// orrery-bench as a hostile user and a snapshot user meet it: decimal numbers, empty items, one
// file named twice, unwritable outputs, non-finite runs, progress lines; snapshots saved, loaded
// and exported through the command line, and bad files.
// good input gives the table, the skip lines, the comparison and the CSV/JSON files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "bench_cli_support.h"
#include "orrery/device.h"
#include "orrery/physics.h"
#include "orrery/presets.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using namespace test;

// Issue 8's defects, each as it was reported against commit 93ed71b.
TEST(BenchCliHardening, NumbersAreDecimal) {  // defect 3: --steps 010 ran 8 steps
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--solver", "cpu", "--n", "010", "--steps", "010", "--warmup", "0"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("median of 10 steps"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\ncpu                   10 "), std::string::npos) << o.out;
}

TEST(BenchCliHardening, EmptyItemsAndValuesAreErrors) {  // defect 6
  REQUIRE_BENCH();
  expect_usage_error({"--n", "64,,128", "--steps", "1"}, "empty item");
  expect_usage_error({"--n", "8", "--solver", "cpu,", "--steps", "1"}, "empty item");
  expect_usage_error({"--n", "8", "--warmup", "", "--steps", "1"}, "--warmup: empty");
  expect_usage_error({"--n", "8", "--simd", "", "--steps", "1"}, "--simd: empty");
  expect_usage_error({"--n", "8", "--simd", "AVX9", "--steps", "1"},
                     "--simd: 'AVX9' is not a SIMD level this CPU runs");
  expect_usage_error({"--n", "--", "--steps", "1"}, "not a number");  // defect 10
  expect_usage_error({"--n", "8", "--seed", "18446744073709551616"}, "out of range");
  expect_usage_error({"--n", "8", "--dt", "1e39"}, "range of a float");
  // Issue 21: an empty file name or list is refused, never taken for "not given".
  for (const char* option : {"--save", "--load", "--scene", "--export-csv", "--csv", "--json",
                             "--trace", "--solver", "--max-n"})
    expect_usage_error({"--n", "8", "--steps", "1", option, ""}, std::string(option) + ": empty");
  // Issue 21: a refusal blames what was typed and names what came from the file (it blamed
  // "--integrator leapfrog", which the user never typed).
  {
    const std::string scene = temp_path("leapfrog-scene.json");
    std::ofstream(scene) << R"({"initial": {"preset": "disk", "n": 64}, "integrator": "leapfrog"})";
    expect_usage_error({"--scene", scene, "--steps", "1", "--damping", "0.9", "--solver", "cpu"},
                       "the scene's integrator leapfrog with --damping 0.9: leapfrog takes no");
    expect_usage_error({"--n", "8", "--steps", "1", "--integrator", "leapfrog", "--damping", "0.9"},
                       "--integrator leapfrog with --damping 0.9: ");
    std::remove(scene.c_str());
  }
  // Issue 21: a snapshot's block that does not fit is blamed on the snapshot, not on a --block
  // the user never typed.
  {
    Snapshot s;
    s.bodies = make_preset(Preset::plummer, 16, 1);
    s.run.solver = "cpu";
    s.run.block = 77;
    const std::string file = temp_path("block77.orrery");
    save_snapshot(file, s);
    expect_usage_error({"--load", file, "--steps", "1"}, "the snapshot's block 77: none of the");
    std::remove(file.c_str());
  }
  // Issue 21: --trace-every without --trace would be silently ignored.
  expect_usage_error({"--n", "8", "--steps", "1", "--trace-every", "5"},
                     "--trace-every 5: readings need --trace FILE");
  // Issue 27: GPU counts that no selected solver, or this machine, can run.
  expect_usage_error({"--n", "8", "--steps", "1", "--gpus", "0"}, "--gpus '0'");
  expect_usage_error({"--n", "8", "--steps", "1", "--gpus", "1,,2"}, "empty item");
  expect_usage_error({"--n", "8", "--steps", "1", "--solver", "cpu,cpu-omp", "--gpus", "2"},
                     "--gpus 2: cpu runs on one device");
  if (device_count() < 64)
    expect_usage_error({"--n", "8", "--steps", "1", "--solver", "all", "--gpus", "64"},
                       "--gpus 64: ");
  // Issue 21: walls smaller than the bodies are refused before any run.
  expect_usage_error({"--solver", "cpu", "--n", "64", "--steps", "1", "--box", "0.01", "--radius",
                      "5", "--collisions", "bounce"},
                     "--box 0.01: smaller than the bodies");
  // Issue 21: a pasted 100 KB value is cut in the error line, which still names the option.
  const std::string big(100000, 'x');
  for (const char* option : {"--n", "--solver", "--preset", "--dt"}) {
    const Outcome o = run_bench({option, big, "--steps", "1"});
    EXPECT_EQ(o.exit_code, 2) << option;
    EXPECT_LT(o.err.size(), 500u) << option << ": " << o.err.substr(0, 200);
    EXPECT_NE(o.err.find(option), std::string::npos) << o.err.substr(0, 200);
  }
}

TEST(BenchCliHardening, OneFileNamedTwiceIsRefusedBeforeTheRun) {  // defect 5
  REQUIRE_BENCH();
  const std::string name = "orrery_same_" + std::to_string(getpid()) + ".out";
  const std::string a = ::testing::TempDir() + name, b = ::testing::TempDir() + "./" + name;
  const Outcome o =
      run_bench({"--solver", "cpu", "--n", "8", "--steps", "1", "--csv", a, "--json", b});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("name the same file"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");  // nothing ran
  EXPECT_NE(access(a.c_str(), F_OK), 0) << "the refused run left " << a;
}

// Issue 21: every output of a run by its place, however spelled; a save onto a device writes it
// in place (a full one fails with exit 1 after the table) and never turns it into a file.
TEST(BenchCliHardening, EveryOutputNamesItsOwnFile) {
  REQUIRE_BENCH();
  const std::string dir = ::testing::TempDir() + "orrery_places_" + std::to_string(getpid());
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  const std::vector<std::vector<std::string>> pairs = {
      {"--save", dir + "/x.orrery", "--export-csv", dir + "/./x.orrery"},
      {"--csv", dir + "/y", "--save", dir + "/y"},
      {"--trace", dir + "/t", "--export-csv", dir + "/t"},
      {"--json", dir + "/j", "--save", dir + "//j"}};
  for (const auto& p : pairs) {
    std::vector<std::string> args = {"--solver", "cpu", "--n", "8", "--steps", "1"};
    args.insert(args.end(), p.begin(), p.end());
    const Outcome o = run_bench(args);
    EXPECT_EQ(o.exit_code, 2) << join(args) << ": " << o.err;
    EXPECT_NE(o.err.find("name the same file"), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "") << join(args);
  }
  ::rmdir(dir.c_str());
  if (::access("/proc/self", F_OK) == 0)
    expect_usage_error(
        {"--solver", "cpu", "--n", "8", "--steps", "1", "--save", "/proc/orrery-x.orrery"},
        "/proc/orrery-x.orrery");
}

TEST(BenchCliHardening, ASaveOntoADeviceNeverReplacesIt) {
  REQUIRE_BENCH();
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no writable /dev/full";
  const Outcome o = run_bench(
      {"--solver", "cpu", "--n", "64", "--steps", "2", "--warmup", "0", "--save", "/dev/full"});
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_NE(o.out.find("\ncpu "), std::string::npos) << o.out;  // the table came first
  EXPECT_NE(o.err.find("/dev/full"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("saved /dev/full"), std::string::npos) << o.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full is no longer a device";
  const Outcome n = run_bench({"--solver", "cpu", "--n", "64", "--steps", "2", "--warmup", "0",
                               "--export-csv", "/dev/null"});
  EXPECT_EQ(n.exit_code, 0) << n.err;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null is no longer a device";
}

TEST(BenchCliHardening, UnwritableOutputsFailBeforeTheRun) {  // defect 7
  REQUIRE_BENCH();
  for (const char* path : {"/proc/x.csv", "/nonexistent-dir/x.csv", "/"}) {
    const Outcome o = run_bench({"--solver", "cpu", "--n", "8", "--steps", "1", "--csv", path});
    EXPECT_EQ(o.exit_code, 2) << path << ": " << o.err;
    EXPECT_EQ(count(o.err, "\n"), 1u) << o.err;
    EXPECT_NE(o.err.find(std::string("--csv ") + path), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "") << "ran before refusing " << path;
  }
}

TEST(BenchCliHardening, AFailedWriteAfterTheRunKeepsTheTable) {  // nothing measured is lost
  REQUIRE_BENCH();
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  const Outcome o =
      run_bench({"--solver", "cpu", "--n", "8", "--steps", "1", "--csv", "/dev/full"});
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_NE(o.out.find("\ncpu "), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("cannot write /dev/full"), std::string::npos) << o.err;
}

TEST(BenchCliHardening, SofteningBelowTheBoundIsRefused) {  // defect 8
  REQUIRE_BENCH();
  expect_usage_error({"--n", "8", "--softening", "1e-13", "--steps", "1"}, "1e-10");
}

TEST(BenchCliHardening, NonFiniteRunsNameTheSolverAndTheStep) {  // defect 8
  REQUIRE_BENCH();
  const Outcome o = run_bench(
      {"--solver", "cpu-omp", "--n", "50", "--steps", "5", "--warmup", "0", "--dt", "1e30"});
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_NE(o.err.find("cpu-omp at N=50: the state became non-finite at step 1 (body "),
            std::string::npos)
      << o.err;
  // Issue 42: it said nothing of why; the step that did it is named, and what may hold it.
  EXPECT_NE(o.err.find(") after a step of 1e+30; "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("a smaller --dt or --dt-max, or a larger --softening, may hold it"),
            std::string::npos)
      << o.err;
  // Issue 21: a merged radius that overflows (6e12 cubed, twice, is past float's range) is named
  // as the radius, not as "positions or velocities".
  const Outcome m = run_bench({"--solver", "cpu", "--n", "2", "--collisions", "merge", "--radius",
                               "6e12", "--gravity", "off", "--steps", "1", "--warmup", "0"});
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_NE(m.err.find("the state became non-finite at step 1 (body 0: its radius)"),
            std::string::npos)
      << m.err;
  // --compare says when the reference itself is the one that is non-finite.
  const Outcome c = run_bench({"--compare", "--solver", "cpu-omp", "--n", "50", "--dt", "1e30"});
  EXPECT_EQ(c.exit_code, 1) << c.err;
  EXPECT_NE(c.out.find("the cpu reference itself became non-finite at step 1"), std::string::npos)
      << c.out;
}

TEST(BenchCliHardening, LongRunsPrintProgress) {  // defect 10: --warmup 2147483647 was silent
  REQUIRE_BENCH();
  const Outcome o =
      run_bench({"--solver", "cpu", "--n", "512", "--warmup", "2147483647", "--steps", "1"}, 4.0);
  EXPECT_NE(o.err.find("orrery-bench: cpu at N=512: step 1 of 2147483648, about"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find(" s left"), std::string::npos) << o.err;
}

// Issue 21: Ctrl-C or SIGTERM stops the bench between steps with exit 128 + signal, and the
// output files it had opened but not written are removed (an empty results.csv was left).
TEST(BenchCliHardening, AStoppedRunLeavesNoFiles) {
  REQUIRE_BENCH();
  const std::string csv = temp_path("stopped.csv"), json = temp_path("stopped.json"),
                    trace = temp_path("stopped.trace.csv");
  const Outcome o = run_bench({"--solver", "cpu", "--n", "256", "--warmup", "2147483647", "--steps",
                               "1", "--csv", csv, "--json", json, "--trace", trace},
                              1.5);
  EXPECT_EQ(o.exit_code, 128 + SIGTERM) << o.err;
  EXPECT_NE(
      o.err.find("orrery-bench: stopped by SIGTERM between steps; no output file was written"),
      std::string::npos)
      << o.err;
  for (const std::string& f : {csv, json, trace}) EXPECT_NE(access(f.c_str(), F_OK), 0) << f;
}

// Snapshots through orrery-bench (issue 12): 5 steps saved, loaded and 5 more give the very file
// that 10 steps in one run give; CSV export; TIPSY in and out.
TEST(BenchCliSnapshots, SaveLoadRestartsExactly) {
  REQUIRE_BENCH();
  const std::string a = temp_path("a.orrery"), b = temp_path("b.orrery"), c = temp_path("c.orrery");
  const std::string csv = temp_path("a.csv"), tipsy = temp_path("a.tipsy");
  const std::vector<std::string> run = {"--solver", "cpu",  "--preset",     "disk",
                                        "--n",      "300",  "--integrator", "leapfrog",
                                        "--dt",     "0.01", "--warmup",     "0"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  Outcome o = run_bench(with({"--steps", "5", "--save", a, "--export-csv", csv}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.err.find("saved " + a), std::string::npos) << o.err;
  o = run_bench({"--load", a, "--steps", "5", "--warmup", "0", "--save", b});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("loaded: Orrery snapshot, 300 bodies, step 5"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("integrator leapfrog, dt 0.01"), std::string::npos) << o.out;  // the file's
  o = run_bench(with({"--steps", "10", "--save", c}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string sb = read_file(b), sc = read_file(c);
  EXPECT_EQ(sb.size(), 256u + 32u * 300u + 8u);
  EXPECT_TRUE(sb == sc) << "the restarted run differs from the one that never stopped";
  EXPECT_EQ(count(read_file(csv), "\n"), 301u);
  // TIPSY out and back in (the time comes back; the settings are the command line's).
  o = run_bench({"--load", a, "--steps", "1", "--warmup", "0", "--save", tipsy});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  o = run_bench({"--load", tipsy, "--solver", "cpu", "--steps", "1", "--warmup", "0"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("loaded: TIPSY snapshot, 300 bodies"), std::string::npos) << o.out;
  // Issue 42: the bench kept a TIPSY (GADGET, HDF5) file's time only in its line, and saved the
  // run from time 0. The file's time (0.06: six steps of 0.01) goes on by the step taken.
  o = run_bench({"--load", tipsy, "--solver", "cpu", "--steps", "1", "--warmup", "0", "--dt",
                 "0.01", "--save", b});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const Snapshot again = load_snapshot(b);
  EXPECT_NEAR(again.run.time, 0.07, 1e-6);
  for (const std::string& f : {a, b, c, csv, tipsy}) std::remove(f.c_str());
}

TEST(BenchCliSnapshots, BadFilesAndPlacesAreOneLineAndExit2) {
  REQUIRE_BENCH();
  const std::string good = temp_path("good.orrery"), cut = temp_path("cut.orrery");
  ASSERT_EQ(
      run_bench({"--solver", "cpu", "--n", "20", "--steps", "1", "--warmup", "0", "--save", good})
          .exit_code,
      0);
  const std::string bytes = read_file(good);
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const std::string fifo = temp_path("scene.fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::string> quick = {"--steps", "1", "--warmup", "0"};
  const BadInput cases[] = {
      {{"--load", "/nonexistent-dir/x.orrery"}, "/nonexistent-dir/x.orrery: cannot open"},
      {{"--load", cut}, cut + ": truncated"},
      {{"--load", "/dev/zero"}, "not a regular file"},
      {{"--load", good, "--n", "8"}, "leave out --n"},
      {{"--load", good, "--compare"}, "--load"},
      {{"--n", "8", "--solver", "cpu", "--save", "/nonexistent-dir/x.orrery"}, "--save"},
      {{"--n", "8", "--solver", "cpu", "--export-csv", "/nonexistent-dir/x.csv"}, "--export-csv"},
      {{"--n", "8", "--save", temp_path("x.orrery")}, "one solver"},
      {{"--n", "8,9", "--solver", "cpu", "--save", temp_path("x.orrery")}, "one solver"},
      {{"--n", "8", "--solver", "cpu", "--save", ::testing::TempDir()}, "is a folder"},
      // Scene files.
      {{"--scene", "/nonexistent-dir/s.json"}, "/nonexistent-dir/s.json: cannot open"},
      {{"--scene", good}, "not JSON"},
      // Issue 21: a device or a pipe as a scene read forever (/dev/zero) or blocked (a FIFO).
      {{"--scene", "/dev/zero"}, "/dev/zero: cannot open: not a regular file"},
      {{"--scene", fifo}, fifo + ": cannot open: not a regular file"},
      {{"--load", fifo}, fifo + ": cannot open: not a regular file"},
      {{"--scene", std::string(ORRERY_SOURCE_DIR) + "/assets/scenes/box.json", "--preset", "disk"},
       "--scene"},
  };
  for (const BadInput& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), quick.begin(), quick.end());
    expect_usage_error(args, c.names);
  }
  EXPECT_EQ(read_file(good), bytes);  // untouched by the refused runs
  // A shipped scene runs with its settings, N from the command line.
  const Outcome o =
      run_bench({"--scene", std::string(ORRERY_SOURCE_DIR) + "/assets/scenes/box.json", "--solver",
                 "cpu", "--n", "500", "--steps", "2", "--warmup", "0"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("gravity off, collisions bounce, restitution 1, walls box 20"),
            std::string::npos)
      << o.out;
  std::remove(good.c_str());
  std::remove(cut.c_str());
  std::remove(fifo.c_str());
}

// Issue 21: --max-n grows N only up to --cpu-max-n for CPU solvers (cpu-bh once searched on
// past it, stepping 262,144 bodies a minute later), and a tree code's skip line gives no N^2.
TEST(BenchCliHardening, MaxNStopsAtTheCpuCap) {
  REQUIRE_BENCH();
  const Outcome o = run_bench({"--solver", "cpu-bh", "--max-n", "1", "--cpu-max-n", "2048",
                               "--steps", "1", "--warmup", "0"},
                              60);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("[--cpu-max-n 2048: N=4096 not tried]"), std::string::npos) << o.out;
  const Outcome skip = run_bench({"--solver", "cpu-bh,cpu", "--n", "4096", "--cpu-max-n", "2048",
                                  "--steps", "1", "--warmup", "0"});
  ASSERT_EQ(skip.exit_code, 0) << skip.err;
  EXPECT_NE(skip.out.find("skipped cpu-bh at N=4096: above --cpu-max-n 2048; raise"),
            std::string::npos)
      << skip.out;
  EXPECT_NE(skip.out.find("skipped cpu at N=4096: above --cpu-max-n 2048 (1.67772e+07 interactions"),
            std::string::npos)
      << skip.out;
}

// The bench run with `args` under an address-space limit of `kib` (ulimit -v): its wait status
// and its output.
std::pair<int, std::string> bench_under_limit(long kib, const std::string& args) {
  const std::string out = temp_path("bench-ulimit.txt");
  const std::string cmd = "ulimit -v " + std::to_string(kib) + " && exec '" + bench_path() + "' " +
                          args + " >'" + out + "' 2>&1";
  const int status = std::system(("/bin/sh -c \"" + cmd + "\"").c_str());
  std::string text = read_file(out);
  std::remove(out.c_str());
  return {status, text};
}

// Issue 21: a radius as large as the system makes every pair touch. The pairs kept for a step are
// bounded (the rest wait, counted as truncated), so a 3 GB address space is enough at N = 24,576
// (302 million touching pairs): before, the lists grew as N^2 and the run aborted on bad_alloc.
TEST(BenchCliHardening, ContactMemoryIsBoundedForAnyRadius) {
  REQUIRE_BENCH();
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v under it";
#endif
  const auto [status, text] =
      bench_under_limit(3000000,
                        "--warmup 0 --solver cpu-omp --n 24576 --steps 1 --collisions bounce "
                        "--radius 1000 --gravity off");
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 0) << text;
  // Every pair counted, though not every pair kept: N (N - 1) / 2.
  EXPECT_NE(text.find("contacts/step 301977600"), std::string::npos) << text;
}

// Issue 42: the host check sees an address-space limit and the solver's measured peak (cpu-bh:
// 256 bytes a body), so 4M bodies under ulimit -v 900000 are refused before anything is allocated
// (a cpu-bh step there used to abort on bad_alloc).
TEST(BenchCliHardening, TheHostCheckSeesTheLimitAndTheSolver) {
  REQUIRE_BENCH();
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v under it";
#endif
  const auto [status, text] = bench_under_limit(
      900000, "--warmup 0 --solver cpu-bh --n 4000000 --cpu-max-n 4000000 --steps 1");
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 2) << text;
  EXPECT_NE(text.find("--n 4000000: needs about 1.1 GiB of host memory"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace orrery
