// Private to cuda_bh.cu: locally essential trees on the device, for cuda-bh over ranks. The
// sender walks its own tree breadth first from its parts of the shared top tree's leaves (their
// subtrees' roots), for another rank's box and relative-test scale, level by level, keeping each
// node the box's walk reaches: a node the box takes whole, an opened bucket with its bodies, an
// opened node with its two children, a single body. The receiver walks what it got with the same
// walk, below the top tree (cuda_bh_walk.cuh, Nodes<true>): a node taken whole is sent as a point
// with no opening radius, so every group inside the box accepts it; any other node it may open as
// the whole tree would, since its children came along. So each group of the receiver gets the
// interaction list the whole tree would give it (Warren & Salmon 1993; Bonsai's choice). Also
// here: the cells' counts and each rank's parts of the leaves, for the top tree
// (cuda_bh_forest.cuh).
#pragma once

#include <climits>
#include <cstdint>

#include "cuda_bh_tree.cuh"

namespace orrery {
namespace {

// What a level's entry is to the target box.
enum EntryKind : int { k_entry_skip, k_entry_taken, k_entry_bucket, k_entry_open, k_entry_body };

struct TargetBox {
  float3 lo, hi;
  float scale;  // the relative test's (octree.h) for the box's least |a|; 0: the box test alone
};

// One level of entries [first, first + count) of `entries` (tree nodes, or ~body): each one's
// kind, children to place (0 or 2) and bodies to send, with the opening test of walk_group for a
// group filling the whole box.
__global__ void essential_level_kernel(Tree t, const int* __restrict__ entries, int first,
                                       int count, TargetBox box, int* __restrict__ kind,
                                       int* __restrict__ children, int* __restrict__ bodies) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const int e = first + i, node = entries[e];
  int k = k_entry_skip, size = 0;
  if (node < 0) {
    k = k_entry_body, size = 1;
  } else {
    const Vec4 com = t.com[node];
    if (com.w != 0.0f) {
      const Vec4 q2o = t.quad2_open[node], lo = t.lo[node], hi = t.hi[node];
      const int2 r = t.range[node];
      const bool overlap = lo.x <= box.hi.x && hi.x >= box.lo.x && lo.y <= box.hi.y &&
                           hi.y >= box.lo.y && lo.z <= box.hi.z && hi.z >= box.lo.z;
      const float dx = fmaxf(fmaxf(box.lo.x - com.x, com.x - box.hi.x), 0.0f);
      const float dy = fmaxf(fmaxf(box.lo.y - com.y, com.y - box.hi.y), 0.0f);
      const float dz = fmaxf(fmaxf(box.lo.z - com.z, com.z - box.hi.z), 0.0f);
      const float d2 = dx * dx + dy * dy + dz * dz;
      if (!overlap && d2 > q2o.z * q2o.z && d2 >= lo.w * box.scale)
        k = k_entry_taken;
      else if (r.y - r.x + 1 <= k_bucket)
        k = k_entry_bucket, size = r.y - r.x + 1;
      else
        k = k_entry_open;
    }
  }
  kind[e] = k;
  children[e] = k == k_entry_open ? 2 : 0;
  bodies[e] = size;
}

// The opened entries' children, placed in the next level (which starts after this one) at their
// offsets, `children` scanned over the level (exclusive); each entry's `children` then becomes its
// first child's entry. The level after has `*next_count` entries.
__global__ void essential_children_kernel(Tree t, int* __restrict__ entries, int first, int count,
                                          const int* __restrict__ kind, int* __restrict__ children,
                                          int* __restrict__ next_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const int e = first + i, at = first + count + children[e];
  const bool open = kind[e] == k_entry_open;
  if (open) {
    const int2 c = t.child[entries[e]];
    entries[at] = c.x;
    entries[at + 1] = c.y;
  }
  if (i == count - 1) *next_count = at + (open ? 2 : 0) - (first + count);
  children[e] = at;
}

// The essential tree of entries [0, m): node e of it is entry e (a body entry's node is unused),
// its bodies at body_at (an exclusive scan of the entries' bodies). `first_child` of an opened
// entry: where its children's entries are.
__global__ void essential_assemble_kernel(
    Tree t, const Vec4* __restrict__ sorted, const int* __restrict__ entries, int m,
    const int* __restrict__ kind, const int* __restrict__ first_child,
    const int* __restrict__ body_at, EssentialNode* __restrict__ nodes, Vec4* __restrict__ bodies) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const int node = entries[e], k = kind[e];
  EssentialNode out{};
  if (k == k_entry_body) {
    bodies[body_at[e]] = sorted[~node];
    nodes[e] = out;  // com.w 0: never walked as a node (its parent links to the body)
    return;
  }
  out.com = t.com[node];
  out.quad = t.quad[node];
  out.quad2_open = t.quad2_open[node];
  out.lo = t.lo[node];
  out.hi = t.hi[node];
  const int2 r = t.range[node];
  const int size = r.y - r.x + 1;
  if (k == k_entry_taken) {
    // A point at the centre of mass, no opening radius and no relative reach: accepted by every
    // group of the box (the centre of mass lies outside it, as the test above found).
    out.lo = Vec4{out.com.x, out.com.y, out.com.z, 0.0f};
    out.hi = Vec4{out.com.x, out.com.y, out.com.z, 0.0f};
    out.quad2_open.z = 0.0f;
    out.range = make_int2(0, size - 1);
  } else if (k == k_entry_bucket) {
    out.range = make_int2(body_at[e], body_at[e] + size - 1);
    for (int j = 0; j < size; ++j) bodies[body_at[e] + j] = sorted[r.x + j];
  } else if (k == k_entry_open) {
    auto link = [&](int at) { return entries[at] >= 0 ? at : ~body_at[at]; };
    const int c = first_child[e];
    out.child = make_int2(link(c), link(c + 1));
    out.range = make_int2(0, size - 1);  // only its size is read: more than a bucket
  }
  nodes[e] = out;
}

