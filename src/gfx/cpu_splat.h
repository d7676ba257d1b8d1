// The CPU draw path: the bodies' sprites splatted into an HDR image and tone-mapped to 8-bit RGBA
// on the CPU's cores, for a software OpenGL (Mesa's llvmpipe), where rasterising point sprites
// costs far more. The same picture as splat_cpu and tonemap_cpu (the references, splat.h) up to
// float rounding: the glow is read from tables, the tone map is vectorised. No GL, no CUDA.
#pragma once

#include <cstdint>
#include <vector>

#include "gfx/sprite.h"
#include "gfx/trails_picking.h"
#include "orrery/physics.h"

namespace orrery::gfx {

class CpuSplat {
 public:
  CpuSplat();

  // Splats n bodies (host pointers; `values`: the stored colour quantity, null for speed and mass)
  // and, when given, the trails, then tone-maps into rgba8 (p.width * p.height pixels,
  // row 0 the bottom one). Throws std::invalid_argument where splat_cpu does.
  void draw(const Vec4* pos, const Vec4* vel, const float* values, int n, const SpriteParams& p,
            float exposure, std::uint8_t* rgba8, const TrailRing* trails = nullptr,
            float trail_intensity = 0.0f);

  // The HDR image of the last draw (4 floats a pixel, as splat_cpu writes it; alpha left 0).
  const std::vector<float>& hdr() const { return m_hdr; }

  // The glow of sprite_glow(r2, soft) for a star (sphere 0) from the tables, r2 in [0, 1).
  float glow(float r2, float soft) const;

  static constexpr int k_table = 4096;  // table entries over r2 in [0, 1]

 private:
  std::vector<float> m_star, m_bulge;  // sprite_glow(r2, 0) and (r2, 1) at r2 = i / k_table
  std::vector<float> m_hdr;
  std::vector<float> m_bloom;  // the glow's small images (gfx/bloom.h)
  std::vector<Sprite> m_sprites;
  std::vector<int> m_first_band, m_last_band;     // each sprite's bands (last < first: none)
  std::vector<int> m_band_start, m_band_sprites;  // sprites by band of rows (counting sort)
};

// Tone-maps rows [row0, row1) of an HDR image (as splat_cpu writes it) into rgba8, vectorised:
// tonemap_pixel's maths at the CPU's widest SIMD level.
void tonemap_rows(const float* rgba, int width, int height, int row0, int row1, float exposure,
                  std::uint8_t* rgba8);

}  // namespace orrery::gfx
