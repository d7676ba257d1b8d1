// Private: cpu-bh's solver class (cpu_bh.cpp), with the hooks a distributed run
// (src/sim/distributed) uses to add the other ranks' essential trees to each group's walk.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../backend/stage_ops.h"
#include "../core/region_errors.h"
#include "cpu_solvers.h"
#include "octree.h"

namespace orrery {

// Bodies per leaf: the walk's direct sums against the cost of more cells. 16: leaves of 8 or 32
// stepped 32,768 bodies no faster on the 2-core dev machine (docs/benchmarks.md, 2026-11-26).
// cuda-bh's buckets are 8, from its own sweep (docs/barnes-hut.md).
constexpr int k_cpu_bh_leaf_size = 16;

class CpuBhSolver : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  std::string config() const override {
    return m_name +
           " (octree, quadrupoles, a walk per group of <= " + std::to_string(HostOctree::k_group) +
           " bodies, leaves of " + std::to_string(k_cpu_bh_leaf_size) +
           (m_tree.cells().empty() ? ")"
                                   : ", " + std::to_string(m_tree.cells().size()) +
                                         " cells, depth " + std::to_string(m_tree.depth()) + ")");
  }
  bool all_pairs() const override { return false; }
  // Interactions each body took on the last pass (a decomposition's weights).
  const std::vector<float>& work() const { return m_work; }
  // The bodies were reordered or moved: the next pass learns their accelerations afresh.
  void forget() { m_last.clear(); }
  const HostOctree& tree() const { return m_tree; }
  bool takes_sources() const override { return true; }
  double interactions(int) const override { return m_interactions; }

  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    if (reuse(pos, n, p)) {
      std::copy(m_kept.begin(), m_kept.end(), acc);
      m_interactions = 0;  // this pass walked nothing: the potentials pass counted its work
      return;
    }
    field(pos, acc, n, p, false);
  }
  // The walk sums the accelerations with the potentials at almost no cost: they are kept, with
  // the positions, for a force pass on the same positions - a diagnostics reading's, then the next
  // euler step's (whose pass it saves: on the viewer's CPU path, one tree pass in ten frames).
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    m_kept_pos.clear();
    m_kept.resize(static_cast<std::size_t>(n));
    field(pos, out, n, p, true);
    if (m_control && m_control->cancel.load()) return;  // a cancelled walk's sums are partial
    m_kept_pos.assign(pos, pos + n);
    m_kept_softening = p.softening, m_kept_theta = p.theta;
  }
  void tree_cells(int max_level, std::size_t limit, std::vector<Aabb>& out) override {
    out.clear();
    for (const OctCell& c : m_tree.cells()) {
      if (c.level > max_level || out.size() >= limit) continue;
      out.push_back({{c.cx - c.half, c.cy - c.half, c.cz - c.half},
                     {c.cx + c.half, c.cy + c.half, c.cz + c.half}});
    }
  }

 private:
  // Whether the kept accelerations are those of these positions (bit for bit) and parameters;
  // they serve one pass.
  bool reuse(const Vec4* pos, int n, const SimParams& p) {
    const bool same = !m_kept_pos.empty() && static_cast<int>(m_kept_pos.size()) == n &&
                      p.softening == m_kept_softening && p.theta == m_kept_theta &&
                      std::memcmp(pos, m_kept_pos.data(), sizeof(Vec4) * m_kept_pos.size()) == 0;
    m_kept_pos.clear();
    return !any(!same);
  }

  // Builds the tree of `pos` and walks it for every group: out[i] = (a, 0), or (0, 0, 0, phi)
  // with the accelerations kept in m_kept.
  void field(const Vec4* pos, Vec4* out, int n, const SimParams& p, bool potential) {
    // The diagnostics time the potentials pass as theirs; a force pass marks its stages.
    PhaseTimer* phases = potential ? nullptr : m_phases;
    m_pos = pos;
    if (phases) phases->begin(Phase::build);  // keys and sort in parallel, then the cells
    // Test particles (the bodies from sources(n) on) are left out of the tree when they are at
    // least half the bodies; their own tree serves only to group them for the walk. Fewer of them
    // make sparse groups that cost more than they save: at 75-95% sources, 2-13% more interactions
    // than with them in the tree (Plummer, 20,000 and 100,000 bodies); at 5-25%, 20-50% fewer.
    m_first_test = sources(n) <= n / 2 ? sources(n) : n;
    m_tree.build(pos, m_first_test, k_cpu_bh_leaf_size);
    if (m_first_test < n) m_tests.build(pos + m_first_test, n - m_first_test, k_cpu_bh_leaf_size);
    if (phases) phases->begin(Phase::walk);
    // The relative test needs the last pass's accelerations; a pass without them (the first, or
    // after N changed) is walked twice, first with the box test alone.
    const bool relative = p.theta > 0.0f && k_relative > 0.0f;
    if (relative && any(static_cast<int>(m_last.size()) != n)) {
      walk(out, p, false, false, n);
      remember(out, n);
    }
    walk(out, p, potential, relative, n);
    remember(potential ? m_kept.data() : out, n);
  }

  // Each body's |a| of this force pass, and the relative test's floor: a fraction of their mean.
  void remember(const Vec4* out, int n) {
    m_last.resize(static_cast<std::size_t>(n));
    double sum = 0;
#pragma omp parallel for reduction(+ : sum) if (n > 16384)
    for (int i = 0; i < n; ++i) {
      const Vec4& a = out[i];
      const float mag = std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
      m_last[static_cast<std::size_t>(i)] = mag;
      sum += mag;
    }
    m_floor = static_cast<float>(k_relative_floor * mean(sum, n));
  }

  // Every group's walk of the tree: the sources', then the test particles'.
  void walk(Vec4* out, const SimParams& p, bool potential, bool relative, int n) {
    m_interactions = 0;
    m_work.resize(static_cast<std::size_t>(n));
    before_walk(p, relative, n);
    walk_groups(m_tree, 0, out, p, potential, relative);
    if (m_first_test < n) walk_groups(m_tests, m_first_test, out, p, potential, relative);
  }
  // The walks of the groups of `bodies` (the tree, or the test particles'), whose bodies are
  // bodies first + order[k].
  void walk_groups(const HostOctree& bodies, int first, Vec4* out, const SimParams& p,
                   bool potential, bool relative) {
    const float eps2 = p.softening * p.softening;
    const float inv_theta =
        p.theta > 0.0f ? 1.0f / p.theta : std::numeric_limits<float>::infinity();
    const float alpha = k_relative * p.theta * p.theta * p.theta;
    const std::vector<Vec4>& sorted = bodies.sorted();
    const std::vector<int>& order = bodies.order();
    const std::vector<HostOctree::Group>& groups = bodies.groups();
    StepControl* control = m_control;
    long long pp = 0, pc = 0;
    RegionErrors errors;  // a list that cannot grow: thrown after the region
#pragma omp parallel reduction(+ : pp, pc)
    {
      std::vector<int> stack;
      errors.run([&] { stack.reserve(256); });
      InteractionList list;
      WalkCount count;
#pragma omp for schedule(dynamic, 4)
      for (std::size_t g = 0; g < groups.size(); ++g) {
        if (!proceed(control) || errors.failed()) continue;
        const HostOctree::Group& group = groups[g];
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        float least = INFINITY;
        for (int k = group.begin; k < group.end; ++k) {
          const Vec4& b = sorted[static_cast<std::size_t>(k)];
          lo[0] = std::min(lo[0], b.x), lo[1] = std::min(lo[1], b.y), lo[2] = std::min(lo[2], b.z);
          hi[0] = std::max(hi[0], b.x), hi[1] = std::max(hi[1], b.y), hi[2] = std::max(hi[2], b.z);
          if (relative)
            least = std::min(
                least,
                m_last[static_cast<std::size_t>(first + order[static_cast<std::size_t>(k)])]);
        }
        const float scale = relative ? relative_scale(alpha, std::max(least, m_floor)) : 0.0f;
        errors.run([&] {
          list.cells.clear(), list.points.clear();
          gather_cells(m_tree.cells(), m_tree.sorted(), lo, hi, inv_theta, scale, eps2, stack,
                       list);
          for (const EssentialTree& r : m_remote)
            gather_cells(r.cells, r.bodies, lo, hi, inv_theta, scale, eps2, stack, list);
          list.cells.pad(), list.points.pad();
        });
        if (errors.failed()) continue;
        const float work = static_cast<float>(list.cells.count + list.points.count);
        const auto keep = [&](int k, const Vec4& f) {
          const std::size_t i =
              static_cast<std::size_t>(first + order[static_cast<std::size_t>(k)]);
          m_work[i] = work;
          out[i] = potential ? Vec4{0.0f, 0.0f, 0.0f, f.w} : Vec4{f.x, f.y, f.z, 0.0f};
          if (potential) m_kept[i] = Vec4{f.x, f.y, f.z, 0.0f};
        };
        // Two bodies a pass over the list, so each of its vectors is loaded once for both.
        int k = group.begin;
        for (; k + 1 < group.end; k += 2) {
          Vec4 f[2];
          bodies.field_pair(k, list, eps2, potential, count, f);
          keep(k, f[0]), keep(k + 1, f[1]);
        }
        if (k < group.end) keep(k, bodies.field(k, list, eps2, potential, count));
      }
      pp += count.body_body;
      pc += count.body_cell;
    }
    errors.rethrow();
    m_interactions += static_cast<double>(pp + pc);
  }

 protected:
  // Before each walk: a distributed run fetches the other ranks' essential trees into m_remote
  // (the walk adds them to every group's list). Nothing here.
  virtual void before_walk(const SimParams&, bool /*relative*/, int /*n*/) {}
  // The mean of |a| over every body of the run (a distributed run's over every rank).
  virtual double mean(double sum, int n) { return sum / n; }
  // Whether `mine` holds on any rank: every rank takes the same passes.
  virtual bool any(bool mine) { return mine; }
  // The box of bodies [0, n) and their relative-test scale (the largest of their groups'), for the
  // essential tree another rank makes for them.
  void target_box(const SimParams& p, bool relative, int n, const Vec4* pos, float lo[3],
                  float hi[3], float& scale) const;

  std::vector<EssentialTree> m_remote;  // other ranks' trees, as this rank's bodies need them
  const Vec4* m_pos = nullptr;          // the positions of the pass walked now
  std::vector<float> m_work;            // interactions of each body on the last walk
  std::string m_name = "cpu-bh";
  HostOctree m_tree, m_tests;  // the sources' tree; the test particles', to group them
  int m_first_test = 0;        // bodies from here on are test particles (m_tests)
  double m_interactions = 0;   // body-body and body-cell, of the last pass
  std::vector<float> m_last;   // |a| of each body on the last pass
  float m_floor = 0.0f;
  // The accelerations of the last potentials pass, its positions (empty: none kept) and
  // parameters.
  std::vector<Vec4> m_kept, m_kept_pos;
  float m_kept_softening = 0.0f, m_kept_theta = 0.0f;
};

}  // namespace orrery
