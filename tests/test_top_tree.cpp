// The shared top tree of cuda-bh over ranks, its host half (top_tree.h): the leaves the ranks'
// counts give, and the tree over every rank's parts with the moments of the bodies under it. The
// GPU half (finding each rank's parts, the joined walk) is run by orrery_mpi_check --gpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "../src/sim/gravity/top_tree.h"
#include "orrery/morton.h"

namespace orrery {
namespace {

struct Body {
  Vec4 p;
  std::uint64_t key;
  int rank;
};

// A Plummer-like clump in a wide box, keyed as cuda-bh keys (63-bit Morton), shared by `ranks`
// ranks in key ranges, with every 50th body on a random rank (bodies that drifted since the split).
std::vector<Body> clump(int n, int ranks, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  std::vector<Body> b(static_cast<std::size_t>(n));
  for (Body& x : b) {
    const float r = std::pow(u(rng), 6.0f);  // a dense core and a thin halo
    x.p = Vec4{r * g(rng), r * g(rng), r * g(rng), u(rng) / static_cast<float>(n)};
  }
  const float lo = -40.0f, scale = 2097152.0f / 80.0f;
  auto grid = [&](float v) {
    return static_cast<std::uint64_t>(std::clamp((v - lo) * scale, 0.0f, 2097151.0f));
  };
  for (Body& x : b)
    x.key = morton_spread21(grid(x.p.x)) << 2 | morton_spread21(grid(x.p.y)) << 1 |
            morton_spread21(grid(x.p.z));
  std::sort(b.begin(), b.end(), [](const Body& a, const Body& c) { return a.key < c.key; });
  std::uniform_int_distribution<int> any(0, ranks - 1);
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i].rank =
        i % 50 == 7 ? any(rng) : static_cast<int>(i * static_cast<std::size_t>(ranks) / b.size());
  return b;
}

std::vector<KeyCell> leaves_of(const std::vector<Body>& b, double most, int* rounds = nullptr) {
  int calls = 0;
  auto count = [&](const std::vector<KeyCell>& cells, std::vector<double>& counts) {
    ++calls;
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (const Body& x : b) counts[c] += x.key >= cells[c].start && x.key < cells[c].end();
  };
  std::vector<KeyCell> leaves = top_leaves(most, count);
  if (rounds) *rounds = calls;
  return leaves;
}

double bodies_in(const std::vector<Body>& b, const KeyCell& c) {
  double k = 0;
  for (const Body& x : b) k += x.key >= c.start && x.key < c.end();
  return k;
}

TEST(TopTree, LeavesAreTheCoarsestCellsUnderTheLimitAndHoldEveryBody) {
  const std::vector<Body> b = clump(6000, 3, 1);
  const double most = 200;
  int rounds = 0;
  const std::vector<KeyCell> leaves = leaves_of(b, most, &rounds);
  ASSERT_GT(leaves.size(), 30u);
  EXPECT_GT(rounds, 2);
  double total = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const KeyCell& c = leaves[i];
    EXPECT_EQ(c.bits % 3, 0);
    const double k = bodies_in(b, c);
    EXPECT_GT(k, 0) << "an empty cell is no leaf";
    EXPECT_LE(k, most);
    // Its parent held more than the limit (else the parent would be the leaf).
    const int up = c.bits - 3;
    const KeyCell parent{up == 0 ? 0 : c.start >> (63 - up) << (63 - up), up};
    EXPECT_GT(bodies_in(b, parent), most);
    if (i > 0) {
      EXPECT_LE(leaves[i - 1].end(), c.start) << "in key order, disjoint";
    }
    total += k;
  }
  EXPECT_EQ(total, 6000.0);
}

TEST(TopTree, ACellOfOneKeyIsALeafWhateverItHolds) {
  std::vector<Body> b(40);
  for (Body& x : b) x.key = 12345, x.rank = 0;
  const std::vector<KeyCell> leaves = leaves_of(b, 8);
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves[0].bits, 63);
  EXPECT_EQ(leaves[0].start, 12345u);
}

// Every rank's part of every leaf, its moments combined body by body as a tree would.
std::vector<TopPart> parts_of(const std::vector<Body>& b, const std::vector<KeyCell>& leaves,
                              int ranks, float eps2) {
  std::vector<TopPart> parts;
  int link = 0;
  for (std::size_t l = 0; l < leaves.size(); ++l)
    for (int r = 0; r < ranks; ++r) {
      bool any = false;
      Moments m{};
      for (const Body& x : b)
        if (x.rank == r && x.key >= leaves[l].start && x.key < leaves[l].end()) {
          m = any ? combine_moments(m, point_moments(x.p), eps2) : point_moments(x.p);
          any = true;
        }
      if (!any) continue;
      TopPart p;
      p.leaf = static_cast<int>(l), p.rank = r, p.link = ~link++, p.m = m;
      parts.push_back(p);
    }
  return parts;
}

