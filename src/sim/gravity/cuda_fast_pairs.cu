// `cuda-fast`'s pair mode: each pair of bodies is visited once and its force applied to both
// (Newton's third law), about 8.5 issue slots per counted interaction instead of 13; in float and,
// for --precision double, on Vec4d with fast_double.cuh's interactions.
#include "cuda_fast.h"
#include "fast_double.cuh"
#include "orrery/cuda_check.cuh"

namespace orrery {
namespace {

// One block per unordered pair of tiles {I, J} of T = B*R bodies, P(P+1)/2 blocks in all: block
// b takes x = b mod P, y = b / P, I = x, J = (x + y) mod P. y = 0 is the diagonal (I = J); with
// P even, the pairs of column y = P/2 come twice in it, and the grid ends halfway down it.
// Off the diagonal, each warp takes 32-body chunks of tile J in turn: lane l holds body l of the
// chunk and its acceleration, meets its R bodies of tile I, and passes both to lane l - 1, so
// after 32 steps every lane met every body of the chunk and each body is back home; then its
// acceleration is added to the block's shared sum (atomically: warps do not move in step).
// All accelerations end in `acc` (zeroed by the caller) through global atomic adds.
// Offset: the grid is a part of the whole one, from block block_first; without, the code the
// whole pass always had (an offset in it made the 1M step 6% slower on an H200).
template <class V, int B, int R, bool Offset>
__global__ void __launch_bounds__(B)
    pairs_kernel(const V* __restrict__ pos, V* __restrict__ acc, int n, int tiles, RealOf<V> eps2,
                 unsigned block_first) {
  using A = AccOf<V>;
  constexpr int T = B * R;
  __shared__ V tile_pos[T];
  __shared__ A tile_acc[T];
  // The grid may be a part of the whole one (spread over GPUs): block_first is its first block.
  // 32-bit: the whole grid has at most k_max_grid_x blocks (64-bit indices cost 8% at 1M).
  const unsigned b = Offset ? block_first + blockIdx.x : blockIdx.x;
  const int tile_i = static_cast<int>(b % tiles);
  const int tile_j = static_cast<int>((b % tiles + b / tiles) % tiles);

  V pi[R];
  A ai[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = tile_i * T + r * B + threadIdx.x;
    pi[r] = i < n ? pos[i] : V{0, 0, 0, 0};  // padding: zero mass
    ai[r] = A{0, 0, 0};
    const int j = tile_j * T + r * B + threadIdx.x;
    tile_pos[r * B + threadIdx.x] = j < n ? pos[j] : V{0, 0, 0, 0};
    tile_acc[r * B + threadIdx.x] = A{0, 0, 0};
  }
  __syncthreads();

  if (tile_i == tile_j) {  // block-uniform: one-sided over the tile itself (self term is zero)
#pragma unroll 16
    for (int k = 0; k < T; ++k) {
      const V pj = tile_pos[k];
#pragma unroll
      for (int r = 0; r < R; ++r) fast_body(pi[r], pj, eps2, ai[r]);
    }
  } else {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int next = (lane + 1) & 31;
    constexpr int chunks = T / 32;
    for (int cc = 0; cc < chunks; ++cc) {
      const int c = (cc + warp) % chunks;  // warps start on different chunks
      V pj = tile_pos[c * 32 + lane];
      A aj{0, 0, 0};
#pragma unroll 8
      for (int k = 0; k < 32; ++k) {
#pragma unroll
        for (int r = 0; r < R; ++r) fast_pair(pi[r], pj, eps2, ai[r], aj);
        pj.x = __shfl_sync(0xffffffffu, pj.x, next);
        pj.y = __shfl_sync(0xffffffffu, pj.y, next);
        pj.z = __shfl_sync(0xffffffffu, pj.z, next);
        pj.w = __shfl_sync(0xffffffffu, pj.w, next);
        aj.x = __shfl_sync(0xffffffffu, aj.x, next);
        aj.y = __shfl_sync(0xffffffffu, aj.y, next);
        aj.z = __shfl_sync(0xffffffffu, aj.z, next);
      }
      A& sum = tile_acc[c * 32 + lane];
      atomicAdd(&sum.x, aj.x);
      atomicAdd(&sum.y, aj.y);
      atomicAdd(&sum.z, aj.z);
    }
  }
  __syncthreads();

#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = tile_i * T + r * B + threadIdx.x;
    if (i < n) {
      atomicAdd(&acc[i].x, ai[r].x);
      atomicAdd(&acc[i].y, ai[r].y);
      atomicAdd(&acc[i].z, ai[r].z);
    }
    const int j = tile_j * T + r * B + threadIdx.x;
    if (tile_i != tile_j && j < n) {
      const A a = tile_acc[r * B + threadIdx.x];
      atomicAdd(&acc[j].x, a.x);
      atomicAdd(&acc[j].y, a.y);
      atomicAdd(&acc[j].z, a.z);
    }
  }
}

template <int B, int R, class V>
void launch_pairs_br(const V* pos, V* acc, int n, RealOf<V> eps2, long long first, long long end) {
  constexpr int T = B * R;
  const int tiles = (n + T - 1) / T;
  if (end <= first) return;
  const unsigned grid = static_cast<unsigned>(end - first);
  if (first == 0)
    pairs_kernel<V, B, R, false><<<grid, B>>>(pos, acc, n, tiles, eps2, 0u);
  else
    pairs_kernel<V, B, R, true>
        <<<grid, B>>>(pos, acc, n, tiles, eps2, static_cast<unsigned>(first));
  CUDA_CHECK_LAUNCH("pairs_kernel");
}

// The grid of tile pairs for c at n, checked against what a grid holds.
long long checked_pair_blocks(const FastConfig& c, int n) {
  const long long blocks = fast_pair_blocks(n, c.block * c.bodies_per_thread);
  if (blocks > k_max_grid_x)
    throw std::invalid_argument("cuda-fast: N = " + std::to_string(n) + " is too large for " +
                                to_string(c) + " (more tile pairs than a grid holds)");
  return blocks;
}

}  // namespace

