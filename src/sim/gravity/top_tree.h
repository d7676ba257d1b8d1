// The shared top tree of cuda-bh over ranks (issue 47), on the host. Every rank keys its bodies in
// one frame (the box of all ranks' bodies), so a cell of Morton keys is the same cell everywhere,
// and each rank's bodies in a cell are one subtree of its own radix tree (or a body). The top tree
// is the coarse cells of every rank's bodies together, with the moments one process's tree would
// give them: a group's walk starts there and goes down into the ranks' subtrees only where it
// opens a leaf, so far away it takes one node where separate trees would give one a rank (which
// cost 20% more interactions on 4 ranks). Every rank builds the same top tree from the same
// gathered parts.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "orrery/physics.h"
#include "tree_moments.h"

namespace orrery {

// The keys with the first `bits` bits of `start` (of the 63-bit keys): [start, end()).
struct KeyCell {
  std::uint64_t start = 0;
  int bits = 0;
  std::uint64_t end() const { return start + (std::uint64_t{1} << (63 - bits)); }
};

// The top tree's leaves, in key order: the coarsest octree cells of at most `most` bodies over
// every rank (a cell of 63 bits is a leaf whatever it holds; empty cells are left out), split from
// the root an octant at a time. `count(cells, counts)` writes each cell's bodies over every rank:
// a collective, which every rank calls alike.
std::vector<KeyCell> top_leaves(
    double most,
    const std::function<void(const std::vector<KeyCell>&, std::vector<double>&)>& count);

// One rank's bodies in one leaf: their moments and where the walk finds them (a node >= 0 or a
// body ~index of the walk's joined index space).
struct TopPart {
  int leaf = 0, rank = 0, link = 0;
  Moments m{};
};

// A node as the walk reads it (the layout of cuda-bh's EssentialNode): com, quad, quad2_open, lo,
// hi, the children's links and a range (only its size is read: more than a bucket).
struct TopNode {
  Vec4 com, quad, quad2_open, lo, hi;
  int child[2];
  int range[2];
};
static_assert(sizeof(TopNode) == 96, "a node as the walk reads it");

struct TopTree {
  std::vector<TopNode> nodes;  // node i's link is node_base + i
  int root = 0;                // the link the walk starts from
};

// The binary tree over the leaves' parts (sorted by leaf, then rank; at least one): split where
// the leaves' keys first differ, and a leaf of several parts split in halves. Each node has the
// moments of what is under it, combined as the device combines a node's children.
TopTree build_top_tree(const std::vector<KeyCell>& leaves, const std::vector<TopPart>& parts,
                       int node_base, float inv_theta, float eps2);

// A part as floats for the ranks' gather: its leaf and moments (k_part_floats; the leaf is exact
// below 2^24 leaves).
constexpr int k_part_floats = 18;
void pack_part(int leaf, const Moments& m, float* out);
TopPart unpack_part(const float* in, int rank);

}  // namespace orrery
