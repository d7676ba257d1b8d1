// The CPU draw path (cpu_splat.h). Highway compiles the tone map below once per SIMD level (this
// file includes itself through foreach_target.h) and dispatches to the widest the CPU has; the
// splat itself is scalar, over bands of rows in parallel, with the glow read from tables.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gfx/cpu_splat.cpp"
#include "gfx/cpu_splat.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

// After highway.h, for whose targets it is compiled: a block of its own, which sorting keeps.
#include <hwy/contrib/math/math-inl.h>

#include "gfx/bloom.h"
#include "gfx/tonemap.h"

HWY_BEFORE_NAMESPACE();
namespace orrery::gfx {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// tonemap_pixel, a vector of pixels of one row at a time; the row's tail pixel by pixel.
void TonemapRows(const float* rgba, int width, int height, int row0, int row1, float exposure,
                 std::uint8_t* rgba8) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  using V = hn::Vec<decltype(d)>;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const float top[3] = {0.028f, 0.030f, 0.060f}, bottom[3] = {0.006f, 0.007f, 0.016f};
  const V inv_w = hn::Set(d, 1.0f / static_cast<float>(width));
  const V half = hn::Set(d, 0.5f), one = hn::Set(d, 1.0f), zero = hn::Zero(d);
  const V neg_exposure = hn::Set(d, -exposure), inv_gamma = hn::Set(d, 1.0f / 1.8f);
  const V tiny = hn::Set(d, 1e-30f), k06 = hn::Set(d, 0.6f), k255 = hn::Set(d, 255.0f);
  using VI = hn::Vec<decltype(di)>;
  const VI opaque = hn::Set(di, static_cast<std::int32_t>(0xff000000u));
  for (int j = row0; j < row1; ++j) {
    const float v = (static_cast<float>(j) + 0.5f) / static_cast<float>(height);
    const float cv = v - 0.5f;
    V base[3];
    for (int c = 0; c < 3; ++c) base[c] = hn::Set(d, bottom[c] + (top[c] - bottom[c]) * v);
    const long row = static_cast<long>(j) * width;
    int i = 0;
    for (; i + lanes <= width; i += lanes) {
      const V u = hn::Mul(hn::Add(hn::ConvertTo(d, hn::Iota(di, i)), half), inv_w);
      const V cu = hn::Sub(u, half);
      const V vignette =
          hn::NegMulAdd(k06, hn::MulAdd(cu, cu, hn::Set(d, cv * cv)), one);  // 1 - 0.6 |c|^2
      V hdr[4];
      VI byte[3];
      hn::LoadInterleaved4(d, rgba + 4 * (row + i), hdr[0], hdr[1], hdr[2], hdr[3]);
      // Most pixels of a star field are dark: the background alone, without the transcendentals.
      const bool dark = hn::AllTrue(d, hn::Eq(hn::Max(hn::Max(hdr[0], hdr[1]), hdr[2]), zero));
      for (int c = 0; c < 3; ++c) {
        if (dark) {
          byte[c] = hn::ConvertTo(di, hn::MulAdd(hn::Mul(base[c], vignette), k255, half));
          continue;
        }
        // pow(1 - exp(-h e), 1 / 1.8) as exp(log(1 - exp(-h e)) / 1.8)
        const V lit = hn::Max(hn::Sub(one, hn::Exp(d, hn::Mul(hdr[c], neg_exposure))), tiny);
        const V light = hn::Exp(d, hn::Mul(hn::Log(d, lit), inv_gamma));
        const V bg = hn::Mul(base[c], vignette);
        const V value = hn::Min(hn::Max(hn::MulAdd(light, hn::Sub(one, bg), bg), zero), one);
        byte[c] = hn::ConvertTo(di, hn::MulAdd(value, k255, half));
      }
      // r, g, b, 255 in the bytes of one little-endian 32-bit word a pixel
      const VI word = hn::Or(hn::Or(byte[0], hn::ShiftLeft<8>(byte[1])),
                             hn::Or(hn::ShiftLeft<16>(byte[2]), opaque));
      hn::StoreU(word, di, reinterpret_cast<std::int32_t*>(rgba8 + 4 * (row + i)));
    }
    for (; i < width; ++i) {
      const float* h = rgba + 4 * (row + i);
      tonemap_pixel(h[0], h[1], h[2], i, j, width, height, exposure, rgba8 + 4 * (row + i));
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace orrery::gfx
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gfx/splat.h"

namespace orrery::gfx {

HWY_EXPORT(TonemapRows);

void tonemap_rows(const float* rgba, int width, int height, int row0, int row1, float exposure,
                  std::uint8_t* rgba8) {
  HWY_DYNAMIC_DISPATCH(TonemapRows)(rgba, width, height, row0, row1, exposure, rgba8);
}

namespace {

constexpr int k_band_rows = 16;  // rows a band: many more bands than cores, for balance

// sprite_glow of a star from the tables (k_table + 1 entries each), linearly interpolated.
inline float table_glow(const float* star, const float* bulge, float r2, float soft) {
  const float t = r2 * static_cast<float>(CpuSplat::k_table);
  const int i = std::min(static_cast<int>(t), CpuSplat::k_table - 1);
  const float f = t - static_cast<float>(i);
  const float s = star[i] + f * (star[i + 1] - star[i]);
  if (soft == 0.0f) return s;
  return s + soft * (bulge[i] + f * (bulge[i + 1] - bulge[i]) - s);
}

}  // namespace

CpuSplat::CpuSplat() : m_star(k_table + 1), m_bulge(k_table + 1) {
  for (int i = 0; i <= k_table; ++i) {
    const float r2 = static_cast<float>(i) / static_cast<float>(k_table);
    m_star[static_cast<std::size_t>(i)] = sprite_glow(r2, 0.0f);
    m_bulge[static_cast<std::size_t>(i)] = sprite_glow(r2, 1.0f);
  }
}

float CpuSplat::glow(float r2, float soft) const {
  return table_glow(m_star.data(), m_bulge.data(), r2, soft);
}

void CpuSplat::draw(const Vec4* pos, const Vec4* vel, const float* values, int n,
                    const SpriteParams& p, float exposure, std::uint8_t* rgba8,
                    const TrailRing* trails, float trail_intensity) {
  check_splat("CpuSplat::draw", n, p, values);
  const int w = p.width, h = p.height;
  m_hdr.resize(4 * static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  m_sprites.resize(static_cast<std::size_t>(n));
  const int bands = (h + k_band_rows - 1) / k_band_rows;

  // The sprites, and each one's band range.
  m_first_band.resize(static_cast<std::size_t>(n));
  m_last_band.resize(static_cast<std::size_t>(n));
  int* first = m_first_band.data();
  int* last = m_last_band.data();
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int k = 0; k < n; ++k) {
    Sprite& s = m_sprites[static_cast<std::size_t>(k)];
    int b0 = 0, b1 = -1;
    if (make_sprite(pos[k], vel[k], p, s, values ? values[k] : 0.0f)) {
      const PixelBox box = sprite_box(s, w, h);
      if (box.x0 <= box.x1 && box.y0 <= box.y1)
        b0 = box.y0 / k_band_rows, b1 = box.y1 / k_band_rows;
    }
    first[k] = b0, last[k] = b1;
  }
  // Sprites by band, in body order within a band (a counting sort).
  m_band_start.assign(static_cast<std::size_t>(bands) + 1, 0);
  for (int k = 0; k < n; ++k)
    for (int b = first[k]; b <= last[k]; ++b) ++m_band_start[static_cast<std::size_t>(b) + 1];
  for (int b = 0; b < bands; ++b)
    m_band_start[static_cast<std::size_t>(b) + 1] += m_band_start[static_cast<std::size_t>(b)];
  m_band_sprites.resize(static_cast<std::size_t>(m_band_start.back()));
  {
    std::vector<int> fill(m_band_start.begin(), m_band_start.end() - 1);
    for (int k = 0; k < n; ++k)
      for (int b = first[k]; b <= last[k]; ++b)
        m_band_sprites[static_cast<std::size_t>(fill[static_cast<std::size_t>(b)]++)] = k;
  }

  // Each band cleared and lit by its sprites: a band's rows belong to one thread.
  float* hdr = m_hdr.data();
  const float *star = m_star.data(), *bulge = m_bulge.data();
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < bands; ++b) {
    const int row0 = b * k_band_rows, row1 = std::min(h, row0 + k_band_rows);
    std::fill(hdr + 4L * row0 * w, hdr + 4L * row1 * w, 0.0f);
    for (int e = m_band_start[static_cast<std::size_t>(b)];
         e < m_band_start[static_cast<std::size_t>(b) + 1]; ++e) {
      const Sprite& s =
          m_sprites[static_cast<std::size_t>(m_band_sprites[static_cast<std::size_t>(e)])];
      const PixelBox box = sprite_box(s, w, h);
      // Locals, not the sprite's fields: the image's floats could alias them for the compiler.
      const float cr = s.r * s.energy, cg = s.g * s.energy, cb = s.b * s.energy;
      const float inv = 1.0f / s.half, sx = s.x, soft = s.soft;
      const bool sphere = s.sphere != 0;
      for (int j = std::max(box.y0, row0); j <= std::min(box.y1, row1 - 1); ++j) {
        // sprite_r2's maths, the row's part once
        const float dy = (static_cast<float>(j) + 0.5f - s.y) * inv;
        const float dy2 = dy * dy;
        if (dy2 >= 1.0f) continue;
        float* px = hdr + 4 * (static_cast<long>(j) * w + box.x0);
        for (int i = box.x0; i <= box.x1; ++i, px += 4) {
          const float dx = (static_cast<float>(i) + 0.5f - sx) * inv;
          const float r2 = dx * dx + dy2;
          if (r2 >= 1.0f) continue;
          const float g =
              sphere ? 0.3f + 0.7f * std::sqrt(1.0f - r2) : table_glow(star, bulge, r2, soft);
          px[0] += cr * g;
          px[1] += cg * g;
          px[2] += cb * g;
        }
      }
    }
  }
  if (trails) trail_splat_cpu(*trails, p, trail_intensity, hdr);
  if (p.bloom > 0.0f) {
    m_bloom.resize(6 * static_cast<std::size_t>(bloom_size(w)) * bloom_size(h));
    bloom_cpu(hdr, w, h, exposure, p.bloom, m_bloom.data());
  }

#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < bands; ++b)
    tonemap_rows(hdr, w, h, b * k_band_rows, std::min(h, (b + 1) * k_band_rows), exposure, rgba8);
}

}  // namespace orrery::gfx
#endif  // HWY_ONCE
