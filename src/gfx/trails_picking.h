// What the viewer draws or finds on the screen besides the sprites: trails (a ring of the last K
// positions of M bodies, appended once a frame and splatted as fading lines) and picking (the
// body nearest a pixel). A CPU reference and CUDA versions of the same ORRERY_HD maths; no GL.
#pragma once

#include <cstring>

#include "gfx/sprite.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// The largest trail length (positions kept per body).
constexpr int k_max_trail = 64;

// A trail ring: slot s holds, for each of the m sampled bodies, its position and in w the value
// the colour map read for it then (ring[s * m + b]). `head` is the next slot to write; the newest
// is head - 1; `filled` slots hold positions (at most k). A body beyond the bodies there are
// (merges) holds NaN and draws nothing.
struct TrailRing {
  Vec4* ring = nullptr;
  int m = 0, k = 0, head = 0, filled = 0;
};

// Writes slot `slot` from the newest state: body sample[b] (b when sample is null) of n.
void trail_append_cpu(const Vec4* pos, const Vec4* vel, const float* values, int n,
                      const int* sample, const ColorMap& c, Vec4* ring, int m, int slot);
void trail_append_device(const Vec4* pos, const Vec4* vel, const float* values, int n,
                         const int* sample, const ColorMap& c, Vec4* ring, int m, int slot);

// Adds every trail's segments into the HDR image rgba (as splat_cpu writes it): a line of one
// pixel per step along its longer axis, from the newer position to the older, its colour the map's
// at the newer one, fading with age from `intensity` to 0. Segments longer than k_max_segment_px
// (a body wrapped by the walls, a new state) are not drawn. Adds nothing to alpha.
constexpr int k_max_segment_px = 512;
void trail_splat_cpu(const TrailRing& t, const SpriteParams& p, float intensity, float* rgba);
void trail_splat_device(const TrailRing& t, const SpriteParams& p, float intensity, float* rgba);

// One trail segment: the ends in window pixels, its colour and brightness; false when it draws
// nothing (an end clipped or not finite, a segment too long, or no light).
struct TrailSegment {
  float x0, y0, x1, y1;
  float r, g, b;
  int steps;  // pixels drawn: one per pixel along the longer axis, the older end left out
};
ORRERY_HD bool trail_segment(const TrailRing& t, const SpriteParams& p, float intensity, int body,
                             int age, TrailSegment& s) {
  const int newer = ((t.head - 1 - age) % t.k + t.k) % t.k;
  const int older = (newer - 1 + t.k) % t.k;
  const Vec4 a = t.ring[static_cast<long>(newer) * t.m + body];
  const Vec4 b = t.ring[static_cast<long>(older) * t.m + body];
  float da, db;
  if (!project_point(p, a.x, a.y, a.z, s.x0, s.y0, da) ||
      !project_point(p, b.x, b.y, b.z, s.x1, s.y1, db))
    return false;
  const float len = fmaxf(fabsf(s.x1 - s.x0), fabsf(s.y1 - s.y0));
  if (!(len <= static_cast<float>(k_max_segment_px))) return false;
  s.steps = len > 1.0f ? static_cast<int>(ceilf(len)) : 1;  // the older end is the next's first
  // Fading from full at the newest segment to nothing past the oldest one kept.
  const float fade = 1.0f - static_cast<float>(age) / static_cast<float>(t.k - 1);
  const float e = intensity * fade;
  body_rgb(p.color, a.w, s.r, s.g, s.b);
  s.r *= e, s.g *= e, s.b *= e;
  return e > 0.0f;
}

// Segment k of a ring (the k % m-th body at age k / m): add(index) for each of its pixels inside
// the image, with the segment's colour in s.
template <class Add>
ORRERY_HD void for_trail_pixels(const TrailRing& t, const SpriteParams& p, float intensity, long k,
                                TrailSegment& s, Add add) {
  if (!trail_segment(t, p, intensity, static_cast<int>(k % t.m), static_cast<int>(k / t.m), s))
    return;
  for (int i = 0; i < s.steps; ++i) {
    const float f = static_cast<float>(i) / static_cast<float>(s.steps);
    const int x = static_cast<int>(floorf(s.x0 + (s.x1 - s.x0) * f));
    const int y = static_cast<int>(floorf(s.y0 + (s.y1 - s.y0) * f));
    if (x < 0 || y < 0 || x >= p.width || y >= p.height) continue;
    add(static_cast<long>(y) * p.width + x);
  }
}

// The segments of a ring: (filled - 1) ages of m bodies.
inline long trail_segments(const TrailRing& t) {
  return t.filled > 1 ? static_cast<long>(t.filled - 1) * t.m : 0;
}

// Picking: the body whose projected centre is nearest window pixel position (x, y) (origin
// bottom-left), within radius_px; ties go to the nearer body to the eye, then the lower index.
// -1 when none is that close. The device version reads back 8 bytes.
int pick_cpu(const Vec4* pos, int n, const SpriteParams& p, float x, float y, float radius_px);
int pick_device(const Vec4* pos, int n, const SpriteParams& p, float x, float y, float radius_px);

// The 64-bit key picking minimises: the squared pixel distance's bits, then the depth's top bits,
// then the index. ~0 for a body that is not a candidate.
ORRERY_HD unsigned long long pick_key(const Vec4& pos, int index, const SpriteParams& p, float x,
                                      float y, float radius_px) {
  float sx, sy, depth;
  if (!project_point(p, pos.x, pos.y, pos.z, sx, sy, depth)) return ~0ull;
  const float dx = sx - x, dy = sy - y, d2 = dx * dx + dy * dy;
  if (!(d2 <= radius_px * radius_px)) return ~0ull;
  // Distances to 1/16 pixel squared, depths to their float's top 12 bits: both non-negative, so
  // their bits order as their values.
  const unsigned q = static_cast<unsigned>(fminf(d2 * 16.0f, 1048575.0f));  // 20 bits
  float dd = fmaxf(depth, 0.0f);
  unsigned depth_bits;
  memcpy(&depth_bits, &dd, sizeof depth_bits);
  return (static_cast<unsigned long long>(q) << 44) |
         (static_cast<unsigned long long>(depth_bits >> 20) << 32) | static_cast<unsigned>(index);
}

}  // namespace orrery::gfx
