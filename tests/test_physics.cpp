// Tests of the shared physics: the body-body interaction against the analytic formula, the
// softening bound and the damped semi-implicit Euler step.
#include <gtest/gtest.h>

#include <cmath>

#include "orrery/physics.h"
#include "orrery/presets.h"
#include "orrery/solver.h"
#include "support.h"

namespace orrery {
namespace {

double norm(const Vec3& a) {
  return std::sqrt(double(a.x) * a.x + double(a.y) * a.y + double(a.z) * a.z);
}

TEST(Physics, TwoBodyAccelerationMatchesTheAnalyticFormula) {
  const float eps = 0.5f;
  const Vec4 a{1.0f, -2.0f, 0.5f, 3.0f};
  const Vec4 b{4.0f, 2.0f, -0.5f, 2.0f};  // r = b - a = (3, 4, -1)
  const double r2 = 9 + 16 + 1, d3 = std::pow(r2 + double(eps) * eps, 1.5);

  Vec3 acc_a{0, 0, 0}, acc_b{0, 0, 0};
  body_body(a, b, eps * eps, acc_a);
  body_body(b, a, eps * eps, acc_b);
  // a_a = m_b r / (r^2 + eps^2)^(3/2), pointing from a towards b.
  EXPECT_NEAR(acc_a.x, 2.0 * 3 / d3, 1e-6);
  EXPECT_NEAR(acc_a.y, 2.0 * 4 / d3, 1e-6);
  EXPECT_NEAR(acc_a.z, 2.0 * -1 / d3, 1e-6);
  // Newton's third law: m_a a_a = -m_b a_b.
  EXPECT_NEAR(3.0 * acc_a.x, -2.0 * acc_b.x, 1e-6);
  EXPECT_NEAR(3.0 * acc_a.y, -2.0 * acc_b.y, 1e-6);
  EXPECT_NEAR(3.0 * acc_a.z, -2.0 * acc_b.z, 1e-6);
  // The interaction adds to the accumulator rather than overwriting it.
  Vec3 acc{1.0f, 1.0f, 1.0f};
  body_body(a, b, eps * eps, acc);
  EXPECT_NEAR(acc.x, 1.0 + 2.0 * 3 / d3, 1e-6);
}

TEST(Physics, TwoBodiesFromRestTakeOneAnalyticStep) {
  // Through the `cpu` solver: both bodies accelerate towards each other by the formula above.
  BodyState s;
  s.pos = {{-1.0f, 0.0f, 0.0f, 4.0f}, {1.0f, 0.0f, 0.0f, 1.0f}};
  s.vel = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.2f;
  const BodyState e = test::run_host("cpu", s, 1, p);
  const double d3 = std::pow(4.0 + 0.04, 1.5);
  const double a0 = 1.0 * 2 / d3, a1 = -4.0 * 2 / d3;
  EXPECT_NEAR(e.vel[0].x, a0 * p.dt, 1e-7);
  EXPECT_NEAR(e.vel[1].x, a1 * p.dt, 1e-7);
  EXPECT_NEAR(e.pos[0].x, -1.0 + a0 * p.dt * p.dt, 1e-7);
  EXPECT_NEAR(e.pos[1].x, 1.0 + a1 * p.dt * p.dt, 1e-7);
  EXPECT_EQ(e.pos[0].y, 0.0f);
  EXPECT_EQ(e.vel[1].z, 0.0f);
  EXPECT_EQ(e.pos[0].w, 4.0f);
  EXPECT_EQ(e.pos[1].w, 1.0f);
}

TEST(Physics, SelfTermIsExactlyZero) {
  const Vec4 a{3.5f, -1.25f, 7.0f, 10.0f};
  Vec3 acc{0, 0, 0};
  body_body(a, a, 0.01f, acc);
  EXPECT_EQ(acc.x, 0.0f);
  EXPECT_EQ(acc.y, 0.0f);
  EXPECT_EQ(acc.z, 0.0f);
}

TEST(Physics, SofteningBoundsTheAccelerationOfCloseBodies) {
  // |a| = m r / (r^2 + eps^2)^(3/2) peaks at r = eps / sqrt(2) at m * 2 / (3 sqrt(3) eps^2).
  const float eps = 0.05f, m = 5.0f;
  const double bound = m * 2.0 / (3.0 * std::sqrt(3.0) * eps * eps);
  double peak = 0;
  for (double r = 0; r < 0.5; r += 1e-4) {
    Vec3 acc{0, 0, 0};
    body_body(Vec4{0, 0, 0, 1}, Vec4{static_cast<float>(r), 0, 0, m}, eps * eps, acc);
    ASSERT_TRUE(std::isfinite(acc.x)) << "r=" << r;
    peak = std::max(peak, norm(acc));
  }
  EXPECT_LE(peak, bound * (1 + 1e-5));
  EXPECT_GE(peak, bound * (1 - 1e-3));  // the scan passes close to the peak
}

TEST(Physics, SofteningKeepsCoincidentBodiesFinite) {
  // Three bodies on one point and one nearby: the coincident ones feel no force from each other.
  BodyState s;
  s.pos = {{1, 2, 3, 1}, {1, 2, 3, 2}, {1, 2, 3, 3}, {1.001f, 2, 3, 1}};
  s.vel.assign(4, Vec4{0, 0, 0, 0});
  SimParams p;
  p.softening = 0.01f;
  p.dt = 0.001f;
  for (const char* name : {"cpu", "cpu-omp"}) {
    const BodyState e = test::run_host(name, s, 50, p);
    for (int i = 0; i < e.size(); ++i) {
      EXPECT_TRUE(std::isfinite(e.pos[i].x) && std::isfinite(e.pos[i].y) &&
                  std::isfinite(e.pos[i].z))
          << name << " body " << i;
      EXPECT_TRUE(std::isfinite(e.vel[i].x) && std::isfinite(e.vel[i].y) &&
                  std::isfinite(e.vel[i].z))
          << name << " body " << i;
    }
  }
  // Two bodies exactly on top of each other stay put.
  BodyState two;
  two.pos = {{0.5f, 0.5f, 0.5f, 1}, {0.5f, 0.5f, 0.5f, 1}};
  two.vel.assign(2, Vec4{0, 0, 0, 0});
  const BodyState e = test::run_host("cpu", two, 10, p);
  EXPECT_EQ(e.pos[0].x, 0.5f);
  EXPECT_EQ(e.pos[1].z, 0.5f);
  EXPECT_EQ(e.vel[0].y, 0.0f);
}

TEST(Physics, IntegrateIsTheDampedSemiImplicitEuler) {
  const Vec4 in{1.0f, 2.0f, 3.0f, 7.0f};
  Vec4 out{0, 0, 0, 0};
  Vec4 vel{0.5f, -1.0f, 2.0f, 0.0f};
  const Vec3 acc{10.0f, 20.0f, -30.0f};
  const float dt = 0.1f, damping = 0.5f;
  integrate(in, out, vel, acc, dt, damping);
  // v <- damping (v + a dt), then x <- x + v dt with the new v; the mass is carried over.
  EXPECT_FLOAT_EQ(vel.x, 0.5f * (0.5f + 1.0f));
  EXPECT_FLOAT_EQ(vel.y, 0.5f * (-1.0f + 2.0f));
  EXPECT_FLOAT_EQ(vel.z, 0.5f * (2.0f - 3.0f));
  EXPECT_FLOAT_EQ(out.x, 1.0f + vel.x * dt);
  EXPECT_FLOAT_EQ(out.y, 2.0f + vel.y * dt);
  EXPECT_FLOAT_EQ(out.z, 3.0f + vel.z * dt);
  EXPECT_EQ(out.w, 7.0f);
}

}  // namespace
}  // namespace orrery
