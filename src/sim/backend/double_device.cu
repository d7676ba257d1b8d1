// The double-precision state on the device: GpuBuffer arrays, the passes as kernels on the default
// stream, the diagnostics' reductions summed per block and then on the host in a fixed order.
#include <vector>

#include "double_backend.h"
#include "element_kernels.cuh"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

__device__ void convert(const Vec4& from, Vec4d& to) { to = to_double(from); }
__device__ void convert(const Vec4d& from, Vec4& to) { to = to_float(from); }

// Widens float state to double (From Vec4) or narrows it back (From Vec4d).
template <class From, class To>
__global__ void convert_kernel(const From* __restrict__ pos, const From* __restrict__ vel,
                               To* __restrict__ pos_out, To* __restrict__ vel_out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  convert(pos[i], pos_out[i]);
  convert(vel[i], vel_out[i]);
}

// Sums `value` over the block; thread 0 gets it.
__device__ double block_sum(double value) { return block_reduce(value, AddOp{}); }

// partial[block][term]: a grid-stride share of the bodies' sums terms.
__global__ void __launch_bounds__(k_threads)
    sums_kernel(const Vec4d* __restrict__ pos, const Vec4d* __restrict__ vel, int n,
                double* __restrict__ partial) {
  double s[k_sum_terms] = {};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    add_body_sums(pos[i], vel[i], s);
  for (int k = 0; k < k_sum_terms; ++k) {
    const double total = block_sum(s[k]);
    if (threadIdx.x == 0) partial[blockIdx.x * k_sum_terms + k] = total;
  }
}

// partial[I] = sum over pairs (i in tile I, j > i) of m_i m_j / sqrt(r^2 + eps^2): block I takes
// tile row I and the tiles J >= I (the diagonal tile counts only k > t).
__global__ void __launch_bounds__(k_threads)
    pair_energy_kernel(const Vec4d* __restrict__ pos, int n, int tiles, double eps2,
                       double* __restrict__ partial) {
  __shared__ Vec4d tile[k_threads];
  const int t = threadIdx.x, row = blockIdx.x;
  const int i = row * k_threads + t;
  const Vec4d pi = i < n ? pos[i] : Vec4d{0, 0, 0, 0};
  double sum = 0.0;
  for (int col = row; col < tiles; ++col) {
    const int j = col * k_threads + t;
    tile[t] = j < n ? pos[j] : Vec4d{0, 0, 0, 0};
    __syncthreads();
    for (int k = 0; k < k_threads; ++k) {
      const Vec4d pj = tile[k];
      const double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      const double m = col == row && k <= t ? 0.0 : pj.w;
      sum += m * rsqrt(eps2 + dx * dx + dy * dy + dz * dz);
    }
    __syncthreads();
  }
  const double total = block_sum(pi.w * sum);
  if (t == 0) partial[row] = total;
}

class CudaDoubleBackend final : public DevicePasses<DoubleBackend, Vec4d> {
 public:
  CudaDoubleBackend() { require_device(); }

  void widen(const Vec4* pos, const Vec4* vel, int n) override {
    resize(n);
    convert_kernel<<<blocks_for(n), k_threads>>>(pos, vel, m_pos, m_vel, n);
    CUDA_CHECK_LAUNCH("widen to double");
  }
  void upload(const Vec4d* pos, const Vec4d* vel, int n) override {
    resize(n);
    const std::size_t bytes = sizeof(Vec4d) * static_cast<std::size_t>(n);
    gpu_memory::upload(m_pos, pos, bytes);
    gpu_memory::upload(m_vel, vel, bytes);
  }
  void narrow(Vec4* pos, Vec4* vel) override {
    if (m_n == 0) return;
    convert_kernel<<<blocks_for(m_n), k_threads>>>(m_pos, m_vel, pos, vel, m_n);
    CUDA_CHECK_LAUNCH("narrow to float");
  }
  void download(std::vector<Vec4d>& pos, std::vector<Vec4d>& vel) override {
    const std::size_t n = static_cast<std::size_t>(m_n);
    pos.resize(n), vel.resize(n);
    device_synchronize();
    gpu_memory::download(pos.data(), m_pos, sizeof(Vec4d) * n);
    gpu_memory::download(vel.data(), m_vel, sizeof(Vec4d) * n);
  }

  Sums sums() override {
    const int blocks = std::max(1, std::min(blocks_for(m_n), 1024));
    const std::vector<double> part = reduce(blocks * k_sum_terms, [&](double* out) {
      sums_kernel<<<blocks, k_threads>>>(m_pos, m_vel, m_n, out);
      CUDA_CHECK_LAUNCH("sums_kernel");
    });
    double s[k_sum_terms] = {};
    for (int b = 0; b < blocks; ++b)
      for (int k = 0; k < k_sum_terms; ++k) s[k] += part[b * k_sum_terms + k];
    return sums_of(s);
  }
  double potential_energy(double softening) override {
    const int tiles = blocks_for(m_n);
    const std::vector<double> part = reduce(tiles, [&](double* out) {
      pair_energy_kernel<<<tiles, k_threads>>>(m_pos, m_n, tiles, softening * softening, out);
      CUDA_CHECK_LAUNCH("pair_energy_kernel");
    });
    double w = 0.0;
    for (double v : part) w -= v;
    return w;
  }

 private:
  void resize(int n) {
    const std::size_t count = static_cast<std::size_t>(n);
    for (GpuBuffer<Vec4d>* a : {&m_a, &m_b, &m_v, &m_f, &m_g}) a->resize(count);
    m_pos = m_a.data(), m_next = m_b.data(), m_vel = m_v.data(), m_acc = m_f.data();
    m_prev = m_g.data();
    m_n = n;
  }
  // `count` doubles a launch writes into device scratch, copied back (waits).
  template <class Launch>
  std::vector<double> reduce(int count, Launch launch) {
    m_partial.enlarge(static_cast<std::size_t>(count));
    launch(m_partial.data());
    std::vector<double> host(static_cast<std::size_t>(count));
    m_partial.download(host.data(), host.size());
    return host;
  }
  GpuBuffer<Vec4d> m_a, m_b, m_v, m_f, m_g;
  GpuBuffer<double> m_partial;
};

}  // namespace

std::unique_ptr<DoubleBackend> make_cuda_double_backend() {
  return std::make_unique<CudaDoubleBackend>();
}

}  // namespace orrery
