// `cuda-bh`: Barnes-Hut with the whole pass on the device and no host round trip - bounds, 63-bit
// Morton keys, CUB radix sort, a binary radix tree built from the sorted keys in one parallel
// pass (Karras 2012), monopole and quadrupole moments bottom-up, and a walk in which one warp
// serves 32 consecutive bodies with one traversal and a box opening test. docs/barnes-hut.md
// explains the choices and measures them.
#include <algorithm>
#include <type_traits>
#include <vector>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <string>

#include "cuda_check.cuh"
#include "cuda_handles.cuh"
#include "orrery/gpu_buffer.h"
#include "cuda_solvers.h"
#include "octree.h"
#include "orrery/device.h"
#include "stage_ops.h"

namespace orrery {
namespace {

constexpr int k_walk_warps = 4;  // warps a block of the walk
// A node of at most this many bodies is summed body by body when opened (a leaf bucket).
constexpr int k_bucket = 16;
// Entries of each of a warp's two frontier levels (a level of a group's breadth-first walk holds
// at most this many nodes; a group that needs more is walked again by the retry pass).
constexpr int k_frontier = 4096;


struct Box {
  float3 lo, hi;
};

// Per-block partial bounds over a grid-stride share of the bodies.
__global__ void bounds_kernel(const Vec4* __restrict__ pos, int n, Box* __restrict__ partial) {
  __shared__ Box s[k_threads];
  Box b{make_float3(INFINITY, INFINITY, INFINITY), make_float3(-INFINITY, -INFINITY, -INFINITY)};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const Vec4 p = pos[i];
    // fminf/fmaxf drop NaN: a non-finite body does not spoil the box (the finite checks report
    // it); an infinite one would, so those are left out too.
    if (isfinite(p.x) && isfinite(p.y) && isfinite(p.z)) {
      b.lo = make_float3(fminf(b.lo.x, p.x), fminf(b.lo.y, p.y), fminf(b.lo.z, p.z));
      b.hi = make_float3(fmaxf(b.hi.x, p.x), fmaxf(b.hi.y, p.y), fmaxf(b.hi.z, p.z));
    }
  }
  s[threadIdx.x] = b;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) {
      const Box o = s[threadIdx.x + w];
      Box& m = s[threadIdx.x];
      m.lo = make_float3(fminf(m.lo.x, o.lo.x), fminf(m.lo.y, o.lo.y), fminf(m.lo.z, o.lo.z));
      m.hi = make_float3(fmaxf(m.hi.x, o.hi.x), fmaxf(m.hi.y, o.hi.y), fmaxf(m.hi.z, o.hi.z));
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__device__ __forceinline__ std::uint64_t grid21(float x, float lo, float scale) {
  const float t = (x - lo) * scale;
  if (!(t >= 0.0f)) return 0;  // NaN, or below: cell 0 (the key must stay defined)
  return static_cast<std::uint64_t>(fminf(t, 2097151.0f));
}

// Reduces the partial boxes (one block), then writes each body's key and index.
__global__ void keys_kernel(const Vec4* __restrict__ pos, int n, const Box* __restrict__ partial,
                            int partials, std::uint64_t* __restrict__ keys,
                            int* __restrict__ index) {
  __shared__ float3 origin;
  __shared__ float scale;
  if (threadIdx.x == 0) {
    Box b = partial[0];
    for (int k = 1; k < partials; ++k) {
      const Box o = partial[k];
      b.lo = make_float3(fminf(b.lo.x, o.lo.x), fminf(b.lo.y, o.lo.y), fminf(b.lo.z, o.lo.z));
      b.hi = make_float3(fmaxf(b.hi.x, o.hi.x), fmaxf(b.hi.y, o.hi.y), fmaxf(b.hi.z, o.hi.z));
    }
    if (!(b.lo.x <= b.hi.x)) b.lo = b.hi = make_float3(0.0f, 0.0f, 0.0f);  // nothing finite
    float side = fmaxf(fmaxf(b.hi.x - b.lo.x, b.hi.y - b.lo.y), b.hi.z - b.lo.z);
    side = side > 0.0f && isfinite(side) ? side * 1.0001f : 1.0f;
    origin = make_float3(0.5f * (b.lo.x + b.hi.x - side), 0.5f * (b.lo.y + b.hi.y - side),
                         0.5f * (b.lo.z + b.hi.z - side));
    scale = 2097152.0f / side;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const Vec4 p = pos[i];
    keys[i] = morton_spread21(grid21(p.x, origin.x, scale)) << 2 |
              morton_spread21(grid21(p.y, origin.y, scale)) << 1 |
              morton_spread21(grid21(p.z, origin.z, scale));
    index[i] = i;
  }
}

__global__ void gather_kernel(const Vec4* __restrict__ pos, const int* __restrict__ index, int n,
                              Vec4* __restrict__ sorted) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) sorted[k] = pos[index[k]];
}

