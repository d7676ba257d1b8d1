// HostOctree: Morton keys, the sort, the cells built from the sorted keys, moments, the walk.
#include "octree.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "../core/region_errors.h"

namespace orrery {
namespace {

using KeyIndex = std::pair<std::uint64_t, int>;

// Sorts the pairs by key: a least-significant-digit radix sort, 11 bits a pass, each thread
// counting and then placing its own slice. Each pass is stable, so pairs of equal keys stay in
// their order: the result is std::sort's of pairs that come in index order. A pass whose digit is
// the same for every key is skipped (the keys' top bits, on a tree that is not yet deep).
void radix_sort(std::vector<KeyIndex>& pairs, std::vector<KeyIndex>& scratch, bool parallel) {
  constexpr int k_bits = 11, k_buckets = 1 << k_bits;
  const std::size_t n = pairs.size();
  scratch.resize(n);
  const int threads = parallel ? std::max(1, omp_get_max_threads()) : 1;
  std::vector<std::size_t> counts(static_cast<std::size_t>(threads) * k_buckets);
  bool same = false;  // the pass's digit is the same in every key: the pass would move nothing
  int moved = 0;      // passes that moved the pairs: odd, and they end in scratch
#pragma omp parallel num_threads(threads) if (parallel)
  {
    const int t = omp_get_thread_num(), used = omp_get_num_threads();
    const std::size_t begin = n * t / used, end = n * (t + 1) / used;
    std::size_t* count = counts.data() + static_cast<std::size_t>(t) * k_buckets;
    KeyIndex* from = pairs.data();
    KeyIndex* to = scratch.data();
    for (int shift = 0; shift < 64; shift += k_bits) {
      std::fill(count, count + k_buckets, 0);
      for (std::size_t i = begin; i < end; ++i) ++count[(from[i].first >> shift) & (k_buckets - 1)];
#pragma omp barrier
#pragma omp single
      {
        // Each thread's start in each bucket: buckets in order, threads in order within one.
        std::size_t at = 0;
        same = false;
        for (int b = 0; b < k_buckets; ++b) {
          const std::size_t bucket_start = at;
          for (int u = 0; u < used; ++u) {
            std::size_t& c = counts[static_cast<std::size_t>(u) * k_buckets + b];
            const std::size_t here = c;
            c = at;
            at += here;
          }
          same = same || at - bucket_start == n;
        }
        moved += !same;
      }
      if (!same) {
        for (std::size_t i = begin; i < end; ++i)
          to[count[(from[i].first >> shift) & (k_buckets - 1)]++] = from[i];
        std::swap(from, to);
      }
#pragma omp barrier
    }
  }
  if (moved % 2 == 1) pairs.swap(scratch);
}

// Mass, centre of mass and the traceless quadrupole about it, in double: from the bodies of a
// leaf, or from the children (each child's quadrupole moved to the parent's centre of mass).
void moments(OctCell* cells, int index, const Vec4* sorted) {
  OctCell& c = cells[index];
  double m = 0, sx = 0, sy = 0, sz = 0;
  auto add_point = [&](double mass, double x, double y, double z) {
    m += mass, sx += mass * x, sy += mass * y, sz += mass * z;
  };
  if (c.first_child < 0) {
    for (int k = c.begin; k < c.end; ++k)
      add_point(sorted[k].w, sorted[k].x, sorted[k].y, sorted[k].z);
  } else {
    for (int k = 0; k < c.child_count; ++k) {
      const OctCell& ch = cells[c.first_child + k];
      add_point(ch.mass, ch.mx, ch.my, ch.mz);
    }
  }
  // A massless cell: its centre of mass is its centre (it attracts nothing either way).
  const double gx = m > 0 ? sx / m : c.cx, gy = m > 0 ? sy / m : c.cy, gz = m > 0 ? sz / m : c.cz;
  double q[6] = {0, 0, 0, 0, 0, 0}, tr = 0;
  // m (3 d d^T - |d|^2 I) of a point mass at offset d from the centre of mass.
  auto add_quad = [&](double mass, double dx, double dy, double dz) {
    const double d2 = dx * dx + dy * dy + dz * dz;
    tr += mass * d2;
    q[0] += mass * (3 * dx * dx - d2), q[1] += mass * (3 * dy * dy - d2);
    q[2] += mass * (3 * dz * dz - d2), q[3] += mass * 3 * dx * dy;
    q[4] += mass * 3 * dx * dz, q[5] += mass * 3 * dy * dz;
  };
  if (c.first_child < 0) {
    for (int k = c.begin; k < c.end; ++k)
      add_quad(sorted[k].w, sorted[k].x - gx, sorted[k].y - gy, sorted[k].z - gz);
  } else {
    for (int k = 0; k < c.child_count; ++k) {
      const OctCell& ch = cells[c.first_child + k];
      for (int j = 0; j < 6; ++j) q[j] += ch.q[j];
      tr += ch.tr;
      add_quad(ch.mass, ch.mx - gx, ch.my - gy, ch.mz - gz);
    }
  }
  c.mass = static_cast<float>(m);
  c.mx = static_cast<float>(gx), c.my = static_cast<float>(gy), c.mz = static_cast<float>(gz);
  for (int j = 0; j < 6; ++j) c.q[j] = static_cast<float>(q[j]);
  c.tr = static_cast<float>(tr);
  const double ex = gx - c.cx, ey = gy - c.cy, ez = gz - c.cz;
  c.s = static_cast<float>(std::sqrt(ex * ex + ey * ey + ez * ez));
  c.reach2 = relative_reach2(c.mass, 2.0f * c.half);
}

// Builds cells into one array from the sorted keys and bodies: the whole tree, its top (with
// `defer` set) or one subtree of it.
class CellBuilder {
 public:
  CellBuilder(const std::vector<std::uint64_t>& keys, const std::vector<Vec4>& sorted,
              int leaf_size, std::vector<OctCell>& cells)
      : m_keys(keys), m_sorted(sorted), m_leaf_size(leaf_size), m_cells(cells) {}

