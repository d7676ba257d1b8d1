// The bloom (gfx/bloom.h) on the CPU: light above the threshold spreads around its pixel, the
// light it adds is the strength times the light above the threshold, and a picture with none
// above it is left as it was, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "gfx/bloom.h"

namespace orrery {
namespace {

constexpr int k_w = 203, k_h = 141;  // not multiples of the block

std::vector<float> scratch_for(int w, int h) {
  return std::vector<float>(6 * static_cast<std::size_t>(gfx::bloom_size(w)) * gfx::bloom_size(h));
}

TEST(Bloom, SpreadsTheLightAboveTheThresholdAndAddsStrengthTimesIt) {
  std::vector<float> img(4 * k_w * k_h, 0.0f);
  const float exposure = 1.0f, t = gfx::bloom_threshold(exposure);
  const int x = 101, y = 70;
  float* px = img.data() + 4 * (y * k_w + x);
  px[0] = 40.0f, px[1] = 20.0f, px[2] = 0.5f;  // blue below the threshold
  const std::vector<float> before = img;
  std::vector<float> scratch = scratch_for(k_w, k_h);
  gfx::bloom_cpu(img.data(), k_w, k_h, exposure, 0.8f, scratch.data());
  double added[3] = {0, 0, 0};
  int lit_far = 0;
  for (int j = 0; j < k_h; ++j)
    for (int i = 0; i < k_w; ++i)
      for (int c = 0; c < 3; ++c) {
        const double d = img[4 * (j * k_w + i) + c] - before[4 * (j * k_w + i) + c];
        EXPECT_GE(d, 0.0);
        added[c] += d;
        if (c == 0 && d > 1e-4 && std::hypot(i - x, j - y) > 12) ++lit_far;
      }
  // To within the small image's rounding of the picture's size: 51 x 36 small pixels stand for
  // 203 x 141, 2.5% less than 4 x 4 each.
  EXPECT_NEAR(added[0], 0.8 * (40.0 - t), 0.03 * 0.8 * (40.0 - t));
  EXPECT_NEAR(added[1], 0.8 * (20.0 - t), 0.03 * 0.8 * (20.0 - t));
  EXPECT_EQ(added[2], 0.0);  // nothing above the threshold
  EXPECT_GT(lit_far, 100);   // a glow, not a point: 12 px and more from it
  // Symmetric about the source to the block's offset: as much light left as right.
  double left = 0, right = 0;
  for (int i = 0; i < k_w; ++i) {
    const double d = img[4 * (y * k_w + i)] - before[4 * (y * k_w + i)];
    (i < x ? left : right) += d;
  }
  EXPECT_NEAR(left / right, 1.0, 0.35);
}

TEST(Bloom, LeavesAPictureBelowTheThresholdAlone) {
  std::vector<float> img(4 * k_w * k_h);
  for (std::size_t k = 0; k < img.size(); ++k) img[k] = 0.9f * static_cast<float>(k % 7) / 7.0f;
  const std::vector<float> before = img;
  std::vector<float> scratch = scratch_for(k_w, k_h);
  gfx::bloom_cpu(img.data(), k_w, k_h, 1.0f, 1.0f, scratch.data());
  EXPECT_EQ(img, before);
  img[4 * 5] = 100.0f;
  const std::vector<float> bright = img;
  gfx::bloom_cpu(img.data(), k_w, k_h, 1.0f, 0.0f, scratch.data());  // strength 0: off
  EXPECT_EQ(img, bright);
}

}  // namespace
}  // namespace orrery
