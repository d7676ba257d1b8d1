// `cuda-fast`: the tuned exact all-pairs solver. Several bodies per thread share each shared-memory
// load; at small N the j-range is split across blocks and a second kernel reduces and integrates;
// an autotuner picks block size, bodies per thread and split count for the N and GPU at hand.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>
#include <vector>

#include "cuda_fast.h"
#include "cuda_solvers.h"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"

namespace orrery {
namespace {

// Partial accelerations of bodies [tile_i, tile_i + B*R) from bodies [j_begin, j_end), the tiles
// covering the target bodies [first, last) (all of them, or a part when spread over GPUs).
// Thread t owns bodies tile_i + t + r*B (r < R), so global loads and stores stay coalesced.
// With splits == 1 the block integrates at once; otherwise it writes partial[split][i - first].
// Rows: a part of the targets; without, first is 0 at compile time, so the whole pass keeps the
// code it had before parts existed.
template <int B, int R, bool Rows>
__global__ void __launch_bounds__(B)
    fast_kernel(const Vec4* __restrict__ pos_in, Vec4* __restrict__ pos_out, Vec4* __restrict__ vel,
                Vec4* __restrict__ partial, Vec4* __restrict__ acc_out, int first, int last,
                int n_j, int j_chunk, float eps2, float dt, float damping) {
  if (!Rows) first = 0;
  // Two tiles: while the block works on one, the next is already loaded into registers, and
  // the next write goes to the other tile, so one barrier per tile is enough.
  __shared__ Vec4 tile[2][B];
  const int tile_i = first + blockIdx.x * (B * R);
  const int split = blockIdx.y;
  const int j_begin = split * j_chunk;
  const int j_end = min(n_j, j_begin + j_chunk);

  Vec4 pi[R];
  Vec3 acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = tile_i + r * B + threadIdx.x;
    pi[r] = i < last ? pos_in[i] : Vec4{0.0f, 0.0f, 0.0f, 0.0f};
    acc[r] = Vec3{0.0f, 0.0f, 0.0f};
  }
  // Zero-mass padding past the end of the range: its term is exactly zero (softening > 0).
  auto load = [&](int j) { return j < j_end ? pos_in[j] : Vec4{0.0f, 0.0f, 0.0f, 0.0f}; };
  Vec4 next = load(j_begin + threadIdx.x);
  int buf = 0;
  for (int base = j_begin; base < j_end; base += B) {
    tile[buf][threadIdx.x] = next;
    __syncthreads();
    next = load(base + B + threadIdx.x);  // in flight while this tile is consumed
    const Vec4* t = tile[buf];
    // Unrolled 16 times (32 with one body per thread): measured best on an H100; unrolling the
    // whole tile overflows the instruction cache and runs up to 30% slower (docs/benchmarks.md).
    constexpr int unroll = R == 1 ? 32 : 16;
#pragma unroll(unroll)
    for (int k = 0; k < B; ++k) {
      const Vec4 pj = t[k];
#pragma unroll
      for (int r = 0; r < R; ++r) body_body(pi[r], pj, eps2, acc[r]);
    }
    buf ^= 1;
  }
  // Every thread passed every barrier; only now do threads past the end drop out.
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = tile_i + r * B + threadIdx.x;
    if (i >= last) continue;
    if (gridDim.y > 1) {
      partial[static_cast<size_t>(split) * (last - first) + (i - first)] =
          Vec4{acc[r].x, acc[r].y, acc[r].z, 0.0f};
    } else if (acc_out) {  // the solver's acceleration pass
      acc_out[i] = Vec4{acc[r].x, acc[r].y, acc[r].z, 0.0f};
    } else {
      Vec4 v = vel[i];
      integrate(pi[r], pos_out[i], v, acc[r], dt, damping);
      vel[i] = v;
    }
  }
}

// Sums the split partial accelerations of each body and integrates (or, with acc_out, stores the
// sum).
__global__ void reduce_integrate_kernel(const Vec4* __restrict__ pos_in, Vec4* __restrict__ pos_out,
                                        Vec4* __restrict__ vel, const Vec4* __restrict__ partial,
                                        Vec4* __restrict__ acc_out, int first, int last, int splits,
                                        float dt, float damping) {
  const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= last) return;  // no barrier in this kernel
  Vec3 acc{0.0f, 0.0f, 0.0f};
  for (int s = 0; s < splits; ++s) {
    const Vec4 a = partial[static_cast<size_t>(s) * (last - first) + (i - first)];
    acc.x += a.x, acc.y += a.y, acc.z += a.z;
  }
  if (acc_out) {
    acc_out[i] = Vec4{acc.x, acc.y, acc.z, 0.0f};
    return;
  }
  Vec4 v = vel[i];
  integrate(pos_in[i], pos_out[i], v, acc, dt, damping);
  vel[i] = v;
}

