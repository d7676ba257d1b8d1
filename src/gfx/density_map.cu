// Density maps on the GPU: the bounding box, the Morton keys and CUB's radix sort, a warp per body
// for its neighbour distance (a radix select over the window's distances) and for its kernel's
// deposit. The distances are rounded as the CPU's are (no fused or approximate operations), so
// that both give the same smoothing lengths bit for bit.
#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <stdexcept>

#include "gfx/density_map.h"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"

namespace orrery::gfx {
namespace {

using namespace map_detail;

constexpr int k_threads = 256;
constexpr unsigned k_full = 0xffffffffu;

// Floats as unsigned integers that order as the floats do (for atomicMin and atomicMax).
__device__ unsigned ordered(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}
__device__ float unordered(unsigned u) {
  return __uint_as_float((u & 0x80000000u) ? u & 0x7fffffffu : ~u);
}

__global__ void bounds_kernel(const Vec4* pos, int n, unsigned* box) {
  float lo[3] = {3.4e38f, 3.4e38f, 3.4e38f}, hi[3] = {-3.4e38f, -3.4e38f, -3.4e38f};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const Vec4 p = pos[i];
    const float v[3] = {p.x, p.y, p.z};
    for (int k = 0; k < 3; ++k) lo[k] = fminf(lo[k], v[k]), hi[k] = fmaxf(hi[k], v[k]);
  }
  for (int k = 0; k < 3; ++k)
    for (int o = 16; o > 0; o >>= 1) {
      lo[k] = fminf(lo[k], __shfl_xor_sync(k_full, lo[k], o));
      hi[k] = fmaxf(hi[k], __shfl_xor_sync(k_full, hi[k], o));
    }
  if ((threadIdx.x & 31) == 0)
    for (int k = 0; k < 3; ++k) {
      atomicMin(box + k, ordered(lo[k]));
      atomicMax(box + 3 + k, ordered(hi[k]));
    }
}

__global__ void keys_kernel(const Vec4* pos, int n, const unsigned* box, int order,
                            std::uint64_t* keys, int* index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float lo[3], span = 0.0f;
  for (int k = 0; k < 3; ++k) {
    lo[k] = unordered(box[k]);
    span = fmaxf(span, __fsub_rn(unordered(box[3 + k]), lo[k]));
  }
  const float inv = span > 0.0f ? __frcp_rn(span) : 1.0f;
  keys[i] = order_key(pos[i], lo, inv, order);
  index[i] = i;
}

// A warp per sorted position: the k-th smallest squared distance among the window's candidates,
// by a radix select over their bits (non-negative floats order as their bits do).
__global__ void select_kernel(const Vec4* pos, const int* sorted, int n, int k, bool first,
                              float* h) {
  const int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (s >= n) return;
  const int self = sorted[s], start = window_start(s, n);
  const int end = min(n, start + 2 * k_map_window + 1);
  const Vec4 a = pos[self];
  constexpr int k_slots = (2 * k_map_window + 1 + 31) / 32;
  unsigned v[k_slots];
  float window_mass = 0.0f;
  for (int j = 0; j < k_slots; ++j) {
    const int c = start + lane + 32 * j;
    v[j] = k_full;
    if (c < end && c != s) {
      const Vec4 b = pos[sorted[c]];
      window_mass += b.w;
      v[j] = __float_as_uint(distance2(a, b));
    }
  }
  unsigned prefix = 0;
  int want = k;
  for (int bit = 31; bit >= 0; --bit) {
    const unsigned high = bit == 31 ? 0u : ~0u << (bit + 1);
    int zeros = 0;
    for (int j = 0; j < k_slots; ++j)
      zeros +=
          __popc(__ballot_sync(k_full, ((v[j] ^ prefix) & high) == 0 && ((v[j] >> bit) & 1u) == 0));
    if (zeros < want) {
      want -= zeros;
      prefix |= 1u << bit;
    }
  }
  for (int o = 16; o > 0; o >>= 1) window_mass += __shfl_xor_sync(k_full, window_mass, o);
  if (lane == 0) {
    const float d = __fsqrt_rn(__uint_as_float(prefix));
    if (point_mass(a.w, window_mass, end - start - 1))
      h[self] = 0.0f;
    else
      h[self] = first ? d : fminf(h[self], d);
  }
}

// A warp per body: the kernel's weights over its box, summed, then its mass spread by them.
__global__ void deposit_kernel(const Vec4* pos, const float* h, int n, SpriteParams p, float* map) {
  const int b = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (b >= n) return;
  const Vec4 body = pos[b];
  float x, y, r;
  if (!footprint(p, body, h[b], x, y, r)) return;
  int x0, y0, x1, y1;
  kernel_box(x, y, r, x0, y0, x1, y1);
  const int bw = x1 - x0 + 1, pixels = bw * (y1 - y0 + 1);
  float sum = 0.0f;
  if (r >= 0.5f)
    for (int q = lane; q < pixels; q += 32) sum += pixel_weight(x, y, r, x0 + q % bw, y0 + q / bw);
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(k_full, sum, o);
  if (!(sum > 0.0f)) {
    const int i = static_cast<int>(floorf(x)), j = static_cast<int>(floorf(y));
    if (lane == 0 && i >= 0 && i < p.width && j >= 0 && j < p.height)
      atomicAdd(map + static_cast<long>(j) * p.width + i, body.w);
    return;
  }
  const float scale = body.w / sum;
  for (int q = lane; q < pixels; q += 32) {
    const int i = x0 + q % bw, j = y0 + q / bw;
    if (i < 0 || i >= p.width || j < 0 || j >= p.height) continue;
    const float wgt = pixel_weight(x, y, r, i, j);
    if (wgt > 0.0f) atomicAdd(map + static_cast<long>(j) * p.width + i, scale * wgt);
  }
}

unsigned blocks_for(long threads) {
  return static_cast<unsigned>((threads + k_threads - 1) / k_threads);
}

}  // namespace

