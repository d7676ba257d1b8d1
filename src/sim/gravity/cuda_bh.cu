// `cuda-bh`: Barnes-Hut with the whole pass on the device and no host round trip - bounds, 63-bit
// Morton keys, CUB radix sort, a binary radix tree built from the sorted keys in one parallel
// pass (Karras 2012), monopole and quadrupole moments bottom-up, and a walk in which one warp
// serves 32 consecutive bodies with one traversal and the opening test of octree.h (a box test
// and a relative test). docs/barnes-hut.md explains the choices and measures them.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../backend/cuda_handles.cuh"
#include "../backend/stage_ops.h"
#include "cuda_bh_forest.cuh"
#include "cuda_bh_walk.cuh"
#include "cuda_solvers.h"
#include "octree.h"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "tree_exchange.h"

namespace orrery {
namespace {

class CudaBhSolver final : public Solver {
 public:
  explicit CudaBhSolver(int frontier = k_frontier, std::unique_ptr<TreeExchange> exchange = nullptr)
      : m_ranks(exchange ? std::make_unique<EssentialForest>(std::move(exchange)) : nullptr),
        m_frontier_limit(frontier) {
    require_device();
    m_host_counts = PinnedHost<unsigned long long>(3);
    m_host_counts[0] = m_host_counts[1] = m_host_counts[2] = 0;
  }
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return true; }
  int block_size() const override { return 32 * k_walk_warps; }
  std::string config() const override {
    return m_name +
           " (binary radix tree of Morton-sorted bodies, quadrupoles, a warp walk per node of "
           "<= 32 bodies, buckets of " +
           std::to_string(k_bucket) + ", box and relative opening tests)" +
           (m_ranks ? " over " + std::to_string(m_ranks->exchange().ranks()) +
                          " ranks (essential trees exchanged device to device)"
                    : "");
  }
  // Over ranks: each body's interactions on the last force pass, the bytes received, and the
  // bodies moved (their last accelerations no longer theirs).
  std::vector<float> work() const {
    std::vector<float> w(static_cast<std::size_t>(m_work_n));
    if (!w.empty())
      CUDA_CHECK_THROW(
          cudaMemcpy(w.data(), m_work.data(), sizeof(float) * w.size(), cudaMemcpyDeviceToHost));
    return w;
  }
  std::size_t received() const { return m_ranks ? m_ranks->received() : 0; }
  void forget() { m_known = 0; }
  bool all_pairs() const override { return false; }
  bool takes_sources() const override { return true; }
  void tree_cells(int max_level, std::size_t limit, std::vector<Aabb>& out) override {
    out.clear();
    if (m_built < 2) return;  // no tree yet, or one body
    // Scratch kept and grown like the rest (the overlay asks every frame).
    const int cap =
        static_cast<int>(std::min<std::size_t>(limit, static_cast<std::size_t>(m_built)));
    m_boxes_out.enlarge(static_cast<std::size_t>(cap));
    m_box_count.enlarge(1);
    CUDA_CHECK_THROW(cudaMemsetAsync(m_box_count.data(), 0, sizeof(int)));
    boxes_kernel<<<blocks_for(m_built - 1), k_threads>>>(
        m_built, m_tree, max_level, m_boxes_out.data(), m_box_count.data(), cap);
    CUDA_CHECK_LAUNCH("boxes_kernel");
    int found = 0;
    CUDA_CHECK_THROW(cudaMemcpy(&found, m_box_count.data(), sizeof(int), cudaMemcpyDeviceToHost));
    out.resize(static_cast<std::size_t>(std::min(found, cap)));
    if (!out.empty())
      CUDA_CHECK_THROW(cudaMemcpy(out.data(), m_boxes_out.data(), sizeof(Aabb) * out.size(),
                                  cudaMemcpyDeviceToHost));
  }
  // Groups walked again by the retry pass since the solver was made (waits for the device).
  int retried() const {
    int r = 0;
    if (m_retried) CUDA_CHECK_THROW(cudaMemcpy(&r, m_retried, sizeof(int), cudaMemcpyDeviceToHost));
    return r;
  }
  // The walk's count of the last pass that has finished (read without waiting: the newest pass
  // may still be in flight, then the one before it).
  double interactions(int) const override {
    return static_cast<double>(m_host_counts[0] + m_host_counts[1]);
  }

  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    reserve(n);
    field<false>(pos, acc, n, p, BodyRange{0, n});
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    reserve(n);
    field<true>(pos, out, n, p, BodyRange{0, n});
  }
  // A part of the tree's order: the whole tree is built, and only the groups that start in the
  // part are walked (a group runs past the part's end rather than being cut).
  bool can_spread() const override { return true; }
  void accelerations_part(const Vec4* pos, Vec4* acc, int n, Part part,
                          const SimParams& p) override {
    check_part(part, n);
    reserve(n);
    field<false>(pos, acc, n, p, part.bodies(n));
  }

