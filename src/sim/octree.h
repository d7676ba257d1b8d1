// Private: the Barnes-Hut octree on the host - bodies sorted by 63-bit Morton keys, cells built
// from the sorted keys, monopole and quadrupole moments - and the walk that sums one body's
// acceleration and potential from it. cpu-bh uses it; the tests use it as the reference tree.
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

struct OctCell {
  float cx, cy, cz, half;  // geometric centre and half the side
  float mx, my, mz, mass;  // centre of mass and mass
  float q[6];              // traceless quadrupole about the centre of mass: xx yy zz xy xz yz
  float tr;                // the second moment's trace: sum m |x - com|^2
  float s;                 // |centre of mass - centre|: the opening test's margin
  int first_child;         // children are contiguous; -1 for a leaf
  int child_count;
  int begin, end;  // the cell's bodies, in sorted order
  int level;       // 0: the root
};

// What one walk did: body-body and body-cell interactions.
struct WalkCount {
  long long body_body = 0, body_cell = 0;
};

class HostOctree {
 public:
  static constexpr int k_max_depth = 21;  // 21 bits a coordinate: a 63-bit key

  // Sorts the bodies by key and builds the cells (leaves of at most leaf_size bodies, except at
  // the depth cap, where coincident or nearly coincident bodies share one oversized leaf), with
  // their moments. Storage is kept and grown across builds.
  void build(const Vec4* pos, int n, int leaf_size);

  const std::vector<Vec4>& sorted() const { return m_sorted; }  // positions in key order
  const std::vector<int>& order() const { return m_order; }     // sorted index -> body index
  const std::vector<OctCell>& cells() const { return m_cells; }
  int depth() const { return m_depth; }

  // The acceleration (xyz) and potential (w, the body itself left out) of a body at `p`, sorted
  // index `self` (-1: not a body of the tree), from the cells opened by theta (0: every cell).
  Vec4 walk(const Vec4& p, int self, float theta, float eps2, WalkCount& count,
            std::vector<int>& stack) const;

 private:
  void build_cell(int index, int begin, int end, int level, float cx, float cy, float cz,
                  float half);
  void moments(int index);

  std::vector<std::uint64_t> m_keys;
  std::vector<std::pair<std::uint64_t, int>> m_pairs;
  std::vector<Vec4> m_sorted;
  std::vector<int> m_order;
  std::vector<OctCell> m_cells;
  int m_leaf_size = 16;
  int m_depth = 0;
};

// Spreads the low 21 bits of v to every third bit: one coordinate's share of a 63-bit Morton key
// (both tree codes use it, on the host and the device).
ORRERY_HD std::uint64_t morton_spread21(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// A body at distance vector d = x - com from a cell of mass m, traceless quadrupole q (xx yy zz
// xy xz yz) and second moment's trace tr = sum m |x - com|^2 feels, with Plummer softening eps2:
//   a = -m d / r^3 + Q d / r^5 - (5/2) (d.Q.d - tr eps2) d / r^7,
//   phi = -m / r - (1/2) (d.Q.d - tr eps2) / r^5,     r^2 = |d|^2 + eps2.
// The tr eps2 terms are the softened kernel's: its second derivatives are not traceless, so
// Q alone drops (1/2) tr eps2 / r^5 from the potential. Far from eps it is nothing; on clustered
// matter, where cells are taken within a few eps, it was the largest error (docs/barnes-hut.md).
// Adds to acc (xyz) and phi (w).
ORRERY_HD void cell_field(float dx, float dy, float dz, float m, const float* q, float tr,
                          float eps2, Vec4& acc) {
  const float r2 = eps2 + dx * dx + dy * dy + dz * dz;
  const float rinv = reciprocal_sqrt(r2);
  const float rinv2 = rinv * rinv;
  const float rinv3 = m * rinv * rinv2;
  const float qx = q[0] * dx + q[3] * dy + q[4] * dz;
  const float qy = q[3] * dx + q[1] * dy + q[5] * dz;
  const float qz = q[4] * dx + q[5] * dy + q[2] * dz;
  const float dqd = dx * qx + dy * qy + dz * qz - tr * eps2;
  const float rinv5 = rinv2 * rinv2 * rinv;
  const float a_q = 2.5f * dqd * rinv5 * rinv2;
  acc.x += -rinv3 * dx + qx * rinv5 - a_q * dx;
  acc.y += -rinv3 * dy + qy * rinv5 - a_q * dy;
  acc.z += -rinv3 * dz + qz * rinv5 - a_q * dz;
  acc.w += -m * rinv - 0.5f * dqd * rinv5;
}

}  // namespace orrery
