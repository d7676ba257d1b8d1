// Tests of the initial conditions: count, finiteness, zero total momentum, determinism by seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "orrery/diagnostics.h"
#include "orrery/input.h"
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

TEST(Presets, APartMadeAloneIsAShareOfTheWholeDraw) {
  // Three parts of a 300,001-body Plummer sphere (streams of 65,536 bodies, so parts that start
  // and end inside them): counts 100001, 100000, 100000, masses 1/n; together a Plummer sphere like
  // make_preset's (the half-mass radius within 3%), and the very bodies that one part of all holds.
  const long long n = 300001;
  std::vector<float> radii;
  double mass = 0;
  std::vector<BodyState> parts;
  for (int k = 0; k < 3; ++k) parts.push_back(make_preset_part(Preset::plummer, n, 5, k, 3));
  EXPECT_EQ(parts[0].size(), 100001);
  EXPECT_EQ(parts[2].size(), 100000);
  const BodyState one = make_preset_part(Preset::plummer, n, 5, 0, 1);
  ASSERT_EQ(one.size(), n);
  long long same = 0;
  for (int k = 0, at = 0; k < 3; ++k)
    for (int i = 0; i < parts[k].size(); ++i, ++at)
      same += parts[k].pos[i].x == one.pos[at].x && parts[k].pos[i].y == one.pos[at].y &&
              parts[k].pos[i].z == one.pos[at].z && parts[k].vel[i].x == one.vel[at].x &&
              parts[k].vel[i].z == one.vel[at].z;
  EXPECT_EQ(same, n);
  EXPECT_NE(one.pos[0].x, one.pos[65536].x);  // the next stream is not the first again
  EXPECT_NE(make_preset_part(Preset::plummer, n, 6, 0, 1).pos[0].x, one.pos[0].x);  // nor seed's
  for (const BodyState& b : parts)
    for (const Vec4& x : b.pos) {
      mass += x.w;
      radii.push_back(std::sqrt(x.x * x.x + x.y * x.y + x.z * x.z));
    }
  EXPECT_NEAR(mass, 1.0, 1e-6);
  const BodyState whole = make_preset(Preset::plummer, static_cast<int>(n), 5);
  std::vector<float> want;
  for (const Vec4& x : whole.pos) want.push_back(std::sqrt(x.x * x.x + x.y * x.y + x.z * x.z));
  std::nth_element(radii.begin(), radii.begin() + n / 2, radii.end());
  std::nth_element(want.begin(), want.begin() + n / 2, want.end());
  EXPECT_NEAR(radii[n / 2], want[n / 2], 0.03 * want[n / 2]);
  EXPECT_FLOAT_EQ(parts[1].vel[7].w, whole.vel[7].w);  // the whole's radius for equal masses
  // The same part again is the same bodies; other presets and too many parts are refused.
  EXPECT_EQ(make_preset_part(Preset::plummer, n, 5, 1, 3).pos[99].y, parts[1].pos[99].y);
  EXPECT_THROW(make_preset_part(Preset::disk, n, 5, 0, 3), InputError);
  EXPECT_THROW(make_preset_part(Preset::plummer, 2, 5, 0, 3), InputError);
  EXPECT_THROW(make_preset_part(Preset::random, n, 5, 3, 3), InputError);
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
  ASSERT_EQ(preset_names().size(), 10u);
  for (const std::string& name : preset_names()) EXPECT_EQ(to_string(parse_preset(name)), name);
  EXPECT_THROW(parse_preset("galaxy"), std::invalid_argument);
  EXPECT_THROW(parse_preset(""), std::invalid_argument);
  for (int n : {0, -1, -1000})
    EXPECT_THROW(make_preset(Preset::random, n, 1), std::invalid_argument) << n;
}

