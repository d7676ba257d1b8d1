// Colour by quantity, in ORRERY_HD code shared by the CPU splatter, the CUDA splat and trails (the
// GL shaders take the same palette tables as uniforms): palettes, the value-to-colour scale and
// the colours of origin labels. No GL and no CUDA types.
#pragma once

#include <cmath>
#include <string_view>

#include "gfx/palettes.h"  // generated (under the build tree)
#include "orrery/fields.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// The palettes: 256 entries each, interpolated linearly between them, made at build time from
// matplotlib's maps (scripts/make_palettes.py writes gfx/palettes.h). classic: the viewer's own,
// slow deep blue through white to fast red; viridis, magma, inferno, plasma and cividis:
// perceptually uniform (van der Walt and Smith; cividis for colour-blind readers); coolwarm:
// diverging (Moreland); twilight: cyclic.
enum class Palette { classic, viridis, magma, inferno, plasma, cividis, coolwarm, twilight };
constexpr int k_palette_count = ORRERY_PALETTE_COUNT;
constexpr int k_palette_entries = ORRERY_PALETTE_ENTRIES;
inline constexpr const char* k_palette_names[k_palette_count] = ORRERY_PALETTE_NAMES;
static_assert(k_palette_count == static_cast<int>(Palette::twilight) + 1,
              "gfx::Palette and scripts/make_palettes.py name the palettes alike");

// Origin labels: eight colours far apart in hue (label k takes colour k mod 8).
#define ORRERY_ORIGIN_DATA                                                                     \
  {                                                                                            \
    0.35f, 0.62f, 1.00f, 1.00f, 0.55f, 0.25f, 0.45f, 0.90f, 0.45f, 0.95f, 0.35f, 0.60f, 0.95f, \
        0.90f, 0.40f, 0.65f, 0.45f, 1.00f, 0.35f, 0.90f, 0.90f, 0.90f, 0.90f, 0.90f            \
  }
constexpr int k_origin_colours = 8;

inline constexpr float k_palette_host[k_palette_count * k_palette_entries * 3] =
    ORRERY_PALETTE_DATA;
inline constexpr float k_origin_host[k_origin_colours * 3] = ORRERY_ORIGIN_DATA;
#if defined(__CUDACC__)
// In global memory, read through L1: a warp's bodies read different entries, which constant
// memory would serialise, and the 24 KB of tables would not stay in its cache.
static __device__ const float k_palette_device[k_palette_count * k_palette_entries * 3] =
    ORRERY_PALETTE_DATA;
static __constant__ float k_origin_device[k_origin_colours * 3] = ORRERY_ORIGIN_DATA;
#endif

ORRERY_HD const float* palette_table() {
#if defined(__CUDA_ARCH__)
  return k_palette_device;
#else
  return k_palette_host;
#endif
}

ORRERY_HD const float* origin_table() {
#if defined(__CUDA_ARCH__)
  return k_origin_device;
#else
  return k_origin_host;
#endif
}

// What colours a body: where its value is read (an orrery::ValueSource), whether the value is a
// label (its own colours) and whether heavy bodies glow - all from the quantity's record, so the
// sprite, the splat and the shaders never see a quantity's number - and the palette and the range
// [lo, hi] shown from one end of it to the other, linear or logarithmic (then lo > 0).
struct ColorMap {
  int source = static_cast<int>(ValueSource::velocity);
  int label = 0;
  int glow = 1;
  int palette = 0;
  int log_scale = 0;
  float lo = 0.0f, hi = 2.0f;
};
// The map a quantity's record asks for (the palette, scale and range left to the caller).
inline ColorMap color_map_of(const QuantityInfo& q) {
  ColorMap c;
  c.source = static_cast<int>(q.source);
  c.label = q.label ? 1 : 0;
  c.glow = q.glow ? 1 : 0;
  return c;
}
// A palette's index by name (gfx::k_palette_names); 0 for a name that is none.
inline int palette_index(const char* name) {
  for (int k = 0; k < k_palette_count; ++k)
    if (std::string_view(name) == k_palette_names[k]) return k;
  return 0;
}

// Whether the map reads stored per-body values (every quantity but speed and mass).
inline bool color_needs_values(const ColorMap& c) {
  return c.source == static_cast<int>(ValueSource::stored);
}

// Where value v falls on the palette: 0 at lo, 1 at hi, clamped.
ORRERY_HD float color_coordinate(const ColorMap& c, float v) {
  float t;
  if (c.log_scale) {
    const float lo = logf(fmaxf(c.lo, 1e-30f)), hi = logf(fmaxf(c.hi, 1e-30f));
    t = (logf(fmaxf(v, 1e-30f)) - lo) / fmaxf(hi - lo, 1e-30f);
  } else {
    t = (v - c.lo) / fmaxf(c.hi - c.lo, 1e-30f);
  }
  return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : (t == t ? t : 0.0f));
}

// The palette's colour at t in [0, 1].
ORRERY_HD void palette_rgb(int palette, float t, float& r, float& g, float& b) {
  const float* table = palette_table() + palette * k_palette_entries * 3;
  t = (t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t)) * static_cast<float>(k_palette_entries - 1);
  int k = static_cast<int>(t);
  k = k > k_palette_entries - 2 ? k_palette_entries - 2 : k;
  const float f = t - static_cast<float>(k);
  const float* a = table + 3 * k;
  r = a[0] + (a[3] - a[0]) * f;
  g = a[1] + (a[4] - a[1]) * f;
  b = a[2] + (a[5] - a[2]) * f;
}

// The value the map reads for a body: the speed from its velocity, the mass from its position's
// w, any other quantity from the stored per-body value.
ORRERY_HD float body_value(const ColorMap& c, const Vec4& pos, const Vec4& vel, float stored) {
  if (c.source == static_cast<int>(ValueSource::velocity))
    return sqrtf(vel.x * vel.x + vel.y * vel.y + vel.z * vel.z);
  if (c.source == static_cast<int>(ValueSource::position_w)) return pos.w;
  return stored;
}

// A body's colour under the map (origin: the label's colour, the palette unused).
ORRERY_HD void body_rgb(const ColorMap& c, float value, float& r, float& g, float& b) {
  if (c.label) {
    int k = static_cast<int>(value);
    k = ((k % k_origin_colours) + k_origin_colours) % k_origin_colours;
    const float* o = origin_table() + 3 * k;
    r = o[0], g = o[1], b = o[2];
    return;
  }
  palette_rgb(c.palette, color_coordinate(c, value), r, g, b);
}

}  // namespace orrery::gfx