  // Cells of more than a leaf's and at most `bodies` bodies are left childless and listed in
  // `out`, and no cell gets its moments: the caller builds those subtrees, then the moments.
  void defer(int bodies, std::vector<int>* out) { m_defer = bodies, m_deferred = out; }
  int depth() const { return m_depth; }

  // Fills cell `index` (allocated) for bodies [begin, end) at `level`: a leaf, or the children of
  // the non-empty octants (allocated together, so contiguous, then built); then the moments.
  void cell(int index, int begin, int end, int level, float cx, float cy, float cz, float half) {
    m_depth = std::max(m_depth, level);
    OctCell fresh{};
    fresh.cx = cx, fresh.cy = cy, fresh.cz = cz, fresh.half = half;
    fresh.first_child = -1;
    fresh.begin = begin, fresh.end = end;
    fresh.level = level;
    m_cells[static_cast<std::size_t>(index)] = fresh;
    const bool split = end - begin > m_leaf_size && level < HostOctree::k_max_depth;
    if (split && end - begin <= m_defer) {
      m_deferred->push_back(index);
      return;
    }
    if (split) {
      // The octant of each body at this level: the key's 3-bit digit below the level's prefix
      // (bits x, y, z from high to low). The keys are sorted, so each octant is one range.
      const int shift = 3 * (HostOctree::k_max_depth - 1 - level);
      int bounds[9];
      bounds[0] = begin;
      for (int o = 0; o < 8; ++o) {
        const auto after = std::upper_bound(m_keys.begin() + bounds[o], m_keys.begin() + end,
                                            static_cast<std::uint64_t>(o),
                                            [shift](std::uint64_t digit, std::uint64_t key) {
                                              return digit < ((key >> shift) & 7);
                                            });
        bounds[o + 1] = static_cast<int>(after - m_keys.begin());
      }
      int count = 0;
      for (int o = 0; o < 8; ++o) count += bounds[o + 1] > bounds[o];
      const int first = static_cast<int>(m_cells.size());
      m_cells.resize(m_cells.size() + static_cast<std::size_t>(count));
      m_cells[static_cast<std::size_t>(index)].first_child = first;
      m_cells[static_cast<std::size_t>(index)].child_count = count;
      const float h = 0.5f * half;
      int slot = first;
      for (int o = 0; o < 8; ++o) {
        if (bounds[o + 1] == bounds[o]) continue;
        cell(slot++, bounds[o], bounds[o + 1], level + 1, cx + ((o & 4) ? h : -h),
             cy + ((o & 2) ? h : -h), cz + ((o & 1) ? h : -h), h);
      }
    }
    if (!m_deferred) moments(m_cells.data(), index, m_sorted.data());
  }

