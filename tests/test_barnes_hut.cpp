// `cpu-bh` through the shared Barnes-Hut checks (tests/bh_checks.h), its octree's shape at the
// depth cap, and bad opening angles.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../src/sim/gravity/octree.h"
#include "bh_checks.h"
#include "orrery/input.h"

namespace orrery::test {
namespace {

TEST(CpuBh, MeetsTheAccuracyBarsOnEveryPreset) { check_accuracy_bars("cpu-bh", 16384); }
TEST(CpuBh, ForgetsItsLastPassWhenNChanges) { check_relative_memory("cpu-bh"); }
TEST(CpuBh, ThetaZeroIsAllPairs) { check_theta_zero_is_all_pairs("cpu-bh"); }

// A cell's field against the exact softened sum of its bodies: two bodies at +-b about their
// centre of mass (odd moments vanish), softened beyond the cell's size and seen from a few eps
// away. The multipoles leave an error of order (b / d)^4 relative to the field; without the
// trace term it is of order (b eps / d^2)^2, some 40 times larger here.
TEST(CellField, MatchesTheSoftenedSumOfItsBodies) {
  const float b = 0.005f, eps = 0.02f, eps2 = eps * eps;
  const float m = 0.5f;
  // Moments of two masses m at (+-b, 0, 0): Q_xx = 2 m (3 b^2 - b^2), Q_yy = Q_zz = -2 m b^2.
  const float q[6] = {4 * m * b * b, -2 * m * b * b, -2 * m * b * b, 0, 0, 0};
  const float tr = 2 * m * b * b;
  for (float d : {0.04f, 0.06f, 0.1f}) {
    SCOPED_TRACE("d " + std::to_string(d));
    double exact[3] = {0, 0, 0};
    const double px = 0.6 * d, py = 0.8 * d, pz = 0.0;
    for (double sx : {-b, b}) {
      const double dx = px - sx, dy = py, dz = pz, r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double f = -m / (r2 * std::sqrt(r2));
      exact[0] += f * dx, exact[1] += f * dy, exact[2] += f * dz;
    }
    const double norm = std::sqrt(exact[0] * exact[0] + exact[1] * exact[1]);
    const auto error = [&](float trace) {
      Vec4 a{0, 0, 0, 0};
      cell_field(float(px), float(py), float(pz), 2 * m, q, trace * eps2, eps2, a);
      return std::hypot(a.x - exact[0], a.y - exact[1], a.z - exact[2]) / norm;
    };
    const double fourth = std::pow(b / d, 4.0);
    EXPECT_LT(error(tr), 3.0 * fourth + 1e-6);
    EXPECT_GT(error(0.0f), 10.0 * error(tr));  // the trace term is what closes the gap
  }
}
TEST(CpuBh, RobustToCoincidentFarAndMasslessBodies) { check_robustness("cpu-bh"); }
TEST(CpuBh, StepsWithEveryIntegratorAndCountsItsWork) { check_pipeline("cpu-bh"); }
TEST(CpuBh, GivesTheCellsOfItsTree) { check_tree_cells("cpu-bh"); }

// Coincident bodies cannot be split: the depth stops at the key's 21 levels with one oversized
// leaf holding them all; every body is in exactly one leaf.
TEST(CpuBh, DepthIsCappedWithAnOversizedLeaf) {
  BodyState s = make_preset(Preset::random, 1200, 8);
  for (int i = 0; i < 1000; ++i) s.pos[static_cast<std::size_t>(i)] = Vec4{0.5f, 0.5f, 0.5f, 1.0f};
  HostOctree tree;
  tree.build(s.pos.data(), s.size(), 16);
  EXPECT_EQ(tree.depth(), HostOctree::k_max_depth);
  int biggest = 0, covered = 0;
  for (const OctCell& c : tree.cells())
    if (c.first_child < 0) biggest = std::max(biggest, c.end - c.begin), covered += c.end - c.begin;
  EXPECT_EQ(covered, 1200);
  EXPECT_GE(biggest, 1000);
  // The root holds all the mass.
  double mass = 0;
  for (const Vec4& p : s.pos) mass += p.w;
  EXPECT_NEAR(tree.cells().front().mass, mass, 1e-4 * mass);
}

// The walk's groups cover every body once, in order; each holds at most k_group bodies (but an
// oversized leaf at the depth cap) and lies inside one cell that is a group or a group's parent:
// packed siblings, never bodies from far apart. Packed, groups average 78 to 101 bodies on these
// presets (unpacked, 33 to 35).
TEST(CpuBh, GroupsCoverEveryBodyOnceAndPackSiblings) {
  for (const char* name : {"collision", "plummer", "random"}) {
    SCOPED_TRACE(name);
    BodyState s = make_preset(parse_preset(name), 20000, 3);
    for (int i = 0; i < 300; ++i) s.pos[static_cast<std::size_t>(i)] = Vec4{0.5f, 0.5f, 0.5f, 1.0f};
    HostOctree tree;
    tree.build(s.pos.data(), s.size(), 16);
    int next = 0;
    for (const HostOctree::Group& g : tree.groups()) {
      ASSERT_EQ(g.begin, next);
      ASSERT_GT(g.end, g.begin);
      next = g.end;
      // The smallest cell holding the group.
      const OctCell* holder = &tree.cells().front();
      for (bool deeper = true; deeper;) {
        deeper = false;
        for (int k = 0; holder->first_child >= 0 && k < holder->child_count; ++k) {
          const OctCell& c = tree.cells()[static_cast<std::size_t>(holder->first_child + k)];
          if (c.begin <= g.begin && g.end <= c.end) holder = &c, deeper = true;
        }
      }
      const bool whole_cell = holder->begin == g.begin && holder->end == g.end;
      if (g.end - g.begin > HostOctree::k_group) {
        EXPECT_TRUE(whole_cell && holder->first_child < 0) << "a group of " << g.end - g.begin;
      } else if (!whole_cell) {  // packed children of a cell too big to be one group
        EXPECT_GT(holder->end - holder->begin, HostOctree::k_group);
      }
    }
    EXPECT_EQ(next, s.size());
    EXPECT_GT(static_cast<double>(s.size()) / static_cast<double>(tree.groups().size()), 60.0);
  }
}

// Cell `a` of tree x and cell `b` of tree y, and everything below them, are the same bit for bit
// (the cells' order in their arrays aside).
void expect_same_cells(const HostOctree& x, int a, const HostOctree& y, int b) {
  const OctCell& p = x.cells()[static_cast<std::size_t>(a)];
  const OctCell& q = y.cells()[static_cast<std::size_t>(b)];
  ASSERT_EQ(p.begin, q.begin);
  ASSERT_EQ(p.end, q.end);
  ASSERT_EQ(p.level, q.level);
  ASSERT_EQ(p.first_child < 0, q.first_child < 0) << "cell of bodies " << p.begin << ".." << p.end;
  ASSERT_EQ(p.child_count, q.child_count);
  const auto floats = [](const OctCell& c) {
    return std::vector<float>{c.cx,   c.cy,   c.cz,   c.half, c.mx,   c.my, c.mz, c.mass,  c.q[0],
                              c.q[1], c.q[2], c.q[3], c.q[4], c.q[5], c.tr, c.s,  c.reach2};
  };
  ASSERT_EQ(floats(p), floats(q)) << "cell of bodies " << p.begin << ".." << p.end;
  for (int k = 0; p.first_child >= 0 && k < p.child_count; ++k)
    expect_same_cells(x, p.first_child + k, y, q.first_child + k);
}

// The parallel build (subtrees built by each thread, then spliced) gives the serial build's tree,
// whatever the thread count and the subtrees' size: the same sorted bodies, cells, moments,
// depth and groups. The radix sort keeps bodies of equal keys in index order, and every body
// lies in its leaf's box.
TEST(CpuBh, TheParallelBuildIsTheSerialTree) {
  const int saved = omp_get_max_threads();
  for (const char* name : {"plummer", "collision", "random"}) {
    SCOPED_TRACE(name);
    BodyState s = make_preset(parse_preset(name), 40000, 5);
    for (int i = 0; i < 300; ++i)
      s.pos[static_cast<std::size_t>(i * 7)] = Vec4{0.1f, 0.2f, 0.3f, 1.0f};
    s.pos[39999] = Vec4{1e4f, -1e4f, 5e3f, 1.0f};  // far away: deep, lopsided top levels
    HostOctree serial;
    serial.build(s.pos.data(), s.size(), 16, 0);
    for (int threads : {1, 3, 7}) {
      for (int subtree : {100, 5000, -1}) {
        SCOPED_TRACE("threads " + std::to_string(threads) + ", subtree " + std::to_string(subtree));
        omp_set_num_threads(threads);
        HostOctree tree;
        if (subtree < 0)
          tree.build(s.pos.data(), s.size(), 16);  // the default
        else
          tree.build(s.pos.data(), s.size(), 16, subtree);
        EXPECT_EQ(tree.order(), serial.order());
        EXPECT_EQ(tree.cells().size(), serial.cells().size());
        EXPECT_EQ(tree.depth(), serial.depth());
        ASSERT_EQ(tree.groups().size(), serial.groups().size());
        for (std::size_t g = 0; g < tree.groups().size(); ++g) {
          EXPECT_EQ(tree.groups()[g].begin, serial.groups()[g].begin);
          EXPECT_EQ(tree.groups()[g].end, serial.groups()[g].end);
        }
        expect_same_cells(tree, 0, serial, 0);
      }
    }
    omp_set_num_threads(saved);
    // The coincident bodies, in index order.
    std::vector<int> coincident;
    for (int i : serial.order())
      if (i % 7 == 0 && i < 2100) coincident.push_back(i);
    EXPECT_TRUE(std::is_sorted(coincident.begin(), coincident.end()));
    EXPECT_EQ(coincident.size(), 300u);
    for (const OctCell& c : serial.cells()) {
      if (c.first_child >= 0) continue;
      for (int k = c.begin; k < c.end; ++k) {
        const Vec4& p = serial.sorted()[static_cast<std::size_t>(k)];
        // The cells' centres are halved down in float from the root's: a few of its ulps.
        const float slack = 1e-3f * c.half + 1e-6f * serial.cells().front().half;
        ASSERT_LE(std::fabs(p.x - c.cx), c.half + slack);
        ASSERT_LE(std::fabs(p.y - c.cy), c.half + slack);
        ASSERT_LE(std::fabs(p.z - c.cz), c.half + slack);
      }
    }
  }
}

// A potentials pass keeps its accelerations for one force pass on the same positions and
// parameters: that pass walks nothing (no body counted done) and gives what a fresh walk gives.
// Moved positions, a changed softening or theta, a second pass, or a cancelled potentials pass
// walk again.
TEST(CpuBh, APotentialsPassServesTheNextForcePassOnTheSamePositions) {
  const BodyState s = make_preset(Preset::plummer, 5000, 4);
  const int n = s.size();
  SimParams p = bh_params(0.5f);
  std::vector<Vec4> phi(s.pos.size()), kept(s.pos.size()), fresh(s.pos.size());
  auto fresh_pass = [&](const std::vector<Vec4>& pos, const SimParams& q) {
    auto g = make_solver("cpu-bh");
    g->accelerations(pos.data(), fresh.data(), n, q);  // the first pass: the box test alone
    g->accelerations(pos.data(), fresh.data(), n, q);  // and with the relative test
    return fresh;
  };
  auto g = make_solver("cpu-bh");
  StepControl control;
  g->set_control(&control);
  g->accelerations(s.pos.data(), kept.data(), n, p);
  g->potentials(s.pos.data(), phi.data(), n, p);
  EXPECT_LT(phi[0].w, 0.0f);
  const long long done = control.bodies_done;
  g->accelerations(s.pos.data(), kept.data(), n, p);
  EXPECT_EQ(control.bodies_done, done);  // kept, not walked
  EXPECT_EQ(g->interactions(n), 0.0);    // and no work counted twice
  const std::vector<Vec4> want = fresh_pass(s.pos, p);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(kept[i].x, want[i].x) << i;
    ASSERT_EQ(kept[i].y, want[i].y) << i;
    ASSERT_EQ(kept[i].z, want[i].z) << i;
    ASSERT_EQ(kept[i].w, 0.0f) << i;
  }
  g->accelerations(s.pos.data(), kept.data(), n, p);  // once only
  EXPECT_GT(control.bodies_done, done);

