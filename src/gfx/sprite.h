// One body's sprite, as shaders/particles.vert and particles.frag draw it, in ORRERY_HD code shared
// by the CPU reference splatter and the CUDA splat kernel (no GL, no CUDA types).
#pragma once

#include <cmath>

#include "gfx/colormap.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// Everything the sprite pass needs, as plain values (the GL path sets its uniforms from it too).
struct SpriteParams {
  float view[16] = {};        // column-major, as GLM stores it
  float proj[16] = {};        // column-major, the panel's off-centre shift included
  float radius = 0.15f;       // sprite radius in world units
  float px_per_unit = 1.0f;   // pixels per world unit at view distance 1
  ColorMap color;             // the quantity, palette and range bodies are coloured by
  float intensity = 0.6f;     // peak brightness of one sprite
  float mass_ref = 1.0f;      // the mean mass: heavier bodies draw larger
  int width = 0, height = 0;  // the image in pixels; row 0 is the bottom one, as in GL
  int spheres = 0;            // 1: a body whose ball (its own radius, the velocity's w) is larger
                              // than its sprite is drawn as that ball (collisions on)
  float sphere_intensity = 0.3f;  // a ball's brightness
  float bloom = 0.0f;             // the glow's strength in the tone map (gfx/bloom.h; 0: none)
};

// Where and how one body lands on the image.
struct Sprite {
  float x = 0, y = 0;  // centre in window coordinates (pixels, origin bottom-left)
  float half = 0;      // half the drawn diameter in pixels
  float energy = 0;    // brightness scale
  float soft = 0;      // 0: a star's tight core and halo; 1: a heavy body's diffuse glow
  float r = 0, g = 0, b = 0;
  int sphere = 0;  // a ball: lit across its disc, not a glow
};

namespace detail {

ORRERY_HD float mix(float a, float b, float t) { return a + (b - a) * t; }
ORRERY_HD float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// Column-major 4x4 matrix times (x, y, z, 1), one row.
ORRERY_HD float row(const float* m, int i, float x, float y, float z, float w) {
  return m[i] * x + m[4 + i] * y + m[8 + i] * z + m[12 + i] * w;
}

}  // namespace detail

// The classic palette: slow bodies deep blue, through sky blue and white, fast ones amber to red
// (t in [0, 1]).
ORRERY_HD void sprite_palette(float t, float& r, float& g, float& b) {
  palette_rgb(static_cast<int>(Palette::classic), t, r, g, b);
}

// The sprite's brightness at squared distance r2 from its centre (1 at the rim): a bright core
// with a wide halo, or for heavy bodies a bulge, or for a ball a disc darkening to its limb; zero
// at and beyond the rim.
ORRERY_HD float sprite_glow(float r2, float soft, int sphere = 0) {
  if (r2 >= 1.0f) return 0.0f;
  if (sphere) return 0.3f + 0.7f * sqrtf(1.0f - r2);
  const float star = expf(-r2 * 14.0f) + 0.22f * expf(-r2 * 3.5f);
  const float bulge = expf(-r2 * 7.0f);
  return detail::mix(star, bulge, soft) * (1.0f - r2);
}

// Where the point (x, y, z) lands in the window (pixels, origin bottom-left) and its view depth;
// false when GL would clip it (outside the view volume).
ORRERY_HD bool project_point(const SpriteParams& p, float x, float y, float z, float& sx, float& sy,
                             float& depth) {
  using detail::row;
  const float vx = row(p.view, 0, x, y, z, 1.0f);
  const float vy = row(p.view, 1, x, y, z, 1.0f);
  const float vz = row(p.view, 2, x, y, z, 1.0f);
  const float vw = row(p.view, 3, x, y, z, 1.0f);
  const float cx = row(p.proj, 0, vx, vy, vz, vw), cy = row(p.proj, 1, vx, vy, vz, vw);
  const float cz = row(p.proj, 2, vx, vy, vz, vw), cw = row(p.proj, 3, vx, vy, vz, vw);
  if (!(cw > 0.0f) || cx < -cw || cx > cw || cy < -cw || cy > cw || cz < -cw || cz > cw)
    return false;
  sx = (cx / cw * 0.5f + 0.5f) * static_cast<float>(p.width);
  sy = (cy / cw * 0.5f + 0.5f) * static_cast<float>(p.height);
  depth = -vz;
  return true;
}

