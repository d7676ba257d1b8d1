// Private to cuda_bh.cu: the other ranks' locally essential trees, for cuda-bh over ranks. Each
// pass, this rank's GPU makes the essential tree of its own tree for every other rank's box
// (cuda_bh_essential.cuh), sends them all through the TreeExchange, and places what it received
// in one forest, which the walk (cuda_bh_walk.cuh, Remote) walks from its roots.
#pragma once

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
#include "tree_exchange.h"

namespace orrery {
namespace {

class EssentialForest {
 public:
  explicit EssentialForest(std::unique_ptr<TreeExchange> exchange)
      : m_exchange(std::move(exchange)) {}
  TreeExchange& exchange() { return *m_exchange; }
  // The forest of the last gather: its walk arrays, bodies, roots, nodes, and the bytes received.
  const Tree& tree() const { return m_forest; }
  const Vec4* bodies() const { return m_forest_bodies.data(); }
  Start start() const { return Start{m_roots.data(), m_root_count}; }
  int nodes() const { return m_forest_nodes; }
  std::size_t received() const { return m_received; }

  // Sends every other rank the essential tree of this rank's tree (tree_n of n bodies, sorted; the
  // bounds kernel's `partials` boxes) for that rank's box and scale, and gathers what the others
  // sent into the forest. `learning`: for a pass that learns |a| (TargetBox::reach2). Collective.
  void gather(const Tree& tree, const Vec4* sorted, int tree_n, int n, const Box* boxes,
              int partials, float scale, bool learning = false) {
    const int ranks = m_exchange->ranks(), me = m_exchange->rank();
    std::vector<Box> partial(static_cast<std::size_t>(partials));
    CUDA_CHECK_THROW(
        cudaMemcpy(partial.data(), boxes, sizeof(Box) * partial.size(), cudaMemcpyDeviceToHost));
    float mine[7] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY, scale};
    for (const Box& b : partial) {
      mine[0] = std::min(mine[0], b.lo.x), mine[1] = std::min(mine[1], b.lo.y);
      mine[2] = std::min(mine[2], b.lo.z), mine[3] = std::max(mine[3], b.hi.x);
      mine[4] = std::max(mine[4], b.hi.y), mine[5] = std::max(mine[5], b.hi.z);
    }
    if (n < 1) mine[0] = INFINITY, mine[3] = -INFINITY;
    const std::vector<float> all = m_exchange->gather(mine, 7, "the ranks' boxes");
    std::vector<DeviceParcel> send(static_cast<std::size_t>(ranks));
    m_send.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
      const float* b = all.data() + 7 * r;
      if (r == me || tree_n < 1 || !(b[0] <= b[3])) continue;  // a rank with no bodies needs none
      TargetBox box{make_float3(b[0], b[1], b[2]), make_float3(b[3], b[4], b[5]), b[6],
                    learning ? 0.25f : 1.0f};
      send[static_cast<std::size_t>(r)] =
          essential(tree, sorted, tree_n, box, m_send[static_cast<std::size_t>(r)]);
    }
    drop_if_large(m_entries), drop_if_large(m_kinds), drop_if_large(m_children);
    drop_if_large(m_entry_bodies);
    const std::vector<ReceivedParcel> got =
        m_exchange->exchange(send, m_inbox, "the essential trees");
    for (GpuBuffer<unsigned char>& b : m_send) drop_if_large(b);
    std::vector<int> roots;
    std::int64_t nodes = 0, bodies = 0;
    m_received = 0;
    for (const ReceivedParcel& g : got) {
      std::int64_t h[3] = {0, 0, 0};
      if (g.header.size() != sizeof h) continue;
      std::memcpy(h, g.header.data(), sizeof h);
      if (h[0] < 0 || h[1] < 0 ||
          g.bytes != static_cast<std::size_t>(h[0]) * sizeof(EssentialNode) +
                         static_cast<std::size_t>(h[1]) * sizeof(Vec4))
        throw std::runtime_error("cuda-bh: an essential tree of " + std::to_string(g.bytes) +
                                 " bytes does not hold what its header counts (ranks of "
                                 "different builds?)");
      nodes += h[0], bodies += h[1];
      m_received += g.bytes;
    }
    if (nodes + bodies > std::numeric_limits<int>::max())
      throw std::runtime_error("cuda-bh: the essential trees received hold more than 2^31 nodes");
    forest_arrays(static_cast<std::size_t>(std::max<std::int64_t>(nodes, 1)));
    m_forest_bodies.enlarge(static_cast<std::size_t>(std::max<std::int64_t>(bodies, 1)));
    std::int64_t node_at = 0, body_at = 0;
    for (const ReceivedParcel& g : got) {
      std::int64_t h[3];
      if (g.header.size() != sizeof h) continue;
      std::memcpy(h, g.header.data(), sizeof h);
      const auto* base = m_inbox.data() + g.offset;
      const int m = static_cast<int>(h[0]);
      if (m > 0)
        essential_place_kernel<<<blocks_for(m), k_threads>>>(
            reinterpret_cast<const EssentialNode*>(base), m, static_cast<int>(node_at),
            static_cast<int>(body_at), m_forest);
      CUDA_CHECK_LAUNCH("essential_place_kernel");
      if (h[1] > 0)
        CUDA_CHECK_THROW(cudaMemcpyAsync(m_forest_bodies.data() + body_at,
                                         base + sizeof(EssentialNode) * h[0], sizeof(Vec4) * h[1],
                                         cudaMemcpyDeviceToDevice));
      const int root = static_cast<int>(h[2]);
      roots.push_back(root >= 0 ? root + static_cast<int>(node_at)
                                : ~(~root + static_cast<int>(body_at)));
      node_at += h[0], body_at += h[1];
    }
    if (m_inbox.bytes() > k_kept_bytes) {
      CUDA_CHECK_THROW(cudaDeviceSynchronize());  // placed
      m_inbox.resize(0);
    }
    m_forest_nodes = static_cast<int>(nodes);
    m_root_count = static_cast<int>(roots.size());
    m_roots.enlarge(std::max<std::size_t>(roots.size(), 1));
    if (!roots.empty()) m_roots.upload(roots.data(), roots.size());
  }

