// Private to cuda_bh.cu: the shared top tree and the other ranks' locally essential trees, for
// cuda-bh over ranks. Every rank keys its bodies in one frame; the ranks count the coarse cells'
// bodies together to find the top tree's leaves, and gather each rank's part of each leaf (one
// subtree of its tree) with its moments (top_tree.h). Each pass, this rank's GPU makes the
// essential tree of its parts for every other rank's box (cuda_bh_essential.cuh), sends them all
// through the TreeExchange, and places what it received in one forest under the top tree, which
// the walk (cuda_bh_walk.cuh, Nodes<true>) walks from the top tree's root into its own tree and
// the forest alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../backend/cuda_handles.cuh"
#include "cuda_bh_essential.cuh"
#include "cuda_bh_walk.cuh"
#include "orrery/gpu_buffer.h"
#include "top_tree.h"
#include "tree_exchange.h"

namespace orrery {
namespace {

// Scratch larger than this is given back after its stage of a pass, so that the stages' peaks do
// not stack: at 268M bodies a rank the essential trees are tens of gigabytes, beside the own
// tree's 60. Smaller scratch is kept, so small passes allocate nothing.
constexpr std::size_t k_kept_bytes = std::size_t{1} << 30;

class EssentialForest {
 public:
  explicit EssentialForest(std::unique_ptr<TreeExchange> exchange)
      : m_exchange(std::move(exchange)) {}
  TreeExchange& exchange() { return *m_exchange; }
  // The joined index space of the last gather (cuda_bh_walk.cuh, Nodes<true>): the own tree's
  // nodes and bodies below `split`, the forest's (the top tree, then the essential trees received)
  // from it on; the walk starts at the top tree's root.
  Nodes<true> nodes(const Tree& own, const Vec4* sorted) const {
    Nodes<true> v{};
    v.own = own, v.sorted = sorted;
    v.far = reinterpret_cast<const EssentialNode*>(m_inbox.data());
    v.far_bodies = reinterpret_cast<const Vec4*>(m_inbox.data() + m_body_base);
    v.split = v.body_split = m_split;
    v.start = Start{m_roots.data(), 1};
    return v;
  }
  // The forest's nodes and bodies (a level of the walk holds at most as many).
  std::size_t forest_size() const { return m_forest_size; }
  std::size_t received() const { return m_received; }

  // This rank's box from the bounds kernel's `partials` boxes, kept for gather(); returns the box
  // of every rank's bodies, in which every rank makes its keys. Collective.
  Box frame(const Box* boxes, int partials) {
    std::vector<Box> partial(static_cast<std::size_t>(partials));
    CUDA_CHECK_THROW(
        cudaMemcpy(partial.data(), boxes, sizeof(Box) * partial.size(), cudaMemcpyDeviceToHost));
    Box& b = m_mine;
    b.lo = make_float3(INFINITY, INFINITY, INFINITY);
    b.hi = make_float3(-INFINITY, -INFINITY, -INFINITY);
    for (const Box& p : partial) {
      b.lo =
          make_float3(std::min(b.lo.x, p.lo.x), std::min(b.lo.y, p.lo.y), std::min(b.lo.z, p.lo.z));
      b.hi =
          make_float3(std::max(b.hi.x, p.hi.x), std::max(b.hi.y, p.hi.y), std::max(b.hi.z, p.hi.z));
    }
    double all[6] = {-b.lo.x, -b.lo.y, -b.lo.z, b.hi.x, b.hi.y, b.hi.z};
    m_exchange->max(all, 6, "the ranks' frame");
    Box f;
    f.lo = make_float3(static_cast<float>(-all[0]), static_cast<float>(-all[1]),
                       static_cast<float>(-all[2]));
    f.hi = make_float3(static_cast<float>(all[3]), static_cast<float>(all[4]),
                       static_cast<float>(all[5]));
    return f;
  }

