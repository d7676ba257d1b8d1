// Checks of the collision stage for either side (tests/test_collisions.cpp runs them on the host
// through `cpu`, tests/gpu/test_gpu_collisions.cpp on the device through a CUDA module): analytic
// bounces, walls, the box gas's conservation laws, merges, the grid against a brute-force search,
// and scenes where every body touches every other.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "orrery/collisions.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "support.h"

namespace orrery::test {

inline std::unique_ptr<Simulation> collision_system(const std::string& solver, const BodyState& s,
                                                const SimParams& p,
                                                Integrator integrator = Integrator::leapfrog) {
  return make_simulation(solver, s, p, integrator);
}

inline SimParams bounce_params(float e, float box = 0.0f, bool gravity = false) {
  SimParams p;
  p.dt = 0.01f;
  p.gravity = gravity;
  p.collisions = CollisionParams{CollisionMode::bounce, e, box};
  return p;
}

inline double kinetic(const BodyState& s) { return kinetic_energy(s.pos, s.vel); }

// Two equal spheres (m = 1, r = 0.5) head-on at +-1 (centre of mass at rest): after the bounce the
// kinetic energy is e^2 of before, and the energy offset holds the rest; with e = 1 they exchange
// velocities.
inline void check_head_on(const std::string& solver, float e) {
  BodyState s;
  s.pos = {{-0.6f, 0, 0, 1}, {0.6f, 0, 0, 1}};
  s.vel = {{1, 0, 0, 0.5f}, {-1, 0, 0, 0.5f}};
  auto sys = collision_system(solver, s, bounce_params(e));
  const Diagnostics d0 = sys->measure();
  sys->step(30);  // they touch after 10 steps
  const BodyState end = sys->state();
  const double k0 = kinetic(s), k1 = kinetic(end);
  EXPECT_NEAR(k1, e * e * k0, 1e-5 * k0);
  EXPECT_NEAR(end.vel[0].x, -e, 1e-5);
  EXPECT_NEAR(end.vel[1].x, e, 1e-5);
  EXPECT_EQ(end.vel[0].y, 0.0f);
  EXPECT_NEAR(end.vel[0].x + end.vel[1].x, 0.0, 1e-6);  // momentum
  const Diagnostics d1 = sys->measure();
  EXPECT_NEAR(d1.energy_offset, (1.0 - e * e) * k0, 1e-5 * k0);
  EXPECT_NEAR(d1.total(), d0.total(), 1e-5 * k0);        // E + offset
  EXPECT_GE(end.pos[1].x - end.pos[0].x, 1.0f - 1e-5f);  // apart
  EXPECT_EQ(sys->collision_totals().contacts > 0, true);
}

// A ball between the walls of a box of side 2 at e = 1 comes back to its start after one period.
inline void check_wall_round_trip(const std::string& solver) {
  BodyState s;
  s.pos = {{0.25f, -0.3f, 0.1f, 2.0f}};
  s.vel = {{1.0f, 0.0f, 0.0f, 0.1f}};
  SimParams p = bounce_params(1.0f, 2.0f);
  p.dt = 0.005f;
  auto sys = collision_system(solver, s, p);
  sys->step(720);  // the period: 2 x (2 - 2 x 0.1) / 1 = 3.6 = 720 steps
  const BodyState end = sys->state();
  EXPECT_NEAR(end.pos[0].x, 0.25f, 1e-4);
  EXPECT_EQ(end.pos[0].y, -0.3f);
  EXPECT_NEAR(end.vel[0].x, 1.0f, 1e-6);
  const CollisionTotals t = sys->collision_totals();
  EXPECT_EQ(t.wall_hits, 2);
  EXPECT_NEAR(t.wall_impulse.x, 0.0, 1e-5);  // -2 m v at the right wall, +2 m v at the left
  EXPECT_NEAR(t.energy_offset, 0.0, 1e-9);
}

// The box gas at e = 1, gravity off, 1000 steps: kinetic energy within 0.1%, the total momentum
// changed by exactly what the walls gave (to float rounding), and no body outside the box.
inline void check_box_gas_conserves(const std::string& solver, int n, int steps = 1000) {
  const BodyState s = make_preset(Preset::box, n, 3);
  const PresetSettings ps = preset_settings(Preset::box);
  SimParams p;
  p.gravity = ps.gravity;
  p.collisions = ps.collisions;
  ASSERT_FALSE(p.gravity);
  ASSERT_EQ(p.collisions.mode, CollisionMode::bounce);
  auto sys = collision_system(solver, s, p);
  const Diagnostics d0 = sys->measure();
  sys->step(steps);
  const Diagnostics d1 = sys->measure();
  const CollisionTotals t = sys->collision_totals();
  EXPECT_GT(t.contacts, n);  // the gas collides: more than one contact a body over the run
  EXPECT_GT(t.wall_hits, 0);
  EXPECT_NEAR(d1.kinetic, d0.kinetic, 1e-3 * d0.kinetic);
  const double scale = d0.momentum_scale;
  EXPECT_NEAR(d1.momentum.x - d0.momentum.x, t.wall_impulse.x, 1e-6 * scale);
  EXPECT_NEAR(d1.momentum.y - d0.momentum.y, t.wall_impulse.y, 1e-6 * scale);
  EXPECT_NEAR(d1.momentum.z - d0.momentum.z, t.wall_impulse.z, 1e-6 * scale);
  const BodyState end = sys->state();
  const float half = 0.5f * p.collisions.box;
  int outside = 0;
  for (int i = 0; i < end.size(); ++i) {
    const float lim = half - end.vel[i].w;
    const Vec4& q = end.pos[i];
    if (!(std::abs(q.x) <= lim && std::abs(q.y) <= lim && std::abs(q.z) <= lim)) ++outside;
  }
  EXPECT_EQ(outside, 0);
  EXPECT_EQ(end.size(), n);
}

// Body-body bounces alone (no walls, e = 0.7) conserve the total momentum to 1e-6 of the sum of
// |p| over 1000 steps, and the energy they remove is the offset.
inline void check_bounces_conserve_momentum(const std::string& solver, int n) {
  const BodyState s = make_preset(Preset::box, n, 9);
  SimParams p = bounce_params(0.7f);
  p.dt = 0.016f;
  auto sys = collision_system(solver, s, p);
  const Diagnostics d0 = sys->measure();
  sys->step(1000);
  const Diagnostics d1 = sys->measure();
  EXPECT_GT(sys->collision_totals().contacts, n / 2);
  EXPECT_LE(length(Vec3d{d1.momentum.x - d0.momentum.x, d1.momentum.y - d0.momentum.y,
                         d1.momentum.z - d0.momentum.z}),
            1e-6 * d0.momentum_scale);
  EXPECT_GT(d1.energy_offset, 0.0);
  EXPECT_LT(d1.kinetic, d0.kinetic);
  EXPECT_NEAR(d1.total(), d0.total(), 1e-4 * d0.kinetic);  // K + removed: no gravity
}

// Merges: a cloud of bodies of mass 2^-10 (so every sum of masses is exact in float) collapses
// and merges; the total mass is exactly 1 throughout, momentum is kept to float rounding, the
// merges counted are the bodies gone, and E + offset stays near E.
inline void check_merges_conserve(const std::string& solver, int n) {
  BodyState s = make_preset(Preset::accretion, n, 4);
  for (Vec4& q : s.pos) q.w = 1.0f / 1024.0f;
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.05f;
  p.collisions = CollisionParams{CollisionMode::merge, 1.0f, 0.0f};
  auto sys = collision_system(solver, s, p);
  const Diagnostics d0 = sys->measure();
  int bodies = n;
  for (int k = 0; k < 200; ++k) {
    sys->step(1);
    const BodyState now = sys->state();
    ASSERT_LE(now.size(), bodies);
    ASSERT_GE(2 * now.size(), bodies);  // each body merges at most once a step
    bodies = now.size();
    double mass = 0;
    for (const Vec4& q : now.pos) mass += q.w;
    ASSERT_EQ(mass, n / 1024.0) << "after " << k + 1 << " steps";
  }
  const Diagnostics d1 = sys->measure();
  EXPECT_LT(bodies, n);  // it clumped
  EXPECT_EQ(sys->collision_totals().merges, n - bodies);
  EXPECT_EQ(d1.bodies, bodies);
  EXPECT_LE(length(Vec3d{d1.momentum.x - d0.momentum.x, d1.momentum.y - d0.momentum.y,
                         d1.momentum.z - d0.momentum.z}),
            1e-5 * d0.momentum_scale);
  EXPECT_NEAR(d1.total(), d0.total(), 0.02 * std::abs(d0.total()));
}

// Three bodies of radius 1/2 in a row, each touching the next (not the one after): one step merges
// one pair only (the middle body shakes hands once); the next merges the rest. Volume is kept: r^3
// adds.
inline void check_one_merge_per_body_per_step(const std::string& solver) {
  BodyState s;
  s.pos = {{0, 0, 0, 1}, {0.6f, 0, 0, 1}, {1.2f, 0, 0, 1}};
  s.vel = {{0, 0, 0, 0.5f}, {0, 0, 0, 0.5f}, {0, 0, 0, 0.5f}};
  SimParams p;
  p.dt = 0.001f;
  p.gravity = false;
  p.collisions.mode = CollisionMode::merge;
  auto sys = collision_system(solver, s, p);
  sys->step(1);
  BodyState a = sys->state();
  ASSERT_EQ(a.size(), 2);
  EXPECT_EQ(a.pos[0].w + a.pos[1].w, 3.0f);
  double volume = 0;
  for (const Vec4& v : a.vel) volume += std::pow(double(v.w), 3);
  EXPECT_NEAR(volume, 3 * 0.125, 1e-6);
  sys->step(1);
  a = sys->state();
  ASSERT_EQ(a.size(), 1);
  EXPECT_EQ(a.pos[0].w, 3.0f);
  EXPECT_NEAR(a.pos[0].x, 0.6f, 1e-6);  // the centre of mass
  EXPECT_NEAR(a.vel[0].w, std::cbrt(3 * 0.125), 1e-6);
  EXPECT_EQ(sys->collision_totals().merges, 2);
}

// A file's types and IDs follow their bodies through merges: five touching pairs far apart (the
// heavier alternately first and second) and a lone body; one step leaves each pair's heavier body
// with its own type and ID. Then an accretion run with random masses: the IDs left are distinct
// and in their first order, and each body is at least as heavy as the body that had its ID.
inline void check_labels_follow_merges(const std::string& solver) {
  BodyState s;
  std::vector<std::uint8_t> types;
  std::vector<std::uint64_t> ids;
  for (int k = 0; k < 5; ++k) {
    const float light = 1.0f, heavy = 4.0f + k;
    s.pos.push_back({10.0f * k, 0, 0, k % 2 ? heavy : light});
    s.pos.push_back({10.0f * k + 0.5f, 0, 0, k % 2 ? light : heavy});
  }
  s.pos.push_back({100.0f, 0, 0, 2.0f});
  s.vel.assign(s.pos.size(), Vec4{0, 0, 0, 0.4f});
  for (int i = 0; i < s.size(); ++i) {
    types.push_back(static_cast<std::uint8_t>(i % 6));
    ids.push_back(5000000000ULL + 10 * i);
  }
  SimParams p;
  p.dt = 0.001f;
  p.gravity = false;
  p.collisions.mode = CollisionMode::merge;
  auto sys = collision_system(solver, s, p);
  sys->set_labels(types, ids);
  sys->step(1);
  const BodyState a = sys->state();
  ASSERT_EQ(a.size(), 6);
  const std::vector<int> kept = {1, 2, 5, 6, 9, 10};  // each pair's heavier, then the lone one
  ASSERT_EQ(sys->ids().size(), kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) {
    EXPECT_EQ(sys->ids()[k], ids[kept[k]]);
    EXPECT_EQ(sys->types()[k], types[kept[k]]);
    EXPECT_NEAR(a.pos[k].x, kept[k] == 10 ? 100.0f : 10.0f * (kept[k] / 2), 0.5f);
  }

  BodyState c = make_preset(Preset::accretion, 777, 9);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> mass(0.5f / 777, 2.0f / 777);
  for (Vec4& q : c.pos) q.w = mass(rng);
  std::vector<std::uint64_t> cids(777);
  for (int i = 0; i < 777; ++i) cids[i] = 3 * static_cast<std::uint64_t>(i) + 1;
  p.dt = 0.01f;
  p.softening = 0.05f;
  p.gravity = true;
  auto run = collision_system(solver, c, p);
  run->set_labels(std::vector<std::uint8_t>(777, 1), cids);
  run->step(150);
  const BodyState end = run->state();
  const std::vector<std::uint64_t> left = run->ids();
  ASSERT_LT(end.size(), 770);  // it merged (10 merges on the CPU)
  ASSERT_EQ(left.size(), static_cast<std::size_t>(end.size()));
  ASSERT_EQ(run->types().size(), left.size());
  for (std::size_t k = 0; k < left.size(); ++k) {
    if (k > 0) {
      EXPECT_LT(left[k - 1], left[k]);
    }
    const std::size_t row = static_cast<std::size_t>((left[k] - 1) / 3);
    EXPECT_GE(end.pos[k].w, c.pos[row].w) << "body " << k << " has ID " << left[k];
  }
}

// Whether two spheres touch, as the stage decides it (products and sums rounded as written).
inline bool brute_touching(const Vec4& a, float ra, const Vec4& b, float rb) {
  const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  const volatile float xx = dx * dx, yy = dy * dy, zz = dz * dz;
  const volatile float d2 = (xx + yy) + zz;
  const float sum = ra + rb;
  const volatile float s2 = sum * sum;
  return sum > 0.0f && d2 < s2;
}

inline std::vector<Contact> brute_contacts(const BodyState& s) {
  std::vector<Contact> out;
  for (int i = 0; i < s.size(); ++i)
    for (int j = i + 1; j < s.size(); ++j)
      if (brute_touching(s.pos[i], s.vel[i].w, s.pos[j], s.vel[j].w)) out.push_back({i, j});
  return out;
}

// A scene to search (about 2 bodies a unit volume): a gas of varied radii (a few bodies far larger
// than a cell), some bodies far outside it (1e4 away, and two of them touching there), and points
// of radius 0.
inline BodyState contact_scene(int n, std::uint64_t seed) {
  BodyState s = make_preset(Preset::random, n, seed);
  const float shrink = static_cast<float>(std::cbrt(n / 16384.0));  // the same density at any N
  for (int i = 0; i < n; ++i) {
    s.pos[i].x *= shrink, s.pos[i].y *= shrink, s.pos[i].z *= shrink;
    float r = 0.3f + 0.2f * static_cast<float>((i * 7919) % 101) / 100.0f;
    if (i % 997 == 5) r = 3.0f + static_cast<float>(i % 5);  // large
    if (i % 13 == 0) r = 0.0f;                               // points
    s.vel[i].w = r;
  }
  if (n > 40) {
    s.pos[20] = Vec4{1e4f, -3e3f, 2e4f, s.pos[20].w};
    s.pos[21] = Vec4{1e4f + 0.5f, -3e3f, 2e4f, s.pos[21].w};
    s.pos[22] = Vec4{-5e6f, 1e7f, 3e6f, s.pos[22].w};
    s.vel[20].w = s.vel[21].w = 0.4f;
  }
  return s;
}

// The grid finds exactly the pairs of a brute-force O(N^2) search.
inline void check_contacts_match_brute_force(const std::string& solver, int n) {
  const BodyState s = contact_scene(n, 31 + n);
  auto sys = collision_system(solver, s, bounce_params(1.0f));
  const std::vector<Contact> got = sys->contacts();
  const std::vector<Contact> want = brute_contacts(s);
  if (n >= 100) {
    ASSERT_GT(want.size(), static_cast<std::size_t>(n / 10));
  }
  EXPECT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
  if (n > 40) {
    EXPECT_TRUE(std::find(got.begin(), got.end(), Contact{20, 21}) != got.end());
  }
}

// Radii so large that every body touches every other: bounce and merge still run, and a pair
// limit below the pairs found truncates (counted) instead of overflowing.
inline void check_everything_touches(const std::string& solver, int n) {
  BodyState s = make_preset(Preset::random, n, 8);
  set_radius(s.vel, 1e3f);
  {
    auto sys = collision_system(solver, s, bounce_params(1.0f));
    EXPECT_EQ(sys->contacts().size(), static_cast<std::size_t>(n) * (n - 1) / 2);
    sys->collider().set_pair_limit(1000);
    sys->step(3);
    const CollisionTotals t = sys->collision_totals();
    EXPECT_EQ(t.truncated, 3);
    const BodyState end = sys->state();
    for (const Vec4& q : end.pos) ASSERT_TRUE(std::isfinite(q.x) && std::isfinite(q.y));
  }
  SimParams p;
  p.collisions.mode = CollisionMode::merge;
  auto sys = collision_system(solver, s, p);
  sys->step(1);
  EXPECT_GE(sys->bodies().n, (n + 1) / 2);  // each body merged at most once
  EXPECT_LT(sys->bodies().n, n);
  sys->step(40);
  EXPECT_EQ(sys->bodies().n, 1);
  const BodyState end = sys->state();
  EXPECT_NEAR(end.pos[0].w, 400.0, 1e-3);
}

}  // namespace orrery::test