 private:
  // Scratch larger than this is given back after its stage of a pass, so that the stages' peaks
  // do not stack: at 268M bodies a rank the essential trees are tens of gigabytes, beside the own
  // tree's 80. Smaller scratch is kept, so small passes allocate nothing.
  static constexpr std::size_t k_kept_bytes = std::size_t{1} << 30;
  template <typename T>
  static void drop_if_large(GpuBuffer<T>& b) {
    if (b.bytes() > k_kept_bytes) b.resize(0);
  }

  // Room in the forest for `nodes`: its walk arrays are columns of one buffer of as many
  // EssentialNode (whose 96 bytes are the columns' widths).
  void forest_arrays(std::size_t nodes) {
    const bool oversized =
        m_forest_columns.bytes() > k_kept_bytes && m_forest_columns.size() > 2 * nodes;
    if (m_forest_columns.size() >= nodes && m_forest.com && !oversized) return;
    m_forest_columns.resize(nodes);
    const std::size_t cap = nodes;
    auto* at = reinterpret_cast<unsigned char*>(m_forest_columns.data());
    auto take = [&](auto*& ptr, std::size_t bytes) {
      ptr = reinterpret_cast<std::remove_reference_t<decltype(ptr)>>(at);
      at += bytes * cap;
    };
    m_forest = Tree{};
    take(m_forest.com, sizeof(Vec4)), take(m_forest.quad, sizeof(Vec4));
    take(m_forest.quad2_open, sizeof(Vec4)), take(m_forest.lo, sizeof(Vec4));
    take(m_forest.hi, sizeof(Vec4)), take(m_forest.child, sizeof(int2));
    take(m_forest.range, sizeof(int2));
  }

  // The essential tree of this rank's tree (tree_n bodies) for `box`, into `buffer`: its nodes,
  // then its bodies; the header holds their counts and the root's link.
  DeviceParcel essential(const Tree& tree, const Vec4* sorted, int tree_n, const TargetBox& box,
                         GpuBuffer<unsigned char>& buffer) {
    const std::size_t most = 2 * static_cast<std::size_t>(tree_n) + 1;  // every node and body
    if (m_entries.size() < most + 1) {
      m_entries.resize(most + 1), m_kinds.resize(most + 1);
      m_children.resize(most + 1), m_entry_bodies.resize(most + 1);
      std::size_t temp = 0;
      CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(
          nullptr, temp, m_children.data(), m_children.data(), static_cast<int>(most + 1)));
      m_scan_temp.resize(std::max<std::size_t>(temp, 1));
    }
    m_next_count.enlarge(1);
    const int root = tree_n > 1 ? 0 : ~0;
    CUDA_CHECK_THROW(cudaMemcpy(m_entries.data(), &root, sizeof root, cudaMemcpyHostToDevice));
    int first = 0, count = 1;
    while (count > 0) {
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
    CUDA_CHECK_THROW(cudaDeviceSynchronize());  // the exchange sends it on another stream
    DeviceParcel parcel;
    const std::int64_t h[3] = {m, bodies, root >= 0 ? 0 : ~0};
    parcel.header.resize(sizeof h);
    std::memcpy(parcel.header.data(), h, sizeof h);
    parcel.data = buffer.data(), parcel.bytes = bytes;
    return parcel;
  }

  std::unique_ptr<TreeExchange> m_exchange;
  // The essential trees sent (one buffer a rank), the bytes received, the forest placed from
  // them (m_forest's arrays are columns of m_forest_columns), its roots; the breadth-first
  // scratch of essential().
  std::vector<GpuBuffer<unsigned char>> m_send;
  GpuBuffer<unsigned char> m_inbox;
  std::size_t m_received = 0;
  GpuBuffer<EssentialNode> m_forest_columns;
  GpuBuffer<Vec4> m_forest_bodies;
  Tree m_forest{};
  int m_forest_nodes = 0, m_root_count = 0;
  GpuBuffer<int> m_roots;
  GpuBuffer<int> m_entries, m_kinds, m_children, m_entry_bodies, m_next_count;
  GpuBuffer<unsigned char> m_scan_temp;
};

}  // namespace
}  // namespace orrery
