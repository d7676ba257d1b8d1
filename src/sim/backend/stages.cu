// The step pipeline's device passes: the integrators' kicks and drifts, the all-pairs potentials,
// the diagnostics' reductions in double, and the phase timer's event pool.
#include <algorithm>
#include <vector>

#include "cuda_handles.cuh"
#include "device_passes.h"
#include "element_kernels.cuh"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "stage_ops.h"

namespace orrery {
namespace {

__device__ __forceinline__ double warp_sum_double(double v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// The sum over one shared-memory tile of m_j / sqrt(r^2 + eps^2) for each of a thread's R bodies.
// Mask: the tile holds some of the block's own bodies, so the pair i == j is left out (by index:
// two distinct bodies at one point still count); only those few tiles pay for the compare.
template <int R, bool Mask>
__device__ __forceinline__ void potential_tile(const Vec4* tile, const Vec4 (&pi)[R],
                                               double (&phi)[R], int base, int first, float eps2) {
  float sum[R];
#pragma unroll
  for (int r = 0; r < R; ++r) sum[r] = 0.0f;
#pragma unroll 16
  for (int k = 0; k < k_threads; ++k) {
    const Vec4 pj = tile[k];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const float dx = pj.x - pi[r].x, dy = pj.y - pi[r].y, dz = pj.z - pi[r].z;
      const float inv = rsqrtf(eps2 + dx * dx + dy * dy + dz * dz);
      const float m = Mask && base + k == first + r * k_threads ? 0.0f : pj.w;
      sum[r] += m * inv;
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) phi[r] += sum[r];  // float within a tile, double across tiles
}

// R bodies per thread; blockIdx.y picks one of gridDim.y (<= 4) chunks of the j-range, and the
// block writes its partial sums into that component of out[i] (x, y, z, w), for
// finish_potential_kernel to add. Zero-mass padding past the end adds exactly nothing.
template <int R>
__global__ void __launch_bounds__(k_threads)
    potential_kernel(const Vec4* __restrict__ pos, Vec4* __restrict__ out, int n, int j_chunk,
                     float eps2) {
  __shared__ Vec4 tile[k_threads];
  const int block_first = blockIdx.x * (k_threads * R);
  const int first = block_first + threadIdx.x;
  const int j_begin = blockIdx.y * j_chunk, j_end = min(n, j_begin + j_chunk);
  Vec4 pi[R];
  double phi[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * k_threads;
    pi[r] = i < n ? pos[i] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    phi[r] = 0.0;
  }
  for (int base = j_begin; base < j_end; base += k_threads) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < j_end ? pos[j] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    __syncthreads();
    const bool own = base < block_first + k_threads * R && base + k_threads > block_first;
    if (own)  // uniform across the block
      potential_tile<R, true>(tile, pi, phi, base, first, eps2);
    else
      potential_tile<R, false>(tile, pi, phi, base, first, eps2);
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * k_threads;
    if (i < n) reinterpret_cast<float*>(&out[i])[blockIdx.y] = static_cast<float>(phi[r]);
  }
}

// out[i] = (0, 0, 0, -(sum of the chunks' partial sums)), added in double.
__global__ void finish_potential_kernel(Vec4* __restrict__ out, int n, int chunks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 p = out[i];
  double s = p.x;
  if (chunks > 1) s += p.y;
  if (chunks > 2) s += p.z;
  if (chunks > 3) s += p.w;
  out[i] = Vec4{0.0f, 0.0f, 0.0f, static_cast<float>(-s)};
}

// W = -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), each pair once: half the reciprocal square roots of
// a per-body sum (the pass is bound by them). Tiles of k_threads bodies; block (b, s) takes the
// tile rows b and T-1-b (T tiles; together T+1 tile pairs, so every block has the same work) and
// the s-th of gridDim.y interleaved shares of their tile pairs (I, J >= I). Thread t owns body
// I*k_threads + t; on the diagonal tile it counts only k > t. partial[block] = sum over the
// block's pairs of m_i m_j / r, in double.
__global__ void __launch_bounds__(k_threads)
    pair_potential_kernel(const Vec4* __restrict__ pos, int n, int tiles, float eps2,
                          double* __restrict__ partial) {
  __shared__ Vec4 tile[k_threads];
  __shared__ double warps[k_threads / 32];
  const int t = threadIdx.x;
  double total = 0.0;
  const int rows[2] = {static_cast<int>(blockIdx.x), tiles - 1 - static_cast<int>(blockIdx.x)};
  for (int w = 0; w < (rows[0] == rows[1] ? 1 : 2); ++w) {
    const int row = rows[w];
    const int i = row * k_threads + t;
    const Vec4 pi = i < n ? pos[i] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    double row_sum = 0.0;
    for (int col = row + static_cast<int>(blockIdx.y); col < tiles; col += gridDim.y) {
      const int j = col * k_threads + t;
      tile[t] = j < n ? pos[j] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
      __syncthreads();
      float sum = 0.0f;
      if (col == row) {  // uniform across the block
#pragma unroll 16
        for (int k = 0; k < k_threads; ++k) {
          const Vec4 pj = tile[k];
          const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
          const float inv = rsqrtf(eps2 + dx * dx + dy * dy + dz * dz);
          sum += (k > t ? pj.w : 0.0f) * inv;
        }
      } else {
#pragma unroll 16
        for (int k = 0; k < k_threads; ++k) {
          const Vec4 pj = tile[k];
          const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
          sum += pj.w * rsqrtf(eps2 + dx * dx + dy * dy + dz * dz);
        }
      }
      row_sum += sum;
      __syncthreads();
    }
    total += static_cast<double>(pi.w) * row_sum;
  }
  total = warp_sum_double(total);
  if (t % 32 == 0) warps[t / 32] = total;
  __syncthreads();
  if (t == 0) {
    double s = 0.0;
    for (int w = 0; w < k_threads / 32; ++w) s += warps[w];
    partial[blockIdx.y * gridDim.x + blockIdx.x] = s;
  }
}

// The diagnostics' fields, in Sums' order.
constexpr int k_fields = 13;

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
    if (pot) f[2] += m * pot[i].w;
    f[3] += m * vx, f[4] += m * vy, f[5] += m * vz;
    f[6] += m * (y * vz - z * vy), f[7] += m * (z * vx - x * vz), f[8] += m * (x * vy - y * vx);
    f[9] += m * x, f[10] += m * y, f[11] += m * z;
    f[12] += m * sqrt(v2);
  }
  __shared__ double warps[k_threads / 32][k_fields];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < k_fields; ++k) {
    const double s = warp_sum_double(f[k]);
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

void device_potentials(const Vec4* pos, Vec4* out, int n, float softening) {
  const float eps2 = softening * softening;
  // Four bodies per thread once that still gives every multiprocessor two blocks; then the
  // j-range in up to four chunks (blockIdx.y) until about one full wave of blocks is in flight.
  const int sms = std::max(1, device_info().sm_count);
  const long long per4 = 4LL * k_threads;
  const int r = (n + per4 - 1) / per4 >= 2LL * sms ? 4 : 1;
  const int blocks_i = static_cast<int>((n + static_cast<long long>(k_threads) * r - 1) /
                                        (static_cast<long long>(k_threads) * r));
  const int wave = sms * (2048 / k_threads);
  int chunks = std::min(4, std::max(1, (wave + blocks_i - 1) / blocks_i));
  chunks = std::max(1, std::min(chunks, n / k_threads));  // at least a tile per chunk
  const int per_chunk = (n + chunks - 1) / chunks;
  const int j_chunk = (per_chunk + k_threads - 1) / k_threads * k_threads;
  const dim3 grid(blocks_i, chunks);
  if (r == 4)
    potential_kernel<4><<<grid, k_threads>>>(pos, out, n, j_chunk, eps2);
  else
    potential_kernel<1><<<grid, k_threads>>>(pos, out, n, j_chunk, eps2);
  CUDA_CHECK_LAUNCH("potential_kernel");
  finish_potential_kernel<<<blocks_for(n), k_threads>>>(out, n, chunks);
  CUDA_CHECK_LAUNCH("finish_potential_kernel");
}

struct DeviceReducer::Impl {
  GpuBuffer<double> partial;
  int blocks = 0;
  std::vector<double> host;
  GpuBuffer<double> pairs;  // the pair pass's partial sums, grown to the largest grid seen
  std::vector<double> pairs_host;
};

DeviceReducer::DeviceReducer() : m_impl(std::make_unique<Impl>()) {
  require_device();
  m_impl->blocks = 2 * std::max(1, device_info().sm_count);
  m_impl->partial.resize(static_cast<std::size_t>(k_fields) * m_impl->blocks);
  m_impl->host.resize(static_cast<std::size_t>(k_fields) * m_impl->blocks);
}

DeviceReducer::~DeviceReducer() = default;

Sums DeviceReducer::sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) {
  const int blocks = std::min(m_impl->blocks, blocks_for(n));
  sums_kernel<<<blocks, k_threads>>>(pos, vel, pot, n, m_impl->partial.data());
  CUDA_CHECK_LAUNCH("sums_kernel");
  CUDA_CHECK_THROW(cudaMemcpy(m_impl->host.data(), m_impl->partial.data(),
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

double DeviceReducer::pair_potential_energy(const Vec4* pos, int n, float softening) {
  Impl& m = *m_impl;
  const int tiles = (n + k_threads - 1) / k_threads;
  const int rows = (tiles + 1) / 2;
  // Shares of each block's tile pairs until about two waves of blocks are in flight.
  const int wave = std::max(1, device_info().sm_count) * (2048 / k_threads);
  const int shares = std::max(1, std::min((2 * wave + rows - 1) / rows, tiles));
  const std::size_t count = static_cast<std::size_t>(rows) * shares;
  m.pairs.enlarge(count);
  pair_potential_kernel<<<dim3(rows, shares), k_threads>>>(pos, n, tiles, softening * softening,
                                                           m.pairs.data());
  CUDA_CHECK_LAUNCH("pair_potential_kernel");
  m.pairs_host.resize(count);
  CUDA_CHECK_THROW(cudaMemcpy(m.pairs_host.data(), m.pairs.data(), sizeof(double) * count,
                              cudaMemcpyDeviceToHost));
  double w = 0.0;
  for (double v : m.pairs_host) w += v;  // a fixed order: the same state gives the same bits
  return -w;
}

struct EventPool::Impl {
  std::vector<CudaEvent> events;
  int next = 0;
  cudaEvent_t at(int index) const { return events[static_cast<std::size_t>(index)].get(); }
};

EventPool::EventPool() : m_impl(std::make_unique<Impl>()) {}
EventPool::~EventPool() = default;

int EventPool::record() {
  Impl& p = *m_impl;
  if (p.next == static_cast<int>(p.events.size())) {
    p.events.emplace_back(cudaEventDefault);
  }
  CUDA_CHECK_THROW(cudaEventRecord(p.at(p.next)));
  return p.next++;
}

bool EventPool::done(int index) const {
  const cudaError_t e = cudaEventQuery(m_impl->at(index));
  if (e == cudaErrorNotReady) return false;
  CUDA_CHECK_THROW(e);
  return true;
}

void EventPool::wait(int index) { CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->at(index))); }

float EventPool::elapsed_ms(int from, int to) {
  float ms = 0.0f;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, m_impl->at(from), m_impl->at(to)));
  return ms;
}

void EventPool::clear() { m_impl->next = 0; }

}  // namespace orrery
