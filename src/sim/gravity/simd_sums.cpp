// The CPU's vectorised force sums (simd_sums.h). Highway compiles the namespace below once per SIMD
// level (this file includes itself through foreach_target.h) and dispatches each call to the
// widest level the CPU supports, so one binary runs AVX-512 where there is one and SSE4 where not.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/sim/gravity/simd_sums.cpp"
#include "simd_sums.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "orrery/simd.h"

HWY_BEFORE_NAMESPACE();
namespace orrery {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// 1 / sqrt(v): the hardware's estimate (12 bits on SSE and AVX2, 14 on AVX-512) and one Newton
// step, about 1e-7 relative: as good as the division and square root for these sums, at a
// fraction of their cost. Without SIMD the estimate is a bit trick too coarse for one step.
HWY_INLINE V rsqrt(D d, V v) {
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  return hn::Div(hn::Set(d, 1.0f), hn::Sqrt(v));
#else
  const V y = hn::ApproximateReciprocalSqrt(v);
  const V half_v = hn::Mul(v, hn::Set(d, 0.5f));
  return hn::Mul(y, hn::NegMulAdd(hn::Mul(half_v, y), y, hn::Set(d, 1.5f)));
#endif
}

HWY_INLINE Vec4 reduce(D d, V ax, V ay, V az, V aw) {
  return Vec4{hn::GetLane(hn::SumOfLanes(d, ax)), hn::GetLane(hn::SumOfLanes(d, ay)),
              hn::GetLane(hn::SumOfLanes(d, az)), hn::GetLane(hn::SumOfLanes(d, aw))};
}

// One target's sums: its position and accumulators.
struct Target {
  V px, py, pz, ax, ay, az, aw;
  Target(D d, const Vec4& at)
      : px(hn::Set(d, at.x)),
        py(hn::Set(d, at.y)),
        pz(hn::Set(d, at.z)),
        ax(hn::Zero(d)),
        ay(hn::Zero(d)),
        az(hn::Zero(d)),
        aw(hn::Zero(d)) {}
  Vec4 sum(D d) const { return reduce(d, ax, ay, az, aw); }
};

// body_body for a vector of sources (sx, sy, sz, sm): a += m r / (r^2 + eps^2)^(3/2),
// r = source - point.
template <bool Potential>
HWY_INLINE void point_terms(D d, V sx, V sy, V sz, V sm, V e2, Target& t) {
  const V dx = hn::Sub(sx, t.px);
  const V dy = hn::Sub(sy, t.py);
  const V dz = hn::Sub(sz, t.pz);
  const V r2 = hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, e2)));
  const V rinv = rsqrt(d, r2);
  const V mr = hn::Mul(sm, rinv);
  const V f = hn::Mul(mr, hn::Mul(rinv, rinv));
  t.ax = hn::MulAdd(dx, f, t.ax);
  t.ay = hn::MulAdd(dy, f, t.ay);
  t.az = hn::MulAdd(dz, f, t.az);
  if (Potential) t.aw = hn::Sub(t.aw, mr);
}

// Sources [begin, end) for `Count` (1 or 2) targets at once: each vector of sources is loaded once
// for both, which halves the loads a pair of a group's bodies makes of their shared list.
template <bool Potential, int Count>
HWY_INLINE void points_range(const PointArrays& s, int begin, int end, const Vec4* at, float eps2,
                             Vec4* out) {
  const D d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const V e2 = hn::Set(d, eps2);
  Target t0(d, at[0]), t1(d, at[Count - 1]);
  const float *xs = s.x.data(), *ys = s.y.data(), *zs = s.z.data(), *ms = s.m.data();
  for (int j = begin; j < end; j += lanes) {
    const V sx = hn::LoadU(d, xs + j), sy = hn::LoadU(d, ys + j), sz = hn::LoadU(d, zs + j);
    const V sm = hn::LoadU(d, ms + j);
    point_terms<Potential>(d, sx, sy, sz, sm, e2, t0);
    if (Count == 2) point_terms<Potential>(d, sx, sy, sz, sm, e2, t1);
  }
  out[0] = t0.sum(d);
  if (Count == 2) out[1] = t1.sum(d);
}

template <int Count>
void SumPointsAt(const PointArrays& s, const Vec4* at, float eps2, bool potential, Vec4* out) {
  const int end = simd_padded(s.count);
  if (potential)
    points_range<true, Count>(s, 0, end, at, eps2, out);
  else
    points_range<false, Count>(s, 0, end, at, eps2, out);
}
void SumPoints(const PointArrays& s, const Vec4* at, float eps2, bool potential, Vec4* out) {
  SumPointsAt<1>(s, at, eps2, potential, out);
}
void SumPoints2(const PointArrays& s, const Vec4* at, float eps2, bool potential, Vec4* out) {
  SumPointsAt<2>(s, at, eps2, potential, out);
}

