// Per-body quantities on the device: element-wise passes, the density grid (a hashed count of
// bodies per cell, then each body's 27 cells) and one body's direct-sum acceleration, with sums in
// double.
#include <cuda_runtime.h>

#include <cmath>

#include "device_passes.h"
#include "orrery/cuda_check.cuh"
#include "orrery/fields.h"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

enum class Pass { speed, mass, magnitude, depth };

template <Pass P>
__global__ void elementwise_kernel(const Vec4* __restrict__ in, int n, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 v = in[i];
  if (P == Pass::mass) out[i] = v.w;
  if (P == Pass::depth) out[i] = -v.w;
  if (P == Pass::speed || P == Pass::magnitude) out[i] = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}

template <Pass P>
void elementwise(const Vec4* in, int n, float* out) {
  if (n <= 0) return;
  elementwise_kernel<P><<<blocks_for(n), k_threads>>>(in, n, out);
  CUDA_CHECK_LAUNCH("elementwise_kernel");
}

// sums[0..2] += x, y, z; sums[3..5] += x^2, y^2, z^2.
__global__ void moments_kernel(const Vec4* __restrict__ pos, int n, double* __restrict__ sums) {
  double s[6] = {0, 0, 0, 0, 0, 0};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const Vec4 p = pos[i];
    s[0] += p.x, s[1] += p.y, s[2] += p.z;
    s[3] += static_cast<double>(p.x) * p.x, s[4] += static_cast<double>(p.y) * p.y;
    s[5] += static_cast<double>(p.z) * p.z;
  }
  for (int k = 0; k < 6; ++k) {
    for (int d = 16; d > 0; d /= 2) s[k] += __shfl_down_sync(0xffffffffu, s[k], d);
    if ((threadIdx.x & 31) == 0) atomicAdd(sums + k, s[k]);
  }
}

struct GridArgs {
  float ox, oy, oz, inv_cell, per_volume;
  unsigned mask;
};

__device__ __forceinline__ void grid_cell(const Vec4& p, const GridArgs& g, int& cx, int& cy,
                                          int& cz) {
  cx = density_cell(p.x, g.ox, g.inv_cell);
  cy = density_cell(p.y, g.oy, g.inv_cell);
  cz = density_cell(p.z, g.oz, g.inv_cell);
}

__global__ void count_kernel(const Vec4* __restrict__ pos, int n, GridArgs g,
                             unsigned* __restrict__ table) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int cx, cy, cz;
  grid_cell(pos[i], g, cx, cy, cz);
  atomicAdd(table + density_slot(cx, cy, cz, g.mask), 1u);
}

__global__ void gather_kernel(const Vec4* __restrict__ pos, int n, GridArgs g,
                              const unsigned* __restrict__ table, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int cx, cy, cz;
  grid_cell(pos[i], g, cx, cy, cz);
  out[i] = static_cast<float>(density_count(table, cx, cy, cz, g.mask)) * g.per_volume;
}

// sums[0..2] += the acceleration of body `target` from bodies j, in double.
__global__ void body_acceleration_kernel(const Vec4* __restrict__ pos, int n, int target,
                                         double eps2, double* __restrict__ sums) {
  const Vec4 q = pos[target];
  double a[3] = {0, 0, 0};
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    const Vec4 p = pos[j];
    const double r[3] = {static_cast<double>(p.x) - q.x, static_cast<double>(p.y) - q.y,
                         static_cast<double>(p.z) - q.z};
    const double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2;
    const double s = p.w / (d2 * sqrt(d2));
    for (int k = 0; k < 3; ++k) a[k] += r[k] * s;
  }
  for (int k = 0; k < 3; ++k) {
    for (int d = 16; d > 0; d /= 2) a[k] += __shfl_down_sync(0xffffffffu, a[k], d);
    if ((threadIdx.x & 31) == 0) atomicAdd(sums + k, a[k]);
  }
}

int reduce_blocks(int n) { return blocks_for(n) < 264 ? blocks_for(n) : 264; }

}  // namespace

void device_speeds(const Vec4* vel, int n, float* out) { elementwise<Pass::speed>(vel, n, out); }
void device_masses(const Vec4* pos, int n, float* out) { elementwise<Pass::mass>(pos, n, out); }
void device_magnitudes(const Vec4* acc, int n, float* out) {
  elementwise<Pass::magnitude>(acc, n, out);
}
void device_depths(const Vec4* pot, int n, float* out) { elementwise<Pass::depth>(pot, n, out); }

void device_read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v) {
  CUDA_CHECK_THROW(cudaMemcpy(&p, pos + i, sizeof(Vec4), cudaMemcpyDeviceToHost));
  CUDA_CHECK_THROW(cudaMemcpy(&v, vel + i, sizeof(Vec4), cudaMemcpyDeviceToHost));
}

void device_read_positions(const Vec4* pos, int n, int stride, Vec4* out) {
  const std::size_t count = (static_cast<std::size_t>(n) + stride - 1) / stride;
  if (count == 0) return;
  CUDA_CHECK_THROW(cudaMemcpy2D(out, sizeof(Vec4), pos, sizeof(Vec4) * stride, sizeof(Vec4), count,
                                cudaMemcpyDeviceToHost));
}

struct DeviceFields::Impl {
  GpuBuffer<unsigned> table;
  GpuBuffer<double> sums;
  // Six sums of moments_kernel or body_acceleration_kernel, read back.
  template <class Launch>
  void sum6(Launch launch, double out[6]) {
    sums.enlarge(6);
    CUDA_CHECK_THROW(cudaMemsetAsync(sums.data(), 0, 6 * sizeof(double)));
    launch(sums.data());
    CUDA_CHECK_LAUNCH("a sum of the fields");
    CUDA_CHECK_THROW(cudaMemcpy(out, sums.data(), 6 * sizeof(double), cudaMemcpyDeviceToHost));
  }
};

DeviceFields::DeviceFields() : m_impl(std::make_unique<Impl>()) {}
DeviceFields::~DeviceFields() = default;

void DeviceFields::density(const Vec4* pos, int n, float* out) {
  if (n <= 0) return;
  double s[6];
  m_impl->sum6([&](double* d) { moments_kernel<<<reduce_blocks(n), k_threads>>>(pos, n, d); }, s);
  const DensityGrid g = density_grid(s, s + 3, n);
  const GridArgs args{g.origin[0], g.origin[1], g.origin[2], g.inv_cell, g.per_volume, g.mask};
  const std::size_t slots = static_cast<std::size_t>(g.mask) + 1;
  m_impl->table.enlarge(slots);
  CUDA_CHECK_THROW(cudaMemsetAsync(m_impl->table.data(), 0, slots * sizeof(unsigned)));
  count_kernel<<<blocks_for(n), k_threads>>>(pos, n, args, m_impl->table.data());
  CUDA_CHECK_LAUNCH("count_kernel");
  gather_kernel<<<blocks_for(n), k_threads>>>(pos, n, args, m_impl->table.data(), out);
  CUDA_CHECK_LAUNCH("gather_kernel");
}

Vec3 DeviceFields::body_acceleration(const Vec4* pos, int n, int i, float softening) {
  double s[6];
  const double eps2 = static_cast<double>(softening) * softening;
  m_impl->sum6(
      [&](double* d) {
        body_acceleration_kernel<<<reduce_blocks(n), k_threads>>>(pos, n, i, eps2, d);
      },
      s);
  return {static_cast<float>(s[0]), static_cast<float>(s[1]), static_cast<float>(s[2])};
}

}  // namespace orrery
