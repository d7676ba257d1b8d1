// The CPU's SIMD sums at every SIMD level this CPU supports (forced one at a time): each against
// the plain scalar formulas, and cpu-omp and cpu-bh built on them against `cpu`, at sizes that
// are not multiples of the vector width, the padding or cpu-omp's block.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../src/sim/gravity/octree.h"
#include "../src/sim/gravity/simd_sums.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/simd.h"
#include "orrery/solver.h"
#include "support.h"

namespace orrery {
namespace {

// Runs `check` once at every SIMD level, then goes back to the CPU's widest.
template <class Check>
void at_every_level(Check check) {
  const std::vector<std::string> levels = simd_levels();
  ASSERT_FALSE(levels.empty());
  for (const std::string& level : levels) {
    ASSERT_TRUE(use_simd_level(level));
    SCOPED_TRACE(level);
    EXPECT_EQ(simd_level(), level);  // the chosen level is the one that runs
    check();
  }
  ASSERT_TRUE(use_simd_level(""));
  EXPECT_EQ(simd_level(), levels.front());
}

TEST(SimdSums, AnUnknownLevelChangesNothing) {
  const std::string before = simd_level();
  EXPECT_FALSE(use_simd_level("AVX9"));
  EXPECT_FALSE(use_simd_level("avx2"));  // the names are exact
  EXPECT_EQ(simd_level(), before);
}

double relative(const Vec4& got, const Vec4& want, bool with_w) {
  const double e = std::hypot(got.x - want.x, got.y - want.y, got.z - want.z);
  const double norm = std::hypot(want.x, want.y, want.z);
  double r = e / norm;
  if (with_w) r = std::max(r, double(std::fabs(got.w - want.w)) / std::fabs(want.w));
  return r;
}

TEST(SimdSums, PointsMatchTheScalarSumAtEveryLevel) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float eps2 = 0.01f;
  at_every_level([&] {
    for (int n : {1, 15, 17, 1000}) {
      PointArrays s;
      std::vector<Vec4> pts;
      for (int k = 0; k < n; ++k) pts.push_back(Vec4{u(rng), u(rng), u(rng), 0.5f + u(rng) * 0.4f});
      for (const Vec4& p : pts) s.push(p);
      s.pad();
      const Vec4 at{2.0f, -0.5f, 0.25f, 1.0f};
      // Each term by the scalar formula, summed in double: the SIMD sum's error alone.
      double a[3] = {0, 0, 0}, phi = 0;
      for (const Vec4& p : pts) {
        Vec3 term{0, 0, 0};
        body_body(at, p, eps2, term);
        a[0] += term.x, a[1] += term.y, a[2] += term.z;
        phi -= p.w / std::sqrt(eps2 + (p.x - at.x) * (p.x - at.x) + (p.y - at.y) * (p.y - at.y) +
                               (p.z - at.z) * (p.z - at.z));
      }
      const Vec4 want{float(a[0]), float(a[1]), float(a[2]), float(phi)};
      EXPECT_LT(relative(sum_points(s, at.x, at.y, at.z, eps2, true), want, true), 2e-6)
          << "n " << n;
      const Vec4 bare = sum_points(s, at.x, at.y, at.z, eps2, false);
      EXPECT_EQ(bare.w, 0.0f);
      EXPECT_LT(relative(bare, want, false), 2e-6);
    }
  });
}

TEST(SimdSums, CellsMatchCellFieldAtEveryLevel) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float eps2 = 0.0004f;
  at_every_level([&] {
    for (int n : {1, 3, 16, 333}) {
      CellArrays c;
      double sum[4] = {0, 0, 0, 0};
      const float at[3] = {3.0f, 1.0f, -2.0f};
      for (int k = 0; k < n; ++k) {
        const float x = u(rng), y = u(rng), z = u(rng), m = 1.0f + 0.5f * u(rng);
        const float q[6] = {0.02f * u(rng), 0.02f * u(rng), 0.0f,
                            0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng)};
        const float te = 0.05f * (1.0f + u(rng)) * eps2;
        c.push(x, y, z, m, q, te);
        Vec4 term{0, 0, 0, 0};
        cell_field(at[0] - x, at[1] - y, at[2] - z, m, q, te, eps2, term);
        sum[0] += term.x, sum[1] += term.y, sum[2] += term.z, sum[3] += term.w;
      }
      c.pad();
      const Vec4 want{float(sum[0]), float(sum[1]), float(sum[2]), float(sum[3])};
      EXPECT_LT(relative(sum_cells(c, at[0], at[1], at[2], eps2, true), want, true), 2e-6)
          << "n " << n;
    }
  });
}

