#include "top_tree.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace orrery {

std::vector<KeyCell> top_leaves(
    double most,
    const std::function<void(const std::vector<KeyCell>&, std::vector<double>&)>& count) {
  std::vector<KeyCell> leaves, open{KeyCell{}}, cells;
  std::vector<double> counts;
  while (!open.empty()) {
    cells.clear();
    for (const KeyCell& c : open)
      for (std::uint64_t octant = 0; octant < 8; ++octant) {
        const int bits = c.bits + 3;
        cells.push_back(KeyCell{c.start | octant << (63 - bits), bits});
      }
    counts.assign(cells.size(), 0.0);
    count(cells, counts);
    open.clear();
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (counts[i] <= 0) continue;
      (counts[i] <= most || cells[i].bits >= 63 ? leaves : open).push_back(cells[i]);
    }
  }
  // Leaves come out a level at a time: put them in key order.
  std::sort(leaves.begin(), leaves.end(),
            [](const KeyCell& a, const KeyCell& b) { return a.start < b.start; });
  return leaves;
}

namespace {

struct Builder {
  const std::vector<KeyCell>& leaves;
  const std::vector<TopPart>& parts;
  int node_base;
  float inv_theta, eps2;
  std::vector<TopNode> nodes;

  // The subtree over parts [i, j]: its link and moments.
  std::pair<int, Moments> build(std::size_t i, std::size_t j) {
    if (i == j) return {parts[i].link, parts[i].m};
    std::size_t split = (i + j + 1) / 2;  // one leaf's parts: halves
    const std::uint64_t a = leaves[static_cast<std::size_t>(parts[i].leaf)].start,
                        b = leaves[static_cast<std::size_t>(parts[j].leaf)].start;
    if (a != b) {  // the first part whose leaf has the highest bit where the two ends differ
      int high = 62;
      while (!((a ^ b) >> high & 1)) --high;
      const auto first = parts.begin() + static_cast<std::ptrdiff_t>(i);
      split = static_cast<std::size_t>(
          std::partition_point(first, parts.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                               [&](const TopPart& p) {
                                 return !(leaves[static_cast<std::size_t>(p.leaf)].start >> high &
                                          1);
                               }) -
          parts.begin());
    }
    const std::size_t at = nodes.size();
    nodes.emplace_back();
    const auto left = build(i, split - 1), right = build(split, j);
    const Moments m = combine_moments(left.second, right.second, eps2);
    Vec4 arrays[5];
    node_arrays(m, inv_theta, arrays);
    TopNode& n = nodes[at];
    n.com = arrays[0], n.quad = arrays[1], n.quad2_open = arrays[2];
    n.lo = arrays[3], n.hi = arrays[4];
    n.child[0] = left.first, n.child[1] = right.first;
    n.range[0] = 0, n.range[1] = 1 << 30;
    return {node_base + static_cast<int>(at), m};
  }
};

}  // namespace

TopTree build_top_tree(const std::vector<KeyCell>& leaves, const std::vector<TopPart>& parts,
                       int node_base, float inv_theta, float eps2) {
  if (parts.empty()) throw std::invalid_argument("top tree: no parts");
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const TopPart& p = parts[k];
    if (p.leaf < 0 || static_cast<std::size_t>(p.leaf) >= leaves.size() ||
        (k > 0 && (p.leaf < parts[k - 1].leaf ||
                   (p.leaf == parts[k - 1].leaf && p.rank <= parts[k - 1].rank))))
      throw std::invalid_argument("top tree: the parts are not in (leaf, rank) order");
  }
  Builder b{leaves, parts, node_base, inv_theta, eps2, {}};
  b.nodes.reserve(parts.size() - 1);
  TopTree t;
  t.root = b.build(0, parts.size() - 1).first;
  t.nodes = std::move(b.nodes);
  return t;
}

void pack_part(int leaf, const Moments& m, float* out) {
  out[0] = static_cast<float>(leaf);
  out[1] = m.m;
  for (int k = 0; k < 3; ++k) out[2 + k] = m.c[k], out[12 + k] = m.lo[k], out[15 + k] = m.hi[k];
  for (int k = 0; k < 6; ++k) out[5 + k] = m.q[k];
  out[11] = m.te;
}

TopPart unpack_part(const float* in, int rank) {
  TopPart p;
  p.leaf = static_cast<int>(in[0]);
  p.rank = rank;
  p.m.m = in[1];
  for (int k = 0; k < 3; ++k) p.m.c[k] = in[2 + k], p.m.lo[k] = in[12 + k], p.m.hi[k] = in[15 + k];
  for (int k = 0; k < 6; ++k) p.m.q[k] = in[5 + k];
  p.m.te = in[11];
  return p;
}

}  // namespace orrery