 private:
  void mark(Phase phase) {
    if (m_phases && m_marking) m_phases->begin(phase);
  }

  template <bool Potential>
  void field(const Vec4* pos, Vec4* out, int n, const SimParams& p, BodyRange part) {
    if (n < 1) throw std::invalid_argument("cuda-bh: N must be >= 1");
    m_marking = !Potential;  // the diagnostics time the potentials pass as theirs
    const bool whole = part.first == 0 && part.end() == n;
    // The tree's bodies: test particles (from sources(n) on) are left out of it when they are at
    // least half the bodies, as in cpu-bh (its measure), and sorted after it by their own keys
    // (bit 63), to be walked in runs of 32. A part of a spread pass keeps every body in the tree.
    const int tree_n = whole && sources(n) <= n / 2 ? sources(n) : n;
    int partials = m_partials;
    mark(Phase::bounds);
    bounds_kernel<<<partials, k_threads>>>(pos, n, m_boxes);
    CUDA_CHECK_LAUNCH("bounds_kernel");
    if (joined()) {  // every rank's keys in one frame, so that a cell is the same on every rank
      const Box frame = m_ranks->frame(m_boxes, partials);
      CUDA_CHECK_THROW(cudaMemcpy(m_boxes, &frame, sizeof frame, cudaMemcpyHostToDevice));
      partials = 1;
    }
    mark(Phase::sort);
    sort_scratch(n);
    keys_kernel<<<std::min(blocks_for(n), 4 * m_partials), k_threads>>>(
        pos, n, tree_n, m_boxes, partials, m_keys_in, m_index_in);
    CUDA_CHECK_LAUNCH("keys_kernel");
    std::size_t temp = m_sort_bytes;
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(
        m_sort_temp, temp, m_keys_in, m_keys, m_index_in, m_index, n, 0, tree_n < n ? 64 : 63));
    gather_kernel<<<blocks_for(n), k_threads>>>(pos, m_index, n, m_sorted);
    CUDA_CHECK_LAUNCH("gather_kernel");
    // Over ranks the sort's scratch (24 bytes a body) is given back when large: the essential
    // trees sent and received need the room more than the next sort needs the time.
    if (m_ranks && m_sort_scratch.bytes() > k_kept_bytes) m_sort_scratch.resize(0);
    m_built = tree_n;
    if (tree_n > 1) {
      mark(Phase::build);
      build_kernel<<<blocks_for(tree_n - 1), k_threads>>>(m_keys, tree_n, m_tree);
      CUDA_CHECK_LAUNCH("build_kernel");
      const float inv_theta = p.theta > 0.0f ? 1.0f / p.theta : INFINITY;
      mark(Phase::moments);
      moments_kernel<<<blocks_for(tree_n), k_threads>>>(m_sorted, tree_n, m_tree, inv_theta,
                                                        p.softening * p.softening);
      CUDA_CHECK_LAUNCH("moments_kernel");
    }
    mark(Phase::walk);
    const float eps2 = p.softening * p.softening;
    // The relative test needs the last force pass's accelerations (octree.h); without them (the
    // first pass, or N changed) a force pass of every group with the box test alone comes first,
    // writing nothing but what the test learns. Only a pass over every body sets the floor's
    // totals, so the parts of a spread pass see the floor the whole pass would.
    Relative rel{};
    rel.alpha = k_relative * p.theta * p.theta * p.theta;
    rel.floor_fraction = k_relative_floor;
    const bool relative = p.theta > 0.0f && rel.alpha > 0.0f;
    if (m_ranks) {
      ranks_field<Potential>(out, n, tree_n, p, rel, relative);
      return;
    }
    if (relative && m_known != n) {
      find_groups(tree_n, n, BodyRange{0, n});
      walk<false, false>(nullptr, tree_n, eps2, learning(rel, true));
      m_known = n;
      if (!whole) find_groups(tree_n, n, part);
    } else {
      find_groups(tree_n, n, part);
    }
    if (relative) rel.known = m_last, rel.known_totals = m_totals + 2 * m_slot;
    walk<Potential, false>(out, tree_n, eps2, Potential ? rel : learning(rel, whole));
    CUDA_CHECK_THROW(cudaMemcpyAsync(m_host_counts.get(), m_counts, sizeof(unsigned long long) * 2,
                                     cudaMemcpyDeviceToHost));
  }

  // Over more than one rank: the keys in one frame, the walk over the shared top tree.
  bool joined() const { return m_ranks && m_ranks->exchange().ranks() > 1; }

  // A pass over ranks: every rank takes the same walks (the learning one when any rank needs it),
  // each from the shared top tree into its own tree and the other ranks' essential trees for its
  // box (one rank: its own tree alone), the totals summed over the ranks.
  template <bool Potential>
  void ranks_field(Vec4* out, int n, int tree_n, const SimParams& p, Relative rel, bool relative) {
    const float eps2 = p.softening * p.softening;
    const float inv_theta = p.theta > 0.0f ? 1.0f / p.theta : INFINITY;
    const bool join = joined();
    find_groups(tree_n, n, BodyRange{0, n});
    if (join) m_ranks->top(m_tree, m_sorted, m_keys, tree_n);
    double stale = relative && m_known != n ? 1.0 : 0.0;
    m_ranks->exchange().max(&stale, 1, "the ranks' pass");
    m_work.enlarge(static_cast<std::size_t>(std::max(n, 1)));
    rel.work = Potential ? nullptr : m_work.data();
    if (stale > 0) {  // the box test alone, to learn every body's |a| (written into out)
      if (join) m_ranks->learning_forest(n, inv_theta, eps2);
      ranks_walk<false>(out, tree_n, eps2, learning(rel, true));
      if (join) {
        // The other ranks' parts were single bodies there: a body beside a large one learnt too
        // large an |a| (seen: the worst body's error 2.3 times one process's). One pass of the
        // relative test at those |a| learns them as well as one process's first pass does.
        Relative settle = rel;
        settle.known = m_last, settle.known_totals = m_totals + 2 * m_slot;
        m_ranks->gather(m_tree, m_sorted, tree_n, n, box_scale(settle, n), inv_theta, eps2);
        ranks_walk<false>(out, tree_n, eps2, learning(settle, true));
      }
      m_known = n;
    }
    if (relative) rel.known = m_last, rel.known_totals = m_totals + 2 * m_slot;
    if (join)
      m_ranks->gather(m_tree, m_sorted, tree_n, n, relative ? box_scale(rel, n) : 0.0f, inv_theta,
                      eps2);
    ranks_walk<Potential>(out, tree_n, eps2, Potential ? rel : learning(rel, true));
    if (!Potential) m_work_n = n;
    CUDA_CHECK_THROW(cudaMemcpy(m_host_counts.get(), m_counts, sizeof(unsigned long long) * 2,
                                cudaMemcpyDeviceToHost));
    if (join) m_ranks->release();
  }

  // One walk over ranks, and the |a| totals it learnt summed over them.
  template <bool Potential>
  void ranks_walk(Vec4* out, int tree_n, float eps2, Relative rel) {
    if (joined())
      walk<Potential, true>(out, tree_n, eps2, rel);
    else
      walk<Potential, false>(out, tree_n, eps2, rel);
    if (rel.totals) {
      double t[2];
      CUDA_CHECK_THROW(cudaMemcpy(t, rel.totals, sizeof t, cudaMemcpyDeviceToHost));
      m_ranks->exchange().sum(t, 2, "the mean acceleration");
      CUDA_CHECK_THROW(cudaMemcpy(rel.totals, t, sizeof t, cudaMemcpyHostToDevice));
    }
  }

  // The relative test's scale for this rank's whole box: that of its least |a| (or the floor),
  // so no group of the box opens a node that the box's essential tree took whole.
  float box_scale(const Relative& rel, int n) {
    float least = 0.0f;
    std::size_t temp = 0;
    CUDA_CHECK_THROW(cub::DeviceReduce::Min(nullptr, temp, rel.known, m_least.data(), n));
    m_least.enlarge(1 + (temp + sizeof(float) - 1) / sizeof(float));
    CUDA_CHECK_THROW(
        cub::DeviceReduce::Min(m_least.data() + 1, temp, rel.known, m_least.data(), n));
    double totals[2];
    CUDA_CHECK_THROW(cudaMemcpy(&least, m_least.data(), sizeof least, cudaMemcpyDeviceToHost));
    CUDA_CHECK_THROW(cudaMemcpy(totals, rel.known_totals, sizeof totals, cudaMemcpyDeviceToHost));
    const float floor =
        static_cast<float>(rel.floor_fraction * totals[0] / std::max(totals[1], 1.0));
    // A hair larger than the groups' own (theirs is computed on the device, in fast math).
    return relative_scale(rel.alpha, std::max(least, floor)) * 1.0001f;
  }

  // The groups of the tree's bodies [0, tree_n) that start in `range`, then the test particles'
  // (a whole pass only): the nodes of a radix tree of their own keys, built only for that, so a
  // group is as compact as the tree's (runs of 32 in key order straddled octants, and their wide
  // boxes walked the whole pass twice as long). Its nodes go in the tree's arrays after the
  // tree's: internal nodes [tree_n, n - 1), bodies [tree_n, n).
  void find_groups(int tree_n, int n, BodyRange range) {
    CUDA_CHECK_THROW(cudaMemsetAsync(m_group_counters, 0, sizeof(int)));
    groups_kernel<<<blocks_for(tree_n), k_threads>>>(tree_n, m_tree, range.first, range.end(), 0,
                                                     m_groups, m_group_counters);
    CUDA_CHECK_LAUNCH("groups_kernel");
    if (tree_n == n) return;
    Tree tests = m_tree;
    tests.child += tree_n, tests.parent += tree_n, tests.range += tree_n, tests.level += tree_n;
    tests.arrived += tree_n, tests.leaf_parent += tree_n;
    const int k = n - tree_n;
    if (k > 1) {
      build_kernel<<<blocks_for(k - 1), k_threads>>>(m_keys + tree_n, k, tests);
      CUDA_CHECK_LAUNCH("build_kernel");
    }
    groups_kernel<<<blocks_for(k), k_threads>>>(k, tests, 0, k, tree_n, m_groups, m_group_counters);
    CUDA_CHECK_LAUNCH("groups_kernel");
  }

  // rel writing this pass's |a|, and with `totals` their sum and count into the other slot.
  Relative learning(Relative rel, bool totals) {
    rel.write = m_last;
    if (totals) {
      m_slot ^= 1;
      rel.totals = m_totals + 2 * m_slot;
      CUDA_CHECK_THROW(cudaMemsetAsync(rel.totals, 0, sizeof(double) * 2));
    }
    return rel;
  }

  // One walk of the groups found over the tree of tree_n bodies: the resident warps, then the
  // retry pass. Joined: over ranks, from the shared top tree (EssentialForest::nodes).
  template <bool Potential, bool Joined>
  void walk(Vec4* out, int tree_n, float eps2, const Relative& rel) {
    // Counters: the interactions (2), the next group to walk, the groups to retry.
    CUDA_CHECK_THROW(cudaMemsetAsync(m_counts, 0, sizeof(unsigned long long) * 2));
    CUDA_CHECK_THROW(cudaMemsetAsync(m_group_counters + 1, 0, sizeof(int)));
    CUDA_CHECK_THROW(cudaMemsetAsync(m_retry_count, 0, sizeof(int)));
    Nodes<Joined> t{};
    int retry_capacity = m_retry_capacity;
    if constexpr (Joined) {  // room for a level of every node and body, the forest's too
      t = m_ranks->nodes(m_tree, m_sorted);
      const std::size_t capacity =
          static_cast<std::size_t>(m_retry_capacity) + m_ranks->forest_size();
      if (capacity > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::runtime_error("cuda-bh: the walk's retry frontier passes 2^31 entries");
      retry_capacity = static_cast<int>(capacity);
      m_retry_frontier.enlarge(2 * capacity);
    } else {
      t.own = m_tree, t.sorted = m_sorted;
    }
    walk_kernel<Potential, Joined><<<m_walk_blocks, 32 * k_walk_warps>>>(
        t, m_index, tree_n, m_groups, m_group_counters, m_group_counters + 1, eps2, rel, out,
        m_frontier, m_frontier_capacity, m_retry, m_retry_count, m_counts);
    CUDA_CHECK_LAUNCH("walk_kernel");
    retry_kernel<Potential, Joined><<<1, 32>>>(t, m_index, tree_n, m_retry, m_retry_count, eps2,
                                               rel, out, m_retry_frontier.data(), retry_capacity,
                                               m_counts, m_retried);
    CUDA_CHECK_LAUNCH("retry_kernel");
  }

  // Scratch for n bodies, allocated once and grown (never per pass).
  void reserve(int n) {
    if (n <= m_capacity) return;
    free_all();
    const std::size_t b = static_cast<std::size_t>(n), in = b > 1 ? b - 1 : 1;
    // Every array lives in one GpuBuffer of m_owned; the members are views into them.
    auto alloc = [&](auto*& ptr, std::size_t count) {
      GpuBuffer<unsigned char> b(sizeof(*ptr) * count);  // cudaMalloc's 256-byte alignment
      ptr = reinterpret_cast<std::remove_reference_t<decltype(ptr)>>(b.data());
      m_owned.push_back(std::move(b));
    };
    m_partials = 2 * std::max(1, device_info().sm_count);
    alloc(m_boxes, static_cast<std::size_t>(m_partials));
    alloc(m_keys, b), alloc(m_index, b);
    alloc(m_sorted, b);
    alloc(m_tree.child, in), alloc(m_tree.parent, in), alloc(m_tree.leaf_parent, b);
    alloc(m_tree.range, in), alloc(m_tree.com, in), alloc(m_tree.quad, in);
    alloc(m_tree.quad2_open, in), alloc(m_tree.lo, in), alloc(m_tree.hi, in);
    alloc(m_tree.arrived, in), alloc(m_tree.level, in);
    alloc(m_counts, 2);
    alloc(m_groups, b), alloc(m_group_counters, 2);
    alloc(m_retry, b), alloc(m_retry_count, 1), alloc(m_retried, 1);
    CUDA_CHECK_THROW(cudaMemset(m_retried, 0, sizeof(int)));
    alloc(m_last, b), alloc(m_totals, 4);
    CUDA_CHECK_THROW(cudaMemset(m_last, 0, sizeof(float) * b));
    m_known = 0;
    // Each resident warp's two frontier levels; a bigger frontier (rare) goes to the retry pass,
    // whose one warp has room for every node of the tree.
    m_frontier_capacity = static_cast<int>(std::min<std::size_t>(m_frontier_limit, 2 * b + 2));
    m_retry_capacity = static_cast<int>(2 * b + 2);
    // Enough resident blocks of the walk to fill every multiprocessor (12 of 128 threads each at
    // its 40 registers); they take groups until none is left.
    m_walk_blocks = 12 * std::max(1, device_info().sm_count);
    alloc(m_frontier, static_cast<std::size_t>(m_walk_blocks) * k_walk_warps * 2 *
                          static_cast<std::size_t>(m_frontier_capacity));
    m_retry_frontier.resize(2 * static_cast<std::size_t>(m_retry_capacity));
    m_sort_bytes = 0;
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(nullptr, m_sort_bytes, m_keys_in, m_keys,
                                                     m_index_in, m_index, n, 0, 64));
    sort_scratch(n);
    m_capacity = n;
  }

  // The sort's scratch for n bodies (of reserve()'s capacity), allocated when it is not held.
  void sort_scratch(int n) {
    const std::size_t b = static_cast<std::size_t>(std::max(n, m_capacity));
    auto round = [](std::size_t x) { return (x + 255) / 256 * 256; };
    const std::size_t keys = round(sizeof(std::uint64_t) * b), index = round(sizeof(int) * b);
    if (m_sort_scratch.bytes() < keys + index + m_sort_bytes)
      m_sort_scratch.resize(keys + index + m_sort_bytes);
    m_keys_in = reinterpret_cast<std::uint64_t*>(m_sort_scratch.data());
    m_index_in = reinterpret_cast<int*>(m_sort_scratch.data() + keys);
    m_sort_temp = m_sort_scratch.data() + keys + index;
  }

  void free_all() {
    m_owned.clear();
    m_boxes = nullptr, m_keys = nullptr, m_index = nullptr;
    m_sort_scratch.resize(0);
    m_sorted = nullptr, m_tree = Tree{}, m_counts = nullptr;
    m_groups = nullptr, m_group_counters = nullptr;
    m_retry = nullptr, m_retry_count = m_retried = nullptr;
    m_frontier = nullptr;
    m_retry_frontier.resize(0);
    m_last = nullptr, m_totals = nullptr, m_known = 0;
    m_capacity = 0;
  }

  std::string m_name = "cuda-bh";
  // Over ranks (null: one process): the top tree and the other ranks' essential trees, each
  // body's work on the last force pass (m_work_n bodies).
  std::unique_ptr<EssentialForest> m_ranks;
  GpuBuffer<float> m_work, m_least;
  int m_work_n = 0;
  bool m_marking = false;
  int m_built = 0;              // bodies of the last tree built
  GpuBuffer<Aabb> m_boxes_out;  // the overlay's boxes, kept and grown
  GpuBuffer<int> m_box_count;
  std::vector<GpuBuffer<unsigned char>> m_owned;  // every array below
  int m_capacity = 0, m_partials = 0;
  Box* m_boxes = nullptr;
  std::uint64_t* m_keys = nullptr;
  int* m_index = nullptr;
  Vec4* m_sorted = nullptr;
  Tree m_tree{};
  unsigned long long* m_counts = nullptr;
  PinnedHost<unsigned long long> m_host_counts;
  int2* m_groups = nullptr;
  int* m_group_counters = nullptr;
  int2* m_retry = nullptr;
  int *m_retry_count = nullptr, *m_retried = nullptr;  // retried: groups so far, for the tests
  int* m_frontier = nullptr;
  // The retry pass's two levels: room for every node and body (over ranks, the forest's too).
  GpuBuffer<int> m_retry_frontier;
  int m_frontier_capacity = 0, m_retry_capacity = 0;
  std::size_t m_frontier_limit;
  int m_walk_blocks = 0;
  // The relative test's memory: each body's |a| of the last force pass, for bodies of N m_known
  // (0: none); two slots of totals (sum of |a|, bodies), m_slot the last pass's.
  float* m_last = nullptr;
  double* m_totals = nullptr;
  int m_known = 0, m_slot = 0;
  // The sort's input keys and indices and CUB's space (m_sort_bytes), in one buffer.
  GpuBuffer<unsigned char> m_sort_scratch;
  std::uint64_t* m_keys_in = nullptr;
  int* m_index_in = nullptr;
  unsigned char* m_sort_temp = nullptr;
  std::size_t m_sort_bytes = 0;
};

}  // namespace

std::unique_ptr<Solver> make_cuda_bh_solver(int) { return std::make_unique<CudaBhSolver>(); }

std::unique_ptr<Solver> make_cuda_bh_solver_with_frontier(int frontier) {
  return std::make_unique<CudaBhSolver>(frontier);
}

int cuda_bh_retried(const Solver& s) { return static_cast<const CudaBhSolver&>(s).retried(); }

std::unique_ptr<Solver> make_cuda_bh_over(std::unique_ptr<TreeExchange> exchange) {
  return std::make_unique<CudaBhSolver>(k_frontier, std::move(exchange));
}

std::vector<float> cuda_bh_work(const Solver& s) {
  return static_cast<const CudaBhSolver&>(s).work();
}

std::size_t cuda_bh_received_bytes(const Solver& s) {
  return static_cast<const CudaBhSolver&>(s).received();
}

void cuda_bh_forget(Solver& s) { static_cast<CudaBhSolver&>(s).forget(); }

}  // namespace orrery
