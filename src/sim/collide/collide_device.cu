// The GPU collider: radius histogram and cell size on the device, hashed cell keys placed by a
// counting sort, the 27-cell neighbour search with warp-aggregated appends to a contact list, the
// large bodies against every body, then handshake rounds over the list, merges compacted with
// CUB, and walls. Bounce steps are replayed from CUDA graphs. No read-back in a bounce step (the
// contact count, to size the list, arrives in mapped memory), one with merges.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cub/cub.cuh>
#include <memory>
#include <type_traits>
#include <vector>

#include "../backend/cuda_handles.cuh"
#include "collide_kernels.cuh"
#include "contact.h"
#include "orrery/collisions.h"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/no_copy.h"

namespace orrery {
namespace {

class DeviceCollider final : public Collider, NoCopy {
 public:
  DeviceCollider() {
    require_device();
    m_stats_buffer.resize(1);
    m_stats = m_stats_buffer.data();
    CUDA_CHECK_THROW(cudaMemset(m_stats, 0, sizeof(Stats)));
    m_host = PinnedHost<Stats>(1);
    *m_host = Stats{};
    m_host_count = PinnedHost<unsigned long long>(1, true);
    *m_host_count = 0;
    m_device_count = m_host_count.device_pointer();
    m_count_event = CudaEvent(cudaEventDisableTiming);
  }
  ~DeviceCollider() override { m_replays.clear(); }
  bool on_device() const override { return true; }

  int resolve(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, float softening) override {
    if (c.mode != CollisionMode::off && n > 1) {
      const bool bounce = c.mode == CollisionMode::bounce;
      prepare(vel, n, !bounce);
      if (bounce) {
        if (const Replay* r = replay_for(pos, vel, n, c, softening)) {
          CUDA_CHECK_THROW(cudaGraphLaunch(r->stage[0].get(), 0));
          mark(Phase::contacts);
          CUDA_CHECK_THROW(cudaGraphLaunch(r->stage[1].get(), 0));
          mark(Phase::resolve);
          CUDA_CHECK_THROW(cudaGraphLaunch(r->stage[2].get(), 0));
          note_count();
          return n;
        }
      }
      issue_grid(pos, vel, n, 0);
      mark(Phase::contacts);
      issue_search(n, 0);
      mark(Phase::resolve);
      if (!bounce)
        CUDA_CHECK_THROW(cudaMemsetAsync(m_alive.data(), 1, static_cast<std::size_t>(n)));
      issue_rounds(pos, vel, c, softening, 0);
      note_count();
      if (!bounce) n = compact(pos, vel, n);
    }
    if (c.box > 0.0f) {
      mark(Phase::resolve);
      issue_walls(pos, vel, n, c, 0);
    }
    return n;
  }

  // Searches, then waits and searches again with a longer list until every pair is listed (up to
  // the limit).
  std::vector<Contact> find_contacts(const Vec4* pos, const Vec4* vel, int n) override {
    std::vector<Contact> out;
    if (n < 2) return out;
    long long found = 0;
    for (;;) {
      prepare(vel, n, true);
      issue_grid(pos, vel, n, 0);
      issue_search(n, 0);
      CUDA_CHECK_THROW(cudaMemcpy(&m_host->pairs, &m_stats->pairs, sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost));
      found = static_cast<long long>(m_host->pairs);
      if (found <= static_cast<long long>(m_pairs.size()) ||
          static_cast<long long>(m_pairs.size()) >= m_limit)
        break;
      grow_pairs(found);
    }
    std::vector<int2> raw(static_cast<std::size_t>(std::min(found, kept_limit())));
    if (!raw.empty())
      CUDA_CHECK_THROW(cudaMemcpy(raw.data(), m_pairs.data(), sizeof(int2) * raw.size(),
                                  cudaMemcpyDeviceToHost));
    for (const int2& p : raw) out.push_back({p.x, p.y});
    std::sort(out.begin(), out.end());
    return out;
  }

