// The step pipeline's device passes: the integrators' kicks and drifts, the all-pairs potentials,
// the diagnostics' reductions in double, and the phase timer's event pool.
#include <algorithm>
#include <vector>

#include "cpu_solvers.h"
#include "cuda_check.cuh"
#include "orrery/device.h"
#include "stage_ops.h"

namespace orrery {
namespace {

constexpr int k_threads = 256;

int blocks_for(int n) { return (n + k_threads - 1) / k_threads; }

__global__ void kick_kernel(Vec4* __restrict__ vel, const Vec4* __restrict__ acc, int n, float h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 a = acc[i];
  Vec4 v = vel[i];
  v.x += a.x * h;
  v.y += a.y * h;
  v.z += a.z * h;
  vel[i] = v;
}

// in may equal out: each thread reads its own element before writing it.
__global__ void drift_kernel(const Vec4* in, Vec4* out, const Vec4* __restrict__ vel, int n,
                             float h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 p = in[i], v = vel[i];
  out[i] = Vec4{p.x + v.x * h, p.y + v.y * h, p.z + v.z * h, p.w};
}

__global__ void euler_kernel(const Vec4* __restrict__ in, Vec4* __restrict__ out,
                             Vec4* __restrict__ vel, const Vec4* __restrict__ acc, int n, float dt,
                             float damping) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 a = acc[i];
  Vec4 v = vel[i];
  integrate(in[i], out[i], v, Vec3{a.x, a.y, a.z}, dt, damping);
  vel[i] = v;
}

// phi_i = -sum_{j != i} m_j / sqrt(r^2 + eps^2), R bodies per thread, tiles of k_threads bodies in
// shared memory; the pair i == j and the zero-mass padding past the end add exactly nothing.
template <int R>
__global__ void __launch_bounds__(k_threads)
    potential_kernel(const Vec4* __restrict__ pos, Vec4* __restrict__ out, int n, float eps2) {
  __shared__ Vec4 tile[k_threads];
  const int first = blockIdx.x * (k_threads * R) + threadIdx.x;
  Vec4 pi[R];
  double phi[R];  // float within a tile, double across tiles: no drift over a million terms
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * k_threads;
    pi[r] = i < n ? pos[i] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    phi[r] = 0.0;
  }
  for (int base = 0; base < n; base += k_threads) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    __syncthreads();
    float tile_phi[R];
#pragma unroll
    for (int r = 0; r < R; ++r) tile_phi[r] = 0.0f;
#pragma unroll 16
    for (int k = 0; k < k_threads; ++k) {
      const Vec4 pj = tile[k];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const float dx = pj.x - pi[r].x, dy = pj.y - pi[r].y, dz = pj.z - pi[r].z;
        const float inv = rsqrtf(eps2 + dx * dx + dy * dy + dz * dz);
        const float m = base + k == first + r * k_threads ? 0.0f : pj.w;
        tile_phi[r] += m * inv;
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) phi[r] += tile_phi[r];
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * k_threads;
    if (i < n) out[i] = Vec4{0.0f, 0.0f, 0.0f, static_cast<float>(-phi[r])};
  }
}

// The diagnostics' fields, in Sums' order.
constexpr int k_fields = 13;

__device__ __forceinline__ double warp_sum(double v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// Each block sums a grid-stride share of the bodies into partial[block][field].
__global__ void __launch_bounds__(k_threads)
    sums_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                const Vec4* __restrict__ pot, int n, double* __restrict__ partial) {
  double f[k_fields] = {};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const Vec4 p = pos[i], v = vel[i];
    const double m = p.w, x = p.x, y = p.y, z = p.z, vx = v.x, vy = v.y, vz = v.z;
    const double v2 = vx * vx + vy * vy + vz * vz;
    f[0] += m;
    f[1] += 0.5 * m * v2;
    f[2] += m * pot[i].w;
    f[3] += m * vx, f[4] += m * vy, f[5] += m * vz;
    f[6] += m * (y * vz - z * vy), f[7] += m * (z * vx - x * vz), f[8] += m * (x * vy - y * vx);
    f[9] += m * x, f[10] += m * y, f[11] += m * z;
    f[12] += m * sqrt(v2);
  }
  __shared__ double warps[k_threads / 32][k_fields];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < k_fields; ++k) {
    const double s = warp_sum(f[k]);
    if (lane == 0) warps[warp][k] = s;
  }
  __syncthreads();
  if (threadIdx.x < k_fields) {
    double s = 0.0;
    for (int w = 0; w < k_threads / 32; ++w) s += warps[w][threadIdx.x];
    partial[blockIdx.x * k_fields + threadIdx.x] = s;
  }
}

}  // namespace

