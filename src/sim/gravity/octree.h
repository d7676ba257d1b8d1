// Private: the Barnes-Hut octree on the host - bodies sorted by 63-bit Morton keys, cells built
// from the sorted keys, monopole and quadrupole moments - and the group walk: a group's
// interaction list, and what each of its bodies feels from it. cpu-bh uses it; the tests use it as
// the reference tree.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "orrery/morton.h"
#include "orrery/physics.h"
#include "simd_sums.h"

namespace orrery {

struct OctCell {
  float cx, cy, cz, half;  // geometric centre and half the side
  float mx, my, mz, mass;  // centre of mass and mass
  float q[6];              // traceless quadrupole about the centre of mass: xx yy zz xy xz yz
  float tr;                // the second moment's trace: sum m |x - com|^2
  float s;                 // |centre of mass - centre|: the opening test's margin
  float reach2;            // relative_reach2 of the cell: the relative test's squared distance
  int first_child;         // children are contiguous; -1 for a leaf
  int child_count;
  int begin, end;  // the cell's bodies, in sorted order
  int level;       // 0: the root
};

// What one walk did: body-body and body-cell interactions.
struct WalkCount {
  long long body_body = 0, body_cell = 0;
};

// What a group of bodies feels: the cells taken whole, and the bodies of the opened leaves, copied
// out as arrays for the SIMD sums (simd_sums.h).
struct InteractionList {
  CellArrays cells;
  PointArrays points;
};

// The opening test, shared by both tree codes, for a group of bodies in the box [lo, hi] and a
// cell of side l, centre of mass c, mass M, at distance d from the box to c. The cell is taken
// whole when the box is outside the cell and
//   d > l / theta + s                 (s: the centre of mass's offset from the cell's centre), and
//   M l^3 / d^5 <= alpha |a|          (the relative test),
// |a| being the least acceleration the group's bodies had on the last pass (floored at a
// fraction of the mean), alpha = k_relative theta^3. The first bounds each cell's error against
// the cell's own pull; the second against what the body feels in all, which is what a relative
// error measures: where the pulls nearly cancel (a cube's middle, between clumps) it opens more.
// Squared and solved for d: d^2 >= reach2 * scale, reach2 = (M l^3)^(2/5) a cell, scale =
// (alpha |a|)^(-2/5) a group (0 when no accelerations are known yet: the first test alone).
// k_relative and the floor were chosen on both codes at theta 0.5 (docs/barnes-hut.md): 0.02 left
// cpu-bh's `random` at 16,384 over the RMS bar, 0.01 meets every bar on both with a margin.
constexpr float k_relative = 0.01f;
constexpr float k_relative_floor = 0.05f;  // of the mean |a|

// The relative test's reach2 of a cell of mass m and side l, (m l^3)^(2/5), through logarithms:
// m l^3 leaves float's range long before the result does. 0 for a massless or pointlike cell.
ORRERY_HD float relative_reach2(float m, float l) {
  if (!(m > 0.0f && l > 0.0f)) return 0.0f;
#if defined(__CUDA_ARCH__)
  return exp2f(0.4f * (log2f(m) + 3.0f * log2f(l)));
#else
  return std::exp2(0.4f * (std::log2(m) + 3.0f * std::log2(l)));
#endif
}

// The relative test's scale of a group whose least |a| (floored) is `least`: (alpha least)^(-2/5),
// or 0 (the box test alone) where that is not finite (alpha or least 0, or not a number).
ORRERY_HD float relative_scale(float alpha, float least) {
#if defined(__CUDA_ARCH__)
  const float s = exp2f(-0.4f * log2f(alpha * least));
  return isfinite(s) ? s : 0.0f;
#else
  const float s = std::exp2(-0.4f * std::log2(alpha * least));
  return std::isfinite(s) ? s : 0.0f;
#endif
}

// What another rank's bodies in a box need of a tree (the locally essential tree): the cells the
// box's walk visits, its children contiguous as in the tree, where a cell the walk takes whole is
// a leaf with no bodies (begin == end) that carries its moments, and the opened leaves' bodies
// are copied into `bodies`. Any box inside the one it was made for, at a relative-test scale no
// larger, takes those cells whole too, so a walk of it is the walk of the whole tree.
struct EssentialTree {
  std::vector<OctCell> cells;
  std::vector<Vec4> bodies;
};

// The walk of one tree's cells (`bodies` in the cells' order) for the box [lo, hi], the opening
// test above: the cells taken whole and the bodies of opened leaves are appended to `list` (not
// cleared, not padded). A bodiless leaf (an essential tree's) is taken whole.
void gather_cells(const std::vector<OctCell>& cells, const std::vector<Vec4>& bodies,
                  const float lo[3], const float hi[3], float inv_theta, float scale, float eps2,
                  std::vector<int>& stack, InteractionList& list);

class HostOctree {
 public:
  static constexpr int k_max_depth = 21;  // 21 bits a coordinate: a 63-bit key

