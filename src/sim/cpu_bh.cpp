// `cpu-bh`: Barnes-Hut on the CPU. The octree (octree.h) is rebuilt every force pass; the walk is
// parallel over bodies with OpenMP, in key order so neighbouring threads share cells.
#include <string>
#include <vector>

#include "cpu_solvers.h"
#include "octree.h"
#include "stage_ops.h"

namespace orrery {
namespace {

// Bodies per leaf: the walk's direct sums against the cost of more cells; 16, as cuda-bh's buckets
// (not tuned further).
constexpr int k_leaf_size = 16;

class CpuBhSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  std::string config() const override {
    return m_name + " (octree, quadrupoles, leaves of " + std::to_string(k_leaf_size) +
           (m_tree.cells().empty() ? ")"
                                   : ", " + std::to_string(m_tree.cells().size()) +
                                         " cells, depth " + std::to_string(m_tree.depth()) + ")");
  }
  bool all_pairs() const override { return false; }
  double interactions(int) const override { return m_interactions; }

  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    field(pos, acc, n, p, false);
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    field(pos, out, n, p, true);
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
  // Builds the tree of `pos` and walks it for every body: out[i] = (a, 0), or (0, 0, 0, phi).
  void field(const Vec4* pos, Vec4* out, int n, const SimParams& p, bool potential) {
    // The diagnostics time the potentials pass as theirs; a force pass marks its stages.
    PhaseTimer* phases = potential ? nullptr : m_phases;
    if (phases) phases->begin(Phase::build);  // keys, sort and cells in one serial pass
    m_tree.build(pos, n, k_leaf_size);
    if (phases) phases->begin(Phase::walk);
    const float eps2 = p.softening * p.softening;
    const std::vector<Vec4>& sorted = m_tree.sorted();
    const std::vector<int>& order = m_tree.order();
    StepControl* control = m_control;
    long long pp = 0, pc = 0;
#pragma omp parallel reduction(+ : pp, pc)
    {
      std::vector<int> stack;
      stack.reserve(256);
      WalkCount count;
#pragma omp for schedule(dynamic, 64)
      for (int k = 0; k < n; ++k) {
        if (!proceed(control)) continue;
        const Vec4 f =
            m_tree.walk(sorted[static_cast<std::size_t>(k)], k, p.theta, eps2, count, stack);
        out[order[static_cast<std::size_t>(k)]] =
            potential ? Vec4{0.0f, 0.0f, 0.0f, f.w} : Vec4{f.x, f.y, f.z, 0.0f};
      }
      pp += count.body_body;
      pc += count.body_cell;
    }
    m_interactions = static_cast<double>(pp + pc);
  }

  std::string m_name = "cpu-bh";
  HostOctree m_tree;
  double m_interactions = 0;  // body-body and body-cell, of the last walk
};

}  // namespace

std::unique_ptr<Solver> make_cpu_bh_solver(int) { return std::make_unique<CpuBhSolver>(); }

}  // namespace orrery