// The length of the common prefix of keys i and j (index tie-break when the keys are equal), -1
// outside [0, n).
__device__ __forceinline__ int delta(const std::uint64_t* __restrict__ keys, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  const std::uint64_t a = keys[i], b = keys[j];
  if (a == b) return 64 + __clz(static_cast<unsigned>(i ^ j));
  return __clzll(static_cast<long long>(a ^ b));
}

// The tree's nodes: internal node i in [0, n-1) with children (>= 0: internal, < 0: ~body).
struct Tree {
  int2* child;       // left, right
  int* parent;       // of internal nodes (-1 for the root)
  int* leaf_parent;  // of bodies
  int2* range;       // first, last body (sorted order)
  Vec4* com;         // centre of mass, mass
  Vec4* quad;        // xx, yy, zz, xy
  Vec4* quad2_open;  // xz, yz, the opening radius l/theta + s, unused
  Vec4* lo;          // the bodies' bounding box
  Vec4* hi;
  int* arrived;  // bottom-up counters
  int* level;    // the octree level of the node's key prefix (its common bits / 3)
};

// One thread per internal node (Karras 2012: the node's range and split from the sorted keys).
__global__ void build_kernel(const std::uint64_t* __restrict__ keys, int n, Tree t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1) return;
  const int d = delta(keys, n, i, i + 1) - delta(keys, n, i, i - 1) >= 0 ? 1 : -1;
  const int d_min = delta(keys, n, i, i - d);
  int l_max = 2;
  while (delta(keys, n, i, i + l_max * d) > d_min) l_max *= 2;
  int l = 0;
  for (int step = l_max / 2; step >= 1; step /= 2)
    if (delta(keys, n, i, i + (l + step) * d) > d_min) l += step;
  const int j = i + l * d;
  const int d_node = delta(keys, n, i, j);
  int s = 0;
  for (int div = 2;; div *= 2) {
    const int step = (l + div - 1) / div;
    if (delta(keys, n, i, i + (s + step) * d) > d_node) s += step;
    if (step == 1) break;
  }
  const int split = i + s * d + min(d, 0);
  const int first = min(i, j), last = max(i, j);
  const int left = first == split ? ~split : split;
  const int right = last == split + 1 ? ~(split + 1) : split + 1;
  t.child[i] = make_int2(left, right);
  t.range[i] = make_int2(first, last);
  t.level[i] = min(d_node, 63) / 3;
  if (left < 0)
    t.leaf_parent[~left] = i;
  else
    t.parent[left] = i;
  if (right < 0)
    t.leaf_parent[~right] = i;
  else
    t.parent[right] = i;
  if (i == 0) t.parent[0] = -1;
  t.arrived[i] = 0;
}

// A node's or a body's moments, as the parent combines them.
struct Moments {
  float3 c;  // centre of mass
  float m;
  float q[6];  // about c
  float3 lo, hi;
};

