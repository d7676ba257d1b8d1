// Private to cuda_bh.cu: the tree half of `cuda-bh` on the device - the bounds, 63-bit Morton keys,
// the binary radix tree built from the sorted keys in one pass (Karras 2012), the monopole and
// quadrupole moments bottom-up, the overlay's boxes and the walk's groups.
#pragma once

#include <cstdint>

#include "octree.h"
#include "orrery/cuda_check.cuh"
#include "orrery/solver.h"
#include "tree_moments.h"

namespace orrery {
namespace {
constexpr int k_walk_warps = 4;  // warps a block of the walk
// A node of at most this many bodies is summed body by body when opened (a leaf bucket).
constexpr int k_bucket = 8;
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
__global__ void keys_kernel(const Vec4* __restrict__ pos, int n, int sources,
                            const Box* __restrict__ partial, int partials,
                            std::uint64_t* __restrict__ keys, int* __restrict__ index) {
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
              morton_spread21(grid21(p.z, origin.z, scale)) |
              (i >= sources ? std::uint64_t(1) << 63 : 0);  // test particles sort after the tree
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
  Vec4* quad2_open;  // xz, yz, the opening radius l/theta + s, te = eps^2 sum m |x - com|^2
  Vec4* lo;          // the bodies' bounding box; w: relative_reach2 (octree.h)
  Vec4* hi;
  int* arrived;  // bottom-up counters
  int* level;    // the octree level of the node's key prefix (its common bits / 3)
};

// A node as one array: the walk's arrays at one index. The essential trees are sent so, links
// renumbered to their own nodes (>= 0) and bodies (~index), and walked where they land; the top
// tree's nodes (top_tree.h, TopNode) have the same layout.
struct EssentialNode {
  Vec4 com, quad, quad2_open, lo, hi;
  int2 child, range;
};
static_assert(sizeof(EssentialNode) == 96, "sent as bytes");

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

// A child's moments (a node, or ~body) as its parent combines them (tree_moments.h).
__device__ __forceinline__ Moments child_moments(const Tree& t, const Vec4* __restrict__ sorted,
                                                 int c) {
  if (c < 0) return point_moments(sorted[~c]);
  // Written by another thread before its fence and counter increment: read past the L1.
  auto load = [](const Vec4* v) {
    const float4 f = __ldcg(reinterpret_cast<const float4*>(v));
    return Vec4{f.x, f.y, f.z, f.w};
  };
  return node_moments(load(&t.com[c]), load(&t.quad[c]), load(&t.quad2_open[c]), load(&t.lo[c]),
                      load(&t.hi[c]));
}

// From each body up: the second child to arrive at a node computes it and goes on up.
__global__ void moments_kernel(const Vec4* __restrict__ sorted, int n, Tree t, float inv_theta,
                               float eps2) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int node = t.leaf_parent[k];
  while (node >= 0) {
    __threadfence();
    if (atomicAdd(&t.arrived[node], 1) == 0) return;  // the sibling's thread will do it
    const int2 ch = t.child[node];
    const Moments r =
        combine_moments(child_moments(t, sorted, ch.x), child_moments(t, sorted, ch.y), eps2);
    Vec4 arrays[5];
    node_arrays(r, inv_theta, arrays);
    t.com[node] = arrays[0];
    t.quad[node] = arrays[1];
    t.quad2_open[node] = arrays[2];
    t.lo[node] = arrays[3];
    t.hi[node] = arrays[4];
    node = t.parent[node];
  }
}

// The boxes of the cells down to octree level `max_level`, for the viewer's overlay (at most
// `limit`).
__global__ void boxes_kernel(int n, Tree t, int max_level, Aabb* __restrict__ out,
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
  out[at] = Aabb{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}};
}

// The walk's groups: the largest nodes of at most 32 bodies (a node of at most 32 whose parent
// has more), and single bodies whose parent has more than 32. Their boxes are tight: Morton
// order alone would put into one group bodies that only follow each other on the curve (the
// first version did: in a Plummer halo a group of 32 spanned the whole system and its warp
// summed every body, which bound the whole walk).
// Only the groups that start within [first, last) of the sorted order are listed (all of them, or
// one GPU's part when the walk is spread over several).
// Groups are written as sorted indices + offset (a tree of the bodies from `offset` on).
__global__ void groups_kernel(int n, Tree t, int first, int last, int offset,
                              int2* __restrict__ groups, int* __restrict__ count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto mine = [&](int start) { return start >= first && start < last; };
  if (n == 1) {
    if (i == 0 && mine(0)) groups[atomicAdd(count, 1)] = make_int2(offset, 1);
    return;
  }
  auto size_of = [&](int node) {
    const int2 r = t.range[node];
    return r.y - r.x + 1;
  };
  if (i < n - 1) {  // internal node i
    const int size = size_of(i), parent = t.parent[i];
    if (size <= 32 && (parent < 0 || size_of(parent) > 32) && mine(t.range[i].x))
      groups[atomicAdd(count, 1)] = make_int2(offset + t.range[i].x, size);
  }
  if (i < n && mine(i) && size_of(t.leaf_parent[i]) > 32)  // body i, alone under a large parent
    groups[atomicAdd(count, 1)] = make_int2(offset + i, 1);
}

}  // namespace
}  // namespace orrery
