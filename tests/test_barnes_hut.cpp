// `cpu-bh` through the shared Barnes-Hut checks (tests/bh_checks.h), its octree's shape at the
// depth cap, and bad opening angles.
#include <gtest/gtest.h>

#include "../src/sim/octree.h"
#include "bh_checks.h"
#include "orrery/input.h"

namespace orrery::test {
namespace {

TEST(CpuBh, AccuracyAtThetaHalfMeetsTheBar) { check_accuracy_at_half("cpu-bh"); }
TEST(CpuBh, ThetaZeroIsAllPairs) { check_theta_zero_is_all_pairs("cpu-bh"); }
TEST(CpuBh, RobustToCoincidentFarAndMasslessBodies) { check_robustness("cpu-bh"); }
TEST(CpuBh, StepsWithEveryIntegratorAndCountsItsWork) { check_pipeline("cpu-bh"); }
TEST(CpuBh, GivesTheCellsOfItsTree) { check_tree_cells("cpu-bh"); }

// Coincident bodies cannot be split: the depth stops at the key's 21 levels with one oversized
// leaf holding them all; every body is in exactly one leaf.
TEST(CpuBh, DepthIsCappedWithAnOversizedLeaf) {
  BodyState s = make_preset(Preset::random, 1200, 8);
  for (int i = 0; i < 1000; ++i) s.pos[static_cast<std::size_t>(i)] = Vec4{0.5f, 0.5f, 0.5f, 1.0f};
  HostOctree tree;
  tree.build(s.pos.data(), s.size(), 16);
  EXPECT_EQ(tree.depth(), HostOctree::k_max_depth);
  int biggest = 0, covered = 0;
  for (const OctCell& c : tree.cells())
    if (c.first_child < 0) biggest = std::max(biggest, c.end - c.begin), covered += c.end - c.begin;
  EXPECT_EQ(covered, 1200);
  EXPECT_GE(biggest, 1000);
  // The root holds all the mass.
  double mass = 0;
  for (const Vec4& p : s.pos) mass += p.w;
  EXPECT_NEAR(tree.cells().front().mass, mass, 1e-4 * mass);
}

TEST(CpuBh, BadThetaIsRefused) {
  SimParams p;
  for (float bad : {-1.0f, 5.0f, NAN, INFINITY}) {
    p.theta = bad;
    EXPECT_THROW(validate(p), InputError) << bad;
  }
  p.theta = 0.0f;
  EXPECT_NO_THROW(validate(p));
  p.theta = 2.0f;
  EXPECT_NO_THROW(validate(p));
}

}  // namespace
}  // namespace orrery::test
