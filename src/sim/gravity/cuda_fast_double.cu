// cuda-fast in double precision (--precision double): all-pairs accelerations with
// fast_double.cuh's reciprocal cube. The masses' factors of its series are computed once a tile,
// in shared memory, so an interaction costs 15 double operations; pair mode
// (cuda_fast_pairs.cu) takes each pair once, 10 an interaction.
#include <algorithm>

#include "cuda_fast.h"
#include "fast_double.cuh"
#include "orrery/cuda_check.cuh"

namespace orrery {
namespace {

template <int Block, int R>
__global__ void __launch_bounds__(Block)
    fast_double_kernel(const Vec4d* __restrict__ pos, Vec4d* __restrict__ acc, int n, int n_j,
                       double eps2) {
  __shared__ Vec4d tile_p[Block];
  __shared__ double2 tile_m[Block];
  const int first = blockIdx.x * (Block * R) + threadIdx.x;
  double xi[R], yi[R], zi[R], ax[R], ay[R], az[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * Block;
    const Vec4d p = i < n ? pos[i] : Vec4d{0, 0, 0, 0};
    xi[r] = p.x, yi[r] = p.y, zi[r] = p.z;
    ax[r] = 0, ay[r] = 0, az[r] = 0;
  }
  for (int base = 0; base < n_j; base += Block) {
    const int j = base + threadIdx.x;
    // Past the end: a massless body at the origin adds exactly nothing (eps2 > 0).
    const Vec4d p = j < n_j ? pos[j] : Vec4d{0, 0, 0, 0};
    tile_p[threadIdx.x] = p;
    tile_m[threadIdx.x] = make_double2(1.5 * p.w, 1.875 * p.w);
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < Block; ++k) {
      const Vec4d s = tile_p[k];
      const double2 c = tile_m[k];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const double dx = s.x - xi[r], dy = s.y - yi[r], dz = s.z - zi[r];
        const double r2 = fma(dz, dz, fma(dy, dy, fma(dx, dx, eps2)));
        const double y = rsqrt_estimate(r2);
        const double y2 = y * y;
        const double e = fma(-r2, y2, 1.0);
        const double mt = fma(e, c.y, c.x);  // m (3/2 + 15/8 e)
        const double mu = fma(e, mt, s.w);   // m (1 + 3/2 e + 15/8 e^2)
        const double f = mu * (y2 * y);      // m r^-3
        ax[r] = fma(f, dx, ax[r]);
        ay[r] = fma(f, dy, ay[r]);
        az[r] = fma(f, dz, az[r]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = first + r * Block;
    if (i < n) acc[i] = Vec4d{ax[r], ay[r], az[r], 0.0};
  }
}

template <int Block, int R>
void launch(const Vec4d* pos, Vec4d* acc, int n, int n_j, double eps2) {
  const long long per_block = static_cast<long long>(Block) * R;
  const int grid = static_cast<int>((n + per_block - 1) / per_block);
  fast_double_kernel<Block, R><<<grid, Block>>>(pos, acc, n, n_j, eps2);
  CUDA_CHECK_LAUNCH("fast_double_kernel");
}

}  // namespace

const std::vector<FastConfig>& fast_double_configs() {
  static const std::vector<FastConfig> configs = {{128, 1, 1, false},
                                                  {128, 2, 1, false},
                                                  {256, 1, 1, false},
                                                  {256, 2, 1, false},
                                                  {64, 4, 1, false}};
  return configs;
}

void launch_fast_double(const FastConfig& c, const Vec4d* pos, Vec4d* acc, int n, int n_j,
                        double eps2) {
  if (c.pairs) return launch_pairs_double(c, pos, acc, n, eps2);
  if (c.block == 128 && c.bodies_per_thread == 1) return launch<128, 1>(pos, acc, n, n_j, eps2);
  if (c.block == 128 && c.bodies_per_thread == 2) return launch<128, 2>(pos, acc, n, n_j, eps2);
  if (c.block == 256 && c.bodies_per_thread == 1) return launch<256, 1>(pos, acc, n, n_j, eps2);
  if (c.block == 256 && c.bodies_per_thread == 2) return launch<256, 2>(pos, acc, n, n_j, eps2);
  if (c.block == 64 && c.bodies_per_thread == 4) return launch<64, 4>(pos, acc, n, n_j, eps2);
  throw std::invalid_argument("cuda-fast has no double-precision kernel for " + to_string(c));
}

}  // namespace orrery
