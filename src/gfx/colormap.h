// Colour by quantity, in ORRERY_HD code shared by the CPU splatter, the CUDA splat and trails (the
// GL shaders take the same palette tables as uniforms): palettes, the value-to-colour scale and
// the colours of origin labels. No GL and no CUDA types.
#pragma once

#include <cmath>
#include <string_view>

#include "orrery/fields.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// The palettes, each sampled at 17 evenly spaced points and interpolated linearly between them.
// classic: the viewer's own, slow deep blue through white to fast red (its five colours at 0,
// 1/4, ... 1). viridis and magma: matplotlib's perceptually uniform maps (van der Walt and Smith,
// CC0), every 16th of their published 256 entries (255 for the last).
enum class Palette { classic, viridis, magma };
constexpr int k_palette_count = 3;
constexpr int k_palette_entries = 17;
inline constexpr const char* k_palette_names[k_palette_count] = {"classic", "viridis", "magma"};

#define ORRERY_PALETTE_DATA                                                                       \
  {                                                                                               \
    0.1600f, 0.2400f, 0.9500f, 0.1950f, 0.3450f, 0.9625f, 0.2300f, 0.4500f, 0.9750f, 0.2650f,     \
        0.5550f, 0.9875f, 0.3000f, 0.6600f, 1.0000f, 0.4625f, 0.7250f, 1.0000f, 0.6250f, 0.7900f, \
        1.0000f, 0.7875f, 0.8550f, 1.0000f, 0.9500f, 0.9200f, 1.0000f, 0.9625f, 0.8550f, 0.8200f, \
        0.9750f, 0.7900f, 0.6400f, 0.9875f, 0.7250f, 0.4600f, 1.0000f, 0.6600f, 0.2800f, 1.0000f, \
        0.5700f, 0.2450f, 1.0000f, 0.4800f, 0.2100f, 1.0000f, 0.3900f, 0.1750f, 1.0000f, 0.3000f, \
        0.1400f, 0.267004f, 0.004874f, 0.329415f, 0.282327f, 0.094955f, 0.417331f, 0.278826f,     \
        0.175490f, 0.483397f, 0.258965f, 0.251537f, 0.524736f, 0.229739f, 0.322361f, 0.545706f,   \
        0.199430f, 0.387607f, 0.554642f, 0.172719f, 0.448791f, 0.557885f, 0.149039f, 0.508051f,   \
        0.557250f, 0.127568f, 0.566949f, 0.550556f, 0.120081f, 0.622161f, 0.534946f, 0.153894f,   \
        0.680203f, 0.504172f, 0.239374f, 0.735588f, 0.455688f, 0.360741f, 0.785964f, 0.387814f,   \
        0.506271f, 0.828786f, 0.300362f, 0.668054f, 0.861999f, 0.196293f, 0.835270f, 0.886029f,   \
        0.102646f, 0.993248f, 0.906157f, 0.143936f, 0.001462f, 0.000466f, 0.013866f, 0.039608f,   \
        0.031090f, 0.133515f, 0.113094f, 0.065492f, 0.276784f, 0.211718f, 0.061992f, 0.418647f,   \
        0.316654f, 0.071690f, 0.485380f, 0.414709f, 0.110431f, 0.504662f, 0.512831f, 0.148179f,   \
        0.507648f, 0.613617f, 0.181811f, 0.498536f, 0.716387f, 0.214982f, 0.475290f, 0.810855f,   \
        0.252861f, 0.439305f, 0.899552f, 0.314616f, 0.391037f, 0.958464f, 0.411324f, 0.360014f,   \
        0.985693f, 0.528148f, 0.379371f, 0.995810f, 0.646344f, 0.441361f, 0.997019f, 0.762398f,   \
        0.528821f, 0.992831f, 0.877168f, 0.633109f, 0.987053f, 0.991438f, 0.749504f               \
  }

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
static __constant__ float k_palette_device[k_palette_count * k_palette_entries * 3] =
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