  // The shared top tree's leaves and every rank's parts of them, for this pass's trees (tree_n of
  // this rank's bodies, keyed in the frame). Collective; once a tree, before gather().
  void top(const Tree& tree, const Vec4* sorted, const std::uint64_t* keys, int tree_n) {
    double total = tree_n;
    m_exchange->sum(&total, 1, "the bodies");
    // Leaves of at most 1/8192 of the bodies: on 4 ranks a leaf is a 2,048th of a rank's share,
    // far below the scale where separate trees cost interactions, and the gather of the parts
    // stays a few megabytes. Never below 16,384 bodies, where a pass is short.
    const double most = std::max(total / 8192.0, 16384.0);
    m_leaves =
        top_leaves(most, [&](const std::vector<KeyCell>& cells, std::vector<double>& counts) {
          upload_bounds(cells);
          m_cell_counts.enlarge(cells.size());
          const int c = static_cast<int>(cells.size());
          cell_counts_kernel<<<blocks_for(c), k_threads>>>(keys, tree_n, m_bounds.data(), c,
                                                           m_cell_counts.data());
          CUDA_CHECK_LAUNCH("cell_counts_kernel");
          CUDA_CHECK_THROW(cudaMemcpy(counts.data(), m_cell_counts.data(),
                                      sizeof(double) * counts.size(), cudaMemcpyDeviceToHost));
          m_exchange->sum(counts.data(), c, "the top tree's cells");
        });
    if (m_leaves.size() >= (1u << 24))
      throw std::runtime_error("cuda-bh: the top tree has more than 2^24 leaves");
    // This rank's part of each leaf, then every rank's, in (leaf, rank) order.
    const int leaves = static_cast<int>(m_leaves.size());
    upload_bounds(m_leaves);
    m_part_links.enlarge(m_leaves.size());
    m_part_moments.enlarge(m_leaves.size());
    parts_kernel<<<blocks_for(leaves), k_threads>>>(tree, sorted, keys, tree_n, m_bounds.data(),
                                                    leaves, m_part_links.data(),
                                                    m_part_moments.data());
    CUDA_CHECK_LAUNCH("parts_kernel");
    std::vector<int> links(m_leaves.size());
    std::vector<Moments> moments(m_leaves.size());
    m_part_links.download(links.data(), links.size());
    m_part_moments.download(moments.data(), moments.size());
    m_own_roots.clear();
    std::vector<float> mine;
    for (int c = 0; c < leaves; ++c) {
      if (links[c] == k_no_part) continue;
      if (links[c] == k_lost_part)
        throw std::runtime_error("cuda-bh: a top-tree leaf's bodies are not one node of the tree");
      m_own_roots.push_back(links[c]);
      mine.resize(mine.size() + k_part_floats);
      pack_part(c, moments[c], mine.data() + mine.size() - k_part_floats);
    }
    double most_parts = static_cast<double>(m_own_roots.size());
    m_exchange->max(&most_parts, 1, "the top tree's parts");
    const int width = static_cast<int>(most_parts) * k_part_floats;
    mine.resize(static_cast<std::size_t>(width), -1.0f);  // leaf -1: no part
    const std::vector<float> all = m_exchange->gather(mine.data(), width, "the top tree's parts");
    m_parts.clear();
    const int ranks = m_exchange->ranks();
    for (int r = 0; r < ranks; ++r)
      for (int k = 0; k < width; k += k_part_floats) {
        const float* at = all.data() + static_cast<std::size_t>(r) * width + k;
        if (at[0] >= 0) m_parts.push_back(unpack_part(at, r));
      }
    std::stable_sort(m_parts.begin(), m_parts.end(),
                     [](const TopPart& a, const TopPart& b) { return a.leaf < b.leaf; });
  }

