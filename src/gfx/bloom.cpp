// The glow on the CPU: the block average of the light above the threshold, the two blur passes
// and the bilinear add (gfx/bloom.h's pieces), a row a task.
#include "gfx/bloom.h"

#include <stdexcept>

namespace orrery::gfx {

void bloom_cpu(float* rgba, int width, int height, float exposure, float strength, float* scratch) {
  if (!(strength > 0.0f) || width <= 0 || height <= 0) return;
  const int sw = bloom_size(width), sh = bloom_size(height);
  float* small = scratch;
  float* tmp = scratch + 3L * sw * sh;
  const float t = bloom_threshold(exposure);
#pragma omp parallel for schedule(static) if (sw * sh > 4096)
  for (int J = 0; J < sh; ++J)
    for (int I = 0; I < sw; ++I)
      bloom_block(rgba, width, height, I, J, t, small + 3 * (static_cast<long>(J) * sw + I));
  for (int pass = 0; pass < 2; ++pass) {
    const float* in = pass == 0 ? small : tmp;
    float* out = pass == 0 ? tmp : small;
#pragma omp parallel for schedule(static) if (sw * sh > 4096)
    for (int j = 0; j < sh; ++j)
      for (int i = 0; i < sw; ++i)
        bloom_blur(in, sw, sh, i, j, pass == 0, out + 3 * (static_cast<long>(j) * sw + i));
  }
#pragma omp parallel for schedule(static) if (height > 64)
  for (int j = 0; j < height; ++j)
    for (int i = 0; i < width; ++i) {
      float v[3];
      bloom_sample(small, width, height, i, j, v);
      float* px = rgba + 4 * (static_cast<long>(j) * width + i);
      for (int c = 0; c < 3; ++c) px[c] += strength * v[c];
    }
}

#if !defined(ORRERY_HAVE_CUDA)
void bloom_device(float*, int, int, float, float, float*) {
  throw std::runtime_error("bloom_device: this build has no CUDA");
}
#endif

}  // namespace orrery::gfx