 private:
  const std::vector<std::uint64_t>& m_keys;
  const std::vector<Vec4>& m_sorted;
  int m_leaf_size;
  std::vector<OctCell>& m_cells;
  int m_defer = 0;
  std::vector<int>* m_deferred = nullptr;
  int m_depth = 0;
};

}  // namespace

void HostOctree::build(const Vec4* pos, int n, int leaf_size) {
  build(pos, n, leaf_size, n > k_parallel ? std::max(n / k_subtrees, leaf_size + 1) : 0);
}

void HostOctree::build(const Vec4* pos, int n, int leaf_size, int subtree) {
  m_leaf_size = std::max(1, leaf_size);
  const bool parallel = n > k_parallel;
  float lo[3] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                 std::numeric_limits<float>::max()};
  float hi[3] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
                 std::numeric_limits<float>::lowest()};
#pragma omp parallel for reduction(min : lo[:3]) reduction(max : hi[:3]) if (parallel)
  for (int i = 0; i < n; ++i) {
    const float c[3] = {pos[i].x, pos[i].y, pos[i].z};
    for (int k = 0; k < 3; ++k)
      if (std::isfinite(c[k])) lo[k] = std::min(lo[k], c[k]), hi[k] = std::max(hi[k], c[k]);
  }
  float side = 0.0f;
  for (int k = 0; k < 3; ++k) {
    if (lo[k] > hi[k]) lo[k] = hi[k] = 0.0f;  // no finite coordinate on this axis
    side = std::max(side, hi[k] - lo[k]);
  }
  // A cube a little larger than the bodies' extent (never empty), centred on them.
  side = side > 0.0f && std::isfinite(side) ? side * 1.0001f : 1.0f;
  const float c[3] = {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), 0.5f * (lo[2] + hi[2])};
  const double origin[3] = {c[0] - 0.5f * side, c[1] - 0.5f * side, c[2] - 0.5f * side};
  const float scale = 2097152.0f / side;

  m_pairs.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 0; i < n; ++i) {
    m_pairs[static_cast<std::size_t>(i)] = {
        morton_key63(pos[i].x, pos[i].y, pos[i].z, origin, scale), i};
  }
  radix_sort(m_pairs, m_scratch, parallel);
  m_keys.resize(static_cast<std::size_t>(n));
  m_sorted.resize(static_cast<std::size_t>(n));
  m_order.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) if (parallel)
  for (int k = 0; k < n; ++k) {
    m_keys[static_cast<std::size_t>(k)] = m_pairs[static_cast<std::size_t>(k)].first;
    m_order[static_cast<std::size_t>(k)] = m_pairs[static_cast<std::size_t>(k)].second;
    m_sorted[static_cast<std::size_t>(k)] = pos[m_pairs[static_cast<std::size_t>(k)].second];
  }
  m_cells.assign(1, OctCell{});
  m_deferred.clear();
  CellBuilder top(m_keys, m_sorted, m_leaf_size, m_cells);
  if (subtree > 0) top.defer(subtree, &m_deferred);
  top.cell(0, 0, n, 0, c[0], c[1], c[2], 0.5f * side);
  m_depth = top.depth();
  if (subtree > 0) build_subtrees();
  m_groups.clear();
  if (n > 0) find_groups(0);
}