  // Sorts the bodies by key and builds the cells (leaves of at most leaf_size bodies, except at
  // the depth cap, where coincident or nearly coincident bodies share one oversized leaf), with
  // their moments. Storage is kept and grown across builds.
  void build(const Vec4* pos, int n, int leaf_size);
  // The same tree (its cells in another order), built serially down to cells of at most
  // `subtree` bodies, whose subtrees are then built in parallel; 0: all serially. Above
  // k_parallel bodies, build() takes subtrees of N / k_subtrees: a few dozen a thread, whatever
  // the thread count, so the cells' order does not depend on it.
  void build(const Vec4* pos, int n, int leaf_size, int subtree);
  static constexpr int k_parallel = 16384;
  static constexpr int k_subtrees = 64;

  const std::vector<Vec4>& sorted() const { return m_sorted; }  // positions in key order
  const std::vector<int>& order() const { return m_order; }     // sorted index -> body index
  const std::vector<OctCell>& cells() const { return m_cells; }
  int depth() const { return m_depth; }

  // The walk's groups, as ranges of sorted bodies: the largest cells of at most k_group bodies
  // (or a leaf at the depth cap), with neighbouring siblings packed together up to k_group. A
  // group's walk costs about as much whatever its size, and a cell split at 129 bodies leaves
  // children of a few each: unpacked, groups averaged 35 bodies at 32,768 (docs/barnes-hut.md).
  static constexpr int k_group = 128;
  struct Group {
    int begin, end;
  };
  const std::vector<Group>& groups() const { return m_groups; }

  // The interaction list of a group of bodies in the box [lo, hi] (the opening test above;
  // inv_theta infinite: every cell opened), cell quadrupoles' trace terms for softening eps2.
  void gather(const float lo[3], const float hi[3], float inv_theta, float scale, float eps2,
              std::vector<int>& stack, InteractionList& list) const;

  // The part of this tree that bodies in the box [lo, hi] need (their relative-test scale at most
  // `scale`), for another rank.
  void essential(const float lo[3], const float hi[3], float inv_theta, float scale,
                 EssentialTree& out) const;

  // What the body of sorted index k feels from a group's list: its acceleration (xyz) and
  // potential (w, the body itself left out); the interactions are added to count.
  Vec4 field(int k, const InteractionList& list, float eps2, bool potential,
             WalkCount& count) const;
  // The same for the bodies of sorted index k and k + 1 in one pass over the list: out[0], out[1].
  void field_pair(int k, const InteractionList& list, float eps2, bool potential, WalkCount& count,
                  Vec4* out) const;

 private:
  void build_subtrees();
  void find_groups(int index);

  std::vector<std::uint64_t> m_keys;
  std::vector<std::pair<std::uint64_t, int>> m_pairs, m_scratch;
  std::vector<Vec4> m_sorted;
  std::vector<int> m_order;
  std::vector<OctCell> m_cells;
  std::vector<Group> m_groups;
  std::vector<int> m_deferred;                       // the top's cells whose subtrees are left
  std::vector<std::vector<OctCell>> m_thread_cells;  // each thread's subtrees
  int m_leaf_size = 16;
  int m_depth = 0;
};

// A body at distance vector d = x - com from a cell of mass m, traceless quadrupole q (xx yy zz
// xy xz yz) and second moment's trace T = sum m |x - com|^2 feels, with Plummer softening eps2
// and te = T eps2:
//   a = -(m + (5/2) (d.Q.d - te) / r^4) d / r^3 + Q d / r^5,
//   phi = -m / r - (1/2) (d.Q.d - te) / r^5,     r^2 = |d|^2 + eps2.
// The te terms are the softened kernel's: its second derivatives are not traceless, so Q alone
// drops (1/2) te / r^5 from the potential. Far from eps it is nothing; on clustered matter, where
// cells are taken within a few eps, it was the largest error (docs/barnes-hut.md). te comes
// premultiplied, and the radial terms share one factor: this is the walk's inner loop, and the
// walk is bound by instruction issue (docs/barnes-hut.md, Nsight Compute).
// Adds to acc (xyz) and phi (w).
ORRERY_HD void cell_field(float dx, float dy, float dz, float m, const float* q, float te,
                          float eps2, Vec4& acc) {
  const float r2 = eps2 + dx * dx + dy * dy + dz * dz;
  const float rinv = reciprocal_sqrt(r2);
  const float rinv2 = rinv * rinv;
  const float rinv3 = rinv * rinv2;
  const float rinv5 = rinv3 * rinv2;
  const float qx = q[0] * dx + q[3] * dy + q[4] * dz;
  const float qy = q[3] * dx + q[1] * dy + q[5] * dz;
  const float qz = q[4] * dx + q[5] * dy + q[2] * dz;
  const float dqd = -te + dz * qz + dy * qy + dx * qx;
  const float radial = rinv3 * (m + 2.5f * dqd * (rinv2 * rinv2));
  acc.x += qx * rinv5 - radial * dx;
  acc.y += qy * rinv5 - radial * dy;
  acc.z += qz * rinv5 - radial * dz;
  acc.w += -m * rinv - 0.5f * dqd * rinv5;
}

}  // namespace orrery
