// Private to cuda_bh.cu: the walk half of `cuda-bh` - one warp serves 32 consecutive bodies with
// one breadth-first traversal and a box opening test; groups whose frontier overflows are walked
// again by the one-warp retry pass.
#pragma once

#include "cuda_bh_tree.cuh"

namespace orrery {
namespace {
__device__ __forceinline__ float warp_min(float v) {
  for (int o = 16; o > 0; o /= 2) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// A warp's walk of one group, breadth first (after Bonsai): each round the warp tests 32 nodes of
// the frontier at once, one a lane, against the group's box; accepted nodes go to a cell list,
// opened buckets' bodies to a body list, opened nodes' children to the next frontier. Each list
// is evaluated 32 entries at a time: the lanes load the 32 entries' data together into shared
// memory, then every lane (one body of the group each) sums all 32. So a memory round trip
// serves 32 nodes, not one. The frontier lives in global memory, `capacity` entries per level a
// warp; a group whose frontier outgrows it is not cut: it is left to the retry pass.
struct WarpShared {
  int cells[64], bodies[64];
  Vec4 cell_com[32], cell_q[32], cell_q2[32];
  Vec4 body_pos[32];
};

template <bool Potential>
struct Walker {
  const Vec4* __restrict__ sorted;
  Tree t;
  float eps2;
  Vec4 p;  // this lane's body
  int k;   // its sorted index
  Vec4 acc;

  __device__ void flush_cells(WarpShared& sh, int count, int lane) {
    if (lane < count) {
      const int c = sh.cells[lane];
      sh.cell_com[lane] = t.com[c];
      sh.cell_q[lane] = t.quad[c];
      sh.cell_q2[lane] = t.quad2_open[c];
    }
    __syncwarp();
    for (int j = 0; j < count; ++j) {
      const Vec4 com = sh.cell_com[j], q = sh.cell_q[j], q2 = sh.cell_q2[j];
      const float quad[6] = {q.x, q.y, q.z, q.w, q2.x, q2.y};
      Vec4 f{0.0f, 0.0f, 0.0f, 0.0f};
      cell_field(p.x - com.x, p.y - com.y, p.z - com.z, com.w, quad, q2.w, eps2, f);
      acc.x += f.x, acc.y += f.y, acc.z += f.z;
      if (Potential) acc.w += f.w;
    }
    __syncwarp();
  }

  __device__ void flush_bodies(WarpShared& sh, int count, int lane) {
    if (lane < count) sh.body_pos[lane] = sorted[sh.bodies[lane]];
    __syncwarp();
    for (int j = 0; j < count; ++j) {
      const Vec4 q = sh.body_pos[j];
      Vec3 a{0.0f, 0.0f, 0.0f};
      body_body(p, q, eps2, a);
      acc.x += a.x, acc.y += a.y, acc.z += a.z;
      if (Potential && sh.bodies[j] != k) {
        const float rx = q.x - p.x, ry = q.y - p.y, rz = q.z - p.z;
        acc.w -= q.w * rsqrtf(eps2 + rx * rx + ry * ry + rz * rz);
      }
    }
    __syncwarp();
  }
};

// The relative test's state (octree.h): each body's |a| of the last force pass by body index,
// read as a group starts and rewritten as it ends (a body is in one group only), and the sum and
// count of those |a| for the next pass's floor.
struct Relative {
  const float* known;  // |a| by body of the last force pass; null: none, the box test alone
  float* write;        // where this pass leaves its |a| (null: nowhere, a potentials pass)
  float alpha;         // k_relative theta^3
  // The least |a| a group is held to: floor_fraction of the mean of the last pass's (its sum and
  // bodies in known_totals).
  float floor_fraction;
  const double* known_totals;
  double* totals;  // sum of |a| and bodies, added to by this pass (null: not)
};

// Moves list entries [32, count) to the front after a flush of the first 32.
__device__ __forceinline__ void shift_list(int* list, int count, int lane) {
  const int v = lane + 32 < count ? list[lane + 32] : 0;
  __syncwarp();
  if (lane + 32 < count) list[lane] = v;
  __syncwarp();
}

// Walks group `grp` (first body, count) with frontier buffers a and b of `capacity` entries each.
// Returns false, having written nothing, when the frontier outgrew them.
template <bool Potential>
__device__ bool walk_group(const Vec4* __restrict__ sorted, const int* __restrict__ index, int n,
                           const Tree& t, int2 grp, float eps2, Vec4* __restrict__ out,
                           int* __restrict__ a, int* __restrict__ b, int capacity, WarpShared& sh,
                           const Relative& rel, unsigned long long& pp, unsigned long long& pc) {
  const int lane = threadIdx.x % 32;
  const unsigned below = (1u << lane) - 1u;
  const bool valid = lane < grp.y;
  const int k = grp.x + (valid ? lane : 0);
  const int body = index[k];
  Walker<Potential> w{sorted, t, eps2, sorted[k], k, Vec4{0.0f, 0.0f, 0.0f, 0.0f}};
  const Vec4 p = w.p;
  const float3 glo = make_float3(warp_min(p.x), warp_min(p.y), warp_min(p.z));
  const float3 ghi = make_float3(warp_max(p.x), warp_max(p.y), warp_max(p.z));
  // The relative test's squared distance a unit of reach2, (alpha |a|)^(-2/5) for the group's
  // least |a|; 0 (the box test alone) when none is known.
  float scale = 0.0f;
  if (rel.known) {
    const float floor = static_cast<float>(rel.floor_fraction * rel.known_totals[0] /
                                           fmax(rel.known_totals[1], 1.0));
    scale = relative_scale(rel.alpha, fmaxf(warp_min(rel.known[body]), floor));
  }
  const unsigned long long members = static_cast<unsigned long long>(grp.y);
  int ncells = 0, nbodies = 0;
  if (lane == 0) a[0] = n > 1 ? 0 : ~0;
  int level = 1;
  __syncwarp();
  while (level > 0) {
    int next = 0;
    for (int base = 0; base < level; base += 32) {
      const int i = base + lane;
      int node = i < level ? a[i] : 0;
      bool accept = false, open = false;
      int first = 0, size = 0;  // a bucket's bodies to sum directly
      if (i < level) {
        if (node < 0) {  // a single body
          first = ~node, size = 1;
        } else {
          const Vec4 com = t.com[node];
          const Vec4 q2o = t.quad2_open[node];
          const Vec4 lo = t.lo[node], hi = t.hi[node];
          const int2 r = t.range[node];
          if (com.w != 0.0f) {  // a massless node attracts nothing
            const bool overlap = lo.x <= ghi.x && hi.x >= glo.x && lo.y <= ghi.y && hi.y >= glo.y &&
                                 lo.z <= ghi.z && hi.z >= glo.z;
            const float dx = fmaxf(fmaxf(glo.x - com.x, com.x - ghi.x), 0.0f);
            const float dy = fmaxf(fmaxf(glo.y - com.y, com.y - ghi.y), 0.0f);
            const float dz = fmaxf(fmaxf(glo.z - com.z, com.z - ghi.z), 0.0f);
            const float d2 = dx * dx + dy * dy + dz * dz;
            if (!overlap && d2 > q2o.z * q2o.z && d2 >= lo.w * scale)
              accept = true;
            else if (r.y - r.x + 1 <= k_bucket)
              first = r.x, size = r.y - r.x + 1;
            else
              open = true;
          }
        }
      }
      // Opened nodes' children to the next frontier.
      const unsigned opens = __ballot_sync(0xffffffffu, open);
      const int at = next + 2 * __popc(opens & below);
      next += 2 * __popc(opens);
      if (next > capacity) return false;  // the whole warp sees the same `next`
      if (open) {
        const int2 ch = t.child[node];
        b[at] = ch.x, b[at + 1] = ch.y;
      }
      // Accepted cells to the cell list, evaluated 32 at a time.
      const unsigned accepts = __ballot_sync(0xffffffffu, accept);
      if (accept) sh.cells[ncells + __popc(accepts & below)] = node;
      ncells += __popc(accepts);
      __syncwarp();
      if (ncells >= 32) {
        w.flush_cells(sh, 32, lane);
        pc += 32 * members;
        shift_list(sh.cells, ncells, lane);
        ncells -= 32;
      }
      // Buckets' bodies to the body list, one body of every bucket a round.
      for (int j = 0;; ++j) {
        const bool emit = j < size;
        const unsigned emits = __ballot_sync(0xffffffffu, emit);
        if (emits == 0) break;
        if (emit) sh.bodies[nbodies + __popc(emits & below)] = first + j;
        nbodies += __popc(emits);
        __syncwarp();
        if (nbodies >= 32) {
          w.flush_bodies(sh, 32, lane);
          pp += 32 * members;
          shift_list(sh.bodies, nbodies, lane);
          nbodies -= 32;
        }
      }
    }
    int* swap = a;
    a = b, b = swap;
    level = next;
    __syncwarp();
  }
  if (ncells > 0) w.flush_cells(sh, ncells, lane), pc += ncells * members;
  if (nbodies > 0) w.flush_bodies(sh, nbodies, lane), pp += nbodies * members;
  const Vec4 f = w.acc;
  if (valid && out) out[body] = Potential ? Vec4{0.0f, 0.0f, 0.0f, f.w} : Vec4{f.x, f.y, f.z, 0.0f};
  if (!Potential && rel.write) {
    float mag = valid ? sqrtf(f.x * f.x + f.y * f.y + f.z * f.z) : 0.0f;
    if (valid) rel.write[body] = mag;
    if (rel.totals) {
      for (int o = 16; o > 0; o /= 2) mag += __shfl_xor_sync(0xffffffffu, mag, o);
      if (lane == 0) atomicAdd(&rel.totals[0], static_cast<double>(mag));
      if (lane == 0) atomicAdd(&rel.totals[1], static_cast<double>(grp.y));
    }
  }
  return true;
}

// Resident warps take groups from a counter; a group whose frontier outgrows the warp's buffers
// goes on the retry list for retry_kernel, which has room for any frontier.
template <bool Potential>
__global__ void __launch_bounds__(32 * k_walk_warps)
    walk_kernel(const Vec4* __restrict__ sorted, const int* __restrict__ index, int n, Tree t,
                const int2* __restrict__ groups, const int* __restrict__ group_count,
                int* __restrict__ next_group, float eps2, Relative rel, Vec4* __restrict__ out,
                int* __restrict__ frontier, int capacity, int2* __restrict__ retry,
                int* __restrict__ retry_count, unsigned long long* __restrict__ counts) {
  __shared__ WarpShared shared[k_walk_warps];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const long long warp_id = static_cast<long long>(blockIdx.x) * k_walk_warps + w;
  int* a = frontier + warp_id * 2 * capacity;
  int* b = a + capacity;
  const int total = *group_count;
  unsigned long long pp = 0, pc = 0;
  for (;;) {
    int g = 0;
    if (lane == 0) g = atomicAdd(next_group, 1);
    g = __shfl_sync(0xffffffffu, g, 0);
    if (g >= total) break;
    const int2 grp = groups[g];
    unsigned long long gpp = 0, gpc = 0;
    if (walk_group<Potential>(sorted, index, n, t, grp, eps2, out, a, b, capacity, shared[w], rel,
                              gpp, gpc)) {
      pp += gpp, pc += gpc;
    } else if (lane == 0) {
      retry[atomicAdd(retry_count, 1)] = grp;
    }
    __syncwarp();
  }
  if (lane == 0) {
    atomicAdd(&counts[0], pp);
    atomicAdd(&counts[1], pc);
  }
}

// The groups the walk could not finish, one warp, with a frontier of a whole tree's size.
template <bool Potential>
__global__ void __launch_bounds__(32)
    retry_kernel(const Vec4* __restrict__ sorted, const int* __restrict__ index, int n, Tree t,
                 const int2* __restrict__ retry, const int* __restrict__ retry_count, float eps2,
                 Relative rel, Vec4* __restrict__ out, int* __restrict__ frontier, int capacity,
                 unsigned long long* __restrict__ counts, int* __restrict__ retried) {
  __shared__ WarpShared shared;
  const int total = *retry_count;
  unsigned long long pp = 0, pc = 0;
  for (int g = 0; g < total; ++g)
    walk_group<Potential>(sorted, index, n, t, retry[g], eps2, out, frontier, frontier + capacity,
                          capacity, shared, rel, pp, pc);
  if (threadIdx.x == 0) {
    atomicAdd(&counts[0], pp);
    atomicAdd(&counts[1], pc);
    *retried += total;
  }
}

}  // namespace
}  // namespace orrery
