// Trails and picking on the CPU: the reference the CUDA versions are tested against.
#include "gfx/trails_picking.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace orrery::gfx {

void trail_append_cpu(const Vec4* pos, const Vec4* vel, const float* values, int n,
                      const int* sample, const ColorMap& c, Vec4* ring, int m, int slot) {
  Vec4* out = ring + static_cast<long>(slot) * m;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int b = 0; b < m; ++b) {
    const int i = sample ? sample[b] : b;
    if (i >= n) {
      out[b] = {nan, nan, nan, 0.0f};
      continue;
    }
    out[b] = {pos[i].x, pos[i].y, pos[i].z,
              body_value(c, pos[i], vel[i], values ? values[i] : 0.0f)};
  }
}

void trail_splat_cpu(const TrailRing& t, const SpriteParams& p, float intensity, float* rgba) {
  if (p.width <= 0 || p.height <= 0) throw std::invalid_argument("trail_splat_cpu: an empty image");
  const long segments = trail_segments(t);
  for (long k = 0; k < segments; ++k) {
    TrailSegment s;
    for_trail_pixels(t, p, intensity, k, s, [&](long index) {
      rgba[4 * index + 0] += s.r;
      rgba[4 * index + 1] += s.g;
      rgba[4 * index + 2] += s.b;
    });
  }
}

int pick_cpu(const Vec4* pos, int n, const SpriteParams& p, float x, float y, float radius_px) {
  unsigned long long best = ~0ull;
  for (int i = 0; i < n; ++i) {
    const unsigned long long key = pick_key(pos[i], i, p, x, y, radius_px);
    if (key < best) best = key;
  }
  return best == ~0ull ? -1 : static_cast<int>(best & 0xffffffffull);
}

#if !defined(ORRERY_HAVE_CUDA)
void trail_append_device(const Vec4*, const Vec4*, const float*, int, const int*, const ColorMap&,
                         Vec4*, int, int) {
  throw std::runtime_error("trail_append_device: this build has no CUDA");
}
void trail_splat_device(const TrailRing&, const SpriteParams&, float, float*) {
  throw std::runtime_error("trail_splat_device: this build has no CUDA");
}
int pick_device(const Vec4*, int, const SpriteParams&, float, float, float) {
  throw std::runtime_error("pick_device: this build has no CUDA");
}
#endif

}  // namespace orrery::gfx