// The deferred cells' subtrees, built in parallel (each thread into its own array), then copied
// after the top's cells with their child indices moved; then the top's moments, children first.
void HostOctree::build_subtrees() {
  const int top = static_cast<int>(m_cells.size());
  const int count = static_cast<int>(m_deferred.size());
  struct Span {
    int thread, begin, end;  // the subtree's cells in its thread's array, its root first
  };
  std::vector<Span> spans(static_cast<std::size_t>(count));
  m_thread_cells.resize(static_cast<std::size_t>(std::max(1, omp_get_max_threads())));
  int depth = m_depth;
  RegionErrors errors;  // a cell array that cannot grow: thrown after the region
#pragma omp parallel reduction(max : depth)
  {
    const int t = omp_get_thread_num();
    std::vector<OctCell>& local = m_thread_cells[static_cast<std::size_t>(t)];
    local.clear();
    CellBuilder builder(m_keys, m_sorted, m_leaf_size, local);
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < count; ++i) {
      errors.run([&] {
        const OctCell& root =
            m_cells[static_cast<std::size_t>(m_deferred[static_cast<std::size_t>(i)])];
        const int begin = static_cast<int>(local.size());
        local.push_back({});
        builder.cell(begin, root.begin, root.end, root.level, root.cx, root.cy, root.cz, root.half);
        spans[static_cast<std::size_t>(i)] = {t, begin, static_cast<int>(local.size())};
      });
    }
    depth = std::max(depth, builder.depth());
  }
  errors.rethrow();
  m_depth = depth;
  // Each subtree's cells below its root go to [offset, offset + size - 1).
  std::vector<int> offsets(static_cast<std::size_t>(count));
  int total = top;
  for (int i = 0; i < count; ++i) {
    offsets[static_cast<std::size_t>(i)] = total;
    total += spans[static_cast<std::size_t>(i)].end - spans[static_cast<std::size_t>(i)].begin - 1;
  }
  m_cells.resize(static_cast<std::size_t>(total));
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < count; ++i) {
    const Span& s = spans[static_cast<std::size_t>(i)];
    const std::vector<OctCell>& local = m_thread_cells[static_cast<std::size_t>(s.thread)];
    const int move = offsets[static_cast<std::size_t>(i)] - s.begin - 1;
    for (int j = s.begin; j < s.end; ++j) {
      OctCell cell = local[static_cast<std::size_t>(j)];
      if (cell.first_child >= 0) cell.first_child += move;
      const int to = j == s.begin ? m_deferred[static_cast<std::size_t>(i)] : j + move;
      m_cells[static_cast<std::size_t>(to)] = cell;
    }
  }
  // The top's children come after their parents, so backwards is children first.
  for (int k = top - 1; k >= 0; --k) moments(m_cells.data(), k, m_sorted.data());
}

void HostOctree::find_groups(int index) {
  const OctCell& c = m_cells[static_cast<std::size_t>(index)];
  if (c.end - c.begin <= k_group || c.first_child < 0) {
    m_groups.push_back({c.begin, c.end});
    return;
  }
  // Children are contiguous in body order: consecutive small ones share a group.
  Group run{0, 0};
  for (int k = 0; k < c.child_count; ++k) {
    const OctCell& ch = m_cells[static_cast<std::size_t>(c.first_child + k)];
    if (ch.end - ch.begin > k_group && ch.first_child >= 0) {
      if (run.end > run.begin) m_groups.push_back(run);
      run = {0, 0};
      find_groups(c.first_child + k);
    } else if (run.end > run.begin && ch.end - run.begin <= k_group) {
      run.end = ch.end;
    } else {
      if (run.end > run.begin) m_groups.push_back(run);
      run = {ch.begin, ch.end};
    }
  }
  if (run.end > run.begin) m_groups.push_back(run);
}

// Fills cell `index` (allocated) for bodies [begin, end) at `level`: a leaf, or the children of
// the non-empty octants (allocated together, so contiguous, then built); then the moments.

namespace {

// The opening test (octree.h) of cell c for the box [lo, hi]: true when it is taken whole.
// Inlined: it is the walk's test of every cell (as a call, cpu-bh took 3% longer at 262,144
// bodies, docs/benchmarks.md).
[[gnu::always_inline]] inline bool taken_whole(const OctCell& c, const float lo[3],
                                               const float hi[3], float inv_theta, float scale) {
  const bool overlap = c.cx - c.half <= hi[0] && c.cx + c.half >= lo[0] && c.cy - c.half <= hi[1] &&
                       c.cy + c.half >= lo[1] && c.cz - c.half <= hi[2] && c.cz + c.half >= lo[2];
  const float dx = std::max(std::max(lo[0] - c.mx, c.mx - hi[0]), 0.0f);
  const float dy = std::max(std::max(lo[1] - c.my, c.my - hi[1]), 0.0f);
  const float dz = std::max(std::max(lo[2] - c.mz, c.mz - hi[2]), 0.0f);
  const float d2 = dx * dx + dy * dy + dz * dz;
  const float open = 2.0f * c.half * inv_theta + c.s;
  return !overlap && d2 > open * open && (scale == 0.0f || d2 >= c.reach2 * scale);
}

}  // namespace

