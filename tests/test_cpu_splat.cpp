// The CPU draw path (CpuSplat) against the references it must reproduce: splat_cpu and tonemap_cpu
// (and trail_splat_cpu), on scenes with heavy bodies, balls, stored colour values and trails, at
// image sizes that are no multiple of a SIMD width or of a band of rows; and its bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "gfx/cpu_splat.h"
#include "gfx/splat.h"
#include "splat_support.h"

namespace orrery {
namespace {

struct Pictures {
  std::vector<float> hdr;          // the reference's HDR image
  std::vector<std::uint8_t> ref;   // the reference's picture
  std::vector<std::uint8_t> fast;  // CpuSplat's
};

Pictures draw_both(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel, const float* values,
                   const gfx::SpriteParams& p, float exposure, gfx::CpuSplat& splat,
                   const gfx::TrailRing* trails = nullptr) {
  Pictures out;
  const std::size_t pixels = static_cast<std::size_t>(p.width) * p.height;
  out.hdr.assign(4 * pixels, 0.0f);
  out.ref.assign(4 * pixels, 0);
  out.fast.assign(4 * pixels, 7);
  const int n = static_cast<int>(pos.size());
  gfx::splat_cpu(pos.data(), vel.data(), n, p, out.hdr.data(), values);
  if (trails) gfx::trail_splat_cpu(*trails, p, 0.4f, out.hdr.data());
  gfx::tonemap_cpu(out.hdr.data(), p.width, p.height, exposure, out.ref.data());
  splat.draw(pos.data(), vel.data(), values, n, p, exposure, out.fast.data(), trails, 0.4f);
  return out;
}

// Largest byte difference, and the channels that differ at all.
void compare(const Pictures& a, int& worst, long& differing) {
  worst = 0;
  differing = 0;
  for (std::size_t k = 0; k < a.ref.size(); ++k) {
    const int d = std::abs(int(a.ref[k]) - int(a.fast[k]));
    worst = std::max(worst, d);
    differing += d > 0;
  }
}

// The glow's relative error against sprite_glow, and the HDR images' largest difference against
// their largest value.
float hdr_error(const Pictures& a, const gfx::CpuSplat& splat) {
  float worst = 0.0f, peak = 0.0f;
  for (std::size_t k = 0; k < a.hdr.size(); k += 4)
    for (std::size_t c = 0; c < 3; ++c) {
      worst = std::max(worst, std::abs(a.hdr[k + c] - splat.hdr()[k + c]));
      peak = std::max(peak, a.hdr[k + c]);
    }
  return peak > 0.0f ? worst / peak : worst;
}

TEST(CpuSplat, GlowTablesFollowTheSpriteGlow) {
  gfx::CpuSplat splat;
  for (float soft : {0.0f, 0.3f, 1.0f})
    for (int i = 0; i < 1000; ++i) {
      const float r2 = static_cast<float>(i) / 1000.0f;
      EXPECT_NEAR(splat.glow(r2, soft), gfx::sprite_glow(r2, soft), 2e-5f) << r2 << " " << soft;
    }
}

TEST(CpuSplat, PictureMatchesTheReferenceAtOddSizes) {
  gfx::CpuSplat splat;
  for (const auto& [w, h] : {std::pair{320, 200}, std::pair{173, 97}, std::pair{1, 1}}) {
    std::vector<Vec4> pos, vel;
    test::make_scene(3000, w, h, pos, vel);  // every 25th body heavy: soft glows
    const gfx::SpriteParams p = test::camera_params(w, h);
    const Pictures a = draw_both(pos, vel, nullptr, p, 1.3f, splat);
    int worst = 0;
    long differing = 0;
    compare(a, worst, differing);
    EXPECT_LE(worst, 1) << w << "x" << h;
    EXPECT_LE(differing, static_cast<long>(a.ref.size() / 1000) + 1) << w << "x" << h;
    EXPECT_LT(hdr_error(a, splat), 1e-4f) << w << "x" << h;
    long lit = 0;
    for (std::size_t k = 0; k < a.fast.size(); k += 4) lit += a.fast[k] > 80;
    if (w > 100) {
      EXPECT_GT(lit, 300) << "bodies are visible";
    }
  }
}

TEST(CpuSplat, BallsStoredValuesAndTrailsMatchTheReference) {
  const int w = 301, h = 187;
  std::vector<Vec4> pos, vel;
  test::make_scene(2000, w, h, pos, vel);
  for (std::size_t k = 0; k < vel.size(); k += 3) vel[k].w = 1.5f;  // balls larger than sprites
  gfx::SpriteParams p = test::camera_params(w, h);
  p.spheres = 1;
  p.color = gfx::color_map_of(quantity_info(Quantity::potential));  // a stored quantity
  p.color.lo = -3.0f;
  p.color.hi = 0.0f;
  std::vector<float> values(pos.size());
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = -3.0f * (k % 17) / 16.0f;
  // A ring of 3 slots of 50 bodies: the bodies now and moved twice.
  const int m = 50, slots = 3;
  std::vector<Vec4> ring(static_cast<std::size_t>(m) * slots);
  for (int s = 0; s < slots; ++s)
    for (int b = 0; b < m; ++b) {
      const Vec4& q = pos[static_cast<std::size_t>(b)];
      ring[static_cast<std::size_t>(s * m + b)] = {q.x + 0.4f * s, q.y - 0.3f * s, q.z, 1.0f};
    }
  const gfx::TrailRing trails{ring.data(), m, slots, 0, slots};
  gfx::CpuSplat splat;
  const Pictures a = draw_both(pos, vel, values.data(), p, 0.8f, splat, &trails);
  int worst = 0;
  long differing = 0;
  compare(a, worst, differing);
  EXPECT_LE(worst, 1);
  EXPECT_LE(differing, static_cast<long>(a.ref.size() / 1000) + 1);
  EXPECT_LT(hdr_error(a, splat), 1e-4f);
  // The trails drew: the picture differs from the one without them.
  gfx::CpuSplat plain;
  std::vector<std::uint8_t> without(a.fast.size());
  plain.draw(pos.data(), vel.data(), values.data(), static_cast<int>(pos.size()), p, 0.8f,
             without.data());
  EXPECT_NE(without, a.fast);
}

TEST(CpuSplat, EmptyStateIsTheBackgroundAndBadInputThrows) {
  gfx::CpuSplat splat;
  const gfx::SpriteParams p = test::camera_params(64, 48);
  std::vector<std::uint8_t> out(4 * 64 * 48), ref(out.size());
  splat.draw(nullptr, nullptr, nullptr, 0, p, 1.0f, out.data());
  const std::vector<float> dark(4 * 64 * 48, 0.0f);
  gfx::tonemap_cpu(dark.data(), 64, 48, 1.0f, ref.data());
  EXPECT_EQ(out, ref);

  std::vector<Vec4> pos{{0, 0, 0, 1}}, vel{{0, 0, 0, 0}};
  EXPECT_THROW(splat.draw(pos.data(), vel.data(), nullptr, -1, p, 1.0f, out.data()),
               std::invalid_argument);
  gfx::SpriteParams empty = p;
  empty.width = 0;
  EXPECT_THROW(splat.draw(pos.data(), vel.data(), nullptr, 1, empty, 1.0f, out.data()),
               std::invalid_argument);
  gfx::SpriteParams stored = p;
  stored.color = gfx::color_map_of(quantity_info(Quantity::density));
  EXPECT_THROW(splat.draw(pos.data(), vel.data(), nullptr, 1, stored, 1.0f, out.data()),
               std::invalid_argument);
}

}  // namespace
}  // namespace orrery
