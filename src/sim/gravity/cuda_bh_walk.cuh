// Private to cuda_bh.cu: the walk half of `cuda-bh` - one warp serves a group of up to 32
// consecutive bodies with one breadth-first traversal and the opening tests; groups whose frontier
// overflows are walked again by the one-warp retry pass.
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

// Where a walk over ranks starts (the own tree's starts at node 0, or at its one body).
struct Start {
  const int* roots;
  int count;
};

// The nodes a walk reads. One process: its own tree (nodes [0, n - 1), bodies [0, n)). Over
// ranks (Joined): one index space of the own tree and the forest (cuda_bh_forest.cuh: the shared
// top tree and the other ranks' essential trees, nodes of one array each, where they landed):
// nodes from `split` on are the forest's, as are bodies from `body_split` on, and the walk starts
// at `start`.
template <bool Joined>
struct Nodes {
  Tree own;
  const Vec4* __restrict__ sorted;  // the own tree's bodies
  const EssentialNode* __restrict__ far;
  const Vec4* __restrict__ far_bodies;
  int split, body_split;
  Start start;

  __device__ __forceinline__ bool is_far(int node) const { return Joined && node >= split; }
  // Node i's field: the own tree's column, or the forest node's member.
  template <typename T>
  __device__ __forceinline__ T at(T* Tree::*column, T EssentialNode::*member, int i) const {
    return is_far(i) ? far[i - split].*member : (own.*column)[i];
  }
  __device__ __forceinline__ Vec4 com(int i) const {
    return at(&Tree::com, &EssentialNode::com, i);
  }
  __device__ __forceinline__ Vec4 quad(int i) const {
    return at(&Tree::quad, &EssentialNode::quad, i);
  }
  __device__ __forceinline__ Vec4 quad2_open(int i) const {
    return at(&Tree::quad2_open, &EssentialNode::quad2_open, i);
  }
  __device__ __forceinline__ Vec4 lo(int i) const { return at(&Tree::lo, &EssentialNode::lo, i); }
  __device__ __forceinline__ Vec4 hi(int i) const { return at(&Tree::hi, &EssentialNode::hi, i); }
  __device__ __forceinline__ int2 range(int i) const {
    return at(&Tree::range, &EssentialNode::range, i);
  }
  __device__ __forceinline__ int2 child(int i) const {
    return at(&Tree::child, &EssentialNode::child, i);
  }
  __device__ __forceinline__ Vec4 body(int b) const {
    return Joined && b >= body_split ? far_bodies[b - body_split] : sorted[b];
  }
};

template <bool Potential, bool Joined>
struct Walker {
  Nodes<Joined> t;
  float eps2;
  Vec4 p;  // this lane's body
  int k;   // its sorted index
  // A group of at most 16 bodies has each body on two lanes (part 0 and 1), which sum alternate
  // entries of a list: otherwise half the warp would idle through every list.
  bool doubled;
  int part;
  Vec4 acc;

  __device__ void cell(const WarpShared& sh, int j) {
    const Vec4 com = sh.cell_com[j], q = sh.cell_q[j], q2 = sh.cell_q2[j];
    const float quad[6] = {q.x, q.y, q.z, q.w, q2.x, q2.y};
    Vec4 f{0.0f, 0.0f, 0.0f, 0.0f};
    cell_field(p.x - com.x, p.y - com.y, p.z - com.z, com.w, quad, q2.w, eps2, f);
    acc.x += f.x, acc.y += f.y, acc.z += f.z;
    if (Potential) acc.w += f.w;
  }
  __device__ void body(const WarpShared& sh, int j) {
    const Vec4 q = sh.body_pos[j];
    Vec3 a{0.0f, 0.0f, 0.0f};
    body_body(p, q, eps2, a);
    acc.x += a.x, acc.y += a.y, acc.z += a.z;
    if (Potential && sh.bodies[j] != k) {  // the forest's bodies are none of the group's
      const float rx = q.x - p.x, ry = q.y - p.y, rz = q.z - p.z;
      acc.w -= q.w * rsqrtf(eps2 + rx * rx + ry * ry + rz * rz);
    }
  }
  // Sums entries [0, count) of a list with `one` (cell or body), split between a doubled body's
  // two lanes. A full list (count 32, known when inlined) gets loops of fixed length.
  template <typename One>
  __device__ void sum(int count, One one) {
    if (count == 32 && doubled) {
      for (int i = 0; i < 16; ++i) one(2 * i + part);
    } else if (count == 32) {
      for (int j = 0; j < 32; ++j) one(j);
    } else {
      for (int j = doubled ? part : 0; j < count; j += doubled ? 2 : 1) one(j);
    }
  }

