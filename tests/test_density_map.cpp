// Density maps (gfx/density_map.h) on the CPU: the neighbour distances against a brute-force
// search, the map's total against the bodies' mass, and the map against a plain histogram of the
// same bodies where a pixel holds enough of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "gfx/colormap.h"
#include "gfx/density_map.h"
#include "splat_support.h"

namespace orrery {
namespace {

std::vector<Vec4> gaussian_blob(int n, float sigma, float mass, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, sigma);
  std::vector<Vec4> out(static_cast<std::size_t>(n));
  for (Vec4& p : out) p = {g(rng), g(rng), g(rng), mass / static_cast<float>(n)};
  return out;
}

// The exact distance to each body's k-th nearest other body.
std::vector<float> brute_force(const std::vector<Vec4>& pos, int k) {
  std::vector<float> out;
  std::vector<float> d;
  for (const Vec4& a : pos) {
    d.clear();
    for (const Vec4& b : pos) {
      if (&a == &b) continue;
      const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
      d.push_back(dx * dx + dy * dy + dz * dz);
    }
    std::nth_element(d.begin(), d.begin() + (k - 1), d.end());
    out.push_back(std::sqrt(d[static_cast<std::size_t>(k - 1)]));
  }
  return out;
}

TEST(DensityMap, NeighbourDistancesAreCloseAboveTheExactOnes) {
  // Never below the exact k-th distance (the candidates are a subset of the bodies), and on these
  // (clustered: a Gaussian blob; flat: a uniform cube) a median within 8% of it and 95% of bodies
  // within 32% (measured: medians 1.070 and 1.045, 95th percentiles 1.287 and 1.241). A kernel
  // that much wider smooths the map a little more; its mass stays where it was.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Vec4> flat(6000);
  for (Vec4& p : flat) p = {u(rng), u(rng), u(rng), 1.0f};
  for (const auto& bodies : {gaussian_blob(6000, 1.0f, 1.0f, 5), flat}) {
    std::vector<float> h(bodies.size());
    gfx::smoothing_lengths_cpu(bodies.data(), static_cast<int>(bodies.size()), h.data());
    const std::vector<float> exact = brute_force(bodies, gfx::k_map_neighbours);
    std::vector<double> ratio;
    for (std::size_t i = 0; i < h.size(); ++i) {
      ASSERT_GE(h[i], exact[i]) << i;
      ratio.push_back(h[i] / exact[i]);
    }
    std::sort(ratio.begin(), ratio.end());
    const double median = ratio[ratio.size() / 2], p95 = ratio[ratio.size() * 95 / 100];
    std::printf("neighbour distance / exact: median %.4f, 95th percentile %.4f\n", median, p95);
    EXPECT_LT(median, 1.08);
    EXPECT_LT(p95, 1.32);
  }
}

TEST(DensityMap, FewBodies) {
  std::vector<Vec4> two = {{0, 0, 0, 1}, {3, 4, 0, 1}};
  std::vector<float> h(2);
  gfx::smoothing_lengths_cpu(two.data(), 2, h.data());
  EXPECT_FLOAT_EQ(h[0], 5.0f);  // every other body where there are fewer than k
  EXPECT_FLOAT_EQ(h[1], 5.0f);
  gfx::smoothing_lengths_cpu(two.data(), 1, h.data());
  EXPECT_EQ(h[0], 0.0f);
  EXPECT_THROW(gfx::smoothing_lengths_cpu(two.data(), -1, h.data()), std::invalid_argument);
}

TEST(DensityMap, AHeavyBodyIsAPoint) {
  // A galaxy's central mass among its disc's light bodies: a point (h = 0), its whole mass in its
  // own pixel; the light ones smoothed as before.
  std::vector<Vec4> b = gaussian_blob(2000, 1.0f, 1.0f, 13);
  b.push_back({0.01f, 0.02f, 0.0f, 5.0f});  // 10,000 times a light body
  std::vector<float> h(b.size());
  gfx::smoothing_lengths_cpu(b.data(), static_cast<int>(b.size()), h.data());
  EXPECT_EQ(h.back(), 0.0f);
  for (std::size_t i = 0; i + 1 < b.size(); ++i) ASSERT_GT(h[i], 0.0f) << i;
  const gfx::SpriteParams p = test::camera_params(200, 200, 20.0f);
  std::vector<float> map(200 * 200);
  std::vector<Vec4> heavy = {b.back()};
  std::vector<float> zero = {0.0f};
  gfx::density_map_cpu(heavy.data(), zero.data(), 1, p, map.data());
  EXPECT_EQ(std::count_if(map.begin(), map.end(), [](float v) { return v > 0; }), 1);
  EXPECT_FLOAT_EQ(*std::max_element(map.begin(), map.end()), 5.0f);
}

TEST(DensityMap, TheMapHoldsTheBodiesMass) {
  // Every body well inside the picture: the map's total is their mass to float rounding, however
  // small or large their kernels (a few bodies at large distances from the rest too).
  std::vector<Vec4> b = gaussian_blob(20000, 2.0f, 5.0f, 9);
  b.push_back({6, 3, 0, 0.25f});
  b.push_back({-7, -2, 4, 0.5f});
  const gfx::SpriteParams p = test::camera_params(320, 200, 40.0f);
  std::vector<float> h(b.size()), map(320 * 200);
  gfx::smoothing_lengths_cpu(b.data(), static_cast<int>(b.size()), h.data());
  gfx::density_map_cpu(b.data(), h.data(), static_cast<int>(b.size()), p, map.data());
  const double total = std::accumulate(map.begin(), map.end(), 0.0);
  EXPECT_NEAR(total, 5.75, 5.75 * 1e-5);
  // Bodies behind the camera add nothing; off to the side, only the part of their kernel that
  // falls on the picture.
  std::vector<Vec4> behind = {{0, 0, 60, 1}, {0.1f, 0, 60, 1}};
  std::vector<float> hb(2, 1.0f);
  gfx::density_map_cpu(behind.data(), hb.data(), 2, p, map.data());
  EXPECT_EQ(std::accumulate(map.begin(), map.end(), 0.0), 0.0);
}

TEST(DensityMap, AgreesWithAHistogramWherePixelsHoldEnoughBodies) {
  // A coarse picture (24 x 24 px, a pixel a quarter of the blob's sigma across at the centre) of
  // 300,000 bodies: each pixel that holds at least 500 of them gets the mass the histogram gives
  // it to within four standard deviations of its count plus 2% (the kernel's own blur).
  const int n = 300000, side = 24;
  const std::vector<Vec4> b = gaussian_blob(n, 1.0f, 1.0f, 21);
  gfx::SpriteParams p = test::camera_params(side, side, 14.5f);  // +-3 sigma on the picture
  std::vector<float> h(n), map(side * side);
  gfx::smoothing_lengths_cpu(b.data(), n, h.data());
  gfx::density_map_cpu(b.data(), h.data(), n, p, map.data());
  std::vector<double> hist(side * side, 0.0);
  std::vector<int> count(side * side, 0);
  for (const Vec4& body : b) {
    float x, y, depth;
    if (!gfx::project_point(p, body.x, body.y, body.z, x, y, depth)) continue;
    const int i = static_cast<int>(std::floor(x)), j = static_cast<int>(std::floor(y));
    if (i < 0 || i >= side || j < 0 || j >= side) continue;
    hist[j * side + i] += body.w;
    ++count[j * side + i];
  }
  int checked = 0;
  for (int k = 0; k < side * side; ++k) {
    if (count[k] < 500) continue;
    ++checked;
    const double tol = hist[k] * (4.0 / std::sqrt(count[k]) + 0.02);
    EXPECT_NEAR(map[k], hist[k], tol)
        << "pixel " << k % side << "," << k / side << " with " << count[k] << " bodies";
  }
  EXPECT_GT(checked, 40);
}

TEST(DensityMap, ItsPictureAndRange) {
  std::vector<float> map = {0.0f, 1.0f, 10.0f, 100.0f};
  float lo = 0, hi = 0;
  ASSERT_TRUE(gfx::map_range(map.data(), map.size(), lo, hi));
  EXPECT_FLOAT_EQ(lo, 1.0f);
  EXPECT_FLOAT_EQ(hi, 10.0f);  // the 99.9th percentile of three lit pixels: the middle one's
  std::vector<float> deep(1000);  // half the picture in faint wings
  std::fill(deep.begin(), deep.begin() + 500, 1e-9f);
  std::fill(deep.begin() + 500, deep.end(), 1.0f);
  ASSERT_TRUE(gfx::map_range(deep.data(), deep.size(), lo, hi));
  EXPECT_FLOAT_EQ(hi, 1.0f);
  EXPECT_FLOAT_EQ(lo, 1e-4f);  // four decades, not the 5th percentile's nine
  std::vector<std::uint8_t> rgba(16);
  const int magma = 2;
  ASSERT_STREQ(gfx::k_palette_names[magma], "magma");
  gfx::map_rgba(map.data(), 4, 1, magma, 1.0f, 100.0f, rgba.data());
  float r, g, b;
  gfx::palette_rgb(magma, 0.0f, r, g, b);
  EXPECT_EQ(rgba[0], static_cast<std::uint8_t>(std::lround(255 * r)));  // empty: the bottom
  EXPECT_EQ(rgba[4], rgba[0]);                                          // at lo: the bottom too
  gfx::palette_rgb(magma, 0.5f, r, g, b);
  EXPECT_EQ(rgba[8], static_cast<std::uint8_t>(std::lround(255 * r)));  // 10: halfway in log
  gfx::palette_rgb(magma, 1.0f, r, g, b);
  EXPECT_EQ(rgba[12], static_cast<std::uint8_t>(std::lround(255 * r)));
  const std::vector<float> dark(8, 0.0f);
  EXPECT_FALSE(gfx::map_range(dark.data(), dark.size(), lo, hi));
}

}  // namespace
}  // namespace orrery
