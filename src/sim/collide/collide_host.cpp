// The CPU collider (OpenMP): the hashed grid by a counting sort, the neighbour search, the
// handshake rounds, merges and walls - the same steps as the GPU one, and its reference.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

#include "contact.h"
#include "orrery/collisions.h"

namespace orrery {
namespace {

using contact::Grid;
using contact::make_grid;

// slot = max(slot, v) from any thread (a pair's key offered to both of its bodies).
void atomic_max(std::uint64_t& slot, std::uint64_t v) {
  std::uint64_t seen = __atomic_load_n(&slot, __ATOMIC_RELAXED);
  while (seen < v &&
         !__atomic_compare_exchange_n(&slot, &seen, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

// Calls emit(i, slot) for each i in [0, n) with keep(i), slot counting the kept ones in order,
// after size(kept) (OpenMP: each thread counts its slice's, the counts become offsets, each
// thread emits its own). Returns how many were kept.
template <class Keep, class Size, class Emit>
std::size_t compact_in_order(std::size_t n, bool parallel, Keep keep, Size size, Emit emit) {
  std::vector<std::size_t> start(static_cast<std::size_t>(omp_get_max_threads()) + 1, 0);
  std::size_t total = 0;
#pragma omp parallel if (parallel)
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t used = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t lo = n * t / used, hi = n * (t + 1) / used;
    std::size_t mine = 0;
    for (std::size_t i = lo; i < hi; ++i) mine += keep(i) ? 1 : 0;
    start[t + 1] = mine;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t u = 0; u < used; ++u) start[u + 1] += start[u];
      total = start[used];
      size(total);
    }
    std::size_t slot = start[t];
    for (std::size_t i = lo; i < hi; ++i)
      if (keep(i)) emit(i, slot++);
  }
  return total;
}

class HostCollider final : public Collider {
 public:
  bool on_device() const override { return false; }
  int resolve(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, float softening) override;
  std::vector<Contact> find_contacts(const Vec4* pos, const Vec4* vel, int n) override {
    search(pos, vel, n);
    std::vector<Contact> out = m_pairs;
    std::sort(out.begin(), out.end());
    return out;
  }
  CollisionTotals totals() override { return m_totals; }
  void reset_totals() override { m_totals = CollisionTotals{}; }
  void set_pair_limit(long long pairs) override { m_limit = std::max(pairs, 1LL); }

 private:
  void search(const Vec4* pos, const Vec4* vel, int n);
  void sort_by_cell(const Vec4* pos, const Vec4* vel, int n, const Grid& g, const Aabb& extent);
  void rounds(Vec4* pos, Vec4* vel, int rounds, bool bounce, float e, float eps);
  int compact(Vec4* pos, Vec4* vel, int n);
  void walls(Vec4* pos, Vec4* vel, int n, float box, float e);
  void mark(Phase p) {
    if (m_phases) m_phases->begin(p);
  }

