// Helpers of the sprite tests: sprite parameters for the viewer's starting camera, built by hand
// (no GLM), and image comparison.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gfx/sprite.h"

namespace orrery::test {

constexpr float k_fov_y = 0.7854f;  // the viewer camera's 45 degrees

// The viewer's starting view: the eye at (0, 0, eye_z) looking down -z at the origin, a
// perspective projection of k_fov_y, near 0.05, far 20000 (as OrbitCamera).
inline gfx::SpriteParams camera_params(int width, int height, float eye_z = 50.0f) {
  gfx::SpriteParams p;
  for (int i = 0; i < 16; ++i) p.view[i] = p.proj[i] = 0.0f;
  p.view[0] = p.view[5] = p.view[10] = p.view[15] = 1.0f;
  p.view[14] = -eye_z;
  const float f = 1.0f / std::tan(0.5f * k_fov_y), n = 0.05f, far = 20000.0f;
  p.proj[0] = f * static_cast<float>(height) / static_cast<float>(width);
  p.proj[5] = f;
  p.proj[10] = (far + n) / (n - far);
  p.proj[11] = -1.0f;
  p.proj[14] = 2.0f * far * n / (n - far);
  p.width = width;
  p.height = height;
  p.px_per_unit = 0.5f * static_cast<float>(height) / std::tan(0.5f * k_fov_y);
  p.radius = 0.2f;
  p.intensity = 0.6f;
  p.color.lo = 0.0f;
  p.color.hi = 2.0f;  // speed 1 in the middle of the classic palette
  p.mass_ref = 1.0f;
  return p;
}

// n bodies spread through the view of camera_params(width, height) at depths from 8 to 150
// (sprites of 2 to 12 px), every 25th one heavy, speeds across the palette.
inline void make_scene(int n, int width, int height, std::vector<Vec4>& pos,
                       std::vector<Vec4>& vel) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), depth(8.0f, 150.0f), speed(0.0f, 2.5f);
  for (int k = 0; k < n; ++k) {
    const float d = depth(rng);
    // Centres inside the view (x_ndc, y_ndc within 0.9).
    const float half_h = 0.9f * d * std::tan(0.5f * k_fov_y);
    const float mass = k % 25 == 0 ? 30.0f : 1.0f;
    pos.push_back({u(rng) * half_h * width / height, u(rng) * half_h, 50.0f - d, mass});
    const float s = speed(rng);
    vel.push_back({s * 0.6f, -s * 0.8f, 0.0f, 0.0f});
  }
}

struct ImageDiff {
  float max_abs = 0.0f;     // largest |a - b| over the RGB channels
  float max_value = 0.0f;   // largest |b| over the RGB channels
  long alpha_mismatch = 0;  // pixels whose fragment counts (alpha) differ by more than 0.5
};

// Compares RGBA float images a and b (same size).
inline ImageDiff compare_images(const std::vector<float>& a, const std::vector<float>& b) {
  ImageDiff d;
  for (std::size_t i = 0; i + 3 < a.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) {
      d.max_abs = std::max(d.max_abs, std::fabs(a[i + c] - b[i + c]));
      d.max_value = std::max(d.max_value, std::fabs(b[i + c]));
    }
    if (std::fabs(a[i + 3] - b[i + 3]) > 0.5f) ++d.alpha_mismatch;
  }
  return d;
}

}  // namespace orrery::test