// A received essential tree's links where it landed, into the joined index space: a node c >= 0
// becomes c + node_link, a body ~b becomes ~(b + body_link); ranges shift with the bodies.
__global__ void essential_link_kernel(EssentialNode* __restrict__ nodes, int m, int node_link,
                                      int body_link) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  EssentialNode& n = nodes[e];
  auto link = [&](int c) { return c >= 0 ? c + node_link : ~(~c + body_link); };
  n.child = make_int2(link(n.child.x), link(n.child.y));
  n.range = make_int2(n.range.x + body_link, n.range.y + body_link);
}

// The first of keys [0, n) (sorted) not below v.
__device__ __forceinline__ int first_key_from(const std::uint64_t* __restrict__ keys, int n,
                                              std::uint64_t v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Each cell's bodies of this rank: cell c holds the keys [bounds[2c], bounds[2c + 1]).
__global__ void cell_counts_kernel(const std::uint64_t* __restrict__ keys, int n,
                                   const std::uint64_t* __restrict__ bounds, int count,
                                   double* __restrict__ out) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= count) return;
  out[c] = first_key_from(keys, n, bounds[2 * c + 1]) - first_key_from(keys, n, bounds[2 * c]);
}

constexpr int k_no_part = INT_MIN;        // the rank has no body in the leaf
constexpr int k_lost_part = INT_MIN + 1;  // its bodies there are no node of its tree (a bug)

// This rank's part of each leaf of the top tree: its bodies there, which are one node of its
// radix tree (a node's range starts or ends at its own index: Karras 2012) or one body; the link
// and the moments.
__global__ void parts_kernel(Tree t, const Vec4* __restrict__ sorted,
                             const std::uint64_t* __restrict__ keys, int n,
                             const std::uint64_t* __restrict__ bounds, int count,
                             int* __restrict__ link, Moments* __restrict__ moments) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= count) return;
  const int a = first_key_from(keys, n, bounds[2 * c]);
  const int b = first_key_from(keys, n, bounds[2 * c + 1]) - 1;
  if (b < a) {
    link[c] = k_no_part;
    return;
  }
  if (a == b) {
    link[c] = ~a;
    moments[c] = point_moments(sorted[a]);
    return;
  }
  int node = k_lost_part;
  if (a < n - 1 && t.range[a].x == a && t.range[a].y == b)
    node = a;
  else if (b < n - 1 && t.range[b].x == a && t.range[b].y == b)
    node = b;
  link[c] = node;
  if (node >= 0)
    moments[c] =
        node_moments(t.com[node], t.quad[node], t.quad2_open[node], t.lo[node], t.hi[node]);
}

}  // namespace
}  // namespace orrery
