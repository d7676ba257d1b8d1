// The seed's two GPU solvers: shared-memory tiles with a run-time block size (`cuda-dynamic`) and
// with a compile-time block size and a fully unrolled tile loop (`cuda-static`); each in float
// and, for --precision double, the same kernels on Vec4d.
#include <algorithm>
#include <string>

#include "cuda_solvers.h"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

// Reads body j, or a zero-mass body at the origin past the end: its term is exactly zero
// (softening > 0), so the tail tile is padded instead of rounding N or branching in the loop.
template <class V>
__device__ __forceinline__ V load_or_pad(const V* __restrict__ pos, int j, int n) {
  return j < n ? pos[j] : V{0, 0, 0, 0};
}

// The end of a body's sum: the fused step integrates (the seed's damped Euler); the gravity
// module's acceleration pass (acc_out set) stores the acceleration instead.
__device__ __forceinline__ void finish_body(const Vec4& pi, Vec4* __restrict__ pos_out,
                                            Vec4* __restrict__ vel, Vec4* __restrict__ acc_out,
                                            int i, const Vec3& acc, float dt, float damping) {
  if (acc_out) {
    acc_out[i] = Vec4{acc.x, acc.y, acc.z, 0.0f};
    return;
  }
  Vec4 v = vel[i];
  integrate(pi, pos_out[i], v, acc, dt, damping);
  vel[i] = v;
}
// In double there is no fused step: the accelerations alone.
__device__ __forceinline__ void finish_body(const Vec4d&, Vec4d*, Vec4d*,
                                            Vec4d* __restrict__ acc_out, int i, const Vec3d& acc,
                                            float, float) {
  acc_out[i] = Vec4d{acc.x, acc.y, acc.z, 0.0};
}

// Tiles of blockDim.x bodies in dynamic shared memory (size given at launch).
template <class V>
__global__ void tiled_dynamic_kernel(const V* __restrict__ pos_in, V* __restrict__ pos_out,
                                     V* __restrict__ vel, V* __restrict__ acc_out, int n,
                                     RealOf<V> eps2, float dt, float damping) {
  // One untyped extern array for both body types (typed ones would clash between instances).
  extern __shared__ __align__(32) unsigned char shared[];
  V* tile = reinterpret_cast<V*>(shared);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const V pi = load_or_pad(pos_in, i, n);
  AccOf<V> acc{0, 0, 0};
  for (int base = 0; base < n; base += blockDim.x) {
    tile[threadIdx.x] = load_or_pad(pos_in, base + threadIdx.x, n);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) body_body(pi, tile[k], eps2, acc);
    __syncthreads();
  }
  // Every thread reached every barrier; only now do threads past the end drop out.
  if (i < n) finish_body(pi, pos_out, vel, acc_out, i, acc, dt, damping);
}

// The same with the tile size fixed at compile time: static shared array, unrolled inner loop.
template <class V, int BlockSize>
__global__ void __launch_bounds__(BlockSize)
    tiled_static_kernel(const V* __restrict__ pos_in, V* __restrict__ pos_out, V* __restrict__ vel,
                        V* __restrict__ acc_out, int n, RealOf<V> eps2, float dt, float damping) {
  __shared__ V tile[BlockSize];
  const int i = blockIdx.x * BlockSize + threadIdx.x;
  const V pi = load_or_pad(pos_in, i, n);
  AccOf<V> acc{0, 0, 0};
  for (int base = 0; base < n; base += BlockSize) {
    tile[threadIdx.x] = load_or_pad(pos_in, base + threadIdx.x, n);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BlockSize; ++k) body_body(pi, tile[k], eps2, acc);
    __syncthreads();
  }
  if (i < n) finish_body(pi, pos_out, vel, acc_out, i, acc, dt, damping);
}

template <int BlockSize, class V>
void launch_static(const V* pos_in, V* pos_out, V* vel, V* acc_out, int n, int grid, RealOf<V> eps2,
                   const SimParams& p) {
  tiled_static_kernel<V, BlockSize>
      <<<grid, BlockSize>>>(pos_in, pos_out, vel, acc_out, n, eps2, p.dt, p.damping);
  CUDA_CHECK_LAUNCH("tiled_static_kernel");
}