  CollisionTotals totals() override {
    CUDA_CHECK_THROW(cudaMemcpy(m_host.get(), m_stats, sizeof(Stats), cudaMemcpyDeviceToHost));
    CollisionTotals t;
    t.energy_offset = m_host->removed;
    t.wall_impulse = Vec3d{m_host->impulse[0], m_host->impulse[1], m_host->impulse[2]};
    t.wall_hits = static_cast<long long>(m_host->wall_hits);
    t.merges = static_cast<long long>(m_host->merges);
    t.contacts = static_cast<long long>(m_host->contacts);
    t.truncated = static_cast<long long>(m_host->truncated);
    return t;
  }
  void reset_totals() override {
    CUDA_CHECK_THROW(cudaMemset(m_stats, 0, sizeof(Stats)));
    m_cell_valid = false;  // a new state: its radii are new
  }
  void set_pair_limit(long long pairs) override { m_limit = std::max(pairs, 1LL); }

 private:
  void mark(Phase p) {
    if (m_phases) m_phases->begin(p);
  }

  // The pairs a step keeps: the list's size, at most the limit.
  long long kept_limit() const { return std::min(static_cast<long long>(m_pairs.size()), m_limit); }

  // Up to 2^19 bodies they are placed by a counting sort: 3 launches, and exact bucket ranges for
  // the search; its counts and their scan (4 to 8 entries a body) stay in the L2 cache. Above it,
  // their random access costs more than a radix sort's passes (a launch per 8 bits of the bucket,
  // sequential access). On the H200, `box` at 524,288: 0.15 ms counted, 0.18 sorted (grid and
  // search); at 1,048,576 a wash (box 4% faster counted, clustered galaxies 4% slower); at
  // 4,194,304 the grid took 0.97 ms counted and 0.47 ms sorted.
  static bool counted(int n) { return n <= k_counted_max; }

  void reserve(int n) {
    const std::size_t b = static_cast<std::size_t>(n);
    if (b > m_keys.size()) {
      m_replays.clear();  // the graphs hold the old scratch's addresses
      m_keys.enlarge(b), m_rank.enlarge(b), m_index.enlarge(b);
      m_sorted.enlarge(b), m_choice.enlarge(b), m_alive.enlarge(b);
      m_hist.enlarge(contact::k_radius_bins);
    }
    // The buckets and the sentinel: counts (zero between steps) and their scan, or the start
    // entries that the radix sort's path checks against the sorted keys.
    const std::size_t slots = std::size_t{contact::bucket_mask(n)} + 2;
    if (slots > m_start.size()) {
      m_replays.clear();
      m_start.enlarge(slots);
      CUDA_CHECK_THROW(cudaMemset(m_start.data(), 0xff, sizeof(std::uint32_t) * slots));
    }
    if (counted(n) && slots > m_count.size()) {
      m_replays.clear();
      m_count.enlarge(slots);
      CUDA_CHECK_THROW(cudaMemset(m_count.data(), 0, sizeof(std::uint32_t) * slots));
      std::size_t bytes = 0;
      CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(nullptr, bytes, m_count.data(), m_start.data(),
                                                     static_cast<std::int64_t>(slots)));
      m_scan_temp.enlarge(bytes);
    }
    if (!counted(n) && b > m_sorted_keys.size()) {
      m_replays.clear();
      m_sorted_keys.enlarge(b);
      std::size_t bytes = 0;
      CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(nullptr, bytes, m_keys.data(),
                                                       m_sorted_keys.data(), m_rank.data(),
                                                       m_index.data(), n, 0, 32));
      m_sort_temp.enlarge(bytes);
    }
    if (m_pairs.size() < 4 * b)
      grow_pairs(static_cast<long long>(std::max<std::size_t>(4 * b, 4096)));
  }
  void grow_pairs(long long count) {
    const std::size_t c = static_cast<std::size_t>(std::min(std::max(count, 1LL), m_limit));
    if (c <= m_pairs.size()) return;
    m_replays.clear();
    m_pairs.enlarge(c);
    m_pair_key.enlarge(c);
  }
  // The last step's count, read back without waiting (when it has arrived): a list that was too
  // short grows for the next step (that step's extra pairs were left out, and counted).
  void check_last_count() {
    if (!m_count_pending || cudaEventQuery(m_count_event.get()) != cudaSuccess) return;
    m_count_pending = false;
    const long long found =
        static_cast<long long>(*static_cast<volatile unsigned long long*>(m_host_count.get()));
    if (found > static_cast<long long>(m_pairs.size())) grow_pairs(found + found / 4);
  }