// cpu-bh sums two bodies a pass over their group's list: each gets what it gets alone, to the bit.
TEST(SimdSums, PairsSumAsTheirBodiesAloneAtEveryLevel) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float eps2 = 0.0025f;
  at_every_level([&] {
    for (int n : {1, 17, 250}) {
      PointArrays s;
      CellArrays c;
      for (int k = 0; k < n; ++k) {
        s.push(Vec4{u(rng), u(rng), u(rng), 0.6f + 0.3f * u(rng)});
        const float q[6] = {0.02f * u(rng), 0.02f * u(rng), 0.01f * u(rng),
                            0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng)};
        c.push(2.0f + u(rng), u(rng), u(rng), 1.0f + 0.5f * u(rng), q, 0.1f * eps2);
      }
      s.pad();
      c.pad();
      const Vec4 at[2] = {{0.3f, -0.2f, 0.1f, 1.0f}, {-0.7f, 0.4f, 0.9f, 1.0f}};
      for (bool potential : {false, true}) {
        Vec4 points[2], cells[2];
        sum_points_pair(s, at, eps2, potential, points);
        sum_cells_pair(c, at, eps2, potential, cells);
        for (int j = 0; j < 2; ++j) {
          const Vec4 p = sum_points(s, at[j].x, at[j].y, at[j].z, eps2, potential);
          const Vec4 q = sum_cells(c, at[j].x, at[j].y, at[j].z, eps2, potential);
          EXPECT_EQ(points[j].x, p.x) << n << " " << j;
          EXPECT_EQ(points[j].y, p.y);
          EXPECT_EQ(points[j].z, p.z);
          EXPECT_EQ(points[j].w, p.w);
          EXPECT_EQ(cells[j].x, q.x) << n << " " << j;
          EXPECT_EQ(cells[j].y, q.y);
          EXPECT_EQ(cells[j].z, q.z);
          EXPECT_EQ(cells[j].w, q.w);
          EXPECT_NE(p.x, 0.0f);
        }
      }
    }
  });
}

TEST(SimdSums, CpuOmpMatchesCpuAtEveryLevel) {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  at_every_level([&] {
    for (int n : {1, 7, 65, 1023}) {
      SCOPED_TRACE("N " + std::to_string(n));
      const BodyState start = make_preset(Preset::plummer, n, 7);
      const BodyState a = test::run_host("cpu", start, 10, p);
      const BodyState b = test::run_host("cpu-omp", start, 10, p);
      // Sums in another order and the estimated reciprocal square root: measured up to 1.4e-6.
      EXPECT_LE(max_relative_error(b.pos, a.pos), 1e-5);
      EXPECT_LE(max_relative_error(b.vel, a.vel), 1e-5);
    }
  });
}

// With theta 0 every cell is opened: cpu-bh sums every body through the SIMD point sums.
TEST(SimdSums, CpuBhAtThetaZeroMatchesCpuAtEveryLevel) {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.theta = 0.0f;
  at_every_level([&] {
    const BodyState start = make_preset(Preset::clumps, 1023, 3);
    const BodyState a = test::run_host("cpu", start, 5, p);
    const BodyState b = test::run_host("cpu-bh", start, 5, p);
    EXPECT_LE(max_relative_error(b.vel, a.vel), 1e-5);
  });
}

}  // namespace
}  // namespace orrery