__device__ __forceinline__ Moments child_moments(const Tree& t, const Vec4* __restrict__ sorted,
                                                 int c) {
  Moments r;
  if (c < 0) {
    const Vec4 p = sorted[~c];
    r.c = make_float3(p.x, p.y, p.z);
    r.m = p.w;
    for (int k = 0; k < 6; ++k) r.q[k] = 0.0f;
    r.lo = r.hi = r.c;
    return r;
  }
  // Written by another thread before its fence and counter increment: read past the L1.
  auto load = [](const Vec4* v) {
    const float4 f = __ldcg(reinterpret_cast<const float4*>(v));
    return Vec4{f.x, f.y, f.z, f.w};
  };
  const Vec4 com = load(&t.com[c]), q = load(&t.quad[c]), q2 = load(&t.quad2_open[c]);
  const Vec4 lo = load(&t.lo[c]), hi = load(&t.hi[c]);
  r.c = make_float3(com.x, com.y, com.z);
  r.m = com.w;
  r.q[0] = q.x, r.q[1] = q.y, r.q[2] = q.z, r.q[3] = q.w, r.q[4] = q2.x, r.q[5] = q2.y;
  r.lo = make_float3(lo.x, lo.y, lo.z);
  r.hi = make_float3(hi.x, hi.y, hi.z);
  return r;
}

// From each body up: the second child to arrive at a node computes it and goes on up.
__global__ void moments_kernel(const Vec4* __restrict__ sorted, int n, Tree t, float inv_theta) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int node = t.leaf_parent[k];
  while (node >= 0) {
    __threadfence();
    if (atomicAdd(&t.arrived[node], 1) == 0) return;  // the sibling's thread will do it
    const int2 ch = t.child[node];
    const Moments a = child_moments(t, sorted, ch.x), b = child_moments(t, sorted, ch.y);
    const float m = a.m + b.m;
    // A massless node's centre of mass is the middle of its box (it attracts nothing).
    const float3 lo =
        make_float3(fminf(a.lo.x, b.lo.x), fminf(a.lo.y, b.lo.y), fminf(a.lo.z, b.lo.z));
    const float3 hi =
        make_float3(fmaxf(a.hi.x, b.hi.x), fmaxf(a.hi.y, b.hi.y), fmaxf(a.hi.z, b.hi.z));
    float3 c;
    if (m > 0.0f) {
      c = make_float3((a.m * a.c.x + b.m * b.c.x) / m, (a.m * a.c.y + b.m * b.c.y) / m,
                      (a.m * a.c.z + b.m * b.c.z) / m);
    } else {
      c = make_float3(0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y), 0.5f * (lo.z + hi.z));
    }
    float q[6];
    for (int j = 0; j < 6; ++j) q[j] = a.q[j] + b.q[j];
    const Moments* parts[2] = {&a, &b};
    for (const Moments* p : parts) {  // each child's mass moved to the new centre of mass
      const float dx = p->c.x - c.x, dy = p->c.y - c.y, dz = p->c.z - c.z;
      const float d2 = dx * dx + dy * dy + dz * dz;
      q[0] += p->m * (3.0f * dx * dx - d2), q[1] += p->m * (3.0f * dy * dy - d2);
      q[2] += p->m * (3.0f * dz * dz - d2), q[3] += p->m * 3.0f * dx * dy;
      q[4] += p->m * 3.0f * dx * dz, q[5] += p->m * 3.0f * dy * dz;
    }
    const float l = fmaxf(fmaxf(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z);
    const float ex = c.x - 0.5f * (lo.x + hi.x), ey = c.y - 0.5f * (lo.y + hi.y),
                ez = c.z - 0.5f * (lo.z + hi.z);
    const float s = sqrtf(ex * ex + ey * ey + ez * ez);
    t.com[node] = Vec4{c.x, c.y, c.z, m};
    t.quad[node] = Vec4{q[0], q[1], q[2], q[3]};
    t.quad2_open[node] = Vec4{q[4], q[5], l * inv_theta + s, 0.0f};
    t.lo[node] = Vec4{lo.x, lo.y, lo.z, 0.0f};
    t.hi[node] = Vec4{hi.x, hi.y, hi.z, 0.0f};
    node = t.parent[node];
  }
}