const std::vector<FastConfig>& fast_pair_configs() {
  static const std::vector<FastConfig> v = {
      {64, 8, 1, true}, {128, 4, 1, true}, {128, 8, 1, true}, {256, 4, 1, true}};
  return v;
}

long long fast_pair_blocks(int n, int tile) {
  const long long tiles = (static_cast<long long>(n) + tile - 1) / tile;
  return tiles * (tiles + 1) / 2;
}

void launch_pairs_part(const FastConfig& c, const Vec4* pos, Vec4* acc, int n, float eps2,
                       long long first, long long end) {
  const long long blocks = checked_pair_blocks(c, n);
  if (first < 0 || end > blocks)
    throw std::invalid_argument("cuda-fast: tile pairs [" + std::to_string(first) + ", " +
                                std::to_string(end) + ") are not a part of " +
                                std::to_string(blocks));
  const int key = c.block * 16 + c.bodies_per_thread;
  switch (key) {
    case 64 * 16 + 8:
      return launch_pairs_br<64, 8>(pos, acc, n, eps2, first, end);
    case 128 * 16 + 4:
      return launch_pairs_br<128, 4>(pos, acc, n, eps2, first, end);
    case 128 * 16 + 8:
      return launch_pairs_br<128, 8>(pos, acc, n, eps2, first, end);
    case 256 * 16 + 4:
      return launch_pairs_br<256, 4>(pos, acc, n, eps2, first, end);
    default:
      throw std::invalid_argument("cuda-fast: no pair kernel for " + to_string(c));
  }
}

// Double precision's tiles are half as many bodies (the registers hold twice the bytes).
const std::vector<FastConfig>& fast_pair_double_configs() {
  static const std::vector<FastConfig> v = {
      {64, 4, 1, true}, {128, 2, 1, true}, {128, 4, 1, true}, {256, 2, 1, true}};
  return v;
}

void launch_pairs_double(const FastConfig& c, const Vec4d* pos, Vec4d* acc, int n, double eps2) {
  const long long blocks = checked_pair_blocks(c, n);
  CUDA_CHECK_THROW(cudaMemsetAsync(acc, 0, sizeof(Vec4d) * static_cast<size_t>(n)));
  switch (c.block * 16 + c.bodies_per_thread) {
    case 64 * 16 + 4:
      return launch_pairs_br<64, 4>(pos, acc, n, eps2, 0, blocks);
    case 128 * 16 + 2:
      return launch_pairs_br<128, 2>(pos, acc, n, eps2, 0, blocks);
    case 128 * 16 + 4:
      return launch_pairs_br<128, 4>(pos, acc, n, eps2, 0, blocks);
    case 256 * 16 + 2:
      return launch_pairs_br<256, 2>(pos, acc, n, eps2, 0, blocks);
    default:
      throw std::invalid_argument("cuda-fast: no double-precision pair kernel for " + to_string(c));
  }
}

void launch_pairs(const FastConfig& c, const Vec4* pos, Vec4* acc, int n, float eps2) {
  CUDA_CHECK_THROW(cudaMemsetAsync(acc, 0, sizeof(Vec4) * static_cast<size_t>(n)));
  launch_pairs_part(c, pos, acc, n, eps2, 0, fast_pair_blocks(n, c.block * c.bodies_per_thread));
}

}  // namespace orrery