  CollisionTotals m_totals;
  long long m_limit = k_default_pair_limit;
  std::vector<Contact> m_pairs;
  std::vector<int> m_sorted, m_large;     // the small bodies by cell (body indices), the large
  std::vector<Vec4> m_body;               // the small bodies by cell: x, y, z, r
  std::vector<contact::Cell> m_cell;      // and their cells
  std::vector<contact::Cell> m_cell_of;   // each body's cell
  std::vector<std::uint64_t> m_cell_key;  // each body's (large: none)
  std::vector<std::pair<std::uint64_t, int>> m_keys, m_swap;  // cell key, body
  std::vector<std::uint32_t> m_digit_count;                   // the radix sort's, per thread
  std::vector<std::uint32_t> m_row_start;  // each row's first sorted body, and the end
  std::vector<std::uint64_t> m_row_key;    // each row's key (cell key / row length)
  std::uint64_t m_row_step[4] = {};        // row keys of the four rows after a row, less its own
  std::vector<std::uint64_t> m_choice, m_pair_key;
  std::vector<unsigned char> m_dead;
  std::vector<Vec4> m_kept_pos, m_kept_vel;  // compact's survivors
};

// The small bodies sorted by cell - rows of cells along x, rows ordered by y then z - with an LSD
// radix sort of 64-bit keys (stable: body order within a cell, whatever the threads), copied out
// in that order with their cells; the rows' starts; the large bodies listed apart.
void HostCollider::sort_by_cell(const Vec4* pos, const Vec4* vel, int n, const Grid& g,
                                const Aabb& extent) {
  // The cells' extent from the bodies' (cell_of is monotone); a margin of one cell on each side,
  // so a row's neighbours never wrap into another row. Cells are clamped into it: only a body with
  // no finite coordinate on an axis falls outside, and it touches nothing.
  const contact::Cell a =
      contact::cell_of(Vec4{extent.lo[0], extent.lo[1], extent.lo[2], 0}, g.inv_cell);
  const contact::Cell b =
      contact::cell_of(Vec4{extent.hi[0], extent.hi[1], extent.hi[2], 0}, g.inv_cell);
  int lo[3] = {a.x, a.y, a.z}, hi[3] = {b.x, b.y, b.z};
  for (int k = 0; k < 3; ++k)
    if (lo[k] > hi[k]) lo[k] = hi[k] = contact::clamp_cell(NAN);
  const std::uint64_t nx = static_cast<std::uint64_t>(std::int64_t{hi[0]} - lo[0] + 3);
  const std::uint64_t ny = static_cast<std::uint64_t>(std::int64_t{hi[1]} - lo[1] + 3);
  // A cell's row (y, z) and place along it (x), each counted from one before the extent's start.
  const auto row_of = [&](const contact::Cell& c) {
    return static_cast<std::uint64_t>(std::int64_t{c.z} - lo[2] + 1) * ny +
           static_cast<std::uint64_t>(std::int64_t{c.y} - lo[1] + 1);
  };
  m_cell_of.resize(static_cast<std::size_t>(n));
  m_cell_key.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const contact::Cell raw = contact::cell_of(pos[i], g.inv_cell);
    const contact::Cell c{std::clamp(raw.x, lo[0], hi[0]), std::clamp(raw.y, lo[1], hi[1]),
                          std::clamp(raw.z, lo[2], hi[2])};
    m_cell_of[static_cast<std::size_t>(i)] = c;
    m_cell_key[static_cast<std::size_t>(i)] =
        contact::is_large(vel[i].w, g.cell)
            ? UINT64_MAX
            : row_of(c) * nx + static_cast<std::uint64_t>(std::int64_t{c.x} - lo[0] + 1);
  }
  const bool parallel = n > 16384;
  const std::size_t small = compact_in_order(
      static_cast<std::size_t>(n), parallel,
      [&](std::size_t i) { return m_cell_key[i] != UINT64_MAX; },
      [&](std::size_t count) { m_keys.resize(count); },
      [&](std::size_t i, std::size_t slot) {
        m_keys[slot] = {m_cell_key[i], static_cast<int>(i)};
      });
  m_large.clear();
  if (small < static_cast<std::size_t>(n))
    for (int i = 0; i < n; ++i)
      if (m_cell_key[static_cast<std::size_t>(i)] == UINT64_MAX) m_large.push_back(i);
  std::uint64_t top = 0;
#pragma omp parallel for reduction(max : top) if (parallel)
  for (std::size_t k = 0; k < small; ++k) top = std::max(top, m_keys[k].first);
  m_swap.resize(small);
  // Each pass in parallel: every thread counts its slice's digits, the counts become offsets digit
  // by digit and thread by thread, and each thread places its slice - stable, as one thread would.
  constexpr int k_digit = 11;
  constexpr std::size_t k_bins = std::size_t{1} << k_digit;
  const int threads = small > 16384 ? omp_get_max_threads() : 1;
  m_digit_count.resize(static_cast<std::size_t>(threads) * k_bins);
  for (int shift = 0; shift < 64 && (top >> shift) != 0; shift += k_digit) {
#pragma omp parallel num_threads(threads)
    {
      const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t slice =
          (small + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
      const std::size_t lo = std::min(small, t * slice), hi = std::min(small, lo + slice);
      std::uint32_t* count = m_digit_count.data() + t * k_bins;
      std::fill(count, count + k_bins, 0u);
      for (std::size_t k = lo; k < hi; ++k) ++count[(m_keys[k].first >> shift) & (k_bins - 1)];
#pragma omp barrier
#pragma omp single
      {
        std::uint32_t sum = 0;
        for (std::size_t d = 0; d < k_bins; ++d)
          for (std::size_t u = 0; u < static_cast<std::size_t>(threads); ++u) {
            std::uint32_t& c = m_digit_count[u * k_bins + d];
            const std::uint32_t here = c;
            c = sum, sum += here;
          }
      }
      for (std::size_t k = lo; k < hi; ++k)
        m_swap[count[(m_keys[k].first >> shift) & (k_bins - 1)]++] = m_keys[k];
    }
    m_keys.swap(m_swap);
  }
  m_sorted.resize(small);
  m_body.resize(small);
  m_cell.resize(small);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < small; ++k) {
    const int i = m_keys[k].second;
    m_sorted[k] = i;
    m_body[k] = Vec4{pos[i].x, pos[i].y, pos[i].z, vel[i].w};
    m_cell[k] = m_cell_of[static_cast<std::size_t>(i)];
  }
  // A row starts where the row key changes.
  compact_in_order(
      small, parallel,
      [&](std::size_t k) { return k == 0 || row_of(m_cell[k]) != row_of(m_cell[k - 1]); },
      [&](std::size_t count) { m_row_key.resize(count), m_row_start.resize(count + 1); },
      [&](std::size_t k, std::size_t slot) {
        m_row_key[slot] = row_of(m_cell[k]);
        m_row_start[slot] = static_cast<std::uint32_t>(k);
      });
  m_row_start.back() = static_cast<std::uint32_t>(small);
  // The four rows after a row: (y + 1, z), and (y - 1 .. y + 1, z + 1).
  m_row_step[0] = 1, m_row_step[1] = ny - 1, m_row_step[2] = ny, m_row_step[3] = ny + 1;
}

void HostCollider::search(const Vec4* pos, const Vec4* vel, int n) {
  mark(Phase::grid);
  m_pairs.clear();
  // The radii's histogram and the bodies' extent (non-finite coordinates left out) in one pass.
  unsigned hist[contact::k_radius_bins] = {};
  float x0 = INFINITY, y0 = INFINITY, z0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, z1 = -INFINITY;
#pragma omp parallel reduction(min : x0, y0, z0) reduction(max : x1, y1, z1)
  {
    unsigned mine[contact::k_radius_bins] = {};
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; ++i) {
      const int b = contact::radius_bin(vel[i].w);
      if (b >= 0) ++mine[b];
      const Vec4& p = pos[i];
      if (std::isfinite(p.x)) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
      if (std::isfinite(p.y)) y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
      if (std::isfinite(p.z)) z0 = std::min(z0, p.z), z1 = std::max(z1, p.z);
    }
#pragma omp critical
    for (int b = 0; b < contact::k_radius_bins; ++b) hist[b] += mine[b];
  }
  const Grid g = make_grid(contact::cell_from_histogram(hist), n);
  if (g.cell == 0.0f || n < 2) return;
  sort_by_cell(pos, vel, n, g, Aabb{{x0, y0, z0}, {x1, y1, z1}});
  const long long rows = static_cast<long long>(m_row_key.size());