// The boxes of the cells down to octree level `max_level`, for the viewer's overlay (at most
// `limit`).
__global__ void boxes_kernel(int n, Tree t, int max_level, CellBox* __restrict__ out,
                             int* __restrict__ count, int limit) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 || t.level[i] > max_level || t.com[i].w == 0.0f) return;
  // One box per octree cell: the binary node where the key prefix first reaches a level (its
  // parent is at a shallower one), as an octree would split there.
  const int parent = t.parent[i];
  if (parent >= 0 && t.level[parent] == t.level[i]) return;
  const int at = atomicAdd(count, 1);
  if (at >= limit) return;
  const Vec4 lo = t.lo[i], hi = t.hi[i];
  out[at] = CellBox{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}};
}

// The walk's groups: the largest nodes of at most 32 bodies (a node of at most 32 whose parent
// has more), and single bodies whose parent has more than 32. Their boxes are tight: Morton
// order alone would put into one group bodies that only follow each other on the curve (the
// first version did: in a Plummer halo a group of 32 spanned the whole system and its warp
// summed every body, which bound the whole walk).
__global__ void groups_kernel(int n, Tree t, int2* __restrict__ groups, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n == 1) {
    if (i == 0) groups[atomicAdd(count, 1)] = make_int2(0, 1);
    return;
  }
  auto size_of = [&](int node) {
    const int2 r = t.range[node];
    return r.y - r.x + 1;
  };
  if (i < n - 1) {  // internal node i
    const int size = size_of(i), parent = t.parent[i];
    if (size <= 32 && (parent < 0 || size_of(parent) > 32))
      groups[atomicAdd(count, 1)] = make_int2(t.range[i].x, size);
  }
  if (i < n && size_of(t.leaf_parent[i]) > 32)  // body i, alone under a large parent
    groups[atomicAdd(count, 1)] = make_int2(i, 1);
}

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
      cell_field(p.x - com.x, p.y - com.y, p.z - com.z, com.w, quad, eps2, f);
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
                           unsigned long long& pp, unsigned long long& pc) {
  const int lane = threadIdx.x % 32;
  const unsigned below = (1u << lane) - 1u;
  const bool valid = lane < grp.y;
  const int k = grp.x + (valid ? lane : 0);
  Walker<Potential> w{sorted, t, eps2, sorted[k], k, Vec4{0.0f, 0.0f, 0.0f, 0.0f}};
  const Vec4 p = w.p;
  const float3 glo = make_float3(warp_min(p.x), warp_min(p.y), warp_min(p.z));
  const float3 ghi = make_float3(warp_max(p.x), warp_max(p.y), warp_max(p.z));
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
            if (!overlap && dx * dx + dy * dy + dz * dz > q2o.z * q2o.z)
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
  if (valid) {
    const Vec4 f = w.acc;
    out[index[k]] = Potential ? Vec4{0.0f, 0.0f, 0.0f, f.w} : Vec4{f.x, f.y, f.z, 0.0f};
  }
  return true;
}

