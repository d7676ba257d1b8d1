// The CUDA splat kernel: one warp per body, its lanes walking the sprite's pixels and adding them
// into the image with vector atomics (the same sprite maths as the CPU reference and the shaders).
#include <cuda_runtime.h>

#include <stdexcept>

#include "gfx/splat.h"
#include "sim/cuda_check.cuh"

namespace orrery::gfx {
namespace {

constexpr int k_warps_per_block = 8;

__device__ __forceinline__ void add_pixel(float* rgba, long index, float r, float g, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float4*>(rgba) + index, make_float4(r, g, b, 1.0f));
#else
  float* px = rgba + 4 * index;
  atomicAdd(px + 0, r);
  atomicAdd(px + 1, g);
  atomicAdd(px + 2, b);
  atomicAdd(px + 3, 1.0f);
#endif
}

__global__ void splat_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel, int n,
                             SpriteParams p, float* __restrict__ rgba) {
  const int lane = threadIdx.x % 32;
  const long body = static_cast<long>(blockIdx.x) * k_warps_per_block + threadIdx.x / 32;
  if (body >= n) return;  // whole warps only: there is no barrier in this kernel
  Sprite s;
  if (!make_sprite(pos[body], vel[body], p, s)) return;
  const PixelBox box = sprite_box(s, p.width, p.height);
  const int w = box.x1 - box.x0 + 1, h = box.y1 - box.y0 + 1;
  if (w <= 0 || h <= 0) return;
  for (int k = lane; k < w * h; k += 32) {
    const int i = box.x0 + k % w, j = box.y0 + k / w;
    const float glow = sprite_glow(sprite_r2(s, i, j), s.soft);
    if (glow <= 0.0f) continue;
    const float e = s.energy * glow;
    add_pixel(rgba, static_cast<long>(j) * p.width + i, s.r * e, s.g * e, s.b * e);
  }
}

}  // namespace

void splat_device(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba) {
  if (n < 0 || p.width <= 0 || p.height <= 0)
    throw std::invalid_argument("splat_device: n >= 0 and a non-empty image are needed");
  const std::size_t bytes = 4 * sizeof(float) * static_cast<std::size_t>(p.width) * p.height;
  CUDA_CHECK_THROW(cudaMemsetAsync(rgba, 0, bytes));
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + k_warps_per_block - 1) / k_warps_per_block);
  splat_kernel<<<blocks, 32 * k_warps_per_block>>>(pos, vel, n, p, rgba);
  CUDA_CHECK_LAUNCH("splat_kernel");
}

bool splat_device_compiled() { return true; }

}  // namespace orrery::gfx