template <class V>
void launch_static_for(int block_size, const V* pos_in, V* pos_out, V* vel, V* acc_out, int n,
                       int grid, RealOf<V> eps2, const SimParams& p) {
  with_block_size<32, 64, 128, 256, 512, 1024>(block_size, "cuda-static", [&](auto b) {
    launch_static<decltype(b)::value>(pos_in, pos_out, vel, acc_out, n, grid, eps2, p);
  });
}

class CudaTiledSolver final : public Solver {
 public:
  CudaTiledSolver(std::string name, int block_size, bool is_static)
      : m_name(std::move(name)), m_block(block_size), m_static(is_static) {}
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return true; }
  int block_size() const override { return m_block; }

  bool has_fused_step() const override { return true; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    launch<Vec4>(pos_in, pos_out, vel, nullptr, n, blocks(n), p);
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    launch<Vec4>(pos, nullptr, nullptr, acc, n, blocks(n), p);
  }
  bool can_spread() const override { return true; }
  // A part is a run of whole blocks (rows of bodies), computed by the whole pass's kernel on
  // fewer blocks. A kernel that took the part's bounds ran 9% slower per row with the same
  // instructions (ptxas schedules it differently; docs/multi-gpu.md), so a part that does not
  // start at body 0 runs on a copy of the bodies rotated to start at its first row, read twice
  // over so the sources are still all n; its rows' sums land in m_rows, then in acc.
  void accelerations_part(const Vec4* pos, Vec4* acc, int n, Part part,
                          const SimParams& p) override {
    check_part(part, n);
    const int first_block = static_cast<int>(part.first(blocks(n)));
    const int grid = static_cast<int>(part.end(blocks(n))) - first_block;
    if (grid == 0) return;
    if (first_block == 0) return launch<Vec4>(pos, nullptr, nullptr, acc, n, grid, p);
    const std::size_t count = static_cast<std::size_t>(n);
    const int first = first_block * m_block;
    m_ring.enlarge(2 * count);
    m_rows.enlarge(static_cast<std::size_t>(grid) * static_cast<std::size_t>(m_block));
    CUDA_CHECK_THROW(
        cudaMemcpyAsync(m_ring.data(), pos, count * sizeof(Vec4), cudaMemcpyDeviceToDevice, 0));
    CUDA_CHECK_THROW(cudaMemcpyAsync(m_ring.data() + count, pos, count * sizeof(Vec4),
                                     cudaMemcpyDeviceToDevice, 0));
    launch<Vec4>(m_ring.data() + first, nullptr, nullptr, m_rows.data(), n, grid, p);
    const int rows = std::min(first + grid * m_block, n) - first;
    CUDA_CHECK_THROW(cudaMemcpyAsync(acc + first, m_rows.data(),
                                     static_cast<std::size_t>(rows) * sizeof(Vec4),
                                     cudaMemcpyDeviceToDevice, 0));
  }
  bool has_double() const override { return true; }
  void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p) override {
    launch<Vec4d>(pos, nullptr, nullptr, acc, n, blocks(n), p);
  }

 private:
  int blocks(int n) const { return (n + m_block - 1) / m_block; }

  template <class V>
  void launch(const V* pos_in, V* pos_out, V* vel, V* acc_out, int n, int grid,
              const SimParams& p) {
    if (n < 1) throw std::invalid_argument(m_name + ": N must be >= 1");
    using Real = RealOf<V>;
    const Real eps2 = Real(p.softening) * Real(p.softening);
    if (m_static)
      return launch_static_for(m_block, pos_in, pos_out, vel, acc_out, n, grid, eps2, p);
    const std::size_t shared = m_block * sizeof(V);
    tiled_dynamic_kernel<V>
        <<<grid, m_block, shared>>>(pos_in, pos_out, vel, acc_out, n, eps2, p.dt, p.damping);
    CUDA_CHECK_LAUNCH("tiled_dynamic_kernel");
  }

  std::string m_name;
  int m_block;
  bool m_static;
  GpuBuffer<Vec4> m_ring;  // a part's sources: the bodies twice over
  GpuBuffer<Vec4> m_rows;  // a part's sums, before they go to its rows of acc
};

}  // namespace

std::unique_ptr<Solver> make_cuda_dynamic_solver(int block_size) {
  return std::make_unique<CudaTiledSolver>("cuda-dynamic", block_size, false);
}

std::unique_ptr<Solver> make_cuda_static_solver(int block_size) {
  return std::make_unique<CudaTiledSolver>("cuda-static", block_size, true);
}

}  // namespace orrery
