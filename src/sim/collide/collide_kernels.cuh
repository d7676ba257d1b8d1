// Private to collide_device.cu: the GPU collider's kernels - the radius histogram and cell size,
// hashed cell keys and the counting sort's placing, the 27-cell neighbour search with
// warp-aggregated appends to the contact list, the handshake rounds and the walls.
#pragma once

#include <cstdint>

#include "contact.h"
#include "orrery/collisions.h"
#include "orrery/cuda_check.cuh"

namespace orrery {
namespace {
constexpr int k_local_pairs = 8;  // pairs a thread keeps before the warp's one append
constexpr int k_rounds_max = Collider::k_bounce_rounds;
constexpr int k_counted_max = 1 << 19;  // see DeviceCollider::counted()

// The counters of one step and the running totals, in device memory (one copy read back).
struct Stats {
  unsigned long long pairs;   // this step (cleared at its start): touching pairs found by the
                              // search (may exceed the list)
  unsigned int large;         // large bodies (the radix sort's path)
  unsigned int merged;        // merges
  int any[k_rounds_max + 1];  // whether round r had a pair to resolve
  float cell, inv_cell;       // the grid (kept while the radii cannot have changed)
  double removed;             // running totals
  double impulse[3];
  unsigned long long wall_hits, merges, contacts, truncated;
};

// The pairs the rounds take this step: those found, up to the list's size and the limit.
__device__ __forceinline__ int listed_pairs(const Stats* stats, unsigned long long keep) {
  return static_cast<int>(min(stats->pairs, keep));
}

__device__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// Radius bins: warps add their bodies per bin into the block's histogram in shared memory, and
// each block adds its nonzero bins into the device's (no pile-up of atomics on one address when
// every radius is the same).
__global__ void histogram_kernel(const Vec4* __restrict__ vel, int n, unsigned* hist) {
  __shared__ unsigned local[contact::k_radius_bins];
  for (int b = threadIdx.x; b < contact::k_radius_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int b = contact::radius_bin(vel[i].w);
    const unsigned same = __match_any_sync(__activemask(), b);
    if (b >= 0 && (threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(&local[b], __popc(same));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < contact::k_radius_bins; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

// One block of k_radius_bins threads: the cell from the histogram, as cell_from_histogram() does
// on the host (the largest bin whose count with every bin above it exceeds the allowance).
__global__ void cell_kernel(const unsigned* __restrict__ hist, Stats* stats) {
  using Scan = cub::BlockScan<unsigned, contact::k_radius_bins>;
  __shared__ typename Scan::TempStorage temp;
  __shared__ int chosen, top;
  const int t = threadIdx.x, b = contact::k_radius_bins - 1 - t;  // thread t: bin b, top first
  if (t == 0) chosen = -1, top = -1;
  __syncthreads();
  unsigned above_incl;
  Scan(temp).InclusiveSum(hist[b], above_incl);
  if (hist[b] > 0) atomicMax(&top, b);
  if (above_incl > static_cast<unsigned>(contact::k_large_allowance)) atomicMax(&chosen, b);
  __syncthreads();
  if (t == 0) {
    const int pick = chosen >= 0 ? chosen : top;
    const float cell = pick >= 0 ? 2.0f * contact::bin_upper(pick) : 0.0f;
    stats->cell = cell;
    stats->inv_cell = cell > 0.0f ? 1.0f / cell : 0.0f;
  }
}

// Cell keys: a small body's hashed cell, the sentinel bucket mask + 1 for a large one (so the
// large bodies come last). With counts (the counting sort), each body counts itself into its
// bucket and keeps its rank there (the counts are zero between steps: the scatter clears them);
// without, it writes its index for the radix sort. Thread 0 clears the step's counters, which no
// kernel reads before the next one.
__global__ void hash_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel, int n,
                            std::uint32_t mask, Stats* stats, std::uint32_t* keys, int* rank,
                            std::uint32_t* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    stats->pairs = 0, stats->large = 0, stats->merged = 0;
    for (int r = 0; r <= k_rounds_max; ++r) stats->any[r] = 0;
  }
  if (i >= n) return;
  std::uint32_t key = mask + 1;
  if (!contact::is_large(vel[i].w, stats->cell)) {
    const contact::Cell c = contact::cell_of(pos[i], stats->inv_cell);
    key = contact::bucket_of(c.x, c.y, c.z, mask);
  }
  keys[i] = key;
  rank[i] = count ? static_cast<int>(atomicAdd(&count[key], 1u)) : i;
}

// The counting sort's placing, after the scan of the counts into start (a bucket's bodies are
// start[b] .. start[b + 1] - 1; the large ones from start[mask + 1] on): each body to its place,
// as (x, y, z, r), with its index. The counts are cleared for the next step.
__global__ void scatter_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                               const std::uint32_t* __restrict__ keys, const int* __restrict__ rank,
                               const std::uint32_t* __restrict__ start, int n, Vec4* sorted,
                               int* index, std::uint32_t* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t key = keys[i];
  const std::uint32_t k = start[key] + static_cast<std::uint32_t>(rank[i]);
  const Vec4 p = pos[i];
  sorted[k] = Vec4{p.x, p.y, p.z, vel[i].w};
  index[k] = i;
  count[key] = 0;
}

// After the radix sort: the sorted bodies (x, y, z, r), each bucket's first sorted body (other
// entries are stale: the search checks them against the sorted keys), and the count of large
// bodies (those from the first sentinel key on).
__global__ void ranges_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                              const std::uint32_t* __restrict__ keys, const int* __restrict__ index,
                              int n, std::uint32_t mask, Vec4* sorted, std::uint32_t* start,
                              Stats* stats) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int i = index[k];
  const Vec4 p = pos[i];
  sorted[k] = Vec4{p.x, p.y, p.z, vel[i].w};
  const std::uint32_t key = keys[k];
  if (k > 0 && keys[k - 1] == key) return;
  if (key <= mask)
    start[key] = static_cast<std::uint32_t>(k);
  else
    stats->large = static_cast<unsigned>(n - k);
}

__device__ void append_pair(int i, int j, Stats* stats, int2* pairs, unsigned long long cap) {
  const unsigned long long slot = atomicAdd(&stats->pairs, 1ull);
  if (slot < cap) pairs[slot] = make_int2(min(i, j), max(i, j));
}

// Placed body k, by 2^share_bits threads in a row (share q of them takes every shares-th of the 14
// cells and of the large list: at small N a body's cells are searched side by side). Counted: the
// counting sort's exact ranges (start[b] .. start[b + 1]); else a start is good when the sorted
// key there says so, and the bucket runs while the keys do. A small body
// searches its cell (the bodies after it) and the 13 cells after its own (for_each_forward_bucket:
// each pair once; a candidate only in its own cell), and the large list; a large body the large
// bodies above it. The first k_local_pairs pairs of each thread are appended with one atomic per
// warp; the rest one by one.
template <bool Counted>
__global__ void search_kernel(const Vec4* __restrict__ sorted, const int* __restrict__ index,
                              const std::uint32_t* __restrict__ start,
                              const std::uint32_t* __restrict__ keys, int n, int share_bits,
                              std::uint32_t mask, Stats* stats, int2* pairs, unsigned long long cap,
                              unsigned long long* choice) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int shares = 1 << share_bits;
  const int k = static_cast<int>(t >> share_bits), share = static_cast<int>(t & (shares - 1));
  const bool live = k < n && stats->cell > 0.0f;
  int mine[k_local_pairs];
  int found = 0, i = -1;
  auto keep = [&](int j) {
    if (found < k_local_pairs)
      mine[found] = j;
    else
      append_pair(i, j, stats, pairs, cap);
    ++found;
  };
  if (live) {
    i = index[k];
    if (share == 0) choice[i] = 0;  // the rounds' slots, cleared for this step
    const Vec4 bi = sorted[k];
    const int first_large = Counted ? static_cast<int>(start[mask + 1]) : n - stats->large;
    const bool small = k < first_large;
    const Vec4 pi{bi.x, bi.y, bi.z, 0.0f};
    if (small) {
      contact::Grid g;
      g.cell = stats->cell, g.inv_cell = stats->inv_cell, g.mask = mask;
      contact::for_each_forward_bucket(
          pi, g,
          [&](const contact::Cell& nc, std::uint32_t b, bool own) {
            const std::uint32_t s = start[b];
            int end = n;
            if (Counted)
              end = static_cast<int>(start[b + 1]);
            else if (s >= static_cast<std::uint32_t>(n) || keys[s] != b)
              return;  // empty (stale)
            for (int m = own ? k + 1 : static_cast<int>(s); m < end && (Counted || keys[m] == b);
                 ++m) {
              const Vec4 bj = sorted[m];
              const Vec4 pj{bj.x, bj.y, bj.z, 0.0f};
              if (!contact::same_cell(pj, g, nc)) continue;
              if (contact::touching(pi, bi.w, pj, bj.w)) keep(index[m]);
            }
          },
          share, shares);
    }
    // The large bodies: the sorted tail (a large body takes those after it).
    for (int m = (small ? first_large : k + 1) + share; m < n; m += shares) {
      const Vec4 bj = sorted[m];
      if (contact::touching(pi, bi.w, Vec4{bj.x, bj.y, bj.z, 0.0f}, bj.w)) keep(index[m]);
    }
  }
  // One atomic per warp for the kept pairs.
  const int kept = min(found, k_local_pairs);
  int offset = kept;
  const int lane = threadIdx.x & 31;
  for (int o = 1; o < 32; o <<= 1) {
    const int v = __shfl_up_sync(0xffffffffu, offset, o);
    if (lane >= o) offset += v;
  }
  const int total = __shfl_sync(0xffffffffu, offset, 31);
  unsigned long long base = 0;
  if (lane == 31 && total > 0)
    base = atomicAdd(&stats->pairs, static_cast<unsigned long long>(total));
  // Every pair found (the one-by-one appends too), for the totals: one atomic per warp.
  int all = found;
  for (int o = 16; o > 0; o >>= 1) all += __shfl_down_sync(0xffffffffu, all, o);
  if (lane == 0 && all > 0) atomicAdd(&stats->contacts, static_cast<unsigned long long>(all));
  base = __shfl_sync(0xffffffffu, base, 31);
  const unsigned long long first = base + static_cast<unsigned long long>(offset - kept);
  for (int q = 0; q < kept; ++q)
    if (first + q < cap) pairs[first + q] = make_int2(min(i, mine[q]), max(i, mine[q]));
}