void device_kick(Vec4* vel, const Vec4* acc, int n, float h) {
  kick_kernel<<<blocks_for(n), k_threads>>>(vel, acc, n, h);
  CUDA_CHECK_LAUNCH("kick_kernel");
}

void device_drift(const Vec4* in, Vec4* out, const Vec4* vel, int n, float h) {
  drift_kernel<<<blocks_for(n), k_threads>>>(in, out, vel, n, h);
  CUDA_CHECK_LAUNCH("drift_kernel");
}

void device_euler(const Vec4* in, Vec4* out, Vec4* vel, const Vec4* acc, int n, float dt,
                  float damping) {
  euler_kernel<<<blocks_for(n), k_threads>>>(in, out, vel, acc, n, dt, damping);
  CUDA_CHECK_LAUNCH("euler_kernel");
}

void device_potentials(const Vec4* pos, Vec4* out, int n, float softening) {
  const float eps2 = softening * softening;
  // Four bodies per thread once that still gives every multiprocessor two blocks.
  const long long per4 = 4LL * k_threads;
  if ((n + per4 - 1) / per4 >= 2LL * std::max(1, device_info().sm_count)) {
    potential_kernel<4><<<static_cast<int>((n + per4 - 1) / per4), k_threads>>>(pos, out, n, eps2);
  } else {
    potential_kernel<1><<<blocks_for(n), k_threads>>>(pos, out, n, eps2);
  }
  CUDA_CHECK_LAUNCH("potential_kernel");
}

struct DeviceReducer::Impl {
  double* partial = nullptr;
  int blocks = 0;
  std::vector<double> host;
  ~Impl() {
    if (partial) cudaFree(partial);
  }
};

DeviceReducer::DeviceReducer() : m_impl(std::make_unique<Impl>()) {
  require_device();
  m_impl->blocks = 2 * std::max(1, device_info().sm_count);
  CUDA_CHECK_THROW(cudaMalloc(&m_impl->partial, sizeof(double) * k_fields * m_impl->blocks));
  m_impl->host.resize(static_cast<std::size_t>(k_fields) * m_impl->blocks);
}

DeviceReducer::~DeviceReducer() = default;

Sums DeviceReducer::sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) {
  const int blocks = std::min(m_impl->blocks, blocks_for(n));
  sums_kernel<<<blocks, k_threads>>>(pos, vel, pot, n, m_impl->partial);
  CUDA_CHECK_LAUNCH("sums_kernel");
  CUDA_CHECK_THROW(cudaMemcpy(m_impl->host.data(), m_impl->partial,
                              sizeof(double) * k_fields * blocks, cudaMemcpyDeviceToHost));
  Sums s;
  for (int b = 0; b < blocks; ++b) {
    const double* f = &m_impl->host[static_cast<std::size_t>(b) * k_fields];
    Sums one;
    one.mass = f[0], one.kinetic = f[1], one.potential2 = f[2];
    for (int k = 0; k < 3; ++k) one.p[k] = f[3 + k], one.l[k] = f[6 + k], one.mr[k] = f[9 + k];
    one.momentum_scale = f[12];
    s.add(one);
  }
  return s;
}

struct EventPool::Impl {
  std::vector<cudaEvent_t> events;
  int next = 0;
  ~Impl() {
    for (cudaEvent_t e : events) cudaEventDestroy(e);
  }
};

EventPool::EventPool() : m_impl(std::make_unique<Impl>()) {}
EventPool::~EventPool() = default;

int EventPool::record() {
  Impl& p = *m_impl;
  if (p.next == static_cast<int>(p.events.size())) {
    cudaEvent_t e = nullptr;
    CUDA_CHECK_THROW(cudaEventCreate(&e));
    p.events.push_back(e);
  }
  CUDA_CHECK_THROW(cudaEventRecord(p.events[static_cast<std::size_t>(p.next)]));
  return p.next++;
}

bool EventPool::done(int index) const {
  const cudaError_t e = cudaEventQuery(m_impl->events[static_cast<std::size_t>(index)]);
  if (e == cudaErrorNotReady) return false;
  CUDA_CHECK_THROW(e);
  return true;
}

void EventPool::wait(int index) {
  CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->events[static_cast<std::size_t>(index)]));
}

float EventPool::elapsed_ms(int from, int to) {
  float ms = 0.0f;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, m_impl->events[static_cast<std::size_t>(from)],
                                        m_impl->events[static_cast<std::size_t>(to)]));
  return ms;
}

void EventPool::clear() { m_impl->next = 0; }

}  // namespace orrery
