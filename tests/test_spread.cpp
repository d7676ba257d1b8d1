// Spreading a solver over several GPUs, the parts that need no GPU: the balance of the parts and
// the GPU counts asked for (the GPU runs are in tests/gpu/test_gpu_spread.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../src/sim/gravity/spread_solver.h"
#include "orrery/device.h"
#include "orrery/input.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

TEST(SpreadBalance, EvenCutsCoverTheWork) {
  EXPECT_EQ(even_cuts(4), (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(even_cuts(3).back(), 1.0);
  EXPECT_EQ(even_cuts(1), (std::vector<double>{0.0, 1.0}));
}

TEST(SpreadBalance, PartsThatMeetAtACutMeetAtTheSameUnit) {
  // Every unit in exactly one part, whatever the rounding, for units up to tile pairs at 2^31.
  for (long long units : {1LL, 7LL, 10007LL, 2147483647LL, 4398046511104LL}) {
    const std::vector<double> cuts = {0.0, 0.1234567, 0.5, 0.5, 0.99999999, 1.0};
    long long covered = 0;
    for (std::size_t r = 0; r + 1 < cuts.size(); ++r) {
      const Part a{cuts[r], cuts[r + 1]};
      EXPECT_EQ(a.first(units), covered) << units;
      EXPECT_LE(a.first(units), a.end(units));
      covered = a.end(units);
    }
    EXPECT_EQ(covered, units);
  }
  EXPECT_EQ((Part{0.0, 0.5}.bodies(7).count + Part{0.5, 1.0}.bodies(7).count), 7);
}

TEST(SpreadBalance, EqualTimesKeepTheCuts) {
  const std::vector<double> cuts = {0.0, 0.3, 0.7, 1.0};
  EXPECT_EQ(balance_cuts(cuts, {2.0, 2.0, 2.0}), cuts);
}

TEST(SpreadBalance, ASlowPartGivesUpHalfOfWhatWouldBalanceIt) {
  // Part 0 took three times part 1 for as much work: half of the total time (2) is reached at
  // 1/3, and the cut moves halfway there, from 1/2 to 5/12.
  const std::vector<double> out = balance_cuts({0.0, 0.5, 1.0}, {3.0, 1.0});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[1], 5.0 / 12.0, 1e-12);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_EQ(out[2], 1.0);
}

TEST(SpreadBalance, RepeatedPassesConvergeOnUnevenWork) {
  // The first 1/16 of the work costs 8 a unit, the rest 1 (a dense core in the tree's order), on
  // three GPUs.
  auto cost = [](double from, double to) {
    const double core = 1.0 / 16;
    auto upto = [&](double x) { return 8.0 * std::min(x, core) + std::max(0.0, x - core); };
    return upto(to) - upto(from);
  };
  std::vector<double> cuts = even_cuts(3);
  for (int pass = 0; pass < 30; ++pass) {
    std::vector<double> ms;
    for (std::size_t r = 0; r + 1 < cuts.size(); ++r) ms.push_back(cost(cuts[r], cuts[r + 1]));
    cuts = balance_cuts(cuts, ms);
  }
  const double total = cost(0, 1);
  for (std::size_t r = 0; r + 1 < cuts.size(); ++r)
    EXPECT_NEAR(cost(cuts[r], cuts[r + 1]), total / 3, 0.01 * total) << "part " << r;
  EXPECT_EQ(cuts.front(), 0.0);
  EXPECT_EQ(cuts.back(), 1.0);
}

TEST(SpreadBalance, MissingTimesAndEmptyPartsAreSafe) {
  const std::vector<double> cuts = {0.0, 0.5, 1.0};
  EXPECT_EQ(balance_cuts(cuts, {0.0, 1.0}), cuts);  // a part not timed yet
  EXPECT_EQ(balance_cuts(cuts, {NAN, 1.0}), cuts);
  EXPECT_EQ(balance_cuts(cuts, {INFINITY, 1.0}), cuts);
  EXPECT_EQ(balance_cuts(cuts, {1.0}), cuts);  // sizes that do not match
  // An empty part that still took time (its launches) gets work, never a negative share.
  const std::vector<double> out = balance_cuts({0.0, 0.0, 1.0}, {1.0, 5.0});
  EXPECT_NEAR(out[1], 0.2, 1e-12);
  const std::vector<double> three = balance_cuts({0.0, 0.0, 0.0, 1.0}, {1.0, 1.0, 100.0});
  for (std::size_t k = 1; k < three.size(); ++k) EXPECT_LE(three[k - 1], three[k]);
}

TEST(SpreadGpuCounts, TheDefaultIsOneWithoutSeveralGpus) {
  EXPECT_EQ(resolve_gpus(solver_info("cpu"), 0), 1);
  EXPECT_EQ(resolve_gpus(solver_info("cpu-omp"), 1), 1);
  for (const SolverInfo& s : all_solvers())
    EXPECT_EQ(resolve_gpus(s, 0), s.spreads && device_count() > 1 ? device_count() : 1) << s.name;
}

TEST(SpreadGpuCounts, BadCountsAreRefusedWithTheReason) {
  try {
    resolve_gpus(solver_info("cpu-omp"), 2);
    FAIL() << "cpu-omp was spread";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-omp runs on one device"), std::string::npos)
        << e.what();
    // Issue 42: on a machine with fewer GPUs than asked, the message says that too (it blamed
    // only the solver, which nobody may have typed).
    if (device_count() < 2) {
      EXPECT_NE(std::string(e.what()).find("(and this machine has " +
                                           std::to_string(device_count()) + " GPU"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(resolve_gpus(solver_info("cpu"), -1), InputError);
  for (const SolverInfo& s : all_solvers()) {
    if (!s.spreads) continue;
    try {
      resolve_gpus(s, std::max(2, device_count() + 1));
      FAIL() << s.name << " accepted more GPUs than exist";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("this machine has"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(make_solver("cpu", 0, 2), InputError);
}

}  // namespace
}  // namespace orrery