  mark(Phase::contacts);
  const int threads = omp_get_max_threads();
  std::vector<std::vector<Contact>> found(static_cast<std::size_t>(threads));
  std::vector<long long> counted(static_cast<std::size_t>(threads), 0);
  // Every touching pair is counted, but only m_limit of them are kept, whatever the radius: the
  // threads take room for pairs from one budget, a chunk at a time (a radius as large as the
  // system once made the lists grow as N^2, 24 GB at N = 65,536).
  std::atomic<long long> budget{m_limit};
#pragma omp parallel
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    std::vector<Contact>& mine = found[t];
    long long& count = counted[t];
    long long room = 0;
    bool full = false;
    auto keep = [&](int i, int j) {
      ++count;
      if (room == 0 && !full) {
        constexpr long long k_chunk = 4096;
        const long long left = budget.fetch_sub(k_chunk);
        room = std::clamp(left, 0LL, k_chunk);
        full = room == 0;
      }
      if (room == 0) return;
      --room;
      mine.push_back({std::min(i, j), std::max(i, j)});
    };
    // A row at a time: its bodies in x order, each against the bodies after it in its own row up to
    // the next cell, and against the cells x - 1 to x + 1 of the four rows after its row - the 13
    // cells after its own - whose start each row's sweep moves forward; then the large bodies.
#pragma omp for schedule(dynamic, 8)
    for (long long r = 0; r < rows; ++r) {
      const std::uint32_t begin = m_row_start[r], end = m_row_start[r + 1];
      const std::uint64_t row = m_row_key[r];
      std::uint32_t from[4], to[4];
      for (int s = 0; s < 4; ++s) {
        const std::uint64_t want = row + m_row_step[s];
        const auto it = std::lower_bound(m_row_key.begin(), m_row_key.end(), want);
        const std::size_t q = static_cast<std::size_t>(it - m_row_key.begin());
        const bool found_row = it != m_row_key.end() && *it == want;
        from[s] = found_row ? m_row_start[q] : 0;
        to[s] = found_row ? m_row_start[q + 1] : 0;
      }
      for (std::uint32_t k = begin; k < end; ++k) {
        const Vec4 bi = m_body[k];
        const int x = m_cell[k].x, i = m_sorted[k];
        for (std::uint32_t m = k + 1; m < end && m_cell[m].x <= x + 1; ++m)
          if (contact::touching(bi, bi.w, m_body[m], m_body[m].w)) keep(i, m_sorted[m]);
        for (int s = 0; s < 4; ++s) {
          while (from[s] < to[s] && m_cell[from[s]].x < x - 1) ++from[s];
          for (std::uint32_t m = from[s]; m < to[s] && m_cell[m].x <= x + 1; ++m)
            if (contact::touching(bi, bi.w, m_body[m], m_body[m].w)) keep(i, m_sorted[m]);
        }
        for (int j : m_large)
          if (contact::touching(bi, bi.w, pos[j], vel[j].w)) keep(i, j);
      }
    }
    // The large bodies among themselves.
#pragma omp for schedule(dynamic, 16)
    for (std::size_t a = 0; a < m_large.size(); ++a)
      for (std::size_t b = a + 1; b < m_large.size(); ++b) {
        const int i = m_large[a], j = m_large[b];
        if (contact::touching(pos[i], vel[i].w, pos[j], vel[j].w)) keep(i, j);
      }
  }
  long long total = 0, kept = 0;
  for (long long c : counted) total += c;
  for (const auto& f : found) kept += static_cast<long long>(f.size());
  m_totals.contacts += total;
  if (total > kept) ++m_totals.truncated;
  m_pairs.reserve(static_cast<std::size_t>(kept));
  for (auto& f : found) {
    m_pairs.insert(m_pairs.end(), f.begin(), f.end());
    std::vector<Contact>().swap(f);  // one copy of the pairs at a time
  }
}

