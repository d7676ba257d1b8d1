// The CPU reference splatter: every body's sprite added into a float RGBA image, body by body.
#include "gfx/splat.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gfx/tonemap.h"

namespace orrery::gfx {

void check_splat(const char* who, int n, const SpriteParams& p, const float* values) {
  if (n < 0 || p.width <= 0 || p.height <= 0)
    throw std::invalid_argument(std::string(who) + ": n >= 0 and a non-empty image are needed");
  if (!values && n > 0 && color_needs_values(p.color))
    throw std::invalid_argument(std::string(who) +
                                ": this colour quantity needs the bodies' values");
}

void splat_cpu(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba,
               const float* values) {
  check_splat("splat_cpu", n, p, values);
  std::fill(rgba, rgba + 4 * static_cast<long>(p.width) * p.height, 0.0f);
  for (int k = 0; k < n; ++k) {
    Sprite s;
    if (!make_sprite(pos[k], vel[k], p, s, values ? values[k] : 0.0f)) continue;
    const PixelBox box = sprite_box(s, p.width, p.height);
    for (int j = box.y0; j <= box.y1; ++j)
      for (int i = box.x0; i <= box.x1; ++i) {
        const float glow = sprite_glow(sprite_r2(s, i, j), s.soft, s.sphere);
        if (glow <= 0.0f) continue;
        float* px = rgba + 4 * (static_cast<long>(j) * p.width + i);
        px[0] += s.r * s.energy * glow;
        px[1] += s.g * s.energy * glow;
        px[2] += s.b * s.energy * glow;
        px[3] += 1.0f;
      }
  }
}

void tonemap_cpu(const float* rgba, int width, int height, float exposure, std::uint8_t* rgba8) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("tonemap_cpu: an empty image");
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) {
      const long k = 4 * (static_cast<long>(j) * width + i);
      tonemap_pixel(rgba[k], rgba[k + 1], rgba[k + 2], i, j, width, height, exposure, rgba8 + k);
    }
}

#if !defined(ORRERY_HAVE_CUDA)
void splat_device(const Vec4*, const Vec4*, int, const SpriteParams&, float*, const float*) {
  throw std::runtime_error("splat_device: this build has no CUDA");
}
void tonemap_device(const float*, int, int, float, std::uint8_t*) {
  throw std::runtime_error("tonemap_device: this build has no CUDA");
}
bool splat_device_compiled() { return false; }
#endif

}  // namespace orrery::gfx