  // A cancelled potentials pass keeps nothing: its sums are partial.
  control.cancel = true;
  g->potentials(s.pos.data(), phi.data(), n, p);
  control.cancel = false;
  const long long after_cancel = control.bodies_done;
  g->accelerations(s.pos.data(), kept.data(), n, p);
  EXPECT_GT(control.bodies_done, after_cancel);  // walked

  std::vector<Vec4> moved = s.pos;
  moved[17].x = std::nextafter(moved[17].x, 1e9f);
  SimParams softer = p, wider = p;
  softer.softening *= 2.0f;
  wider.theta = 0.7f;
  for (int c = 0; c < 3; ++c) {
    SCOPED_TRACE(c);
    const std::vector<Vec4>& pos = c == 0 ? moved : s.pos;
    const SimParams& q = c == 1 ? softer : c == 2 ? wider : p;
    g->potentials(s.pos.data(), phi.data(), n, p);
    const long long before = control.bodies_done;
    g->accelerations(pos.data(), kept.data(), n, q);
    EXPECT_GT(control.bodies_done, before);  // walked
  }
}

TEST(CpuBh, AnEssentialTreeWalksAsTheWholeTreeForAnyBoxInsideItsOwn) {
  // Another rank's bodies in a box: the part of this tree they need (octree.h), walked for any
  // box inside that box at a scale no larger, gives the whole tree's interaction list, entry for
  // entry; and for a box far from the bodies it is a few cells' moments and no bodies.
  const BodyState s = make_preset(Preset::plummer, 6007, 11);
  HostOctree tree;
  tree.build(s.pos.data(), s.size(), 16);
  const float inv_theta = 2.0f, eps2 = 1e-4f;
  struct Box {
    float lo[3], hi[3];
  };
  for (const Box& outer : {Box{{0.3f, -0.2f, -0.4f}, {1.5f, 0.9f, 0.5f}},
                           Box{{-8.0f, -8.0f, -8.0f}, {-6.0f, -5.0f, -7.0f}},
                           Box{{100.0f, 100.0f, 100.0f}, {102.0f, 103.0f, 101.0f}},
                           Box{{-0.1f, -0.1f, -0.1f}, {0.1f, 0.1f, 0.1f}}}) {
    for (float scale : {0.0f, 40.0f}) {
      EssentialTree e;
      tree.essential(outer.lo, outer.hi, inv_theta, scale, e);
      ASSERT_FALSE(e.cells.empty());
      const Box inner{{outer.lo[0] + 0.25f * (outer.hi[0] - outer.lo[0]), outer.lo[1], outer.lo[2]},
                      {outer.hi[0], outer.lo[1] + 0.5f * (outer.hi[1] - outer.lo[1]), outer.hi[2]}};
      for (const Box& b : {outer, inner}) {
        for (float own_scale : {scale, 0.5f * scale}) {
          std::vector<int> stack;
          InteractionList whole, part;
          tree.gather(b.lo, b.hi, inv_theta, own_scale, eps2, stack, whole);
          gather_cells(e.cells, e.bodies, b.lo, b.hi, inv_theta, own_scale, eps2, stack, part);
          part.cells.pad(), part.points.pad();
          ASSERT_EQ(part.cells.count, whole.cells.count);
          ASSERT_EQ(part.points.count, whole.points.count);
          for (int k = 0; k < whole.cells.count; ++k) {
            EXPECT_EQ(part.cells.m[k], whole.cells.m[k]);
            EXPECT_EQ(part.cells.x[k], whole.cells.x[k]);
            EXPECT_EQ(part.cells.q[3][k], whole.cells.q[3][k]);
          }
          for (int k = 0; k < whole.points.count; ++k)
            EXPECT_EQ(part.points.y[k], whole.points.y[k]);
        }
      }
      if (outer.lo[0] > 50.0f) {  // far away: a few cells' moments (the outliers' cells opened)
        EXPECT_LT(e.cells.size(), 64u);
        EXPECT_TRUE(e.bodies.empty());
      } else {  // a part of the tree
        EXPECT_LT(e.bodies.size(), static_cast<std::size_t>(s.size()));
      }
    }
  }
}

TEST(CpuBh, BadThetaIsRefused) {
  SimParams p;
  for (float bad : {-1.0f, 5.0f, NAN, INFINITY}) {
    p.theta = bad;
    EXPECT_THROW(validate(p), InputError) << bad;
  }
  p.theta = 0.0f;
  EXPECT_NO_THROW(validate(p));
  p.theta = 2.0f;
  EXPECT_NO_THROW(validate(p));
}

}  // namespace
}  // namespace orrery::test
