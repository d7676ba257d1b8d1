// Density maps on the CPU: the Morton orders, the neighbour distances and the kernel deposit, and
// the map's picture.
#include "gfx/density_map.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "gfx/colormap.h"

namespace orrery::gfx {
namespace {

using namespace map_detail;

struct Box {
  float lo[3] = {0, 0, 0};
  float inv_span = 1.0f;
};

Box bounding_box(const Vec4* pos, int n) {
  float lo[3] = {pos[0].x, pos[0].y, pos[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
  for (int i = 1; i < n; ++i) {
    const float v[3] = {pos[i].x, pos[i].y, pos[i].z};
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], v[k]), hi[k] = std::max(hi[k], v[k]);
  }
  Box b;
  float span = 0.0f;
  for (int k = 0; k < 3; ++k) b.lo[k] = lo[k], span = std::max(span, hi[k] - lo[k]);
  b.inv_span = span > 0.0f ? 1.0f / span : 1.0f;
  return b;
}

}  // namespace

void smoothing_lengths_cpu(const Vec4* pos, int n, float* h) {
  if (n < 0) throw std::invalid_argument("smoothing_lengths_cpu: n < 0");
  if (n == 0) return;
  std::fill(h, h + n, std::numeric_limits<float>::infinity());
  if (n == 1) {
    h[0] = 0.0f;
    return;
  }
  const Box box = bounding_box(pos, n);
  const int k = std::min(k_map_neighbours, n - 1);
  std::vector<std::pair<std::uint64_t, int>> order(static_cast<std::size_t>(n));
  std::vector<float> d2;
  for (int o = 0; o < k_map_orders; ++o) {
    for (int i = 0; i < n; ++i) order[i] = {order_key(pos[i], box.lo, box.inv_span, o), i};
    std::sort(order.begin(), order.end());
#pragma omp parallel for schedule(static) private(d2) if (n > 4096)
    for (int s = 0; s < n; ++s) {
      const int self = order[s].second, start = window_start(s, n);
      const int end = std::min(n, start + 2 * k_map_window + 1);
      d2.clear();
      float window_mass = 0.0f;
      for (int c = start; c < end; ++c) {
        if (c == s) continue;
        const Vec4& b = pos[order[c].second];
        d2.push_back(distance2(pos[self], b));
        window_mass += b.w;
      }
      std::nth_element(d2.begin(), d2.begin() + (k - 1), d2.end());
      const bool point = point_mass(pos[self].w, window_mass, static_cast<int>(d2.size()));
      h[self] = point ? 0.0f : std::min(h[self], std::sqrt(d2[static_cast<std::size_t>(k - 1)]));
    }
  }
}

void density_map_cpu(const Vec4* pos, const float* h, int n, const SpriteParams& p, float* map) {
  if (n < 0 || p.width <= 0 || p.height <= 0)
    throw std::invalid_argument("density_map_cpu: n < 0 or an empty picture");
  const int w = p.width, ht = p.height;
  std::fill(map, map + static_cast<std::size_t>(w) * ht, 0.0f);
  // Each body's place, kernel and scale (its mass over its weights' sum; 0: not drawn, < 0: its
  // own pixel), then bands of rows, a thread's each, lit by every body that reaches them.
  struct Drawn {
    float x = 0, y = 0, r = 0, scale = 0;
  };
  std::vector<Drawn> d(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(dynamic, 256) if (n > 1024)
  for (int b = 0; b < n; ++b) {
    Drawn& e = d[static_cast<std::size_t>(b)];
    if (!footprint(p, pos[b], h[b], e.x, e.y, e.r)) continue;
    int x0, y0, x1, y1;
    kernel_box(e.x, e.y, e.r, x0, y0, x1, y1);
    double sum = 0.0;
    if (e.r >= 0.5f)
      for (int j = y0; j <= y1; ++j)
        for (int i = x0; i <= x1; ++i) sum += pixel_weight(e.x, e.y, e.r, i, j);
    e.scale = sum > 0.0 ? static_cast<float>(pos[b].w / sum) : -1.0f;
  }
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const int row0 = static_cast<int>(static_cast<long long>(ht) * t / threads);
    const int row1 = static_cast<int>(static_cast<long long>(ht) * (t + 1) / threads) - 1;
    for (int b = 0; b < n; ++b) {
      const Drawn& e = d[static_cast<std::size_t>(b)];
      if (e.scale == 0.0f) continue;
      if (e.scale < 0.0f) {  // a kernel smaller than a pixel: the body's own pixel
        const int i = static_cast<int>(std::floor(e.x)), j = static_cast<int>(std::floor(e.y));
        if (i >= 0 && i < w && j >= row0 && j <= row1)
          map[static_cast<std::size_t>(j) * w + i] += pos[b].w;
        continue;
      }
      int x0, y0, x1, y1;
      kernel_box(e.x, e.y, e.r, x0, y0, x1, y1);
      for (int j = std::max(y0, row0); j <= std::min(y1, row1); ++j)
        for (int i = std::max(x0, 0); i <= std::min(x1, w - 1); ++i)
          map[static_cast<std::size_t>(j) * w + i] += e.scale * pixel_weight(e.x, e.y, e.r, i, j);
    }
  }
}

bool map_range(const float* map, std::size_t count, float& lo, float& hi) {
  // An even sample of at most 2^18 pixels gives the percentiles of a picture as well as all of
  // them do (a 4K picture's eight million took longer than the map).
  const std::size_t stride = std::max<std::size_t>(1, count >> 18);
  std::vector<float> lit;
  for (std::size_t i = 0; i < count; i += stride)
    if (map[i] > 0.0f) lit.push_back(map[i]);
  if (lit.empty()) return false;
  const auto at = [&](double f) {
    const auto k = static_cast<std::size_t>(f * static_cast<double>(lit.size() - 1));
    std::nth_element(lit.begin(), lit.begin() + static_cast<std::ptrdiff_t>(k), lit.end());
    return lit[k];
  };
  hi = at(0.999);
  // At most four decades: below that lie the kernels' faint wings in the sparse outskirts, which
  // a wider range paints over the whole picture.
  lo = std::max(at(0.05), hi * 1e-4f);
  if (!(hi > lo)) hi = lo * 10.0f;
  return true;
}

void map_rgba(const float* map, int width, int height, int palette, float lo, float hi,
              std::uint8_t* rgba8) {
  const float l0 = std::log10(std::max(lo, 1e-38f)), l1 = std::log10(std::max(hi, 1e-37f));
  const float inv = l1 > l0 ? 1.0f / (l1 - l0) : 1.0f;
  const auto count = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(width) *
                                                 static_cast<std::size_t>(height));
#pragma omp parallel for schedule(static) if (count > 65536)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    const float t = map[i] > 0.0f ? (std::log10(map[i]) - l0) * inv : 0.0f;
    float r, g, b;
    palette_rgb(palette, std::clamp(t, 0.0f, 1.0f), r, g, b);
    rgba8[4 * i + 0] = static_cast<std::uint8_t>(std::lround(255.0f * r));
    rgba8[4 * i + 1] = static_cast<std::uint8_t>(std::lround(255.0f * g));
    rgba8[4 * i + 2] = static_cast<std::uint8_t>(std::lround(255.0f * b));
    rgba8[4 * i + 3] = 255;
  }
}

}  // namespace orrery::gfx

#if !defined(ORRERY_HAVE_CUDA)
namespace orrery::gfx {

// Without CUDA the device map cannot be made; its calls say so.
struct DeviceDensityMap::Impl {};
DeviceDensityMap::DeviceDensityMap() = default;
DeviceDensityMap::~DeviceDensityMap() = default;
namespace {
[[noreturn]] void no_cuda() {
  throw std::runtime_error("density maps on the GPU: this build has no CUDA");
}
}  // namespace
void DeviceDensityMap::smoothing_lengths(const Vec4*, int, float*) { no_cuda(); }
void DeviceDensityMap::map(const Vec4*, const float*, int, const SpriteParams&, float*) {
  no_cuda();
}
void DeviceDensityMap::make(const Vec4*, int, const SpriteParams&, std::vector<float>&) {
  no_cuda();
}

}  // namespace orrery::gfx
#endif