// Projects one body; false when GL would clip it (its centre outside the view volume). `stored`:
// the body's value of a stored quantity (orrery/fields.h), unused for speed and mass.
ORRERY_HD bool make_sprite(const Vec4& pos, const Vec4& vel, const SpriteParams& p, Sprite& s,
                           float stored = 0.0f) {
  float view_depth;
  if (!project_point(p, pos.x, pos.y, pos.z, s.x, s.y, view_depth)) return false;
  const float depth = fmaxf(view_depth, 1e-3f);
  const float ratio = pos.w / fmaxf(p.mass_ref, 1e-30f);
  const float heavy = fminf(fmaxf(cbrtf(fmaxf(ratio, 0.0f)), 1.0f), 16.0f);
  const float h = detail::clamp01((heavy - 1.5f) / 2.5f);
  s.soft = h * h * (3.0f - 2.0f * h);  // smoothstep(1.5, 4.0, heavy)
  // The diameter in pixels: the sprite radius grown with the mass, or (collisions on) the body's
  // ball where that is larger than a light body's sprite - a ball too small to see stays a star,
  // a clump that has grown by merging shows as a ball.
  const float star = 2.0f * p.radius * p.px_per_unit / depth;  // a light body's sprite
  const float sprite = star * heavy;
  const float ball = 2.0f * fmaxf(vel.w, 0.0f) * p.px_per_unit / depth;
  s.sphere = p.spheres && ball > star ? 1 : 0;
  const float size = s.sphere ? ball : sprite;
  const float drawn = fminf(fmaxf(size, 2.0f), s.sphere ? 256.0f : 128.0f);
  s.half = 0.5f * drawn;
  // Sprites smaller than 2 px are drawn at 2 px and dimmed by the lost area: no shimmer far away.
  s.energy = (s.sphere ? p.sphere_intensity : p.intensity * detail::mix(1.0f, 1.5f, s.soft)) *
             fminf(1.0f, size * size / (drawn * drawn));
  float r, g, b;
  body_rgb(p.color, body_value(p.color, pos, vel, stored), r, g, b);
  // Heavy bodies (galaxy cores) glow warm white whatever their value: a bulge, not a star. Not
  // where the quantity's record says the colour is the point (mass, origin).
  const float warm = p.color.glow ? s.soft : 0.0f;
  s.r = detail::mix(r, 1.0f, warm);
  s.g = detail::mix(g, 0.80f, warm);
  s.b = detail::mix(b, 0.52f, warm);
  return true;
}

// The pixels a sprite may touch: [x0, x1] x [y0, y1], clipped to the image (empty when x0 > x1).
struct PixelBox {
  int x0, y0, x1, y1;
};
ORRERY_HD PixelBox sprite_box(const Sprite& s, int width, int height) {
  // Pixel i is lit when its centre i + 0.5 lies strictly inside the sprite's disc.
  PixelBox b;
  b.x0 = static_cast<int>(fmaxf(floorf(s.x - s.half - 0.5f), 0.0f));
  b.x1 = static_cast<int>(fminf(ceilf(s.x + s.half - 0.5f), static_cast<float>(width - 1)));
  b.y0 = static_cast<int>(fmaxf(floorf(s.y - s.half - 0.5f), 0.0f));
  b.y1 = static_cast<int>(fminf(ceilf(s.y + s.half - 0.5f), static_cast<float>(height - 1)));
  return b;
}

// The squared distance (in sprite radii) from the sprite's centre to pixel (i, j)'s centre.
ORRERY_HD float sprite_r2(const Sprite& s, int i, int j) {
  const float inv = 1.0f / s.half;
  const float dx = (static_cast<float>(i) + 0.5f - s.x) * inv;
  const float dy = (static_cast<float>(j) + 0.5f - s.y) * inv;
  return dx * dx + dy * dy;
}

}  // namespace orrery::gfx
