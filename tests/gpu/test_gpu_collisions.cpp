// The collision stage on the device (skipped without one): the checks of tests/collision_checks.h
// through a CUDA module's Simulation, and the GPU collider against the CPU one - the same contacts, and
// the same state after steps of small scenes.
#include <gtest/gtest.h>

#include "../collision_checks.h"
#include "orrery/device.h"

namespace orrery::test {
namespace {

constexpr const char* k_gpu = "cuda-fast";

class GpuCollisions : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_present()) GTEST_SKIP() << device_info().reason;
  }
};

TEST_F(GpuCollisions, HeadOnBounceKeepsEsquaredOfTheKineticEnergy) {
  check_head_on(k_gpu, 0.5f);
  check_head_on(k_gpu, 1.0f);
  check_head_on(k_gpu, 0.0f);
}
TEST_F(GpuCollisions, BallBetweenWallsComesBack) { check_wall_round_trip(k_gpu); }
TEST_F(GpuCollisions, BoxGasConservesEnergyAndMomentumBesidesTheWalls) {
  check_box_gas_conserves(k_gpu, 1000);
  check_box_gas_conserves(k_gpu, 65537, 300);
  check_box_gas_conserves(k_gpu, 1048577, 50);  // above the counting sort's limit: radix sort
}
TEST_F(GpuCollisions, BouncesConserveMomentum) { check_bounces_conserve_momentum(k_gpu, 4099); }
TEST_F(GpuCollisions, MergesConserveMassAndMomentum) { check_merges_conserve(k_gpu, 1024); }
TEST_F(GpuCollisions, EachBodyMergesAtMostOnceAStep) { check_one_merge_per_body_per_step(k_gpu); }
TEST_F(GpuCollisions, TypesAndIdsFollowTheirBodiesThroughMerges) {
  check_labels_follow_merges(k_gpu);
}
TEST_F(GpuCollisions, GridFindsThePairsOfABruteForceSearch) {
  for (int n : {2, 3, 100, 1001, 4097, 16384}) {
    SCOPED_TRACE("N " + std::to_string(n));
    check_contacts_match_brute_force(k_gpu, n);
  }
}
TEST_F(GpuCollisions, EveryBodyTouchingEveryOtherStillRuns) {
  check_everything_touches(k_gpu, 500);
}

// The same contacts on both sides, and the same state after 10 steps (bounce in walls, gravity
// off; merge with gravity), within float tolerance: the two colliders run the same rounds. The
// contacts at 1,048,577 bodies come from the GPU's radix sort path, the others from its counting
// sort.
TEST_F(GpuCollisions, MatchesTheCpuCollider) {
  for (int n : {1000, 4097, 1048577}) {
    SCOPED_TRACE("N " + std::to_string(n));
    const BodyState scene = contact_scene(n, 77);
    auto gpu = collision_system(k_gpu, scene, bounce_params(1.0f));
    auto cpu = collision_system("cpu", scene, bounce_params(1.0f));
    EXPECT_TRUE(gpu->contacts() == cpu->contacts());
  }
  for (CollisionMode mode : {CollisionMode::bounce, CollisionMode::merge}) {
    SCOPED_TRACE(to_string(mode));
    const BodyState s =
        make_preset(mode == CollisionMode::bounce ? Preset::box : Preset::accretion, 2000, 12);
    SimParams p;
    p.dt = 0.01f;
    p.gravity = mode == CollisionMode::merge;
    p.collisions = CollisionParams{mode, 0.8f, mode == CollisionMode::bounce ? k_box_side : 0.0f};
    auto gpu = collision_system(k_gpu, s, p);
    auto cpu = collision_system("cpu", s, p);
    gpu->step(10);
    cpu->step(10);
    const BodyState a = gpu->state(), b = cpu->state();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_LT(max_relative_error(a.pos, b.pos), 1e-4);
    EXPECT_LT(max_relative_error(a.vel, b.vel), 1e-3);
    const CollisionTotals ta = gpu->collision_totals(), tb = cpu->collision_totals();
    EXPECT_EQ(ta.contacts, tb.contacts);
    EXPECT_EQ(ta.merges, tb.merges);
    EXPECT_GT(ta.contacts, 0);
  }
}

}  // namespace
}  // namespace orrery::test
