// The collision stage on the host (through `cpu`, gravity on or off): the shared checks of
// tests/collision_checks.h, the options' rules, and the presets' settings.
#include <gtest/gtest.h>

#include "collision_checks.h"
#include "orrery/input.h"
#include "orrery/scene.h"

namespace orrery::test {
namespace {

TEST(Collisions, HeadOnBounceKeepsEsquaredOfTheKineticEnergy) {
  check_head_on("cpu", 0.5f);
  check_head_on("cpu", 1.0f);
  check_head_on("cpu", 0.0f);
}
TEST(Collisions, BallBetweenWallsComesBack) { check_wall_round_trip("cpu"); }
TEST(Collisions, BoxGasConservesEnergyAndMomentumBesidesTheWalls) {
  check_box_gas_conserves("cpu", 1000);
}
TEST(Collisions, BouncesConserveMomentum) { check_bounces_conserve_momentum("cpu", 1000); }
TEST(Collisions, MergesConserveMassAndMomentum) { check_merges_conserve("cpu", 1024); }
TEST(Collisions, EachBodyMergesAtMostOnceAStep) { check_one_merge_per_body_per_step("cpu"); }
TEST(Collisions, TypesAndIdsFollowTheirBodiesThroughMerges) { check_labels_follow_merges("cpu"); }
// 20,001: above 16,384 the sort's compactions run on every thread.
TEST(Collisions, GridFindsThePairsOfABruteForceSearch) {
  for (int n : {2, 3, 100, 1001, 4097, 16384, 20001}) {
    SCOPED_TRACE("N " + std::to_string(n));
    check_contacts_match_brute_force("cpu", n);
  }
}
TEST(Collisions, EveryBodyTouchingEveryOtherStillRuns) { check_everything_touches("cpu", 500); }

TEST(Collisions, GravityOffLeavesVelocitiesAlone) {
  BodyState s = make_preset(Preset::plummer, 100, 2);
  SimParams p;
  p.gravity = false;
  auto sys = collision_system("cpu", s, p);
  sys->step(5);
  const BodyState end = sys->state();
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(end.vel[i].x, s.vel[i].x);
    ASSERT_FLOAT_EQ(end.pos[i].x, s.pos[i].x + 5 * p.dt * s.vel[i].x);
  }
  EXPECT_EQ(sys->interactions_per_step(100), 0.0);
  EXPECT_EQ(sys->measure().potential, 0.0);
}

TEST(Collisions, OptionsFollowTheSharedRules) {
  EXPECT_EQ(parse_collisions_option("merge"), CollisionMode::merge);
  EXPECT_EQ(parse_restitution_option("0.5"), 0.5f);
  EXPECT_EQ(parse_box_option("10"), 10.0f);
  EXPECT_EQ(parse_radius_option("0"), 0.0f);
  EXPECT_FALSE(parse_gravity_option("off"));
  for (const char* bad : {"1.5", "nan", "-0.1", "inf", ""})
    EXPECT_THROW(parse_restitution_option(bad), InputError) << bad;
  for (const char* bad : {"-1", "nan", "inf", "abc"})
    EXPECT_THROW(parse_radius_option(bad), InputError) << bad;
  for (const char* bad : {"0", "-3", "nan"}) EXPECT_THROW(parse_box_option(bad), InputError) << bad;
  EXPECT_THROW(parse_collisions_option("nope"), InputError);
  EXPECT_THROW(parse_gravity_option("maybe"), InputError);
  SimParams p;
  p.collisions.restitution = 2.0f;
  EXPECT_THROW(validate(p), InputError);
  p.collisions.restitution = 1.0f;
  p.collisions.box = -1.0f;
  EXPECT_THROW(validate(p), InputError);
}

TEST(Collisions, PresetsBringTheirSettingsAndOptionsGoOverThem) {
  SimParams p;
  apply_scene(Preset::box, SceneOverrides{}, p);
  EXPECT_FALSE(p.gravity);
  EXPECT_EQ(p.collisions.mode, CollisionMode::bounce);
  EXPECT_EQ(p.collisions.box, k_box_side);
  apply_scene(Preset::accretion, SceneOverrides{}, p);
  EXPECT_TRUE(p.gravity);
  EXPECT_EQ(p.collisions.mode, CollisionMode::merge);
  EXPECT_EQ(p.collisions.box, 0.0f);
  SceneTexts t;
  t.gravity = "on";
  t.restitution = "0.25";
  t.radius = "0.5";
  const SceneOverrides o = parse_scene_options(t);
  apply_scene(Preset::box, o, p);
  EXPECT_TRUE(p.gravity);
  EXPECT_EQ(p.collisions.restitution, 0.25f);
  BodyState s = make_preset(Preset::box, 10, 1);
  ASSERT_TRUE(o.radius.has_value());
  set_radius(s.vel, *o.radius);
  for (const Vec4& v : s.vel) EXPECT_EQ(v.w, 0.5f);
  // The box gas fills its volume fraction; every preset's bodies have radii.
  const BodyState box = make_preset(Preset::box, 4096, 1);
  double volume = 0;
  for (const Vec4& v : box.vel) volume += 4.0 / 3.0 * 3.14159265358979 * std::pow(double(v.w), 3);
  EXPECT_NEAR(volume / std::pow(k_box_side, 3), k_box_fraction, 1e-4);
  EXPECT_TRUE(brute_contacts(box).empty());  // it starts without overlaps
  for (const std::string& name : preset_names()) {
    const BodyState q = make_preset(parse_preset(name), 100, 1);
    for (const Vec4& v : q.vel) ASSERT_GT(v.w, 0.0f) << name;
  }
}

// Issue 21: walls smaller than a ball would pile every body at the origin: refused with a line.
TEST(Collisions, ABoxSmallerThanTheBodiesIsRefused) {
  std::vector<Vec4> vel = {{0, 0, 0, 0.5f}, {0, 0, 0, 5.0f}};
  EXPECT_THROW(check_box_fits(0.01f, vel), InputError);
  EXPECT_THROW(check_box_fits(1e-45f, vel), InputError);
  EXPECT_THROW(check_box_fits(9.99f, vel), InputError);
  EXPECT_NO_THROW(check_box_fits(10.0f, vel));
  EXPECT_NO_THROW(check_box_fits(0.0f, vel));  // no walls
  try {
    check_box_fits(0.01f, vel);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--box 0.01: smaller than the bodies"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace orrery::test
