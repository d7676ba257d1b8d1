// The sprite maths shared by the GL shaders' twin and the CUDA splat, and the CPU reference
// splatter: projection, size with distance, dimming, palette, clipping, additivity, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gfx/splat.h"
#include "splat_support.h"

namespace orrery {
namespace {

using gfx::Sprite;
using gfx::SpriteParams;

constexpr int k_w = 320, k_h = 200;

std::vector<float> splat(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel,
                         const SpriteParams& p) {
  std::vector<float> img(4 * static_cast<std::size_t>(p.width) * p.height, -1.0f);
  gfx::splat_cpu(pos.data(), vel.data(), static_cast<int>(pos.size()), p, img.data());
  return img;
}

TEST(Sprite, BodyAtTheOriginLandsInTheMiddleAtTheExpectedSize) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite s;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 0, 1}, {0, 0, 0, 0}, p, s));
  EXPECT_NEAR(s.x, 0.5f * k_w, 1e-3f);
  EXPECT_NEAR(s.y, 0.5f * k_h, 1e-3f);
  // Diameter 2 r px_per_unit / depth: 2 * 0.2 * 241.4 / 50 = 1.93 px, drawn at the 2 px minimum
  // and dimmed by the area it lost.
  const float size = 2.0f * p.radius * p.px_per_unit / 50.0f;
  ASSERT_LT(size, 2.0f);
  EXPECT_FLOAT_EQ(s.half, 1.0f);
  EXPECT_NEAR(s.energy, p.intensity * size * size / 4.0f, 1e-6f);
  EXPECT_FLOAT_EQ(s.soft, 0.0f);
}

TEST(Sprite, SizeFallsWithDistanceAndBrightnessStays) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite near_s, far_s;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 40, 1}, {0, 0, 0, 0}, p, near_s));  // depth 10
  ASSERT_TRUE(gfx::make_sprite({0, 0, 30, 1}, {0, 0, 0, 0}, p, far_s));   // depth 20
  EXPECT_NEAR(near_s.half, 2.0f * far_s.half, 1e-4f);
  EXPECT_NEAR(near_s.half, p.radius * p.px_per_unit / 10.0f, 1e-4f);
  EXPECT_FLOAT_EQ(near_s.energy, p.intensity);  // both above 2 px: no dimming
  EXPECT_FLOAT_EQ(far_s.energy, p.intensity);
}

TEST(Sprite, OffCentreBodiesMoveTheRightWay) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite s;
  ASSERT_TRUE(gfx::make_sprite({5, -3, 0, 1}, {0, 0, 0, 0}, p, s));
  // x_ndc = f / aspect * x / depth, y_ndc = f * y / depth.
  const float f = 1.0f / std::tan(0.5f * test::k_fov_y), aspect = float(k_w) / float(k_h);
  EXPECT_NEAR(s.x, (0.5f + 0.5f * f / aspect * 5.0f / 50.0f) * k_w, 1e-3f);
  EXPECT_NEAR(s.y, (0.5f - 0.5f * f * 3.0f / 50.0f) * k_h, 1e-3f);
}

TEST(Sprite, HeavyBodiesDrawLargerWarmAndSoft) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite light, heavy;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 30, 1}, {0, 0, 0, 0}, p, light));
  ASSERT_TRUE(gfx::make_sprite({0, 0, 30, 64}, {0, 0, 0, 0}, p, heavy));  // cbrt(64) = 4
  EXPECT_NEAR(heavy.half, 4.0f * light.half, 1e-3f);
  EXPECT_FLOAT_EQ(heavy.soft, 1.0f);
  EXPECT_NEAR(heavy.energy, 1.5f * p.intensity, 1e-6f);
  EXPECT_FLOAT_EQ(heavy.r, 1.0f);
  EXPECT_FLOAT_EQ(heavy.g, 0.80f);
  EXPECT_FLOAT_EQ(heavy.b, 0.52f);
  Sprite huge;  // mass 1e9 times the mean: size capped at 16x, then at 128 px
  ASSERT_TRUE(gfx::make_sprite({0, 0, 49, 1e9f}, {0, 0, 0, 0}, p, huge));
  EXPECT_FLOAT_EQ(huge.half, 64.0f);
}

