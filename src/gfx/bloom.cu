// The glow on the GPU: a thread a small pixel for the block average and each blur pass, a thread
// a picture pixel for the bilinear add (gfx/bloom.h's pieces, as the CPU's).
#include <cuda_runtime.h>

#include "gfx/bloom.h"
#include "orrery/cuda_check.cuh"

namespace orrery::gfx {
namespace {

__global__ void down_kernel(const float* rgba, int width, int height, float t, float* small) {
  const int sw = bloom_size(width), sh = bloom_size(height);
  const int I = blockIdx.x * blockDim.x + threadIdx.x, J = blockIdx.y * blockDim.y + threadIdx.y;
  if (I < sw && J < sh)
    bloom_block(rgba, width, height, I, J, t, small + 3 * (static_cast<long>(J) * sw + I));
}

__global__ void blur_kernel(const float* in, float* out, int sw, int sh, bool along_x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < sw && j < sh)
    bloom_blur(in, sw, sh, i, j, along_x, out + 3 * (static_cast<long>(j) * sw + i));
}

__global__ void add_kernel(float* rgba, int width, int height, const float* small, float strength) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= width || j >= height) return;
  float v[3];
  bloom_sample(small, width, height, i, j, v);
  float* px = rgba + 4 * (static_cast<long>(j) * width + i);
  for (int c = 0; c < 3; ++c) px[c] += strength * v[c];
}

dim3 grid_for(int w, int h) { return dim3((w + 15) / 16, (h + 15) / 16); }

}  // namespace

void bloom_device(float* rgba, int width, int height, float exposure, float strength,
                  float* scratch) {
  if (!(strength > 0.0f) || width <= 0 || height <= 0) return;
  const int sw = bloom_size(width), sh = bloom_size(height);
  float* small = scratch;
  float* tmp = scratch + 3L * sw * sh;
  const dim3 block(16, 16);
  down_kernel<<<grid_for(sw, sh), block>>>(rgba, width, height, bloom_threshold(exposure), small);
  blur_kernel<<<grid_for(sw, sh), block>>>(small, tmp, sw, sh, true);
  blur_kernel<<<grid_for(sw, sh), block>>>(tmp, small, sw, sh, false);
  add_kernel<<<grid_for(width, height), block>>>(rgba, width, height, small, strength);
  CUDA_CHECK_LAUNCH("the bloom's kernels");
}

}  // namespace orrery::gfx