void gather_cells(const std::vector<OctCell>& cells, const std::vector<Vec4>& bodies,
                  const float lo[3], const float hi[3], float inv_theta, float scale, float eps2,
                  std::vector<int>& stack, InteractionList& list) {
  stack.clear();
  if (!cells.empty()) stack.push_back(0);
  while (!stack.empty()) {
    const OctCell& c = cells[static_cast<std::size_t>(stack.back())];
    stack.pop_back();
    if (c.mass == 0.0f) continue;  // only massless bodies below: nothing to feel
    if (taken_whole(c, lo, hi, inv_theta, scale)) {
      list.cells.push(c.mx, c.my, c.mz, c.mass, c.q, c.tr * eps2);
    } else if (c.first_child < 0) {
      if (c.begin == c.end)  // an essential tree's cell sent with its moments alone
        list.cells.push(c.mx, c.my, c.mz, c.mass, c.q, c.tr * eps2);
      for (int k = c.begin; k < c.end; ++k) list.points.push(bodies[static_cast<std::size_t>(k)]);
    } else {
      for (int k = 0; k < c.child_count; ++k) stack.push_back(c.first_child + k);
    }
  }
}

void HostOctree::gather(const float lo[3], const float hi[3], float inv_theta, float scale,
                        float eps2, std::vector<int>& stack, InteractionList& list) const {
  list.cells.clear();
  list.points.clear();
  gather_cells(m_cells, m_sorted, lo, hi, inv_theta, scale, eps2, stack, list);
  list.cells.pad();
  list.points.pad();
}

void HostOctree::essential(const float lo[3], const float hi[3], float inv_theta, float scale,
                           EssentialTree& out) const {
  out.cells.clear();
  out.bodies.clear();
  if (m_cells.empty()) return;
  out.cells.push_back(m_cells[0]);
  // (the tree's cell, its copy): a copy's children are appended together, so they stay contiguous.
  std::vector<std::pair<int, int>> todo{{0, 0}};
  while (!todo.empty()) {
    const auto [from, to] = todo.back();
    todo.pop_back();
    const OctCell& c = m_cells[static_cast<std::size_t>(from)];
    OctCell& copy = out.cells[static_cast<std::size_t>(to)];
    if (c.mass == 0.0f || taken_whole(c, lo, hi, inv_theta, scale)) {
      copy.first_child = -1, copy.child_count = 0;  // its moments alone
      copy.begin = copy.end = 0;
    } else if (c.first_child < 0) {
      copy.begin = static_cast<int>(out.bodies.size());
      out.bodies.insert(out.bodies.end(), m_sorted.begin() + c.begin, m_sorted.begin() + c.end);
      copy.end = static_cast<int>(out.bodies.size());
    } else {
      const int first = static_cast<int>(out.cells.size());
      out.cells[static_cast<std::size_t>(to)].first_child = first;
      for (int k = 0; k < c.child_count; ++k) {
        out.cells.push_back(m_cells[static_cast<std::size_t>(c.first_child + k)]);
        todo.emplace_back(c.first_child + k, first + k);
      }
    }
  }
}

namespace {

// A body's field from its list's two sums. The points' potential counted the body itself
// (-m / eps): it is taken back out.
Vec4 body_field(const Vec4& b, const Vec4& cells, const Vec4& points, float eps2, bool potential) {
  const float self = potential ? b.w / std::sqrt(eps2) : 0.0f;
  return Vec4{cells.x + points.x, cells.y + points.y, cells.z + points.z,
              cells.w + points.w + self};
}

}  // namespace

Vec4 HostOctree::field(int k, const InteractionList& list, float eps2, bool potential,
                       WalkCount& count) const {
  const Vec4& b = m_sorted[static_cast<std::size_t>(k)];
  const Vec4 c = sum_cells(list.cells, b.x, b.y, b.z, eps2, potential);
  const Vec4 p = sum_points(list.points, b.x, b.y, b.z, eps2, potential);
  count.body_cell += list.cells.count;
  count.body_body += list.points.count;
  return body_field(b, c, p, eps2, potential);
}

void HostOctree::field_pair(int k, const InteractionList& list, float eps2, bool potential,
                            WalkCount& count, Vec4* out) const {
  const Vec4* at = &m_sorted[static_cast<std::size_t>(k)];
  Vec4 c[2], p[2];
  sum_cells_pair(list.cells, at, eps2, potential, c);
  sum_points_pair(list.points, at, eps2, potential, p);
  count.body_cell += 2LL * list.cells.count;
  count.body_body += 2LL * list.points.count;
  for (int j = 0; j < 2; ++j) out[j] = body_field(at[j], c[j], p[j], eps2, potential);
}

}  // namespace orrery