TEST(Sprite, PaletteRunsBlueThroughWhiteToRedWithSpeed) {
  float r, g, b;
  gfx::sprite_palette(0.0f, r, g, b);
  EXPECT_FLOAT_EQ(b, 0.95f);
  EXPECT_LT(r, 0.2f);
  gfx::sprite_palette(0.5f, r, g, b);  // the reference speed: near white
  EXPECT_GT(r, 0.9f);
  EXPECT_GT(b, 0.9f);
  gfx::sprite_palette(1.0f, r, g, b);
  EXPECT_FLOAT_EQ(r, 1.0f);
  EXPECT_LT(b, 0.2f);
  gfx::sprite_palette(7.0f, r, g, b);  // clamped
  EXPECT_FLOAT_EQ(r, 1.0f);
  EXPECT_FLOAT_EQ(g, 0.30f);
  // Continuous at the joints.
  float r1, g1, b1, r2, g2, b2;
  gfx::sprite_palette(0.25f - 1e-4f, r1, g1, b1);
  gfx::sprite_palette(0.25f + 1e-4f, r2, g2, b2);
  EXPECT_NEAR(r1, r2, 1e-3f);
  EXPECT_NEAR(g1, g2, 1e-3f);
  EXPECT_NEAR(b1, b2, 1e-3f);
  // A body at the reference speed gets the middle colour.
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite s;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 0, 1}, {0, 2, 0, 0}, p, s));  // 0.5 * 2 / 1 = 1: red end
  EXPECT_FLOAT_EQ(s.r, 1.0f);
  EXPECT_FLOAT_EQ(s.g, 0.30f);
}

TEST(Sprite, GlowPeaksAtTheCentreAndVanishesAtTheRim) {
  EXPECT_NEAR(gfx::sprite_glow(0.0f, 0.0f), 1.22f, 1e-6f);
  EXPECT_NEAR(gfx::sprite_glow(0.0f, 1.0f), 1.0f, 1e-6f);
  EXPECT_EQ(gfx::sprite_glow(1.0f, 0.0f), 0.0f);
  EXPECT_EQ(gfx::sprite_glow(4.0f, 0.5f), 0.0f);
  EXPECT_LT(gfx::sprite_glow(0.999f, 0.0f), 1e-3f);
  float last = 2.0f;
  for (float r2 = 0.0f; r2 < 1.0f; r2 += 0.05f) {
    const float g = gfx::sprite_glow(r2, 0.3f);
    EXPECT_LT(g, last);
    last = g;
  }
}

TEST(Sprite, BodiesOutsideTheViewAreClipped) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  Sprite s;
  EXPECT_FALSE(gfx::make_sprite({0, 0, 60, 1}, {0, 0, 0, 0}, p, s));      // behind the eye
  EXPECT_FALSE(gfx::make_sprite({0, 0, 49.98f, 1}, {0, 0, 0, 0}, p, s));  // before the near plane
  EXPECT_FALSE(gfx::make_sprite({200, 0, 0, 1}, {0, 0, 0, 0}, p, s));     // far to the right
  EXPECT_FALSE(gfx::make_sprite({0, 0, -30000, 1}, {0, 0, 0, 0}, p, s));  // beyond the far plane
  EXPECT_FALSE(gfx::make_sprite({NAN, 0, 0, 1}, {0, 0, 0, 0}, p, s));
  const std::vector<float> img = splat({{0, 0, 60, 1}, {200, 0, 0, 1}}, {{}, {}}, p);
  for (float v : img) ASSERT_EQ(v, 0.0f);  // cleared, nothing added
}

TEST(Splat, OneBodyIsARoundSymmetricDiscAtItsPlace) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  // Depth 10: diameter 9.66 px, centred on the middle of the image (a pixel corner).
  const std::vector<float> img = splat({{0, 0, 40, 1}}, {{0, 0, 0, 0}}, p);
  Sprite s;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 40, 1}, {0, 0, 0, 0}, p, s));
  auto at = [&](int i, int j, int c) {
    return img[4 * (static_cast<std::size_t>(j) * k_w + i) + c];
  };
  const int ci = k_w / 2, cj = k_h / 2;
  long lit = 0;
  float peak = 0.0f;
  for (int j = 0; j < k_h; ++j)
    for (int i = 0; i < k_w; ++i) {
      if (at(i, j, 3) > 0.0f) ++lit;
      peak = std::max(peak, at(i, j, 0));
      // Mirror symmetry about the centre (x = ci, y = cj lie between pixels ci-1 and ci).
      const int mi = 2 * ci - 1 - i, mj = 2 * cj - 1 - j;
      if (mi >= 0 && mi < k_w && mj >= 0 && mj < k_h) {
        ASSERT_NEAR(at(i, j, 0), at(mi, j, 0), 1e-6f);
        ASSERT_NEAR(at(i, j, 2), at(i, mj, 2), 1e-6f);
      }
    }
  // About pi r^2 pixels lit; the four around the centre are the brightest.
  EXPECT_NEAR(static_cast<double>(lit), M_PI * s.half * s.half, 0.15 * M_PI * s.half * s.half);
  EXPECT_FLOAT_EQ(at(ci, cj, 0), peak);
  EXPECT_FLOAT_EQ(at(ci - 1, cj - 1, 0), peak);
  // The colour of a body at rest: the slow end of the palette, blue.
  EXPECT_GT(at(ci, cj, 2), at(ci, cj, 0));
  EXPECT_EQ(at(ci + 10, cj, 3), 0.0f);
}