void HostCollider::rounds(Vec4* pos, Vec4* vel, int count, bool bounce, float e, float eps) {
  const long long np = static_cast<long long>(m_pairs.size());
  m_pair_key.resize(m_pairs.size());
#pragma omp parallel for schedule(static)
  for (long long k = 0; k < np; ++k) {
    const Contact p = m_pairs[k];
    __atomic_store_n(&m_choice[p.i], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&m_choice[p.j], 0, __ATOMIC_RELAXED);
  }
  double removed = 0.0;
  long long merged = 0;
  for (int round = 1; round <= count; ++round) {
    // Each pair's key, offered to both bodies: a body keeps the largest (the round is in the key's
    // top bits, so an older round's never wins; the maximum is the same in any order).
    bool any = false;
#pragma omp parallel for schedule(static) reduction(|| : any)
    for (long long k = 0; k < np; ++k) {
      const Contact p = m_pairs[k];
      const std::uint64_t key =
          contact::pair_key(round, pos[p.i], vel[p.i], pos[p.j], vel[p.j], p.i, p.j, bounce);
      m_pair_key[k] = key;
      if (key == 0) continue;
      any = true;
      atomic_max(m_choice[p.i], key);
      atomic_max(m_choice[p.j], key);
    }
    if (!any) break;
#pragma omp parallel for schedule(static) reduction(+ : removed, merged)
    for (long long k = 0; k < np; ++k) {
      const std::uint64_t key = m_pair_key[k];
      const Contact p = m_pairs[k];
      if (key == 0 || m_choice[p.i] != key || m_choice[p.j] != key) continue;
      int gone;
      removed += contact::resolve_pair(pos, vel, p.i, p.j, bounce, e, eps, gone);
      if (gone >= 0) m_dead[gone] = 1, ++merged;
    }
  }
  m_totals.energy_offset += removed;
  m_totals.merges += merged;
}