  // A step's start: the scratch for n bodies, the last step's count, this step's counters, and
  // the cell size again when the radii may have changed (a new state or N, merges, a search for
  // the tests); bounces and walls never change a radius.
  void prepare(const Vec4* vel, int n, bool fresh_cell) {
    reserve(n);
    check_last_count();
    mark(Phase::grid);
    if (!(fresh_cell || !m_cell_valid || n != m_cell_n)) return;
    CUDA_CHECK_THROW(cudaMemsetAsync(m_hist.data(), 0, sizeof(unsigned) * contact::k_radius_bins));
    const int hist_blocks = std::min(blocks_for(n), 4 * std::max(1, device_info().sm_count));
    histogram_kernel<<<hist_blocks, k_threads>>>(vel, n, m_hist.data());
    CUDA_CHECK_LAUNCH("histogram_kernel");
    cell_kernel<<<1, contact::k_radius_bins>>>(m_hist.data(), m_stats);
    CUDA_CHECK_LAUNCH("cell_kernel");
    m_cell_valid = true;
    m_cell_n = n;
  }

  // The step's counters cleared (pairs, large, merged, the rounds' flags), the hashed cell keys,
  // and the bodies placed bucket by bucket (see counted()), on stream s.
  void issue_grid(const Vec4* pos, const Vec4* vel, int n, cudaStream_t s) {
    const std::uint32_t mask = contact::bucket_mask(n);
    const bool by_count = counted(n);
    hash_kernel<<<blocks_for(n), k_threads, 0, s>>>(pos, vel, n, mask, m_stats, m_keys.data(),
                                                    m_rank.data(),
                                                    by_count ? m_count.data() : nullptr);
    CUDA_CHECK_LAUNCH("hash_kernel");
    if (by_count) {
      std::size_t temp = m_scan_temp.size();
      CUDA_CHECK_THROW(cub::DeviceScan::ExclusiveSum(m_scan_temp.data(), temp, m_count.data(),
                                                     m_start.data(), std::int64_t{mask} + 2, s));
      scatter_kernel<<<blocks_for(n), k_threads, 0, s>>>(pos, vel, m_keys.data(), m_rank.data(),
                                                         m_start.data(), n, m_sorted.data(),
                                                         m_index.data(), m_count.data());
      CUDA_CHECK_LAUNCH("scatter_kernel");
      return;
    }
    int end_bit = 1;
    while ((std::uint64_t{1} << end_bit) <= std::uint64_t{mask} + 1) ++end_bit;
    std::size_t temp = m_sort_temp.size();
    CUDA_CHECK_THROW(cub::DeviceRadixSort::SortPairs(m_sort_temp.data(), temp, m_keys.data(),
                                                     m_sorted_keys.data(), m_rank.data(),
                                                     m_index.data(), n, 0, end_bit, s));
    ranges_kernel<<<blocks_for(n), k_threads, 0, s>>>(pos, vel, m_sorted_keys.data(),
                                                      m_index.data(), n, mask, m_sorted.data(),
                                                      m_start.data(), m_stats);
    CUDA_CHECK_LAUNCH("ranges_kernel");
  }

  // The contact list, on the device (its count stays there).
  // Threads a body: up to 4 while the device has room for them all at once.
  void issue_search(int n, cudaStream_t s) {
    const long long room = 2048LL * std::max(1, device_info().sm_count);
    int bits = 0;
    while (bits < 2 && (2LL << bits) * n <= room) ++bits;
    const auto kernel = counted(n) ? search_kernel<true> : search_kernel<false>;
    kernel<<<blocks_for(static_cast<long long>(n) << bits), k_threads, 0, s>>>(
        m_sorted.data(), m_index.data(), m_start.data(), m_sorted_keys.data(), n, bits,
        contact::bucket_mask(n), m_stats, m_pairs.data(), m_pairs.size(), m_choice.data());
    CUDA_CHECK_LAUNCH("search_kernel");
  }

