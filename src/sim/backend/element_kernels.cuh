// Private CUDA kernels of the integrators' element-wise passes, for both body types (Vec4 in
// cuda_backend.cu, Vec4d in double_device.cu): a thread a body.
#pragma once

#include <algorithm>
#include <vector>

#include "element_passes.h"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"
#include "orrery/physics.h"
#include "step_rate.h"

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

// The seed's damped Euler from precomputed accelerations, in -> out.
template <class V>
__global__ void euler_kernel(const V* __restrict__ in, V* __restrict__ out, V* __restrict__ vel,
                             const V* __restrict__ acc, int n, RealOf<V> dt, RealOf<V> damping) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const V a = acc[i];
  V v = vel[i];
  integrate(in[i], out[i], v, a, dt, damping);
  vel[i] = v;
}

// element_passes.h's passes on device arrays, on the default stream.
template <class V>
void device_kick(V* vel, const V* acc, int n, RealOf<V> h) {
  kick_kernel<V><<<blocks_for(n), k_threads>>>(vel, acc, n, h);
  CUDA_CHECK_LAUNCH("kick_kernel");
}
template <class V>
void device_drift(const V* in, V* out, const V* vel, int n, RealOf<V> h) {
  drift_kernel<V><<<blocks_for(n), k_threads>>>(in, out, vel, n, h);
  CUDA_CHECK_LAUNCH("drift_kernel");
}
template <class V>
void device_zero(V* a, int n) {
  CUDA_CHECK_THROW(cudaMemsetAsync(a, 0, sizeof(V) * static_cast<std::size_t>(n)));
}
template <class V>
void device_euler(const V* in, V* out, V* vel, const V* acc, int n, RealOf<V> dt,
                  RealOf<V> damping) {
  euler_kernel<V><<<blocks_for(n), k_threads>>>(in, out, vel, acc, n, dt, damping);
  CUDA_CHECK_LAUNCH("euler_kernel");
}

// The adaptive step's rate (step_rate.h) on the device: per-block sums of |c| and then per-block
// maxima of the terms, each finished on the host in a fixed order (the same state gives the same
// bits). Launched with k_threads threads a block.
template <class Op>
__device__ double block_reduce(double value, Op op) {
  __shared__ double warps[k_threads / 32];
  __syncthreads();  // warps[] may still be read from a previous call
  for (int o = 16; o > 0; o /= 2) value = op(value, __shfl_down_sync(0xffffffffu, value, o));
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = value;
  __syncthreads();
  double r = warps[0];
  if (threadIdx.x == 0)
    for (int w = 1; w < k_threads / 32; ++w) r = op(r, warps[w]);
  return r;
}

struct AddOp {
  __device__ double operator()(double x, double y) const { return x + y; }
};
// A NaN wins, as in host_relative_rate.
struct MaxOp {
  __device__ double operator()(double x, double y) const { return (x != x || y <= x) ? x : y; }
};

template <class V>
__global__ void __launch_bounds__(k_threads)
    norm_sum_kernel(const V* __restrict__ c, int n, double* __restrict__ partial) {
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += norm3(c[i]);
  s = block_reduce(s, AddOp{});
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

template <class V>
__global__ void __launch_bounds__(k_threads)
    rate_max_kernel(const V* a, const V* b, const V* c, int n, double mean,
                    double* __restrict__ partial) {
  double r = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    r = MaxOp{}(r, rate_term(a, b, c, i, mean));
  r = block_reduce(r, MaxOp{});
  if (threadIdx.x == 0) partial[blockIdx.x] = r;
}

// A fixed-grid reduction over n elements: its blocks, `scratch` grown for their partials, and
// `part` sized to read them back.
inline int reduction_blocks(int n, GpuBuffer<double>& scratch, std::vector<double>& part) {
  const int blocks = std::max(1, std::min(blocks_for(n), 1024));
  scratch.enlarge(static_cast<std::size_t>(blocks));
  part.resize(static_cast<std::size_t>(blocks));
  return blocks;
}

// step_rate.h's rate of device arrays (b may be null); `scratch` is grown as needed. Waits.
template <class V>
double device_relative_rate(const V* a, const V* b, const V* c, int n, GpuBuffer<double>& scratch) {
  if (n <= 0) return 0.0;
  std::vector<double> part;
  const int blocks = reduction_blocks(n, scratch, part);
  norm_sum_kernel<V><<<blocks, k_threads>>>(c, n, scratch.data());
  CUDA_CHECK_LAUNCH("norm_sum_kernel");
  scratch.download(part.data(), part.size());
  double sum = 0.0;
  for (double v : part) sum += v;
  rate_max_kernel<V><<<blocks, k_threads>>>(a, b, c, n, sum / n, scratch.data());
  CUDA_CHECK_LAUNCH("rate_max_kernel");
  scratch.download(part.data(), part.size());
  double rate = 0.0;
  for (double v : part) rate = (rate != rate || v <= rate) ? rate : v;
  return rate;
}

// One past the last body with a mass, per block (block_reduce of the index + 1, as a double: exact
// below 2^53).
template <class V>
__global__ void __launch_bounds__(k_threads)
    last_mass_kernel(const V* __restrict__ pos, int n, double* __restrict__ partial) {
  double last = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (pos[i].w != 0) last = i + 1.0;
  last = block_reduce(last, MaxOp{});
  if (threadIdx.x == 0) partial[blockIdx.x] = last;
}

// element_passes.h's sources() of device arrays: one element read when the last body has a mass
// (every run without test particles), else a reduction. Waits.
template <class V>
int device_sources(const V* pos, int n, GpuBuffer<double>& scratch) {
  if (n <= 1) return 1;
  V last;
  gpu_memory::download(&last, pos + (n - 1), sizeof(V));
  if (last.w != 0) return n;
  std::vector<double> part;
  const int blocks = reduction_blocks(n, scratch, part);
  last_mass_kernel<V><<<blocks, k_threads>>>(pos, n, scratch.data());
  CUDA_CHECK_LAUNCH("last_mass_kernel");
  scratch.download(part.data(), part.size());
  double k = 1.0;
  for (double v : part) k = std::max(k, v);
  return static_cast<int>(k);
}

// element_passes.h's passes as these kernels, for a CUDA backend Base of body type V (the rate's
// scratch kept and grown).
template <class Base, class V>
class DevicePasses : public Base {
 public:
  using Real = RealOf<V>;
  bool on_device() const final { return true; }
  double relative_rate(const V* a, const V* b, const V* c, int n) final {
    return device_relative_rate(a, b, c, n, m_rate_scratch);
  }
  int sources(const V* pos, int n) final { return device_sources(pos, n, m_rate_scratch); }
  void kick(V* vel, const V* acc, int n, Real h) final { device_kick(vel, acc, n, h); }
  void drift(const V* in, V* out, const V* vel, int n, Real h) final {
    device_drift(in, out, vel, n, h);
  }
  void zero(V* a, int n) final { device_zero(a, n); }
  void euler(const V* in, V* out, V* vel, const V* acc, int n, Real dt, Real damping) final {
    device_euler(in, out, vel, acc, n, dt, damping);
  }

 private:
  GpuBuffer<double> m_rate_scratch;
};

}  // namespace orrery