// The survivors moved down in order, in parallel: each thread counts its slice's, then copies them
// out to where the slices before it end, and the whole is copied back (in place, a slice's
// rows would land on the rows the slice before it still reads).
int HostCollider::compact(Vec4* pos, Vec4* vel, int n) {
  keep_rows(m_dead.data(), n, 0);
  const int threads = omp_get_max_threads();
  std::vector<int> kept(static_cast<std::size_t>(threads) + 1, 0);
  const int slice = (n + threads - 1) / threads;
  m_kept_pos.resize(static_cast<std::size_t>(n));
  m_kept_vel.resize(static_cast<std::size_t>(n));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int lo = std::min(n, t * slice), hi = std::min(n, lo + slice);
    int count = 0;
    for (int i = lo; i < hi; ++i) count += !m_dead[static_cast<std::size_t>(i)];
    kept[static_cast<std::size_t>(t) + 1] = count;
#pragma omp barrier
#pragma omp single
    for (int k = 0; k < threads; ++k)
      kept[static_cast<std::size_t>(k) + 1] += kept[static_cast<std::size_t>(k)];
    std::size_t out = static_cast<std::size_t>(kept[static_cast<std::size_t>(t)]);
    for (int i = lo; i < hi; ++i) {
      if (m_dead[static_cast<std::size_t>(i)]) continue;
      m_kept_pos[out] = pos[i];
      m_kept_vel[out] = vel[i];
      ++out;
    }
#pragma omp barrier
#pragma omp for schedule(static)
    for (int i = 0; i < kept[static_cast<std::size_t>(threads)]; ++i) {
      pos[i] = m_kept_pos[static_cast<std::size_t>(i)];
      vel[i] = m_kept_vel[static_cast<std::size_t>(i)];
    }
  }
  return kept[static_cast<std::size_t>(threads)];
}

void HostCollider::walls(Vec4* pos, Vec4* vel, int n, float box, float e) {
  double removed = 0, ix = 0, iy = 0, iz = 0;
  long long hits = 0;
#pragma omp parallel for schedule(static) reduction(+ : removed, ix, iy, iz, hits)
  for (int i = 0; i < n; ++i) {
    const contact::WallResult w = contact::wall_body(pos[i], vel[i], 0.5f * box, e);
    removed += w.removed, ix += w.impulse[0], iy += w.impulse[1], iz += w.impulse[2];
    hits += w.hits;
  }
  m_totals.energy_offset += removed;
  m_totals.wall_impulse.x += ix, m_totals.wall_impulse.y += iy, m_totals.wall_impulse.z += iz;
  m_totals.wall_hits += hits;
}

int HostCollider::resolve(Vec4* pos, Vec4* vel, int n, const CollisionParams& c, float softening) {
  if (c.mode != CollisionMode::off) {
    search(pos, vel, n);
    mark(Phase::resolve);
    if (!m_pairs.empty()) {
      if (m_choice.size() < static_cast<std::size_t>(n))
        m_choice.resize(static_cast<std::size_t>(n));
      const bool bounce = c.mode == CollisionMode::bounce;
      if (!bounce) m_dead.assign(static_cast<std::size_t>(n), 0);
      rounds(pos, vel, bounce ? k_bounce_rounds : 1, bounce, c.restitution, softening);
      if (!bounce) n = compact(pos, vel, n);
    }
  }
  if (c.box > 0.0f) {
    mark(Phase::resolve);
    walls(pos, vel, n, c.box, c.restitution);
  }
  return n;
}

}  // namespace

std::unique_ptr<Collider> make_host_collider() { return std::make_unique<HostCollider>(); }

}  // namespace orrery