// Grid-stride loops over the listed pairs (their count is on the device: no read-back).
#define FOR_EACH_PAIR(k, np) \
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < (np); k += gridDim.x * blockDim.x)

__global__ void choose_kernel(const int2* __restrict__ pairs, unsigned long long keep,
                              const Vec4* pos, const Vec4* vel, int round, bool bounce,
                              unsigned long long* choice, unsigned long long* pair_key,
                              Stats* stats, volatile unsigned long long* host_count) {
  if (round == 1 && blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long found = stats->pairs;
    if (found > keep) ++stats->truncated;
    *host_count = found;  // pinned host memory: the host reads it when the step's event is done
  }
  if (round > 1 && !stats->any[round - 1]) return;  // nothing changed in the last round
  const int np = listed_pairs(stats, keep);
  FOR_EACH_PAIR(k, np) {
    const int2 p = pairs[k];
    const unsigned long long key =
        contact::pair_key(round, pos[p.x], vel[p.x], pos[p.y], vel[p.y], p.x, p.y, bounce);
    pair_key[k] = key;
    if (key == 0) continue;
    atomicMax(&choice[p.x], key);
    atomicMax(&choice[p.y], key);
    if (!stats->any[round]) stats->any[round] = 1;
  }
}

__global__ void resolve_kernel(const int2* __restrict__ pairs, unsigned long long keep,
                               const unsigned long long* __restrict__ pair_key,
                               const unsigned long long* __restrict__ choice, Vec4* pos, Vec4* vel,
                               int round, bool bounce, float e, float eps, unsigned char* alive,
                               Stats* stats) {
  if (!stats->any[round]) return;  // the whole grid agrees: no barrier or shuffle skipped unevenly
  const int np = listed_pairs(stats, keep);
  double removed = 0.0;
  unsigned long long merged = 0;
  FOR_EACH_PAIR(k, np) {
    const unsigned long long key = pair_key[k];
    const int2 p = pairs[k];
    if (key != 0 && choice[p.x] == key && choice[p.y] == key) {
      int gone;
      removed += contact::resolve_pair(pos, vel, p.x, p.y, bounce, e, eps, gone);
      if (gone >= 0) alive[gone] = 0, ++merged;
    }
  }
  removed = warp_sum(removed);
  merged = warp_sum(merged);
  if ((threadIdx.x & 31) == 0) {
    if (removed != 0.0) atomicAdd(&stats->removed, removed);
    if (merged) {
      atomicAdd(&stats->merged, static_cast<unsigned>(merged));
      atomicAdd(&stats->merges, merged);
    }
  }
}

__global__ void walls_kernel(Vec4* pos, Vec4* vel, int n, float half, float e, Stats* stats) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  contact::WallResult w;
  if (i < n) {
    Vec4 p = pos[i], v = vel[i];
    w = contact::wall_body(p, v, half, e);
    if (w.hits) pos[i] = p, vel[i] = v;
  }
  const double removed = warp_sum(static_cast<double>(w.removed));
  const double ix = warp_sum(static_cast<double>(w.impulse[0]));
  const double iy = warp_sum(static_cast<double>(w.impulse[1]));
  const double iz = warp_sum(static_cast<double>(w.impulse[2]));
  const unsigned long long hits = warp_sum(static_cast<unsigned long long>(w.hits));
  if ((threadIdx.x & 31) == 0 && hits) {
    atomicAdd(&stats->removed, removed);
    atomicAdd(&stats->impulse[0], ix), atomicAdd(&stats->impulse[1], iy);
    atomicAdd(&stats->impulse[2], iz), atomicAdd(&stats->wall_hits, hits);
  }
}

}  // namespace
}  // namespace orrery
