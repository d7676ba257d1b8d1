// The CPU collider (OpenMP): the hashed grid by a counting sort, the neighbour search, the
// handshake rounds, merges and walls - the same steps as the GPU one, and its reference.
#include <omp.h>

#include <algorithm>
#include <atomic>
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
  void rounds(Vec4* pos, Vec4* vel, int rounds, bool bounce, float e, float eps);
  int compact(Vec4* pos, Vec4* vel, int n);
  void walls(Vec4* pos, Vec4* vel, int n, float box, float e);
  void mark(Phase p) {
    if (m_phases) m_phases->begin(p);
  }

  CollisionTotals m_totals;
  long long m_limit = k_default_pair_limit;
  std::vector<Contact> m_pairs;
  std::vector<std::uint32_t> m_start, m_count;  // per bucket: first sorted body, bodies
  std::vector<int> m_sorted, m_large;
  std::vector<Vec4> m_body;           // the small bodies in bucket order: x, y, z, r
  std::vector<contact::Cell> m_cell;  // and their cells
  std::vector<std::uint32_t> m_key;
  std::vector<std::uint64_t> m_choice, m_pair_key;
  std::vector<unsigned char> m_dead;
  std::vector<Vec4> m_kept_pos, m_kept_vel;  // compact's survivors
};

void HostCollider::search(const Vec4* pos, const Vec4* vel, int n) {
  mark(Phase::grid);
  m_pairs.clear();
  unsigned hist[contact::k_radius_bins] = {};
#pragma omp parallel
  {
    unsigned mine[contact::k_radius_bins] = {};
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; ++i) {
      const int b = contact::radius_bin(vel[i].w);
      if (b >= 0) ++mine[b];
    }
#pragma omp critical
    for (int b = 0; b < contact::k_radius_bins; ++b) hist[b] += mine[b];
  }
  const Grid g = make_grid(contact::cell_from_histogram(hist), n);
  if (g.cell == 0.0f || n < 2) return;
  // Counting sort of the small bodies by bucket (in body order within a bucket, whatever the
  // threads: the counts and keys in parallel, the placing serial); the large ones listed apart.
  const std::size_t buckets = std::size_t{g.mask} + 1;
  m_count.assign(buckets, 0);
  m_start.resize(buckets + 1);
  m_key.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    if (contact::is_large(vel[i].w, g.cell)) {
      m_key[i] = UINT32_MAX;
      continue;
    }
    const contact::Cell c = contact::cell_of(pos[i], g.inv_cell);
    m_key[i] = contact::bucket_of(c.x, c.y, c.z, g.mask);
#pragma omp atomic
    ++m_count[m_key[i]];
  }
  m_large.clear();
  m_start[0] = 0;
  for (std::size_t b = 0; b < buckets; ++b) m_start[b + 1] = m_start[b] + m_count[b];
  m_sorted.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (m_key[i] == UINT32_MAX)
      m_large.push_back(i);
    else
      m_sorted[m_start[m_key[i] + 1] - m_count[m_key[i]]--] = i;
  }
  // The small bodies in bucket order (x, y, z, r): a bucket's candidates are contiguous.
  const std::uint32_t small = m_start[buckets];
  m_body.resize(small + 2);  // the padding the contact tests read past a bucket's end
  m_cell.resize(small + 2);
#pragma omp parallel for schedule(static)
  for (std::uint32_t k = 0; k < small; ++k) {
    const Vec4& p = pos[m_sorted[k]];
    m_body[k] = Vec4{p.x, p.y, p.z, vel[m_sorted[k]].w};
    m_cell[k] = contact::cell_of(p, g.inv_cell);
  }

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
    // The small bodies in bucket order: their cell (the bodies after them), the 13 cells after it,
    // and the large bodies.
    // A bucket holds 0, 1 or 2 bodies mostly, which no branch predicts: its first two candidates
    // are tested whatever its count (the arrays have two rows of padding), the rest in a loop.
#pragma omp for schedule(dynamic, 256)
    for (std::uint32_t k = 0; k < small; ++k) {
      const Vec4 bi = m_body[k];
      const contact::Cell c = m_cell[k];
      const int i = m_sorted[k];
      const contact::NeighbourBuckets bucket(c.x, c.y, c.z, g.mask);
      for (int nb = contact::k_own_cell; nb < 27; ++nb) {
        const int dx = nb % 3 - 1, dy = nb / 3 % 3 - 1, dz = nb / 9 - 1;  // unrolled: constants
        const contact::Cell nc{c.x + dx, c.y + dy, c.z + dz};
        const std::uint32_t b = bucket(dx, dy, dz);
        const std::uint32_t end = m_start[b + 1];
        const auto hit = [&](std::uint32_t m) {
          const contact::Cell cj = m_cell[m];
          const Vec4 bj = m_body[m];
          return (cj.x == nc.x) & (cj.y == nc.y) & (cj.z == nc.z) &
                 contact::touching(bi, bi.w, bj, bj.w);
        };
        std::uint32_t m = nb == contact::k_own_cell ? k + 1 : m_start[b];
        const bool first = (m < end) & hit(m), second = (m + 1 < end) & hit(m + 1);
        if (first | second) {
          if (first) keep(i, m_sorted[m]);
          if (second) keep(i, m_sorted[m + 1]);
        }
        for (m += 2; m < end; ++m)
          if (hit(m)) keep(i, m_sorted[m]);
      }
      for (int j : m_large)
        if (contact::touching(bi, bi.w, pos[j], vel[j].w)) keep(i, j);
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
