// Smooth projected density maps (pynbody's image, yt's particle projections): each body's mass
// spread over the picture with a kernel whose radius is the distance to its k-th nearest
// neighbour (SPH's smoothing length), as the camera sees it. A CPU version and a CUDA one that
// give the same map; no GL here.
//
// The neighbour distance is found among a window of bodies about each body in three Morton orders
// of the bodies (two on grids shifted by odd fractions of the box): the k-th smallest distance
// among each order's candidates, the smallest of the three. Candidates are a subset of all
// bodies, so it is never below the true k-th distance (a body far heavier than its neighbours is
// a point instead: k_point_mass_ratio); on a Gaussian blob and a uniform cube its
// median is 7% and 4.5% above (tests/test_density_map.cpp): an approximate k-nearest-neighbour
// search, as fast as three sorts, that smooths a little more than the exact one.
//
// The kernel is SPH's poly6 in 2D, of radius h projected to pixels at the body's depth,
// normalised over the pixels it covers, so that a body's whole mass lands on the picture (a
// body whose kernel covers no pixel centre puts it in its own pixel). The map holds mass per
// pixel; surface density is that over the area a pixel spans at the point looked at.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gfx/sprite.h"
#include "orrery/morton.h"
#include "orrery/no_copy.h"
#include "orrery/physics.h"