template <int B, int R>
void launch_fast_br(dim3 grid, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                    Vec4* acc_out, BodyRange t, int n_j, int j_chunk, float eps2,
                    const SimParams& p) {
  if (t.first == 0)
    fast_kernel<B, R, false><<<grid, B>>>(pos_in, pos_out, vel, partial, acc_out, 0, t.end(), n_j,
                                          j_chunk, eps2, p.dt, p.damping);
  else
    fast_kernel<B, R, true><<<grid, B>>>(pos_in, pos_out, vel, partial, acc_out, t.first, t.end(),
                                         n_j, j_chunk, eps2, p.dt, p.damping);
  CUDA_CHECK_LAUNCH("fast_kernel");
}

template <int B>
void launch_fast_b(int r, dim3 grid, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                   Vec4* acc_out, BodyRange t, int n_j, int j_chunk, float eps2,
                   const SimParams& p) {
  const bool found = with_constant<1, 2, 4, 8>(r, [&](auto rows) {
    launch_fast_br<B, decltype(rows)::value>(grid, pos_in, pos_out, vel, partial, acc_out, t, n_j,
                                             j_chunk, eps2, p);
  });
  if (!found)
    throw std::invalid_argument("cuda-fast: no kernel for " + std::to_string(r) +
                                " bodies per thread");
}

}  // namespace

const std::vector<int>& fast_block_sizes() {
  static const std::vector<int> v = {64, 128, 256, 512};
  return v;
}

const std::vector<int>& fast_bodies_per_thread() {
  static const std::vector<int> v = {1, 2, 4, 8};
  return v;
}

std::string to_string(const FastConfig& c) {
  std::ostringstream s;
  s << "block " << c.block << " bodies/thread " << c.bodies_per_thread;
  if (c.pairs)
    s << " pairs";
  else
    s << " j-split " << c.splits;
  return s.str();
}

std::size_t fast_partial_size(const FastConfig& c, int n) {
  if (c.pairs) return static_cast<std::size_t>(n);
  return c.splits > 1 ? static_cast<std::size_t>(c.splits) * n : 0;
}

// Runs one step with configuration c for the targets over the j-range [0, n_j) (n_j < n only
// when the autotuner times a truncated range). `partial` holds at least
// fast_partial_size(c, targets.count) elements.
namespace {

// launch_fast for the target rows alone (all n in a step).
void launch_rows(const FastConfig& c, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                 int n, int n_j, BodyRange targets, const SimParams& p, Vec4* acc_out) {
  const float eps2 = p.softening * p.softening;
  if (targets.count < 1) return;
  if (c.pairs) {  // accelerations of the first n_j bodies (all of them in a real step)
    if (acc_out) return launch_pairs(c, pos_in, acc_out, n_j, eps2);
    launch_pairs(c, pos_in, partial, n_j, eps2);
    const int threads = 256;
    reduce_integrate_kernel<<<(n_j + threads - 1) / threads, threads>>>(
        pos_in, pos_out, vel, partial, nullptr, 0, n_j, 1, p.dt, p.damping);
    CUDA_CHECK_LAUNCH("reduce_integrate_kernel");
    return;
  }
  const int per_block = c.block * c.bodies_per_thread;
  const int j_per_split = (n_j + c.splits - 1) / c.splits;
  const int j_chunk = (j_per_split + c.block - 1) / c.block * c.block;  // whole tiles per split
  const dim3 grid((targets.count + per_block - 1) / per_block, c.splits);
  with_block_size<64, 128, 256, 512>(c.block, "cuda-fast", [&](auto b) {
    launch_fast_b<decltype(b)::value>(c.bodies_per_thread, grid, pos_in, pos_out, vel, partial,
                                      acc_out, targets, n_j, j_chunk, eps2, p);
  });
  if (c.splits > 1) {
    const int threads = 256;
    reduce_integrate_kernel<<<(targets.count + threads - 1) / threads, threads>>>(
        pos_in, pos_out, vel, partial, acc_out, targets.first, targets.end(), c.splits, p.dt,
        p.damping);
    CUDA_CHECK_LAUNCH("reduce_integrate_kernel");
  }
}

}  // namespace

void launch_fast(const FastConfig& c, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                 int n, int n_j, const SimParams& p, Vec4* acc_out) {
  launch_rows(c, pos_in, pos_out, vel, partial, n, n_j, BodyRange{0, n}, p, acc_out);
}

void launch_fast_part(const FastConfig& c, const Vec4* pos, Vec4* acc, Vec4* partial, int n,
                      Part part, const SimParams& p) {
  if (c.pairs) {
    const long long blocks = fast_pair_blocks(n, c.block * c.bodies_per_thread);
    launch_pairs_part(c, pos, acc, n, p.softening * p.softening, part.first(blocks),
                      part.end(blocks));
    return;
  }
  // The rows' kernels write their bodies' sums, which no other part touches.
  launch_rows(c, pos, nullptr, nullptr, partial, n, n, part.bodies(n), p, acc);
}

}  // namespace orrery