  // Sends every other rank the essential trees of this rank's parts of the top tree (its tree of
  // tree_n of n bodies, sorted) for that rank's box and scale, and gathers what the others sent,
  // with the top tree, into the forest. Collective; after top().
  void gather(const Tree& tree, const Vec4* sorted, int tree_n, int n, float scale, float inv_theta,
              float eps2) {
    const int ranks = m_exchange->ranks(), me = m_exchange->rank();
    drop_if_large(m_inbox);  // the last pass's forest: walked, and not to stand beside the new
    const Box& b0 = m_mine;
    float mine[7] = {b0.lo.x, b0.lo.y, b0.lo.z, b0.hi.x, b0.hi.y, b0.hi.z, scale};
    if (n < 1) mine[0] = INFINITY, mine[3] = -INFINITY;
    const std::vector<float> all = m_exchange->gather(mine, 7, "the ranks' boxes");
    std::vector<DeviceParcel> send(static_cast<std::size_t>(ranks));
    m_send.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
      const float* b = all.data() + 7 * r;
      if (r == me || tree_n < 1 || !(b[0] <= b[3])) continue;  // a rank with no bodies needs none
      TargetBox box{make_float3(b[0], b[1], b[2]), make_float3(b[3], b[4], b[5]), b[6]};
      send[static_cast<std::size_t>(r)] =
          essential(tree, sorted, tree_n, box, m_send[static_cast<std::size_t>(r)]);
    }
    drop_if_large(m_entries), drop_if_large(m_kinds), drop_if_large(m_children);
    drop_if_large(m_entry_bodies);
    // The top tree's nodes go in front of what arrives.
    const std::size_t front =
        sizeof(EssentialNode) * (std::max<std::size_t>(m_parts.size(), 1) - 1);
    const std::vector<ReceivedParcel> got =
        m_exchange->exchange(send, m_inbox, front, "the essential trees");
    for (GpuBuffer<unsigned char>& b : m_send) drop_if_large(b);
    if (n < 1 || m_parts.empty()) {  // nothing to walk here (and nothing was sent here)
      m_forest_size = 0;
      return;
    }
    place(got, n, inv_theta, eps2);
  }

