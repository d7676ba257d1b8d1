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
};

void HostCollider::search(const Vec4* pos, const Vec4* vel, int n) {
  mark(Phase::grid);
  m_pairs.clear();
  unsigned hist[contact::k_radius_bins] = {};
  for (int i = 0; i < n; ++i) {
    const int b = contact::radius_bin(vel[i].w);
    if (b >= 0) ++hist[b];
  }
  const Grid g = make_grid(contact::cell_from_histogram(hist), n);
  if (g.cell == 0.0f || n < 2) return;
  // Counting sort of the small bodies by bucket; the large ones listed apart.
  const std::size_t buckets = std::size_t{g.mask} + 1;
  m_count.assign(buckets, 0);
  m_start.assign(buckets + 1, 0);
  m_key.resize(static_cast<std::size_t>(n));
  m_large.clear();
  for (int i = 0; i < n; ++i) {
    if (contact::is_large(vel[i].w, g.cell)) {
      m_key[i] = UINT32_MAX;
      m_large.push_back(i);
      continue;
    }
    const contact::Cell c = contact::cell_of(pos[i], g.inv_cell);
    m_key[i] = contact::bucket_of(c.x, c.y, c.z, g.mask);
    ++m_count[m_key[i]];
  }
  for (std::size_t b = 0; b < buckets; ++b) m_start[b + 1] = m_start[b] + m_count[b];
  m_sorted.resize(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
  for (int i = 0; i < n; ++i)
    if (m_key[i] != UINT32_MAX) m_sorted[fill[m_key[i]]++] = i;
  // The small bodies in bucket order (x, y, z, r): a bucket's candidates are contiguous.
  const std::uint32_t small = m_start[buckets];
  m_body.resize(small);
  m_cell.resize(small);
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
#pragma omp for schedule(dynamic, 256)
    for (std::uint32_t k = 0; k < small; ++k) {
      const Vec4& bi = m_body[k];
      const int i = m_sorted[k];
      contact::for_each_forward_bucket(
          bi, g, [&](const contact::Cell& nc, std::uint32_t b, bool own) {
            for (std::uint32_t m = own ? std::max(m_start[b], k + 1) : m_start[b];
                 m < m_start[b + 1]; ++m) {
              const contact::Cell& cj = m_cell[m];
              if (cj.x != nc.x || cj.y != nc.y || cj.z != nc.z) continue;  // another cell's
              const Vec4& bj = m_body[m];
              if (contact::touching(bi, bi.w, bj, bj.w)) keep(i, m_sorted[m]);
            }
          });
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
  for (const Contact& p : m_pairs) m_choice[p.i] = m_choice[p.j] = 0;
  double removed = 0.0;
  long long merged = 0;
  for (int round = 1; round <= count; ++round) {
#pragma omp parallel for schedule(static)
    for (long long k = 0; k < np; ++k) {
      const Contact p = m_pairs[k];
      m_pair_key[k] =
          contact::pair_key(round, pos[p.i], vel[p.i], pos[p.j], vel[p.j], p.i, p.j, bounce);
    }
    bool any = false;
    for (long long k = 0; k < np; ++k) {
      const std::uint64_t key = m_pair_key[k];
      if (key == 0) continue;
      any = true;
      const Contact p = m_pairs[k];
      m_choice[p.i] = std::max(m_choice[p.i], key);
      m_choice[p.j] = std::max(m_choice[p.j], key);
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

int HostCollider::compact(Vec4* pos, Vec4* vel, int n) {
  keep_rows(m_dead.data(), n, 0);
  int out = 0;
  for (int i = 0; i < n; ++i) {
    if (m_dead[i]) continue;
    pos[out] = pos[i];
    vel[out] = vel[i];
    ++out;
  }
  return out;
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