// Resident warps take groups from a counter; a group whose frontier outgrows the warp's buffers
// goes on the retry list for retry_kernel, which has room for any frontier.
template <bool Potential>
__global__ void __launch_bounds__(32 * k_walk_warps)
    walk_kernel(const Vec4* __restrict__ sorted, const int* __restrict__ index, int n, Tree t,
                const int2* __restrict__ groups, const int* __restrict__ group_count,
                int* __restrict__ next_group, float eps2, Vec4* __restrict__ out,
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
    if (walk_group<Potential>(sorted, index, n, t, grp, eps2, out, a, b, capacity, shared[w], gpp,
                              gpc)) {
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
                 Vec4* __restrict__ out, int* __restrict__ frontier, int capacity,
                 unsigned long long* __restrict__ counts, int* __restrict__ retried) {
  __shared__ WarpShared shared;
  const int total = *retry_count;
  unsigned long long pp = 0, pc = 0;
  for (int g = 0; g < total; ++g)
    walk_group<Potential>(sorted, index, n, t, retry[g], eps2, out, frontier, frontier + capacity,
                          capacity, shared, pp, pc);
  if (threadIdx.x == 0) {
    atomicAdd(&counts[0], pp);
    atomicAdd(&counts[1], pc);
    *retried += total;
  }
}

class CudaBhSolver final : public Solver {
 public:
  explicit CudaBhSolver(int frontier = k_frontier) : m_frontier_limit(frontier) {
    require_device();
    m_host_counts = PinnedHost<unsigned long long>(3);
    m_host_counts[0] = m_host_counts[1] = m_host_counts[2] = 0;
  }
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return true; }
  int block_size() const override { return 32 * k_walk_warps; }
  std::string config() const override {
    return m_name +
           " (binary radix tree of Morton-sorted bodies, quadrupoles, a warp walk per node of "
           "<= 32 bodies, buckets of " +
           std::to_string(k_bucket) + ")";
  }
  bool all_pairs() const override { return false; }
  void cell_boxes(int max_level, std::size_t limit, std::vector<CellBox>& out) override {
    out.clear();
    if (m_built < 2) return;  // no tree yet, or one body
    // Scratch kept and grown like the rest (the overlay asks every frame).
    const int cap =
        static_cast<int>(std::min<std::size_t>(limit, static_cast<std::size_t>(m_built)));
    m_boxes_out.enlarge(static_cast<std::size_t>(cap));
    m_box_count.enlarge(1);
    CUDA_CHECK_THROW(cudaMemsetAsync(m_box_count.data(), 0, sizeof(int)));
    boxes_kernel<<<blocks_for(m_built - 1), k_threads>>>(m_built, m_tree, max_level,
                                                         m_boxes_out.data(), m_box_count.data(), cap);
    CUDA_CHECK_LAUNCH("boxes_kernel");
    int found = 0;
    CUDA_CHECK_THROW(cudaMemcpy(&found, m_box_count.data(), sizeof(int), cudaMemcpyDeviceToHost));
    out.resize(static_cast<std::size_t>(std::min(found, cap)));
    if (!out.empty())
      CUDA_CHECK_THROW(cudaMemcpy(out.data(), m_boxes_out.data(), sizeof(CellBox) * out.size(),
                                  cudaMemcpyDeviceToHost));
  }
  // Groups walked again by the retry pass since the solver was made (waits for the device).
  int retried() const {
    int r = 0;
    if (m_retried) CUDA_CHECK_THROW(cudaMemcpy(&r, m_retried, sizeof(int), cudaMemcpyDeviceToHost));
    return r;
  }
  // The walk's count of the last pass that has finished (read without waiting: the newest pass
  // may still be in flight, then the one before it).
  double interactions(int) const override {
    return static_cast<double>(m_host_counts[0] + m_host_counts[1]);
  }

  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    reserve(n);
    field<false>(pos, acc, n, p);
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    reserve(n);
    field<true>(pos, out, n, p);
  }

 private:
  void mark(Phase phase) {
    if (m_phases && m_marking) m_phases->begin(phase);
  }

  template <bool Potential>
  void field(const Vec4* pos, Vec4* out, int n, const SimParams& p) {
    if (n < 1) throw std::invalid_argument("cuda-bh: N must be >= 1");
    m_marking = !Potential;  // the diagnostics time the potentials pass as theirs
    const int partials = m_partials;
    mark(Phase::bounds);
    bounds_kernel<<<partials, k_threads>>>(pos, n, m_boxes);
    CUDA_CHECK_LAUNCH("bounds_kernel");
    mark(Phase::sort);
    keys_kernel<<<std::min(blocks_for(n), 4 * partials), k_threads>>>(pos, n, m_boxes, partials,
                                                                      m_keys_in, m_index_in);
    CUDA_CHECK_LAUNCH("keys_kernel");
    std::size_t temp = m_sort_bytes;
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(m_sort_temp, temp, m_keys_in, m_keys,
                                                     m_index_in, m_index, n, 0, 63));
    gather_kernel<<<blocks_for(n), k_threads>>>(pos, m_index, n, m_sorted);
    CUDA_CHECK_LAUNCH("gather_kernel");
    m_built = n;
    if (n > 1) {
      mark(Phase::build);
      build_kernel<<<blocks_for(n - 1), k_threads>>>(m_keys, n, m_tree);
      CUDA_CHECK_LAUNCH("build_kernel");
      const float inv_theta = p.theta > 0.0f ? 1.0f / p.theta : INFINITY;
      mark(Phase::moments);
      moments_kernel<<<blocks_for(n), k_threads>>>(m_sorted, n, m_tree, inv_theta);
      CUDA_CHECK_LAUNCH("moments_kernel");
    }
    mark(Phase::walk);
    // Counters: the interactions (2), the groups found, the next group to walk.
    CUDA_CHECK_THROW(cudaMemsetAsync(m_counts, 0, sizeof(unsigned long long) * 2));
    CUDA_CHECK_THROW(cudaMemsetAsync(m_group_counters, 0, sizeof(int) * 2));
    groups_kernel<<<blocks_for(n), k_threads>>>(n, m_tree, m_groups, m_group_counters);
    CUDA_CHECK_LAUNCH("groups_kernel");
    CUDA_CHECK_THROW(cudaMemsetAsync(m_retry_count, 0, sizeof(int)));
    const float eps2 = p.softening * p.softening;
    walk_kernel<Potential><<<m_walk_blocks, 32 * k_walk_warps>>>(
        m_sorted, m_index, n, m_tree, m_groups, m_group_counters, m_group_counters + 1, eps2, out,
        m_frontier, m_frontier_capacity, m_retry, m_retry_count, m_counts);
    CUDA_CHECK_LAUNCH("walk_kernel");
    retry_kernel<Potential><<<1, 32>>>(m_sorted, m_index, n, m_tree, m_retry, m_retry_count, eps2,
                                       out, m_retry_frontier, m_retry_capacity, m_counts,
                                       m_retried);
    CUDA_CHECK_LAUNCH("retry_kernel");
    CUDA_CHECK_THROW(cudaMemcpyAsync(m_host_counts.get(), m_counts, sizeof(unsigned long long) * 2,
                                     cudaMemcpyDeviceToHost));
  }

  // Scratch for n bodies, allocated once and grown (never per pass).
  void reserve(int n) {
    if (n <= m_capacity) return;
    free_all();
    const std::size_t b = static_cast<std::size_t>(n), in = b > 1 ? b - 1 : 1;
    // Every array lives in one GpuBuffer of m_owned; the members are views into them.
    auto alloc = [&](auto*& ptr, std::size_t count) {
      GpuBuffer<unsigned char> b(sizeof(*ptr) * count);  // cudaMalloc's 256-byte alignment
      ptr = reinterpret_cast<std::remove_reference_t<decltype(ptr)>>(b.data());
      m_owned.push_back(std::move(b));
    };
    m_partials = 2 * std::max(1, device_info().sm_count);
    alloc(m_boxes, static_cast<std::size_t>(m_partials));
    alloc(m_keys_in, b), alloc(m_keys, b), alloc(m_index_in, b), alloc(m_index, b);
    alloc(m_sorted, b);
    alloc(m_tree.child, in), alloc(m_tree.parent, in), alloc(m_tree.leaf_parent, b);
    alloc(m_tree.range, in), alloc(m_tree.com, in), alloc(m_tree.quad, in);
    alloc(m_tree.quad2_open, in), alloc(m_tree.lo, in), alloc(m_tree.hi, in);
    alloc(m_tree.arrived, in), alloc(m_tree.level, in);
    alloc(m_counts, 2);
    alloc(m_groups, b), alloc(m_group_counters, 2);
    alloc(m_retry, b), alloc(m_retry_count, 1), alloc(m_retried, 1);
    CUDA_CHECK_THROW(cudaMemset(m_retried, 0, sizeof(int)));
    // Each resident warp's two frontier levels; a bigger frontier (rare) goes to the retry pass,
    // whose one warp has room for every node of the tree.
    m_frontier_capacity = static_cast<int>(std::min<std::size_t>(m_frontier_limit, 2 * b + 2));
    m_retry_capacity = static_cast<int>(2 * b + 2);
    // Enough resident blocks of the walk to fill every multiprocessor (12 of 128 threads each at
    // its 40 registers); they take groups until none is left.
    m_walk_blocks = 12 * std::max(1, device_info().sm_count);
    alloc(m_frontier, static_cast<std::size_t>(m_walk_blocks) * k_walk_warps * 2 *
                          static_cast<std::size_t>(m_frontier_capacity));
    alloc(m_retry_frontier, 2 * static_cast<std::size_t>(m_retry_capacity));
    m_sort_bytes = 0;
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(nullptr, m_sort_bytes, m_keys_in, m_keys,
                                                     m_index_in, m_index, n, 0, 63));
    alloc(m_sort_temp, m_sort_bytes);
    m_capacity = n;
  }

  void free_all() {
    m_owned.clear();
    m_boxes = nullptr, m_keys_in = m_keys = nullptr, m_index_in = m_index = nullptr;
    m_sorted = nullptr, m_tree = Tree{}, m_counts = nullptr;
    m_sort_temp = nullptr, m_groups = nullptr, m_group_counters = nullptr;
    m_retry = nullptr, m_retry_count = m_retried = nullptr;
    m_frontier = m_retry_frontier = nullptr;
    m_capacity = 0;
  }

  std::string m_name = "cuda-bh";
  bool m_marking = false;
  int m_built = 0;                 // bodies of the last tree built
  GpuBuffer<CellBox> m_boxes_out;  // the overlay's boxes, kept and grown
  GpuBuffer<int> m_box_count;
  std::vector<GpuBuffer<unsigned char>> m_owned;  // every array below
  int m_capacity = 0, m_partials = 0;
  Box* m_boxes = nullptr;
  std::uint64_t *m_keys_in = nullptr, *m_keys = nullptr;
  int *m_index_in = nullptr, *m_index = nullptr;
  Vec4* m_sorted = nullptr;
  Tree m_tree{};
  unsigned long long* m_counts = nullptr;
  PinnedHost<unsigned long long> m_host_counts;
  int2* m_groups = nullptr;
  int* m_group_counters = nullptr;
  int2* m_retry = nullptr;
  int *m_retry_count = nullptr, *m_retried = nullptr;  // retried: groups so far, for the tests
  int *m_frontier = nullptr, *m_retry_frontier = nullptr;
  int m_frontier_capacity = 0, m_retry_capacity = 0;
  std::size_t m_frontier_limit;
  int m_walk_blocks = 0;
  unsigned char* m_sort_temp = nullptr;
  std::size_t m_sort_bytes = 0;
};

}  // namespace

std::unique_ptr<Solver> make_cuda_bh_solver(int) { return std::make_unique<CudaBhSolver>(); }

std::unique_ptr<Solver> make_cuda_bh_solver_with_frontier(int frontier) {
  return std::make_unique<CudaBhSolver>(frontier);
}

int cuda_bh_retried(const Solver& s) { return static_cast<const CudaBhSolver&>(s).retried(); }

}  // namespace orrery
