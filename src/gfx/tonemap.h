// The tone map of shaders/tonemap.frag in ORRERY_HD code, for the CUDA draw path and its CPU
// reference: additive HDR light over a dark gradient background, to 8-bit RGBA.
#pragma once

#include <cmath>
#include <cstdint>

#include "orrery/physics.h"

namespace orrery::gfx {

namespace detail {
ORRERY_HD std::uint8_t to_unorm8(float v) {
  v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  return static_cast<std::uint8_t>(v * 255.0f + 0.5f);
}
}  // namespace detail

// Pixel (i, j) of a width x height image (row 0 at the bottom, as GL's) with HDR light (r, g, b).
ORRERY_HD void tonemap_pixel(float r, float g, float b, int i, int j, int width, int height,
                             float exposure, std::uint8_t* out) {
  const float u = (static_cast<float>(i) + 0.5f) / static_cast<float>(width);
  const float v = (static_cast<float>(j) + 0.5f) / static_cast<float>(height);
  const float cu = u - 0.5f, cv = v - 0.5f;
  const float vignette = 1.0f - 0.6f * (cu * cu + cv * cv);
  const float top[3] = {0.028f, 0.030f, 0.060f}, bottom[3] = {0.006f, 0.007f, 0.016f};
  const float hdr[3] = {r, g, b};
  for (int c = 0; c < 3; ++c) {
    const float light = powf(1.0f - expf(-hdr[c] * exposure), 1.0f / 1.8f);
    const float bg = (bottom[c] + (top[c] - bottom[c]) * v) * vignette;
    out[c] = detail::to_unorm8(bg + light * (1.0f - bg));
  }
  out[3] = 255;
}

}  // namespace orrery::gfx