  // The first round wrote the step's count into pinned host memory; an event after the rounds
  // tells check_last_count() when it is there (unless one is on its way).
  void note_count() {
    if (m_count_pending) return;
    CUDA_CHECK_THROW(cudaEventRecord(m_count_event.get()));
    m_count_pending = true;
  }

  // The handshake rounds over the list, two launches each over the whole device (the list's
  // count is read on the device).
  void issue_rounds(Vec4* pos, Vec4* vel, const CollisionParams& c, float eps, cudaStream_t s) {
    const bool bounce = c.mode == CollisionMode::bounce;
    const unsigned long long keep = static_cast<unsigned long long>(kept_limit());
    const int grid =
        std::min(blocks_for(static_cast<long long>(keep)), 2 * std::max(1, device_info().sm_count));
    for (int round = 1; round <= (bounce ? k_bounce_rounds : 1); ++round) {
      choose_kernel<<<grid, k_threads, 0, s>>>(m_pairs.data(), keep, pos, vel, round, bounce,
                                               m_choice.data(), m_pair_key.data(), m_stats,
                                               m_device_count);
      CUDA_CHECK_LAUNCH("choose_kernel");
      resolve_kernel<<<grid, k_threads, 0, s>>>(m_pairs.data(), keep, m_pair_key.data(),
                                                m_choice.data(), pos, vel, round, bounce,
                                                c.restitution, eps, m_alive.data(), m_stats);
      CUDA_CHECK_LAUNCH("resolve_kernel");
    }
  }

  void issue_walls(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, cudaStream_t s) {
    walls_kernel<<<blocks_for(n), k_threads, 0, s>>>(pos, vel, n, 0.5f * c.box, c.restitution,
                                                     m_stats);
    CUDA_CHECK_LAUNCH("walls_kernel");
  }

  // Bounce steps replayed from CUDA graphs: at small N the launches cost more than the kernels,
  // and a graph's launches cost far less. One graph a phase (grid, contacts, resolve with the
  // walls), so the phase marks stay between them. A graph holds its pointers and sizes, so it is
  // kept for a state seen before (the ping-pong pair's two buffers) and captured on a state's
  // second step; new scratch drops every graph.
  struct GraphDeleter {
    void operator()(cudaGraphExec_t g) const { cudaGraphExecDestroy(g); }
  };
  using Graph = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, GraphDeleter>;
  struct Replay {
    const Vec4* pos;
    const Vec4* vel;
    int n;
    long long keep;
    float restitution, box, eps;
    std::array<Graph, 3> stage;  // empty until the second step
    bool same(const Vec4* p, const Vec4* v, int count, long long k, const CollisionParams& c,
              float e) const {
      return pos == p && vel == v && n == count && keep == k && restitution == c.restitution &&
             box == c.box && eps == e;
    }
  };
  static constexpr std::size_t k_replays = 4;

  const Replay* replay_for(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, float eps) {
    if (!m_replay_ok) return nullptr;
    const long long keep = kept_limit();
    for (Replay& r : m_replays) {
      if (!r.same(pos, vel, n, keep, c, eps)) continue;
      if (!r.stage[0]) {
        try {
          r.stage[0] = capture([&](cudaStream_t s) { issue_grid(pos, vel, n, s); });
          r.stage[1] = capture([&](cudaStream_t s) { issue_search(n, s); });
          r.stage[2] = capture([&](cudaStream_t s) {
            issue_rounds(pos, vel, c, eps, s);
            if (c.box > 0.0f) issue_walls(pos, vel, n, c, s);
          });
        } catch (const std::exception&) {
          m_replay_ok = false;  // launches, as before, from now on
          m_replays.clear();
          return nullptr;
        }
      }
      return &r;
    }
    if (m_replays.size() == k_replays) m_replays.erase(m_replays.begin());
    m_replays.push_back(Replay{pos, vel, n, keep, c.restitution, c.box, eps, {}});
    return nullptr;
  }

