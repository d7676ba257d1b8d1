// Trails and picking on the GPU: a thread per sampled body appends, a thread per segment draws it
// with atomic adds into the HDR image, and picking is one atomicMin over 64-bit keys.
#include <cuda_runtime.h>

#include <stdexcept>

#include "gfx/trails_picking.h"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"

namespace orrery::gfx {
namespace {


__global__ void append_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                              const float* __restrict__ values, int n,
                              const int* __restrict__ sample, ColorMap c, Vec4* __restrict__ out,
                              int m) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= m) return;
  const int i = sample ? sample[b] : b;
  if (i >= n) {
    const float nan = __int_as_float(0x7fc00000);
    out[b] = {nan, nan, nan, 0.0f};
    return;
  }
  const Vec4 p = pos[i];
  out[b] = {p.x, p.y, p.z, body_value(c, p, vel[i], values ? values[i] : 0.0f)};
}

__global__ void trail_kernel(TrailRing t, SpriteParams p, float intensity, long segments,
                             float* __restrict__ rgba) {
  const long k = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= segments) return;
  TrailSegment s;
  for_trail_pixels(t, p, intensity, k, s, [&](long index) {
    atomicAdd(rgba + 4 * index + 0, s.r);
    atomicAdd(rgba + 4 * index + 1, s.g);
    atomicAdd(rgba + 4 * index + 2, s.b);
  });
}

__global__ void pick_kernel(const Vec4* __restrict__ pos, int n, SpriteParams p, float x, float y,
                            float radius_px, unsigned long long* __restrict__ best) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long key = i < n ? pick_key(pos[i], i, p, x, y, radius_px) : ~0ull;
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long o = __shfl_down_sync(0xffffffffu, key, d);
    key = o < key ? o : key;
  }
  if ((threadIdx.x & 31) == 0 && key != ~0ull) atomicMin(best, key);
}

}  // namespace

void trail_append_device(const Vec4* pos, const Vec4* vel, const float* values, int n,
                         const int* sample, const ColorMap& c, Vec4* ring, int m, int slot) {
  if (m <= 0) return;
  append_kernel<<<blocks_for(m), k_threads>>>(pos, vel, values, n, sample, c,
                                              ring + static_cast<long>(slot) * m, m);
  CUDA_CHECK_LAUNCH("append_kernel");
}

void trail_splat_device(const TrailRing& t, const SpriteParams& p, float intensity, float* rgba) {
  if (p.width <= 0 || p.height <= 0)
    throw std::invalid_argument("trail_splat_device: an empty image");
  const long segments = trail_segments(t);
  if (segments == 0) return;
  trail_kernel<<<blocks_for(segments), k_threads>>>(t, p, intensity, segments, rgba);
  CUDA_CHECK_LAUNCH("trail_kernel");
}

int pick_device(const Vec4* pos, int n, const SpriteParams& p, float x, float y, float radius_px) {
  if (n <= 0) return -1;
  GpuBuffer<unsigned long long> best(1);
  unsigned long long host = ~0ull;
  best.upload(&host, 1);
  pick_kernel<<<blocks_for(n), k_threads>>>(pos, n, p, x, y, radius_px, best.data());
  CUDA_CHECK_LAUNCH("pick_kernel");
  best.download(&host, 1);
  return host == ~0ull ? -1 : static_cast<int>(host & 0xffffffffull);
}

}  // namespace orrery::gfx
