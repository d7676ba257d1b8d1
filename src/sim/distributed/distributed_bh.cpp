// cpu-bh over MPI ranks (orrery/distributed.h): before each walk, every rank sends each other rank
// the essential tree of its own tree for that rank's bodies' box (octree.h: HostOctree::essential),
// and adds what it received to every group's walk.
#include <algorithm>
#include <cstring>

#include "../gravity/cpu_bh.h"
#include "../gravity/tree_exchange.h"
#include "orrery/distributed.h"

namespace orrery {
namespace {

class DistributedBhSolver final : public CpuBhSolver {
 public:
  explicit DistributedBhSolver(Ranks& ranks) : m_ranks(ranks) { m_name = "cpu-bh"; }
  std::string config() const override {
    return CpuBhSolver::config() + " over " + std::to_string(m_ranks.size()) +
           " ranks (essential trees exchanged)";
  }
  std::size_t received() const { return m_received; }

 protected:
  void before_walk(const SimParams& p, bool relative, int n) override {
    const int ranks = m_ranks.size();
    // Every rank's box and scale.
    float box[7];
    target_box(p, relative, n, m_pos, box, box + 3, box[6]);
    std::vector<std::uint8_t> mine(sizeof box);
    std::memcpy(mine.data(), box, sizeof box);
    const auto boxes = m_ranks.gather_all(mine, "the ranks' boxes");
    const float inv_theta =
        p.theta > 0.0f ? 1.0f / p.theta : std::numeric_limits<float>::infinity();
    std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(ranks));
    EssentialTree let;
    for (int r = 0; r < ranks; ++r) {
      if (r == m_ranks.rank()) continue;
      float other[7];
      std::memcpy(other, boxes[static_cast<std::size_t>(r)].data(), sizeof other);
      if (other[0] > other[3]) continue;  // a rank with no bodies needs nothing
      m_tree.essential(other, other + 3, inv_theta, other[6], let);
      const std::uint64_t counts[2] = {let.cells.size(), let.bodies.size()};
      std::vector<std::uint8_t>& s = send[static_cast<std::size_t>(r)];
      s.resize(sizeof counts + sizeof(OctCell) * let.cells.size() +
               sizeof(Vec4) * let.bodies.size());
      std::uint8_t* at = s.data();
      std::memcpy(at, counts, sizeof counts), at += sizeof counts;
      if (!let.cells.empty()) std::memcpy(at, let.cells.data(), sizeof(OctCell) * let.cells.size());
      at += sizeof(OctCell) * let.cells.size();
      if (!let.bodies.empty()) std::memcpy(at, let.bodies.data(), sizeof(Vec4) * let.bodies.size());
    }
    const auto got = m_ranks.exchange(std::move(send), "the essential trees");
    m_remote.clear();
    m_received = 0;
    for (const std::vector<std::uint8_t>& g : got) {
      if (g.size() < 2 * sizeof(std::uint64_t)) continue;
      m_received += g.size();
      std::uint64_t counts[2];
      std::memcpy(counts, g.data(), sizeof counts);
      if (g.size() != sizeof counts + sizeof(OctCell) * counts[0] + sizeof(Vec4) * counts[1])
        m_ranks.abort("an essential tree of " + std::to_string(g.size()) +
                          " bytes does not hold the cells and bodies it counts (ranks of "
                          "different builds?)",
                      3);
      EssentialTree t;
      t.cells.resize(counts[0]);
      t.bodies.resize(counts[1]);
      const std::uint8_t* at = g.data() + sizeof counts;
      if (counts[0] > 0)
        std::memcpy(static_cast<void*>(t.cells.data()), at, sizeof(OctCell) * counts[0]);
      at += sizeof(OctCell) * counts[0];
      if (counts[1] > 0)
        std::memcpy(static_cast<void*>(t.bodies.data()), at, sizeof(Vec4) * counts[1]);
      m_remote.push_back(std::move(t));
    }
  }
  double mean(double sum, int n) override {
    double v[2] = {sum, static_cast<double>(n)};
    m_ranks.sum(v, 2, "the mean acceleration");
    return v[1] > 0 ? v[0] / v[1] : 0.0;
  }
  bool any(bool mine) override {
    double v = mine ? 1.0 : 0.0;
    m_ranks.max(&v, 1, "the ranks' pass");
    return v > 0;
  }

 private:
  Ranks& m_ranks;
  std::size_t m_received = 0;
};

}  // namespace

std::unique_ptr<Solver> DistributedBh::make(Ranks& ranks) {
  return std::make_unique<DistributedBhSolver>(ranks);
}

std::vector<float> DistributedBh::work(const Solver& s) {
#ifdef ORRERY_HAVE_CUDA
  if (s.on_device()) return cuda_bh_work(s);
#endif
  return static_cast<const CpuBhSolver&>(s).work();
}

std::size_t DistributedBh::received_bytes(const Solver& s) {
#ifdef ORRERY_HAVE_CUDA
  if (s.on_device()) return cuda_bh_received_bytes(s);
#endif
  return static_cast<const DistributedBhSolver&>(s).received();
}

void DistributedBh::moved(Solver& s) {
#ifdef ORRERY_HAVE_CUDA
  if (s.on_device()) return cuda_bh_forget(s);
#endif
  static_cast<CpuBhSolver&>(s).forget();
}

}  // namespace orrery