  // The forest of a pass that learns each body's |a|, which only scales the next pass's opening
  // test: the top tree, with the other ranks' parts as single bodies at their centres of mass.
  // Nothing is exchanged: the essential trees of the box test alone are several times larger
  // than the relative test's, and at 268M bodies a rank they set the run's peak memory.
  // After top().
  void learning_forest(int n, float inv_theta, float eps2) {
    if (n < 1 || m_parts.empty()) {
      m_forest_size = 0;
      return;
    }
    const int me = m_exchange->rank();
    const std::size_t front = sizeof(EssentialNode) * (m_parts.size() - 1);
    const std::size_t first = static_cast<std::size_t>(n);
    std::vector<Vec4> points;
    std::size_t mine = 0;
    for (TopPart& p : m_parts) {
      if (p.rank == me) {
        p.link = m_own_roots[mine++];
      } else {
        p.link = ~static_cast<int>(first + points.size());
        points.push_back(Vec4{p.m.c[0], p.m.c[1], p.m.c[2], p.m.m});
      }
    }
    if (first + points.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("cuda-bh: a rank's bodies and the top tree hold more than 2^31");
    m_inbox.enlarge(std::max<std::size_t>(front + sizeof(Vec4) * points.size(), 1));
    if (!points.empty())
      CUDA_CHECK_THROW(cudaMemcpy(m_inbox.data() + front, points.data(),
                                  sizeof(Vec4) * points.size(), cudaMemcpyHostToDevice));
    m_received = 0;
    m_body_base = front;
    plant_top(n, inv_theta, eps2, points.size());
  }

  // The pass is walked: its forest, when large, is given back before the next pass's sort.
  void release() { drop_if_large(m_inbox); }

 private:
  template <typename T>
  static void drop_if_large(GpuBuffer<T>& b) {
    if (b.bytes() > k_kept_bytes) b.resize(0);
  }

  // Room for `need` entries in the level arrays, the first `kept` kept. They grow by half again
  // as they fill: an essential tree is a small part of the tree (sized for every node and body,
  // they took 32 bytes a body).
  void entry_room(std::size_t kept, std::size_t need) {
    if (m_entries.size() >= need) return;
    const std::size_t room = std::max(need, m_entries.size() + m_entries.size() / 2);
    if (room > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("cuda-bh: an essential tree of more than 2^31 entries");
    for (GpuBuffer<int>* b : {&m_entries, &m_kinds, &m_children, &m_entry_bodies}) {
      GpuBuffer<int> grown(room);
      if (kept > 0)
        CUDA_CHECK_THROW(
            cudaMemcpy(grown.data(), b->data(), sizeof(int) * kept, cudaMemcpyDeviceToDevice));
      *b = std::move(grown);
    }
    std::size_t temp = 0;
    CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(nullptr, temp, m_children.data(),
                                                   m_children.data(), static_cast<int>(room)));
    m_scan_temp.enlarge(std::max<std::size_t>(temp, 1));
  }

  void upload_bounds(const std::vector<KeyCell>& cells) {
    std::vector<std::uint64_t> b(2 * cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c)
      b[2 * c] = cells[c].start, b[2 * c + 1] = cells[c].end();
    m_bounds.enlarge(b.size());
    m_bounds.upload(b.data(), b.size());
  }

  // The forest: the top tree over every rank's parts (nodes [0, top) of the inbox's front) and
  // the essential trees the ranks sent, walked where they landed in the inbox, their links moved
  // into the joined index space (from m_split = n on; a node's index counts 96-byte slots of the
  // inbox, a body's 16-byte ones from m_body_base: the trees' bodies came as their parcels'
  // tails, so that node bytes do not use up the bodies' 2^31 indices).
  void place(const std::vector<ReceivedParcel>& got, int n, float inv_theta, float eps2) {
    const int ranks = m_exchange->ranks(), me = m_exchange->rank();
    std::vector<std::size_t> parts_of(static_cast<std::size_t>(ranks), 0);
    for (const TopPart& p : m_parts) ++parts_of[static_cast<std::size_t>(p.rank)];
    std::size_t below = 0;  // the essential trees' nodes and bodies
    m_received = 0;
    std::vector<std::vector<int>> roots(static_cast<std::size_t>(ranks));
    std::size_t heads = 0, tails = 0, base = SIZE_MAX;
    for (const ReceivedParcel& g : got) {
      heads = std::max(heads, g.offset + g.bytes), tails = std::max(tails, g.tail_offset + g.tail);
      if (g.tail > 0) base = std::min(base, g.tail_offset);
    }
    m_body_base = base == SIZE_MAX ? 0 : base;
    const std::size_t node_slots = heads / sizeof(EssentialNode),
                      body_slots = tails > m_body_base ? (tails - m_body_base) / sizeof(Vec4) : 0;
    const auto limit = static_cast<std::size_t>(std::numeric_limits<int>::max());
    if (static_cast<std::size_t>(n) + std::max(node_slots, body_slots) > limit)
      throw std::runtime_error(
          "cuda-bh: this rank's " + std::to_string(n) + " bodies and the essential trees it " +
          "received (" + std::to_string(node_slots) + " nodes, " + std::to_string(body_slots) +
          " bodies) pass the walk's 2^31 indices: run on more ranks");
    for (int r = 0; r < ranks; ++r) {
      if (r == me || parts_of[static_cast<std::size_t>(r)] == 0) continue;
      const ReceivedParcel& g = got[static_cast<std::size_t>(r)];
      std::int64_t h[3] = {0, 0, 0};
      if (g.header.size() >= sizeof h) std::memcpy(h, g.header.data(), sizeof h);
      const std::size_t want = parts_of[static_cast<std::size_t>(r)];
      if (g.header.size() != sizeof h + sizeof(int) * want || h[0] < 0 || h[1] < 0 ||
          h[2] != static_cast<std::int64_t>(want) || g.offset % k_parcel_align != 0 ||
          g.bytes != static_cast<std::size_t>(h[0]) * sizeof(EssentialNode) ||
          g.tail != static_cast<std::size_t>(h[1]) * sizeof(Vec4) || g.tail_offset < m_body_base)
        throw std::runtime_error("cuda-bh: the essential trees of rank " + std::to_string(r) +
                                 " do not hold what its header and parts count (ranks of "
                                 "different builds?)");
      std::vector<int>& links = roots[static_cast<std::size_t>(r)];
      links.resize(want);
      std::memcpy(links.data(), g.header.data() + sizeof h, sizeof(int) * want);
      const int m = static_cast<int>(h[0]);
      const int node_link = n + static_cast<int>(g.offset / sizeof(EssentialNode));
      const int body_link = n + static_cast<int>((g.tail_offset - m_body_base) / sizeof(Vec4));
      if (m > 0)
        essential_link_kernel<<<blocks_for(m), k_threads>>>(
            reinterpret_cast<EssentialNode*>(m_inbox.data() + g.offset), m, node_link, body_link);
      CUDA_CHECK_LAUNCH("essential_link_kernel");
      for (int& l : links) l = l >= 0 ? l + node_link : ~(~l + body_link);
      below += static_cast<std::size_t>(h[0] + h[1]);
      m_received += g.bytes + g.tail;
    }
    // The top tree over every rank's parts, each linked to where this rank finds it: its own tree,
    // or the root of what that rank sent of it.
    std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
    for (TopPart& p : m_parts) {
      const std::size_t r = static_cast<std::size_t>(p.rank);
      p.link = p.rank == me ? m_own_roots[next[r]] : roots[r][next[r]];
      ++next[r];
    }
    plant_top(n, inv_theta, eps2, below);
  }

  // The top tree over every rank's parts (their links set) into the inbox's front, the walk's
  // root at its root; `below`: the forest's nodes and bodies after it. The joined index space's
  // forest starts at n.
  void plant_top(int n, float inv_theta, float eps2, std::size_t below) {
    const TopTree t = build_top_tree(m_leaves, m_parts, n, inv_theta, eps2);
    if (!t.nodes.empty())
      CUDA_CHECK_THROW(cudaMemcpy(m_inbox.data(), t.nodes.data(), sizeof(TopNode) * t.nodes.size(),
                                  cudaMemcpyHostToDevice));
    m_split = n;
    m_forest_size = t.nodes.size() + below;
    m_roots.enlarge(1);
    m_roots.upload(&t.root, 1);
  }

  // The essential tree of this rank's parts of the top tree (their roots m_own_roots, in its tree
  // of tree_n bodies) for `box`, into `buffer`: its nodes, then its bodies; the header holds their
  // counts and the roots', then each root's link.
  DeviceParcel essential(const Tree& tree, const Vec4* sorted, int tree_n, const TargetBox& box,
                         GpuBuffer<unsigned char>& buffer) {
    const int roots = static_cast<int>(m_own_roots.size());
    entry_room(0, static_cast<std::size_t>(roots) * 3 + 1);
    m_next_count.enlarge(1);
    m_entries.upload(m_own_roots.data(), m_own_roots.size());
    int first = 0, count = roots;
    while (count > 0) {
      // This level, the next (two children an entry at most) and the bodies' total.
      entry_room(static_cast<std::size_t>(first) + count,
                 static_cast<std::size_t>(first) + 3 * static_cast<std::size_t>(count) + 1);
      essential_level_kernel<<<blocks_for(count), k_threads>>>(
          tree, m_entries.data(), first, count, box, m_kinds.data(), m_children.data(),
          m_entry_bodies.data());
      CUDA_CHECK_LAUNCH("essential_level_kernel");
      std::size_t temp = m_scan_temp.size();
      CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(
          m_scan_temp.data(), temp, m_children.data() + first, m_children.data() + first, count));
      essential_children_kernel<<<blocks_for(count), k_threads>>>(
          tree, m_entries.data(), first, count, m_kinds.data(), m_children.data(),
          m_next_count.data());
      CUDA_CHECK_LAUNCH("essential_children_kernel");
      int next = 0;
      CUDA_CHECK_THROW(cudaMemcpy(&next, m_next_count.data(), sizeof next, cudaMemcpyDeviceToHost));
      first += count, count = next;
    }
    const int m = first;
    // The bodies' places: an exclusive scan with one more entry, whose place is their total.
    CUDA_CHECK_THROW(cudaMemsetAsync(m_entry_bodies.data() + m, 0, sizeof(int)));
    std::size_t temp = m_scan_temp.size();
    CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(m_scan_temp.data(), temp, m_entry_bodies.data(),
                                                   m_entry_bodies.data(), m + 1));
    int bodies = 0;
    CUDA_CHECK_THROW(
        cudaMemcpy(&bodies, m_entry_bodies.data() + m, sizeof bodies, cudaMemcpyDeviceToHost));
    const std::size_t bytes = sizeof(EssentialNode) * static_cast<std::size_t>(m) +
                              sizeof(Vec4) * static_cast<std::size_t>(bodies);
    buffer.enlarge(bytes);
    auto* nodes = reinterpret_cast<EssentialNode*>(buffer.data());
    essential_assemble_kernel<<<blocks_for(m), k_threads>>>(
        tree, sorted, m_entries.data(), m, m_kinds.data(), m_children.data(), m_entry_bodies.data(),
        nodes, reinterpret_cast<Vec4*>(nodes + m));
    CUDA_CHECK_LAUNCH("essential_assemble_kernel");
    // The roots' links: a node's is its entry; a body's, its place among the bodies.
    std::vector<int> links(static_cast<std::size_t>(roots));
    m_entry_bodies.download(links.data(), links.size());
    for (int j = 0; j < roots; ++j)
      links[static_cast<std::size_t>(j)] =
          m_own_roots[static_cast<std::size_t>(j)] >= 0 ? j : ~links[static_cast<std::size_t>(j)];
    DeviceParcel parcel;
    const std::int64_t h[3] = {m, bodies, roots};
    parcel.header.resize(sizeof h + sizeof(int) * links.size());
    std::memcpy(parcel.header.data(), h, sizeof h);
    std::memcpy(parcel.header.data() + sizeof h, links.data(), sizeof(int) * links.size());
    parcel.data = buffer.data(), parcel.bytes = bytes;
    parcel.tail = sizeof(Vec4) * static_cast<std::size_t>(bodies);
    return parcel;
  }

