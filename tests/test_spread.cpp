// Spreading a solver over several GPUs, the parts that need no GPU: the balance of the parts and
// the GPU counts asked for (the GPU runs are in tests/gpu/test_gpu_spread.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../src/sim/spread_solver.h"
#include "orrery/device.h"
#include "orrery/input.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

TEST(SpreadBalance, EvenCutsCoverEveryBody) {
  EXPECT_EQ(even_cuts(10, 3), (std::vector<int>{0, 3, 6, 10}));
  EXPECT_EQ(even_cuts(1, 2), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(even_cuts(2147483647, 2), (std::vector<int>{0, 1073741823, 2147483647}));
}

TEST(SpreadBalance, EqualTimesKeepTheCuts) {
  const std::vector<int> cuts = {0, 30, 70, 100};
  EXPECT_EQ(balance_cuts(cuts, {2.0, 2.0, 2.0}), cuts);
}

TEST(SpreadBalance, ASlowPartGivesUpHalfOfWhatWouldBalanceIt) {
  // Part 0 took three times part 1 for as many bodies: a body costs 3/50 below 50 and 1/50 above,
  // half of the total (2) is reached at 33.3, and the cut moves halfway there.
  EXPECT_EQ(balance_cuts({0, 50, 100}, {3.0, 1.0}), (std::vector<int>{0, 42, 100}));
}

TEST(SpreadBalance, RepeatedPassesConvergeOnUnevenWork) {
  // Bodies below 25 cost 8, the others 1 (a dense core in the tree's order), on three GPUs.
  auto cost = [](int from, int to) {
    double t = 0;
    for (int i = from; i < to; ++i) t += i < 25 ? 8.0 : 1.0;
    return t;
  };
  std::vector<int> cuts = even_cuts(400, 3);
  for (int pass = 0; pass < 30; ++pass) {
    std::vector<double> ms;
    for (std::size_t r = 0; r + 1 < cuts.size(); ++r) ms.push_back(cost(cuts[r], cuts[r + 1]));
    cuts = balance_cuts(cuts, ms);
  }
  const double total = cost(0, 400);
  for (std::size_t r = 0; r + 1 < cuts.size(); ++r)
    EXPECT_NEAR(cost(cuts[r], cuts[r + 1]), total / 3, 0.03 * total) << "part " << r;
  EXPECT_EQ(cuts.front(), 0);
  EXPECT_EQ(cuts.back(), 400);
}

TEST(SpreadBalance, MissingTimesAndEmptyPartsAreSafe) {
  const std::vector<int> cuts = {0, 50, 100};
  EXPECT_EQ(balance_cuts(cuts, {0.0, 1.0}), cuts);  // a part not timed yet
  EXPECT_EQ(balance_cuts(cuts, {NAN, 1.0}), cuts);
  EXPECT_EQ(balance_cuts(cuts, {INFINITY, 1.0}), cuts);
  EXPECT_EQ(balance_cuts(cuts, {1.0}), cuts);  // sizes that do not match
  // An empty part that still took time (its launches) gets bodies, never a negative count.
  const std::vector<int> out = balance_cuts({0, 0, 100}, {1.0, 5.0});
  EXPECT_EQ(out, (std::vector<int>{0, 20, 100}));
  const std::vector<int> three = balance_cuts({0, 0, 0, 10}, {1.0, 1.0, 100.0});
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
