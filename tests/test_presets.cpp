// Tests of the initial conditions: count, finiteness, zero total momentum, determinism by seed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "orrery/diagnostics.h"
#include "orrery/presets.h"

namespace orrery {
namespace {

bool same_bits(const std::vector<Vec4>& a, const std::vector<Vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec4)) == 0;
}

TEST(Presets, HaveTheAskedCountAndZeroMomentum) {
  for (const std::string& name : preset_names())
    for (int n : {1, 2, 3, 10, 1000, 4097}) {
      SCOPED_TRACE(name + " N=" + std::to_string(n));
      const BodyState s = make_preset(parse_preset(name), n, 11);
      ASSERT_EQ(s.size(), n);
      ASSERT_EQ(s.vel.size(), s.pos.size());
      for (int i = 0; i < n; ++i) {
        ASSERT_TRUE(std::isfinite(s.pos[i].x) && std::isfinite(s.pos[i].y) &&
                    std::isfinite(s.pos[i].z));
        ASSERT_TRUE(std::isfinite(s.vel[i].x) && std::isfinite(s.vel[i].y) &&
                    std::isfinite(s.vel[i].z));
        ASSERT_GT(s.pos[i].w, 0.0f) << "body " << i;
      }
      const Vec3d p = total_momentum(s.pos, s.vel);
      const double mag = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
      // Relative to the momentum scale (sum of |m v|); float rounding of the velocities leaves
      // about 1e-8. A single body must be exactly at rest (scale 0).
      EXPECT_LE(mag, 1e-6 * momentum_scale(s.pos, s.vel)) << "|P| = " << mag;
    }
}

TEST(Presets, MoveUnlessTheyAreASingleBody) {
  // Zero momentum must come from balance, not from bodies at rest.
  for (const std::string& name : preset_names()) {
    const BodyState s = make_preset(parse_preset(name), 100, 11);
    EXPECT_GT(momentum_scale(s.pos, s.vel), 0.0) << name;
  }
}

TEST(Presets, SameSeedGivesTheSameState) {
  for (const std::string& name : preset_names()) {
    const BodyState a = make_preset(parse_preset(name), 1000, 99);
    const BodyState b = make_preset(parse_preset(name), 1000, 99);
    EXPECT_TRUE(same_bits(a.pos, b.pos)) << name;
    EXPECT_TRUE(same_bits(a.vel, b.vel)) << name;
  }
}

TEST(Presets, DifferentSeedsGiveDifferentStates) {
  for (const std::string& name : preset_names()) {
    const BodyState a = make_preset(parse_preset(name), 1000, 1);
    const BodyState b = make_preset(parse_preset(name), 1000, 2);
    EXPECT_FALSE(same_bits(a.pos, b.pos)) << name;
    EXPECT_GT(max_relative_error(a.pos, b.pos), 1e-3) << name;
  }
}

TEST(Presets, NamesRoundTripAndBadInputIsRejected) {
  ASSERT_EQ(preset_names().size(), 5u);
  for (const std::string& name : preset_names()) EXPECT_EQ(to_string(parse_preset(name)), name);
  EXPECT_THROW(parse_preset("galaxy"), std::invalid_argument);
  EXPECT_THROW(parse_preset(""), std::invalid_argument);
  for (int n : {0, -1, -1000})
    EXPECT_THROW(make_preset(Preset::random, n, 1), std::invalid_argument) << n;
}

TEST(Diagnostics, MaxRelativeErrorIsRelativeToTheExtent) {
  const std::vector<Vec4> b = {{10, 0, 0, 1}, {0, -5, 0, 1}};
  EXPECT_EQ(max_relative_error(b, b), 0.0);
  std::vector<Vec4> a = b;
  a[1].y += 0.01f;  // 0.01 off, against a largest |x| of 10
  EXPECT_NEAR(max_relative_error(a, b), 1e-3, 1e-6);
  a[0].w = 123;  // masses are not compared
  EXPECT_NEAR(max_relative_error(a, b), 1e-3, 1e-6);
  a[0].x = NAN;
  EXPECT_TRUE(std::isinf(max_relative_error(a, b)));
  EXPECT_TRUE(std::isinf(max_relative_error(std::vector<Vec4>(1), b)));
}

TEST(Diagnostics, MomentumAndEnergyOfTwoBodies) {
  const std::vector<Vec4> pos = {{0, 0, 0, 2}, {3, 4, 0, 1}};
  const std::vector<Vec4> vel = {{1, 0, 0, 0}, {-2, 0, 0, 0}};
  const Vec3d p = total_momentum(pos, vel);
  EXPECT_DOUBLE_EQ(p.x, 0.0);
  EXPECT_DOUBLE_EQ(momentum_scale(pos, vel), 4.0);
  EXPECT_DOUBLE_EQ(kinetic_energy(pos, vel), 0.5 * 2 * 1 + 0.5 * 1 * 4);
  EXPECT_NEAR(potential_energy(pos, 0.0f), -2.0 / 5.0, 1e-12);
  EXPECT_NEAR(potential_energy(pos, 1.0f), -2.0 / std::sqrt(26.0), 1e-7);
}

}  // namespace
}  // namespace orrery