// The standard test system: a Plummer sphere sampled from its distribution function starts in
// virial equilibrium, 2K/|W| = 1 (W softened with the viewer's default eps = 0.1, small beside the
// scale radius 2.95), within the sampling noise of N = 4096 bodies (about 2%).
TEST(Presets, PlummerIsInVirialEquilibriumWithUnitMassAndNoDrift) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const BodyState s = make_preset(Preset::plummer, 4096, seed);
    double mass = 0, cx = 0, cy = 0, cz = 0;
    for (const Vec4& p : s.pos) mass += p.w, cx += p.w * p.x, cy += p.w * p.y, cz += p.w * p.z;
    EXPECT_NEAR(mass, 1.0, 1e-5);
    EXPECT_NEAR(cx, 0.0, 1e-5);  // centred
    EXPECT_NEAR(cy, 0.0, 1e-5);
    EXPECT_NEAR(cz, 0.0, 1e-5);
    const Vec3d p = total_momentum(s.pos, s.vel);
    EXPECT_LT(std::abs(p.x) + std::abs(p.y) + std::abs(p.z), 1e-6 * momentum_scale(s.pos, s.vel));
    const double k = kinetic_energy(s.pos, s.vel), w = potential_energy(s.pos, 0.1f);
    ASSERT_LT(w, 0.0);
    EXPECT_NEAR(2.0 * k / std::abs(w), 1.0, 0.05) << "K " << k << " W " << w;
    // Its total energy is that of a Plummer sphere of mass 1 and virial radius 5: E = -1/(4 R_v).
    EXPECT_NEAR(k + w, -1.0 / 20.0, 0.005);
    // Half the mass lies within 1.305 a of the centre (a = 2.945).
    std::vector<double> r;
    for (const Vec4& q : s.pos)
      r.push_back(std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z));
    std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
    EXPECT_NEAR(r[r.size() / 2], 1.305 * 5.0 * 3.0 * 3.14159265358979 / 16.0, 0.25);
  }
}

std::vector<double> radii(const BodyState& s) {
  std::vector<double> r;
  for (const Vec4& q : s.pos)
    r.push_back(std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z));
  std::sort(r.begin(), r.end());
  return r;
}

// plummer-halo is plummer's sphere sampled to 100 scale radii: the mass fraction outside 44 a
// (which plummer redraws) is 1 - (1 + 1/44^2)^(-3/2) = 7.7e-4, outside 100 a 1.5e-4.
TEST(Presets, PlummerHaloReachesAHundredScaleRadii) {
  const double a = 5.0 * 3.0 * 3.14159265358979 / 16.0;
  const int n = 1 << 17;
  const std::vector<double> halo = radii(make_preset(Preset::plummer_halo, n, 4));
  const std::vector<double> plain = radii(make_preset(Preset::plummer, n, 4));
  EXPECT_LT(plain.back(), 45 * a);
  EXPECT_LT(halo.back(), 100.5 * a);  // 100 a from the centre of mass, moved by the centring
  EXPECT_GT(halo.back(), 50 * a);
  const auto beyond = [&](double r) {
    return static_cast<double>(halo.end() - std::upper_bound(halo.begin(), halo.end(), r));
  };
  EXPECT_NEAR(beyond(44 * a) / n, 7.7e-4 - 1.5e-4, 1.5e-4);  // Poisson: 81 +- 9 bodies
  // Inside, the same sphere: half the mass within 1.305 a.
  EXPECT_NEAR(halo[n / 2], 1.305 * a, 0.03 * a);
  const BodyState s = make_preset(Preset::plummer_halo, 4096, 2);
  const double k = kinetic_energy(s.pos, s.vel), w = potential_energy(s.pos, 0.1f);
  EXPECT_NEAR(2.0 * k / std::abs(w), 1.0, 0.05);
}

// clumps: 64 clumps of scale 0.05, each holding n / 64 bodies in its own equilibrium. Each body's
// nearest-body distance is set by its clump, far below the spacing of a smooth sphere of the same
// size; and the whole is bound.
TEST(Presets, ClumpsAreSixtyFourDenseBoundClumps) {
  const int n = 64 * 100 + 7;  // the first 7 clumps hold one more
  const BodyState s = make_preset(Preset::clumps, n, 3);
  double mass = 0;
  for (const Vec4& p : s.pos) mass += p.w;
  EXPECT_NEAR(mass, 1.0, 1e-5);
  // Clump c's bodies are consecutive: their spread about their own centre is the clump's size.
  int first = 0;
  for (int c = 0; c < 64; ++c) {
    const int count = 100 + (c < 7 ? 1 : 0);
    double m[3] = {0, 0, 0};
    for (int i = first; i < first + count; ++i)
      m[0] += s.pos[i].x / count, m[1] += s.pos[i].y / count, m[2] += s.pos[i].z / count;
    std::vector<double> d;
    for (int i = first; i < first + count; ++i)
      d.push_back(std::hypot(s.pos[i].x - m[0], s.pos[i].y - m[1], s.pos[i].z - m[2]));
    std::nth_element(d.begin(), d.begin() + count / 2, d.end());
    EXPECT_LT(d[count / 2], 0.05 * 3) << "clump " << c;  // half-mass radius 1.305 x 0.05
    first += count;
  }
  EXPECT_EQ(first, n);
  const double k = kinetic_energy(s.pos, s.vel), w = potential_energy(s.pos, 0.001f);
  EXPECT_LT(k + w, 0.0);
  // Each clump is virialised on its own, and the clumps move in the sphere: 2K/|W| near 1.
  EXPECT_NEAR(2.0 * k / std::abs(w), 1.0, 0.15) << "K " << k << " W " << w;
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