  __device__ void flush_cells(WarpShared& sh, int count, int lane) {
    if (lane < count) {
      const int c = sh.cells[lane];
      sh.cell_com[lane] = t.com(c);
      sh.cell_q[lane] = t.quad(c);
      sh.cell_q2[lane] = t.quad2_open(c);
    }
    __syncwarp();
    sum(count, [&](int j) { cell(sh, j); });
    __syncwarp();
  }

  __device__ void flush_bodies(WarpShared& sh, int count, int lane) {
    if (lane < count) sh.body_pos[lane] = t.body(sh.bodies[lane]);
    __syncwarp();
    sum(count, [&](int j) { body(sh, j); });
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
  float* work;     // each body's interactions, by body index (null: not kept)
};

// Once a list holds 32 entries or more: sums the first 32 (`flush`), counts them for every member
// of the group in `done`, and moves entries [32, count) to the front.
template <class Flush>
__device__ __forceinline__ void flush_when_full(int* list, int& count, unsigned long long& done,
                                                unsigned long long members, int lane, Flush flush) {
  if (count < 32) return;
  flush();
  done += 32 * members;
  const int v = lane + 32 < count ? list[lane + 32] : 0;
  __syncwarp();
  if (lane + 32 < count) list[lane] = v;
  __syncwarp();
  count -= 32;
}

// Walks group `grp` (first body, count) with frontier buffers a and b of `capacity` entries each.
// Returns false, having written nothing, when the frontier outgrew them.
template <bool Potential, bool Joined>
__device__ bool walk_group(const Nodes<Joined>& t, const int* __restrict__ index, int n, int2 grp,
                           float eps2, Vec4* __restrict__ out, int* __restrict__ a,
                           int* __restrict__ b, int capacity, WarpShared& sh, const Relative& rel,
                           unsigned long long& pp, unsigned long long& pc) {
  const int lane = threadIdx.x % 32;
  const unsigned below = (1u << lane) - 1u;
  const bool doubled = grp.y <= 16;  // the same for the whole warp
  const int member = doubled ? lane % 16 : lane;
  const bool valid = member < grp.y;
  const int k = grp.x + (valid ? member : 0);
  const int body = index[k];
  Walker<Potential, Joined> w{
      t, eps2, t.sorted[k], k, doubled, lane / 16, Vec4{0.0f, 0.0f, 0.0f, 0.0f}};
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
  int level = 1;
  if (Joined) {
    for (int i = lane; i < t.start.count; i += 32) a[i] = t.start.roots[i];
    level = t.start.count;
  } else if (lane == 0) {
    a[0] = n > 1 ? 0 : ~0;
  }
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
          const Vec4 com = t.com(node);
          const Vec4 q2o = t.quad2_open(node);
          const Vec4 lo = t.lo(node), hi = t.hi(node);
          const int2 r = t.range(node);
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
        const int2 ch = t.child(node);
        b[at] = ch.x, b[at + 1] = ch.y;
      }
      // Accepted cells to the cell list, evaluated 32 at a time.
      const unsigned accepts = __ballot_sync(0xffffffffu, accept);
      if (accept) sh.cells[ncells + __popc(accepts & below)] = node;
      ncells += __popc(accepts);
      __syncwarp();
      flush_when_full(sh.cells, ncells, pc, members, lane, [&] { w.flush_cells(sh, 32, lane); });
      // Buckets' bodies to the body list, 32 slots at a time: an inclusive scan of the sizes
      // places each bucket, and each lane finds the bucket of its slot by a binary search over the
      // scan, so the cost is per 32 bodies, not per body of the largest bucket.
      if (__any_sync(0xffffffffu, size > 0)) {
        int end = size;  // where this lane's bucket ends in the round's slots
        for (int o = 1; o < 32; o *= 2) {
          const int v = __shfl_up_sync(0xffffffffu, end, o);
          if (lane >= o) end += v;
        }
        const int total = __shfl_sync(0xffffffffu, end, 31);
        for (int c = 0; c < total; c += 32) {
          const int slot = c + lane;
          int owner = 0;  // lanes whose bucket ends at or before the slot
          for (int step = 16; step > 0; step /= 2)
            if (__shfl_sync(0xffffffffu, end, owner + step - 1) <= slot) owner += step;
          const int start = __shfl_sync(0xffffffffu, end - size, owner);
          const int from = __shfl_sync(0xffffffffu, first, owner);
          const int emitted = min(32, total - c);
          if (lane < emitted) sh.bodies[nbodies + lane] = from + slot - start;
          nbodies += emitted;
          __syncwarp();
          flush_when_full(sh.bodies, nbodies, pp, members, lane,
                          [&] { w.flush_bodies(sh, 32, lane); });
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
  Vec4 f = w.acc;
  if (doubled) {
    f.x += __shfl_xor_sync(0xffffffffu, f.x, 16);
    f.y += __shfl_xor_sync(0xffffffffu, f.y, 16);
    f.z += __shfl_xor_sync(0xffffffffu, f.z, 16);
    if (Potential) f.w += __shfl_xor_sync(0xffffffffu, f.w, 16);
  }
  const bool writes = valid && lane == member;  // a doubled body's second lane writes nothing
  if (writes && out)
    out[body] = Potential ? Vec4{0.0f, 0.0f, 0.0f, f.w} : Vec4{f.x, f.y, f.z, 0.0f};
  if (writes && rel.work) {
    const float done = static_cast<float>(pp + pc) / static_cast<float>(grp.y);
    rel.work[body] = done;
  }
  if (!Potential && rel.write) {
    float mag = writes ? sqrtf(f.x * f.x + f.y * f.y + f.z * f.z) : 0.0f;
    if (writes) rel.write[body] = mag;
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
// On sm_80, sm_86 and sm_89 ptxas holds the walk to 64 registers and spills a few bytes; asking for
// 6 blocks an SM lets it take 80 and spill nothing (not timed: no such GPU is lent here). sm_90
// takes 48 without a hint, and its code is the same with this in place.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
#define ORRERY_WALK_BLOCKS , 6
#else
#define ORRERY_WALK_BLOCKS
#endif
template <bool Potential, bool Joined>
__global__ void __launch_bounds__(32 * k_walk_warps ORRERY_WALK_BLOCKS)
    walk_kernel(Nodes<Joined> t, const int* __restrict__ index, int n,
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
    if (walk_group<Potential, Joined>(t, index, n, grp, eps2, out, a, b, capacity, shared[w], rel,
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
template <bool Potential, bool Joined>
__global__ void __launch_bounds__(32)
    retry_kernel(Nodes<Joined> t, const int* __restrict__ index, int n,
                 const int2* __restrict__ retry, const int* __restrict__ retry_count, float eps2,
                 Relative rel, Vec4* __restrict__ out, int* __restrict__ frontier, int capacity,
                 unsigned long long* __restrict__ counts, int* __restrict__ retried) {
  __shared__ WarpShared shared;
  const int total = *retry_count;
  unsigned long long pp = 0, pc = 0;
  for (int g = 0; g < total; ++g) {
    unsigned long long gpp = 0, gpc = 0;  // a group's own, for its bodies' work
    walk_group<Potential, Joined>(t, index, n, retry[g], eps2, out, frontier, frontier + capacity,
                                  capacity, shared, rel, gpp, gpc);
    pp += gpp, pc += gpc;
  }
  if (threadIdx.x == 0) {
    atomicAdd(&counts[0], pp);
    atomicAdd(&counts[1], pc);
    *retried += total;
  }
}

}  // namespace
}  // namespace orrery