TEST(Splat, ImagesAddUp) {
  const SpriteParams p = test::camera_params(k_w, k_h);
  const std::vector<Vec4> a = {{1, 1, 30, 1}, {-4, 2, 0, 3}},
                          b = {{1.2f, 1, 30, 1}, {6, -2, 10, 1}};
  const std::vector<Vec4> va = {{0.2f, 0, 0, 0}, {0, 0.9f, 0, 0}},
                          vb = {{0, 0, 1.5f, 0}, {1, 1, 0, 0}};
  std::vector<Vec4> both = a, vboth = va;
  both.insert(both.end(), b.begin(), b.end());
  vboth.insert(vboth.end(), vb.begin(), vb.end());
  const std::vector<float> ia = splat(a, va, p), ib = splat(b, vb, p), iab = splat(both, vboth, p);
  for (std::size_t k = 0; k < iab.size(); ++k) ASSERT_NEAR(iab[k], ia[k] + ib[k], 1e-5f);
}

TEST(Splat, SpritesAtTheEdgeStayInsideTheImage) {
  SpriteParams p = test::camera_params(k_w, k_h);
  // Near the left edge and close to the eye: a large sprite cut by the image border.
  Sprite s;
  const Vec4 body{-3.2f, 0, 45, 1};
  ASSERT_TRUE(gfx::make_sprite(body, {0, 0, 0, 0}, p, s));
  ASSERT_LT(s.x, s.half);                                                      // it sticks out
  std::vector<float> img(4 * static_cast<std::size_t>(k_w) * k_h + 64, 7.0f);  // a guard tail
  gfx::splat_cpu(&body, &body, 1, p, img.data());
  for (std::size_t k = img.size() - 64; k < img.size(); ++k) ASSERT_EQ(img[k], 7.0f);
  long lit = 0;
  for (std::size_t k = 3; k < img.size() - 64; k += 4) lit += img[k] > 0.0f;
  EXPECT_GT(lit, 0);
  EXPECT_LT(static_cast<double>(lit), M_PI * s.half * s.half);
}

TEST(ToneMap, DarkGradientWithoutLightAndWhiteUnderMuchLight) {
  constexpr int w = 64, h = 48;
  std::vector<float> hdr(4 * w * h, 0.0f);
  std::vector<std::uint8_t> out(4 * w * h);
  gfx::tonemap_cpu(hdr.data(), w, h, 1.0f, out.data());
  auto px = [&](int i, int j, int c) { return int(out[4 * (j * w + i) + c]); };
  // The background: dark blue, brighter at the top (last row) than at the bottom, darker at the
  // corners than in the middle of a row; opaque.
  EXPECT_LT(px(w / 2, h - 1, 2), 20);
  EXPECT_GT(px(w / 2, h - 1, 2), px(w / 2, 0, 2));
  EXPECT_GE(px(w / 2, h / 2, 2), px(0, h / 2, 2));
  EXPECT_GT(px(w / 2, h / 2, 2), px(w / 2, h / 2, 0));
  EXPECT_EQ(px(3, 5, 3), 255);
  // Light saturates to white; more light is never darker.
  for (int k = 0; k < w * h; ++k) hdr[4 * k] = hdr[4 * k + 1] = hdr[4 * k + 2] = 0.02f * k;
  gfx::tonemap_cpu(hdr.data(), w, h, 1.0f, out.data());
  EXPECT_EQ(px(w - 1, h - 1, 0), 255);
  for (int k = 1; k < w; ++k) EXPECT_GE(px(k, 0, 1), px(k - 1, 0, 1));
  // Exposure scales the light: 1 at exposure 2 is 2 at exposure 1.
  std::vector<std::uint8_t> a(4 * w * h), b(4 * w * h);
  std::vector<float> one(4 * w * h, 1.0f), two(4 * w * h, 2.0f);
  gfx::tonemap_cpu(one.data(), w, h, 2.0f, a.data());
  gfx::tonemap_cpu(two.data(), w, h, 1.0f, b.data());
  EXPECT_EQ(a, b);
  EXPECT_THROW(gfx::tonemap_cpu(one.data(), 0, h, 1.0f, a.data()), std::invalid_argument);
}

TEST(Splat, BadInputThrows) {
  SpriteParams p = test::camera_params(k_w, k_h);
  std::vector<float> img(4 * k_w * k_h);
  const Vec4 body{0, 0, 0, 1};
  p.width = 0;
  EXPECT_THROW(gfx::splat_cpu(&body, &body, 1, p, img.data()), std::invalid_argument);
  p = test::camera_params(k_w, k_h);
  EXPECT_THROW(gfx::splat_cpu(&body, &body, -1, p, img.data()), std::invalid_argument);
}

}  // namespace
}  // namespace orrery