  std::unique_ptr<TreeExchange> m_exchange;
  Box m_mine{};  // this rank's box (frame())
  // The top tree's leaves, every rank's parts of them in (leaf, rank) order, this rank's parts'
  // roots in its tree in leaf order; the cells' key bounds and counts, the parts found, the top
  // tree's nodes as uploaded (top()).
  std::vector<KeyCell> m_leaves;
  std::vector<TopPart> m_parts;
  std::vector<int> m_own_roots;
  GpuBuffer<std::uint64_t> m_bounds;
  GpuBuffer<double> m_cell_counts;
  GpuBuffer<int> m_part_links;
  GpuBuffer<Moments> m_part_moments;
  // The essential trees sent (one buffer a rank); the forest (the top tree's nodes, then the
  // essential trees received, where they landed), the bytes received, its nodes and bodies, where
  // the joined index space's forest starts, the walk's root; the breadth-first scratch of
  // essential().
  std::vector<GpuBuffer<unsigned char>> m_send;
  GpuBuffer<unsigned char> m_inbox;
  std::size_t m_received = 0;
  std::size_t m_forest_size = 0;
  int m_split = 0;
  std::size_t m_body_base = 0;  // the inbox's byte where the forest's body 0 is
  GpuBuffer<int> m_roots;
  GpuBuffer<int> m_entries, m_kinds, m_children, m_entry_bodies, m_next_count;
  GpuBuffer<unsigned char> m_scan_temp;
};

}  // namespace
}  // namespace orrery