// cell_field (octree.h) for a vector of cells (their arrays from entry j); d = point - centre of
// mass.
template <bool Potential>
HWY_INLINE void cell_terms(D d, const CellArrays& c, int j, V e2, Target& t) {
  const V k25 = hn::Set(d, 2.5f), k05 = hn::Set(d, 0.5f);
  const V dx = hn::Sub(t.px, hn::LoadU(d, c.x.data() + j));
  const V dy = hn::Sub(t.py, hn::LoadU(d, c.y.data() + j));
  const V dz = hn::Sub(t.pz, hn::LoadU(d, c.z.data() + j));
  const V r2 = hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, e2)));
  const V rinv = rsqrt(d, r2);
  const V rinv2 = hn::Mul(rinv, rinv);
  const V rinv3 = hn::Mul(rinv, rinv2);
  const V rinv5 = hn::Mul(rinv3, rinv2);
  const V qxx = hn::LoadU(d, c.q[0].data() + j), qyy = hn::LoadU(d, c.q[1].data() + j);
  const V qzz = hn::LoadU(d, c.q[2].data() + j), qxy = hn::LoadU(d, c.q[3].data() + j);
  const V qxz = hn::LoadU(d, c.q[4].data() + j), qyz = hn::LoadU(d, c.q[5].data() + j);
  const V qx = hn::MulAdd(qxz, dz, hn::MulAdd(qxy, dy, hn::Mul(qxx, dx)));
  const V qy = hn::MulAdd(qyz, dz, hn::MulAdd(qyy, dy, hn::Mul(qxy, dx)));
  const V qz = hn::MulAdd(qzz, dz, hn::MulAdd(qyz, dy, hn::Mul(qxz, dx)));
  const V dqd =
      hn::MulAdd(dx, qx, hn::MulAdd(dy, qy, hn::MulSub(dz, qz, hn::LoadU(d, c.te.data() + j))));
  const V m = hn::LoadU(d, c.m.data() + j);
  const V radial = hn::Mul(rinv3, hn::MulAdd(hn::Mul(k25, dqd), hn::Mul(rinv2, rinv2), m));
  t.ax = hn::Add(t.ax, hn::NegMulAdd(radial, dx, hn::Mul(qx, rinv5)));
  t.ay = hn::Add(t.ay, hn::NegMulAdd(radial, dy, hn::Mul(qy, rinv5)));
  t.az = hn::Add(t.az, hn::NegMulAdd(radial, dz, hn::Mul(qz, rinv5)));
  if (Potential) t.aw = hn::Sub(t.aw, hn::MulAdd(m, rinv, hn::Mul(hn::Mul(k05, dqd), rinv5)));
}

// Every cell for `Count` (1 or 2) targets at once: a pair's second target reads each vector of
// cells while it is still in the first-level cache.
template <bool Potential, int Count>
HWY_INLINE void cells_all(const CellArrays& c, const Vec4* at, float eps2, Vec4* out) {
  const D d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const V e2 = hn::Set(d, eps2);
  Target t0(d, at[0]), t1(d, at[Count - 1]);
  const int end = simd_padded(c.count);
  for (int j = 0; j < end; j += lanes) {
    cell_terms<Potential>(d, c, j, e2, t0);
    if (Count == 2) cell_terms<Potential>(d, c, j, e2, t1);
  }
  out[0] = t0.sum(d);
  if (Count == 2) out[1] = t1.sum(d);
}

template <int Count>
void SumCellsAt(const CellArrays& c, const Vec4* at, float eps2, bool potential, Vec4* out) {
  if (potential)
    cells_all<true, Count>(c, at, eps2, out);
  else
    cells_all<false, Count>(c, at, eps2, out);
}
void SumCells(const CellArrays& c, const Vec4* at, float eps2, bool potential, Vec4* out) {
  SumCellsAt<1>(c, at, eps2, potential, out);
}
void SumCells2(const CellArrays& c, const Vec4* at, float eps2, bool potential, Vec4* out) {
  SumCellsAt<2>(c, at, eps2, potential, out);
}

// Sources a tile at a time, every body of the block against the tile before the next: a tile's
// four arrays (32 KB) stay in the first-level cache while the block passes over them.
constexpr int k_tile = 2048;

