// The glow around the picture's densest parts (bloom), the same on the three draw paths: the HDR
// light above a threshold, averaged over blocks of 4 x 4 pixels, blurred with a Gaussian on that
// small image and added back, with a strength, before the tone map. The GL path does it in
// shaders (bloom_down.frag, bloom_blur.frag, tonemap.frag) with the same taps and weights.
#pragma once

#include "orrery/physics.h"

namespace orrery::gfx {

constexpr int k_bloom_block = 4;  // full pixels a small one averages, each way
constexpr int k_bloom_taps = 8;   // the blur's taps each side (small pixels)
constexpr float k_bloom_sigma = 3.0f;
constexpr float k_bloom_default = 1.0f;  // --bloom on's strength

// The light above which a pixel glows: where the tone map's 1 - exp(-light * exposure) passes
// 63% of white.
ORRERY_HD float bloom_threshold(float exposure) { return 1.0f / fmaxf(exposure, 1e-6f); }
// The blur's weight at k small pixels from the centre (|k| <= k_bloom_taps; the weights sum to 1).
ORRERY_HD float bloom_weight(int k) {
  return 0.1335712203f * expf(-0.5f * static_cast<float>(k * k) / (k_bloom_sigma * k_bloom_sigma));
}
// The small image's size for a width x height picture.
ORRERY_HD int bloom_size(int full) { return (full + k_bloom_block - 1) / k_bloom_block; }

// Small pixel (I, J): the light above threshold t of its block of rgba, averaged, into out.
ORRERY_HD void bloom_block(const float* rgba, int width, int height, int I, int J, float t,
                           float* out) {
  float sum[3] = {0, 0, 0};
  int count = 0;
  for (int b = 0; b < k_bloom_block; ++b)
    for (int a = 0; a < k_bloom_block; ++a) {
      const int x = I * k_bloom_block + a, y = J * k_bloom_block + b;
      if (x >= width || y >= height) continue;
      const float* px = rgba + 4 * (static_cast<long>(y) * width + x);
      for (int c = 0; c < 3; ++c) sum[c] += fmaxf(px[c] - t, 0.0f);
      ++count;
    }
  for (int c = 0; c < 3; ++c) out[c] = sum[c] / static_cast<float>(count);
}
// One blur pass's small pixel (i, j) of `in` (3 floats a pixel), along x or y, into out.
ORRERY_HD void bloom_blur(const float* in, int sw, int sh, int i, int j, bool along_x, float* out) {
  float sum[3] = {0, 0, 0};
  for (int k = -k_bloom_taps; k <= k_bloom_taps; ++k) {
    int x = along_x ? i + k : i, y = along_x ? j : j + k;
    x = x < 0 ? 0 : (x > sw - 1 ? sw - 1 : x);
    y = y < 0 ? 0 : (y > sh - 1 ? sh - 1 : y);
    const float w = bloom_weight(k);
    for (int c = 0; c < 3; ++c) sum[c] += w * in[3 * (static_cast<long>(y) * sw + x) + c];
  }
  for (int c = 0; c < 3; ++c) out[c] = sum[c];
}
// The blurred small image at picture pixel (i, j): bilinear between the small pixels' centres,
// clamped at the edges (GL's linear filter), into out.
ORRERY_HD void bloom_sample(const float* small, int width, int height, int i, int j, float* out) {
  const int sw = bloom_size(width), sh = bloom_size(height);
  const float fx = fminf(fmaxf((i + 0.5f) * sw / width - 0.5f, 0.0f), static_cast<float>(sw - 1));
  const float fy = fminf(fmaxf((j + 0.5f) * sh / height - 0.5f, 0.0f), static_cast<float>(sh - 1));
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1, y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
  const float tx = fx - x0, ty = fy - y0;
  for (int c = 0; c < 3; ++c) {
    const float a = small[3 * (static_cast<long>(y0) * sw + x0) + c];
    const float b = small[3 * (static_cast<long>(y0) * sw + x1) + c];
    const float d = small[3 * (static_cast<long>(y1) * sw + x0) + c];
    const float e = small[3 * (static_cast<long>(y1) * sw + x1) + c];
    out[c] = (1 - ty) * ((1 - tx) * a + tx * b) + ty * ((1 - tx) * d + tx * e);
  }
}

// Adds the glow into rgba (width x height pixels of 4 floats, row 0 the bottom one) in place;
// nothing when strength <= 0. Host pointers; `scratch` holds 6 floats a small pixel.
void bloom_cpu(float* rgba, int width, int height, float exposure, float strength, float* scratch);
// The same on the GPU: device pointers, the default stream, asynchronous.
void bloom_device(float* rgba, int width, int height, float exposure, float strength,
                  float* scratch);

}  // namespace orrery::gfx