  template <class Issue>
  Graph capture(Issue&& issue) {
    if (!m_capture.get()) m_capture = CudaStream(cudaStreamNonBlocking);
    CUDA_CHECK_THROW(cudaStreamBeginCapture(m_capture.get(), cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    try {
      issue(m_capture.get());
    } catch (...) {
      cudaStreamEndCapture(m_capture.get(), &graph);
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();
      throw;
    }
    CUDA_CHECK_THROW(cudaStreamEndCapture(m_capture.get(), &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_CHECK_THROW(made);
    return Graph(exec);
  }

  // Merges: the survivors to the front, in their order (this needs the count of merges: one
  // read-back). Returns the bodies left.
  int compact(Vec4* pos, Vec4* vel, int n) {
    CUDA_CHECK_THROW(cudaMemcpyAsync(&m_host->merged, &m_stats->merged, sizeof(unsigned),
                                     cudaMemcpyDeviceToHost));
    CUDA_CHECK_THROW(cudaStreamSynchronize(0));
    if (m_host->merged == 0) return n;
    const std::size_t b = static_cast<std::size_t>(n);
    m_tmp_pos.enlarge(b), m_tmp_vel.enlarge(b), m_selected.enlarge(1);
    std::size_t bytes = 0;
    CUDA_CHECK_THROW(cub::DeviceSelect::Flagged(nullptr, bytes, pos, m_alive.data(),
                                                m_tmp_pos.data(), m_selected.data(), n));
    m_select_temp.enlarge(bytes);
    for (int pass = 0; pass < 2; ++pass) {
      Vec4* data = pass ? vel : pos;
      Vec4* tmp = pass ? m_tmp_vel.data() : m_tmp_pos.data();
      bytes = m_select_temp.size();
      CUDA_CHECK_THROW(cub::DeviceSelect::Flagged(m_select_temp.data(), bytes, data, m_alive.data(),
                                                  tmp, m_selected.data(), n));
    }
    const int left = n - static_cast<int>(m_host->merged);
    if (m_rows) {
      m_alive_host.resize(b);
      CUDA_CHECK_THROW(cudaMemcpy(m_alive_host.data(), m_alive.data(), b, cudaMemcpyDeviceToHost));
      keep_rows(m_alive_host.data(), n, 1);
    }
    CUDA_CHECK_THROW(
        cudaMemcpyAsync(pos, m_tmp_pos.data(), sizeof(Vec4) * left, cudaMemcpyDeviceToDevice));
    CUDA_CHECK_THROW(
        cudaMemcpyAsync(vel, m_tmp_vel.data(), sizeof(Vec4) * left, cudaMemcpyDeviceToDevice));
    return left;
  }

  GpuBuffer<Stats> m_stats_buffer;
  Stats* m_stats = nullptr;
  PinnedHost<Stats> m_host;
  PinnedHost<unsigned long long> m_host_count;   // mapped: a step's pair count, written by
  unsigned long long* m_device_count = nullptr;  // the first round through this address
  CudaEvent m_count_event;
  CudaStream m_capture;           // where the graphs are captured (never run on)
  std::vector<Replay> m_replays;  // the latest first-seen or captured states, oldest first
  bool m_replay_ok = true;        // false after a capture failed: launches from then on
  bool m_count_pending = false;
  bool m_cell_valid = false;  // the device's cell size belongs to this state's radii
  int m_cell_n = 0;
  long long m_limit = k_default_pair_limit;
  GpuBuffer<unsigned> m_hist;
  GpuBuffer<std::uint32_t> m_keys, m_sorted_keys, m_count, m_start;
  GpuBuffer<int> m_rank, m_index,
      m_selected;  // rank: a body's rank in its bucket, or its index
  GpuBuffer<Vec4> m_sorted, m_tmp_pos, m_tmp_vel;
  GpuBuffer<unsigned long long> m_choice, m_pair_key;
  GpuBuffer<unsigned char> m_alive, m_scan_temp, m_sort_temp, m_select_temp;
  std::vector<unsigned char> m_alive_host;  // the survivors' flags, read back for the rows
  GpuBuffer<int2> m_pairs;
};

}  // namespace

std::unique_ptr<Collider> make_device_collider() { return std::make_unique<DeviceCollider>(); }

}  // namespace orrery