void AllPairsBlock(const PointArrays& s, int sources, int first, int count, float eps2, Vec3* acc) {
  for (int k = 0; k < count; ++k) acc[k] = Vec3{0.0f, 0.0f, 0.0f};
  // Up to a whole vector past the sources: the bodies there are massless (or padding) and add zero.
  const int end = simd_padded(sources < s.count ? sources : s.count);
  for (int t = 0; t < end; t += k_tile) {
    const int tile_end = t + k_tile < end ? t + k_tile : end;
    for (int k = 0; k < count; ++k) {
      const int i = first + k;
      const Vec4 at{s.x[static_cast<std::size_t>(i)], s.y[static_cast<std::size_t>(i)],
                    s.z[static_cast<std::size_t>(i)], 0.0f};
      Vec4 a;
      points_range<false, 1>(s, t, tile_end, &at, eps2, &a);
      acc[k].x += a.x, acc[k].y += a.y, acc[k].z += a.z;
    }
  }
}

const char* LevelName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace orrery
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace orrery {

HWY_EXPORT(SumPoints);
HWY_EXPORT(SumPoints2);
HWY_EXPORT(SumCells);
HWY_EXPORT(SumCells2);
HWY_EXPORT(AllPairsBlock);
HWY_EXPORT(LevelName);

Vec4 sum_points(const PointArrays& s, float x, float y, float z, float eps2, bool potential) {
  const Vec4 at{x, y, z, 0.0f};
  Vec4 out;
  HWY_DYNAMIC_DISPATCH(SumPoints)(s, &at, eps2, potential, &out);
  return out;
}

Vec4 sum_cells(const CellArrays& c, float x, float y, float z, float eps2, bool potential) {
  const Vec4 at{x, y, z, 0.0f};
  Vec4 out;
  HWY_DYNAMIC_DISPATCH(SumCells)(c, &at, eps2, potential, &out);
  return out;
}

void sum_points_pair(const PointArrays& s, const Vec4* at, float eps2, bool potential, Vec4* out) {
  HWY_DYNAMIC_DISPATCH(SumPoints2)(s, at, eps2, potential, out);
}

void sum_cells_pair(const CellArrays& c, const Vec4* at, float eps2, bool potential, Vec4* out) {
  HWY_DYNAMIC_DISPATCH(SumCells2)(c, at, eps2, potential, out);
}

void all_pairs_block(const PointArrays& s, int sources, int first, int count, float eps2,
                     Vec3* acc) {
  HWY_DYNAMIC_DISPATCH(AllPairsBlock)(s, sources, first, count, eps2, acc);
}

std::string simd_level() { return HWY_DYNAMIC_DISPATCH(LevelName)(); }

// Every level compiled in and supported here, read before any is chosen (choosing one narrows
// what Highway reports).
static const std::vector<std::int64_t>& all_levels() {
  static const std::vector<std::int64_t> levels = hwy::SupportedAndGeneratedTargets();
  return levels;
}

std::vector<std::string> simd_levels() {
  std::vector<std::string> names;
  for (std::int64_t level : all_levels()) names.emplace_back(hwy::TargetName(level));
  return names;
}

bool use_simd_level(const std::string& name) {
  std::int64_t chosen = 0;  // Highway's mask of levels; 0 lifts a restriction
  for (std::int64_t level : all_levels())
    if (name == hwy::TargetName(level)) chosen = level;
  if (chosen == 0 && !name.empty()) return false;
  hwy::SetSupportedTargetsForTest(chosen);
  hwy::SupportedTargets();  // makes the dispatch choose again
  return true;
}

// Capacity is the arrays' size less a padding's room, so pad() never reallocates.
void PointArrays::grow() {
  const std::size_t size = 2 * x.size() + 4 * k_simd_pad;
  x.resize(size), y.resize(size), z.resize(size), m.resize(size);
}

void PointArrays::pad() {
  const int end = simd_padded(count);
  for (std::size_t k = static_cast<std::size_t>(count); k < static_cast<std::size_t>(end); ++k)
    x[k] = y[k] = z[k] = m[k] = 0.0f;
}

void PointArrays::assign(const Vec4* pos, int n) {
  const std::size_t size = static_cast<std::size_t>(simd_padded(n) + k_simd_pad);
  if (x.size() < size) x.resize(size), y.resize(size), z.resize(size), m.resize(size);
  count = n;
#pragma omp parallel for schedule(static) if (n > 65536)
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    x[k] = pos[i].x, y[k] = pos[i].y, z[k] = pos[i].z, m[k] = pos[i].w;
  }
  pad();
}

void CellArrays::grow() {
  const std::size_t size = 2 * x.size() + 4 * k_simd_pad;
  x.resize(size), y.resize(size), z.resize(size), m.resize(size), te.resize(size);
  for (auto& column : q) column.resize(size);
}

void CellArrays::pad() {
  const int end = simd_padded(count);
  for (std::size_t k = static_cast<std::size_t>(count); k < static_cast<std::size_t>(end); ++k) {
    x[k] = y[k] = z[k] = m[k] = te[k] = 0.0f;
    for (auto& column : q) column[k] = 0.0f;
  }
}

}  // namespace orrery
#endif  // HWY_ONCE
