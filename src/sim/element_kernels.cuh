// Private CUDA kernels of the integrators' element-wise passes, for both body types (Vec4 in
// stages.cu, Vec4d in double_device.cu): a thread a body.
#pragma once

#include "orrery/physics.h"

namespace orrery {

// vel += acc h.
template <class V>
__global__ void kick_kernel(V* __restrict__ vel, const V* __restrict__ acc, int n, RealOf<V> h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const V a = acc[i];
  V v = vel[i];
  v.x += a.x * h;
  v.y += a.y * h;
  v.z += a.z * h;
  vel[i] = v;
}

// out = in + vel h; in may equal out: each thread reads its own element before writing it.
template <class V>
__global__ void drift_kernel(const V* in, V* out, const V* __restrict__ vel, int n, RealOf<V> h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const V p = in[i], v = vel[i];
  out[i] = V{p.x + v.x * h, p.y + v.y * h, p.z + v.z * h, p.w};
}

}  // namespace orrery