TEST(TopTree, TheRootHasTheMomentsOfEveryBody) {
  const int ranks = 3;
  const float eps2 = 1e-4f;
  const std::vector<Body> b = clump(3000, ranks, 2);
  const std::vector<KeyCell> leaves = leaves_of(b, 100);
  const std::vector<TopPart> parts = parts_of(b, leaves, ranks, eps2);
  ASSERT_GT(parts.size(), leaves.size()) << "some leaves are shared by ranks";
  const int base = 1000000;
  const TopTree t = build_top_tree(leaves, parts, base, 2.0f, eps2);
  ASSERT_EQ(t.nodes.size(), parts.size() - 1);
  ASSERT_EQ(t.root, base);

  // The direct sums over every body.
  double m = 0, c[3] = {0, 0, 0}, lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
  for (const Body& x : b) {
    const double p[3] = {x.p.x, x.p.y, x.p.z};
    m += x.p.w;
    for (int k = 0; k < 3; ++k)
      c[k] += x.p.w * p[k], lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
  }
  for (double& v : c) v /= m;
  double q[6] = {0, 0, 0, 0, 0, 0}, te = 0;
  for (const Body& x : b) {
    const double d[3] = {x.p.x - c[0], x.p.y - c[1], x.p.z - c[2]};
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    q[0] += x.p.w * (3 * d[0] * d[0] - d2), q[1] += x.p.w * (3 * d[1] * d[1] - d2);
    q[2] += x.p.w * (3 * d[2] * d[2] - d2), q[3] += x.p.w * 3 * d[0] * d[1];
    q[4] += x.p.w * 3 * d[0] * d[2], q[5] += x.p.w * 3 * d[1] * d[2];
    te += eps2 * x.p.w * d2;
  }
  const TopNode& root = t.nodes[0];
  EXPECT_NEAR(root.com.w, m, 1e-5 * m);
  EXPECT_NEAR(root.com.x, c[0], 1e-4);
  EXPECT_NEAR(root.com.y, c[1], 1e-4);
  EXPECT_NEAR(root.com.z, c[2], 1e-4);
  const float got[6] = {root.quad.x, root.quad.y,       root.quad.z,
                        root.quad.w, root.quad2_open.x, root.quad2_open.y};
  double scale = 0;
  for (double v : q) scale = std::max(scale, std::abs(v));
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(got[k], q[k], 1e-3 * scale) << "quadrupole " << k;
  EXPECT_NEAR(root.quad2_open.w, te, 1e-3 * te);
  EXPECT_FLOAT_EQ(root.lo.x, static_cast<float>(lo[0]));
  EXPECT_FLOAT_EQ(root.hi.z, static_cast<float>(hi[2]));
  // The opening radius: the box's longest side over theta (inv_theta 2) plus the centre's offset.
  const double l = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  EXPECT_GE(root.quad2_open.z, 2 * l * 0.9999);
  EXPECT_GT(root.range[1] - root.range[0] + 1, 8) << "a top node is never read as a bucket";
}

TEST(TopTree, EveryPartHangsOnceUnderTheRootInOrder) {
  const int ranks = 4;
  const std::vector<Body> b = clump(2500, ranks, 3);
  const std::vector<KeyCell> leaves = leaves_of(b, 60);
  const std::vector<TopPart> parts = parts_of(b, leaves, ranks, 0.0f);
  const int base = 77;
  const TopTree t = build_top_tree(leaves, parts, base, 2.0f, 0.0f);
  std::vector<int> seen;
  int deepest = 0;
  auto visit = [&](auto&& self, int link, int depth) -> void {
    deepest = std::max(deepest, depth);
    if (link >= base) {
      const TopNode& n = t.nodes[static_cast<std::size_t>(link - base)];
      self(self, n.child[0], depth + 1);
      self(self, n.child[1], depth + 1);
    } else {
      seen.push_back(link);
    }
  };
  visit(visit, t.root, 0);
  ASSERT_EQ(seen.size(), parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) EXPECT_EQ(seen[k], parts[k].link);
  EXPECT_LE(deepest, 63 + 3) << "split on the keys' bits, then a leaf's few parts in halves";
}

TEST(TopTree, OnePartIsTheRootItself) {
  const std::vector<KeyCell> leaves{KeyCell{0, 3}};
  TopPart p;
  p.link = ~5, p.m = point_moments(Vec4{1, 2, 3, 4});
  const TopTree t = build_top_tree(leaves, {p}, 10, 2.0f, 0.0f);
  EXPECT_TRUE(t.nodes.empty());
  EXPECT_EQ(t.root, ~5);
}

TEST(TopTree, PartsOutOfOrderOrNoneAreRefused) {
  const std::vector<KeyCell> leaves{KeyCell{0, 3}, KeyCell{std::uint64_t{1} << 60, 3}};
  TopPart a, b;
  a.leaf = 1, b.leaf = 0;
  EXPECT_THROW(build_top_tree(leaves, {a, b}, 0, 1.0f, 0.0f), std::invalid_argument);
  EXPECT_THROW(build_top_tree(leaves, {}, 0, 1.0f, 0.0f), std::invalid_argument);
  a.leaf = 5;
  EXPECT_THROW(build_top_tree(leaves, {a}, 0, 1.0f, 0.0f), std::invalid_argument);
}

TEST(TopTree, APartSurvivesTheGatherAsFloats) {
  Moments m = point_moments(Vec4{1.5f, -2.0f, 3.25f, 0.125f});
  m = combine_moments(m, point_moments(Vec4{-1.0f, 0.5f, 2.0f, 0.25f}), 0.01f);
  float packed[k_part_floats];
  pack_part(16777215, m, packed);
  const TopPart p = unpack_part(packed, 3);
  EXPECT_EQ(p.leaf, 16777215);
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.m.m, m.m);
  EXPECT_EQ(p.m.te, m.te);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(p.m.c[k], m.c[k]);
    EXPECT_EQ(p.m.lo[k], m.lo[k]);
    EXPECT_EQ(p.m.hi[k], m.hi[k]);
  }
  for (int k = 0; k < 6; ++k) EXPECT_EQ(p.m.q[k], m.q[k]);
}

}  // namespace
}  // namespace orrery