namespace orrery::gfx {

constexpr int k_map_neighbours = 32;
// Candidates: this many bodies each side in each Morton order.
constexpr int k_map_window = 96;
// A kernel wider than this (pixels, radius) is drawn at this radius: a zoom deep into a sparse
// region would otherwise cost each body a large part of the picture.
constexpr float k_map_max_radius_px = 128.0f;

// Each body's smoothing length h[i] (host pointers): the estimate above of the distance to its
// k_map_neighbours-th nearest other body (all the others where there are fewer; 0 for one body).
void smoothing_lengths_cpu(const Vec4* pos, int n, float* h);
// The map (p.width x p.height floats of mass, row 0 the bottom one) of the bodies as the camera
// of p sees them; bodies behind the camera or off the picture add nothing.
void density_map_cpu(const Vec4* pos, const float* h, int n, const SpriteParams& p, float* map);

// The same on the GPU (device pointers, the default stream), with its scratch kept and grown.
// Throws std::runtime_error where the build has no CUDA or a CUDA call fails.
class DeviceDensityMap : NoCopy {
 public:
  DeviceDensityMap();
  ~DeviceDensityMap();
  void smoothing_lengths(const Vec4* pos, int n, float* h);
  void map(const Vec4* pos, const float* h, int n, const SpriteParams& p, float* map);
  // Both, into the host's `map` (resized): the viewer's and Python's call; h stays on the device.
  void make(const Vec4* pos, int n, const SpriteParams& p, std::vector<float>& map);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// The picture of a map: log10 of each pixel's value between lo and hi (values at or below 0 are
// the palette's bottom) through the palette (a Palette index), as 8-bit RGBA, row 0 the bottom.
void map_rgba(const float* map, int width, int height, int palette, float lo, float hi,
              std::uint8_t* rgba8);
// The range of a map's lit pixels a picture shows: up to the 99.9th percentile of the pixels
// above zero, down to their 5th percentile but at most four decades (false where none is lit).
bool map_range(const float* map, std::size_t count, float& lo, float& hi);

// The pieces both versions share.
namespace map_detail {

// The kernel's shape at q = r / radius, from q^2: (1 - q^2)^3, SPH's "poly6" (Mueller et al.
// 2003): as smooth as the cubic spline, with no square root a pixel (not normalised: the deposit
// normalises).
ORRERY_HD float kernel(float q2) {
  if (q2 >= 1.0f) return 0.0f;
  const float u = 1.0f - q2;
  return u * u * u;
}

// Where a body lands and its kernel's radius in pixels; false when it is clipped (behind the
// camera or outside the view volume; a body just off the picture with a wide kernel is drawn).
ORRERY_HD bool footprint(const SpriteParams& p, const Vec4& b, float h, float& x, float& y,
                         float& radius) {
  float depth;
  if (!project_point(p, b.x, b.y, b.z, x, y, depth)) return false;
  radius = fminf(h * p.px_per_unit / fmaxf(depth, 1e-6f), k_map_max_radius_px);
  return true;
}

// The pixels [x0, x1] x [y0, y1] whose centres may lie inside the kernel (not clipped to the
// picture: the normalisation counts the pixels off it too).
ORRERY_HD void kernel_box(float x, float y, float radius, int& x0, int& y0, int& x1, int& y1) {
  x0 = static_cast<int>(floorf(x - radius - 0.5f));
  x1 = static_cast<int>(ceilf(x + radius - 0.5f));
  y0 = static_cast<int>(floorf(y - radius - 0.5f));
  y1 = static_cast<int>(ceilf(y + radius - 0.5f));
}

ORRERY_HD float pixel_weight(float x, float y, float radius, int i, int j) {
  const float dx = (static_cast<float>(i) + 0.5f - x) / radius;
  const float dy = (static_cast<float>(j) + 0.5f - y) / radius;
  return kernel(dx * dx + dy * dy);
}

// The 63-bit Morton key of a point at (u, v, w) in [0, 1) of the box.
ORRERY_HD std::uint64_t morton(float u, float v, float w) {
  const float top = 2097151.0f;  // 2^21 - 1
  const auto cell = [&](float t) {
    return static_cast<std::uint64_t>(fminf(fmaxf(t * 2097152.0f, 0.0f), top));
  };
  return morton_spread21(cell(u)) | morton_spread21(cell(v)) << 1 | morton_spread21(cell(w)) << 2;
}
// Order o > 0 is on a grid shifted by an odd fraction of the box (which is doubled to hold it).
constexpr int k_map_orders = 3;
ORRERY_HD float shift(int order, int axis) {
  const float a[4][3] = {{0.3711f, 0.5873f, 0.2131f},
                         {0.6127f, 0.2419f, 0.7853f},
                         {0.1453f, 0.8317f, 0.4639f},
                         {0.8861f, 0.0937f, 0.6271f}};
  return a[(order - 1) % 4][axis];
}

// A body this many times heavier than the mean of its window's bodies (a galaxy's central mass, a
// black hole) is a point on the map (h = 0): its neighbours' distance says nothing of its own
// size, and smoothing its mass over it painted a disc brighter than the galaxy around it.
constexpr float k_point_mass_ratio = 30.0f;
ORRERY_HD bool point_mass(float mass, float window_mass, int window_count) {
  return window_count > 0 &&
         mass * static_cast<float>(window_count) > k_point_mass_ratio * window_mass;
}

// a + b, a - b and a * b each rounded once, as the CPU rounds them: the device would fuse a
// multiply with an add, and the CPU and the GPU then find other smoothing lengths.
ORRERY_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
ORRERY_HD float sub_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
ORRERY_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

// A position's key in Morton order `order` of the box from lo with 1 / its side inv_span.
ORRERY_HD std::uint64_t order_key(const Vec4& p, const float* lo, float inv_span, int order) {
  float u = mul_rn(sub_rn(p.x, lo[0]), inv_span), v = mul_rn(sub_rn(p.y, lo[1]), inv_span),
        w = mul_rn(sub_rn(p.z, lo[2]), inv_span);
  if (order > 0) {
    u = mul_rn(0.5f, add_rn(u, shift(order, 0)));
    v = mul_rn(0.5f, add_rn(v, shift(order, 1)));
    w = mul_rn(0.5f, add_rn(w, shift(order, 2)));
  }
  return morton(u, v, w);
}

// The squared distance between two bodies.
ORRERY_HD float distance2(const Vec4& a, const Vec4& b) {
  const float dx = sub_rn(b.x, a.x), dy = sub_rn(b.y, a.y), dz = sub_rn(b.z, a.z);
  return add_rn(add_rn(mul_rn(dx, dx), mul_rn(dy, dy)), mul_rn(dz, dz));
}

// The first candidate of the window about sorted position s (2W + 1 bodies, self included).
ORRERY_HD int window_start(int s, int n) {
  const int span = 2 * k_map_window + 1;
  if (n <= span) return 0;
  const int start = s - k_map_window;
  return start < 0 ? 0 : (start + span > n ? n - span : start);
}

}  // namespace map_detail
}  // namespace orrery::gfx
