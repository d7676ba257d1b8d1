// The motion between two outputs on the device (orrery/playback.h): the same Hermite basis as
// hermite_between, one body a thread, in double for the basis and float for the bodies.
#include "orrery/cuda_check.cuh"
#include "orrery/playback.h"

namespace orrery {
namespace {

__global__ void hermite_kernel(const Vec4* __restrict__ a_pos, const Vec4* __restrict__ a_vel,
                               const Vec4* __restrict__ b_pos, const Vec4* __restrict__ b_vel,
                               const int* __restrict__ b_of_a, int n, double h, double s,
                               Vec4* __restrict__ out_pos, Vec4* __restrict__ out_vel) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 p0 = a_pos[i], v0 = a_vel[i];
  const int j = b_pos ? b_of_a[i] : -1;
  if (j < 0) {  // nothing to move towards
    out_pos[i] = p0, out_vel[i] = v0;
    return;
  }
  const Vec4 p1 = b_pos[j], v1 = b_vel[j];
  const double s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
               h11 = s3 - s2;
  const double d00 = 6 * s2 - 6 * s, d10 = 3 * s2 - 4 * s + 1, d01 = -d00, d11 = 3 * s2 - 2 * s;
  auto at = [&](float x0, float u0, float x1, float u1, float& x, float& u) {
    x = static_cast<float>(h00 * x0 + h10 * h * u0 + h01 * x1 + h11 * h * u1);
    u = static_cast<float>((d00 * x0 + d01 * x1) / h + d10 * u0 + d11 * u1);
  };
  Vec4 p = p0, v = v0;
  at(p0.x, v0.x, p1.x, v1.x, p.x, v.x);
  at(p0.y, v0.y, p1.y, v1.y, p.y, v.y);
  at(p0.z, v0.z, p1.z, v1.z, p.z, v.z);
  out_pos[i] = p, out_vel[i] = v;
}

}  // namespace

void hermite_between_device(const Vec4* a_pos, const Vec4* a_vel, const Vec4* b_pos,
                            const Vec4* b_vel, const int* b_of_a, int n, double ta, double tb,
                            double t, Vec4* out_pos, Vec4* out_vel) {
  if (n <= 0) return;
  const double h = tb - ta;
  const bool moves = b_pos && h > 0;
  const double s = moves ? fmin(fmax((t - ta) / h, 0.0), 1.0) : 0.0;
  constexpr int threads = 256;
  hermite_kernel<<<(n + threads - 1) / threads, threads>>>(
      a_pos, a_vel, moves ? b_pos : nullptr, b_vel, b_of_a, n, h, s, out_pos, out_vel);
  CUDA_CHECK_LAUNCH("hermite_kernel");
}

}  // namespace orrery