struct DeviceDensityMap::Impl {
  GpuBuffer<unsigned> box;
  GpuBuffer<std::uint64_t> keys_in, keys;
  GpuBuffer<int> index_in, index;
  GpuBuffer<std::uint8_t> sort_temp;
  GpuBuffer<float> h, map;

  void smoothing_lengths(const Vec4* pos, int n, float* out) {
    if (n <= 0) return;
    if (n == 1) {
      CUDA_CHECK_THROW(cudaMemset(out, 0, sizeof(float)));
      return;
    }
    box.enlarge(6);
    const unsigned start[6] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0u, 0u, 0u};
    CUDA_CHECK_THROW(cudaMemcpy(box.data(), start, sizeof start, cudaMemcpyHostToDevice));
    bounds_kernel<<<std::min(blocks_for(n), 1024u), k_threads>>>(pos, n, box.data());
    CUDA_CHECK_LAUNCH("bounds_kernel");
    const auto count = static_cast<std::size_t>(n);
    keys_in.enlarge(count), keys.enlarge(count), index_in.enlarge(count), index.enlarge(count);
    std::size_t temp = 0;
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys_in.data(), keys.data(),
                                                     index_in.data(), index.data(), n, 0, 63));
    sort_temp.enlarge(temp);
    const int k = std::min(k_map_neighbours, n - 1);
    for (int order = 0; order < k_map_orders; ++order) {
      keys_kernel<<<blocks_for(n), k_threads>>>(pos, n, box.data(), order, keys_in.data(),
                                                index_in.data());
      CUDA_CHECK_LAUNCH("keys_kernel");
      std::size_t bytes = sort_temp.size();
      CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(sort_temp.data(), bytes, keys_in.data(),
                                                       keys.data(), index_in.data(), index.data(),
                                                       n, 0, 63));
      select_kernel<<<blocks_for(32L * n), k_threads>>>(pos, index.data(), n, k, order == 0, out);
      CUDA_CHECK_LAUNCH("select_kernel");
    }
  }

  void deposit(const Vec4* pos, const float* hh, int n, const SpriteParams& p, float* out) {
    CUDA_CHECK_THROW(
        cudaMemsetAsync(out, 0, sizeof(float) * static_cast<std::size_t>(p.width) * p.height));
    if (n <= 0) return;
    deposit_kernel<<<blocks_for(32L * n), k_threads>>>(pos, hh, n, p, out);
    CUDA_CHECK_LAUNCH("deposit_kernel");
  }
};

DeviceDensityMap::DeviceDensityMap() : m_impl(std::make_unique<Impl>()) {}
DeviceDensityMap::~DeviceDensityMap() = default;

void DeviceDensityMap::smoothing_lengths(const Vec4* pos, int n, float* h) {
  if (n < 0) throw std::invalid_argument("DeviceDensityMap: n < 0");
  m_impl->smoothing_lengths(pos, n, h);
}

void DeviceDensityMap::map(const Vec4* pos, const float* h, int n, const SpriteParams& p,
                           float* map) {
  if (n < 0 || p.width <= 0 || p.height <= 0)
    throw std::invalid_argument("DeviceDensityMap: n < 0 or an empty picture");
  m_impl->deposit(pos, h, n, p, map);
}

void DeviceDensityMap::make(const Vec4* pos, int n, const SpriteParams& p,
                            std::vector<float>& out) {
  if (n < 0 || p.width <= 0 || p.height <= 0)
    throw std::invalid_argument("DeviceDensityMap: n < 0 or an empty picture");
  const auto pixels = static_cast<std::size_t>(p.width) * p.height;
  m_impl->h.enlarge(std::max(n, 1));
  m_impl->map.enlarge(pixels);
  m_impl->smoothing_lengths(pos, n, m_impl->h.data());
  m_impl->deposit(pos, m_impl->h.data(), n, p, m_impl->map.data());
  out.resize(pixels);
  m_impl->map.download(out.data(), pixels);
}

}  // namespace orrery::gfx
