// The CUDA splat kernel: blocks of bodies whose sprites' pixels are shared out among the threads
// and added into the image with vector atomics (the same sprite maths as the CPU reference and
// shaders).
#include <cuda_runtime.h>

#include <stdexcept>

#include "gfx/splat.h"
#include "gfx/tonemap.h"
#include "orrery/cuda_check.cuh"

namespace orrery::gfx {
namespace {

// A block splats k_bodies bodies with k_threads threads: one warp projects them and lays their
// pixel boxes end to end (a prefix sum), then every thread takes pixels of that joint list. Large
// sprites (a galaxy's core, up to 128 px across) are spread over the whole block, small ones share.
constexpr int k_bodies = 32;

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

__global__ void __launch_bounds__(k_threads)
    splat_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                 const float* __restrict__ values, int n, SpriteParams p,
                 float* __restrict__ rgba) {
  __shared__ Sprite s_sprite[k_bodies];
  __shared__ PixelBox s_box[k_bodies];
  __shared__ int s_end[k_bodies];  // inclusive prefix sum of the box areas
  if (threadIdx.x < k_bodies) {
    const long body = static_cast<long>(blockIdx.x) * k_bodies + threadIdx.x;
    Sprite s;
    PixelBox box{0, 0, -1, -1};
    if (body < n && make_sprite(pos[body], vel[body], p, s, values ? values[body] : 0.0f))
      box = sprite_box(s, p.width, p.height);
    const int w = box.x1 - box.x0 + 1, h = box.y1 - box.y0 + 1;
    int end = w > 0 && h > 0 ? w * h : 0;
    for (int d = 1; d < k_bodies; d *= 2) {  // warp-wide inclusive scan
      const int v = __shfl_up_sync(0xffffffffu, end, d);
      if (static_cast<int>(threadIdx.x) >= d) end += v;
    }
    s_sprite[threadIdx.x] = s;
    s_box[threadIdx.x] = box;
    s_end[threadIdx.x] = end;
  }
  __syncthreads();
  const int total = s_end[k_bodies - 1];
  for (int idx = threadIdx.x; idx < total; idx += k_threads) {
    int lo = 0;  // the first sprite whose end is past idx (binary search over k_bodies)
    for (int step = k_bodies / 2; step > 0; step /= 2)
      if (s_end[lo + step - 1] <= idx) lo += step;
    const Sprite& s = s_sprite[lo];
    const PixelBox& box = s_box[lo];
    const int local = idx - (lo > 0 ? s_end[lo - 1] : 0), w = box.x1 - box.x0 + 1;
    const int i = box.x0 + local % w, j = box.y0 + local / w;
    const float glow = sprite_glow(sprite_r2(s, i, j), s.soft, s.sphere);
    if (glow <= 0.0f) continue;
    const float e = s.energy * glow;
    add_pixel(rgba, static_cast<long>(j) * p.width + i, s.r * e, s.g * e, s.b * e);
  }
}

__global__ void tonemap_kernel(const float4* __restrict__ rgba, int width, int height,
                               float exposure, uchar4* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
  if (i >= width) return;
  const long k = static_cast<long>(j) * width + i;
  const float4 hdr = rgba[k];
  std::uint8_t px[4];
  tonemap_pixel(hdr.x, hdr.y, hdr.z, i, j, width, height, exposure, px);
  out[k] = make_uchar4(px[0], px[1], px[2], px[3]);
}

}  // namespace

void tonemap_device(const float* rgba, int width, int height, float exposure, std::uint8_t* rgba8) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("tonemap_device: an empty image");
  const dim3 grid((width + 255) / 256, static_cast<unsigned>(height));
  tonemap_kernel<<<grid, 256>>>(reinterpret_cast<const float4*>(rgba), width, height, exposure,
                                reinterpret_cast<uchar4*>(rgba8));
  CUDA_CHECK_LAUNCH("tonemap_kernel");
}

void splat_device(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba,
                  const float* values) {
  check_splat("splat_device", n, p, values);
  const std::size_t bytes = 4 * sizeof(float) * static_cast<std::size_t>(p.width) * p.height;
  CUDA_CHECK_THROW(cudaMemsetAsync(rgba, 0, bytes));
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + k_bodies - 1) / k_bodies);
  splat_kernel<<<blocks, k_threads>>>(pos, vel, values, n, p, rgba);
  CUDA_CHECK_LAUNCH("splat_kernel");
}

bool splat_device_compiled() { return true; }

}  // namespace orrery::gfx
