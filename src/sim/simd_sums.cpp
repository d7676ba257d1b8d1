// The CPU's vectorised force sums (simd_sums.h). Highway compiles the namespace below once per SIMD
// level (this file includes itself through foreach_target.h) and dispatches each call to the
// widest level the CPU supports, so one binary runs AVX-512 where there is one and SSE4 where not.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/sim/simd_sums.cpp"
#include "src/sim/simd_sums.h"

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

// body_body, a vector of sources at a time: a += m r / (r^2 + eps^2)^(3/2), r = source - point.
template <bool Potential>
HWY_INLINE Vec4 points_range(const PointArrays& s, int begin, int end, float x, float y, float z,
                             float eps2) {
  const D d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const V px = hn::Set(d, x), py = hn::Set(d, y), pz = hn::Set(d, z), e2 = hn::Set(d, eps2);
  V ax = hn::Zero(d), ay = hn::Zero(d), az = hn::Zero(d), aw = hn::Zero(d);
  const float *xs = s.x.data(), *ys = s.y.data(), *zs = s.z.data(), *ms = s.m.data();
  for (int j = begin; j < end; j += lanes) {
    const V dx = hn::Sub(hn::LoadU(d, xs + j), px);
    const V dy = hn::Sub(hn::LoadU(d, ys + j), py);
    const V dz = hn::Sub(hn::LoadU(d, zs + j), pz);
    const V r2 = hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, e2)));
    const V rinv = rsqrt(d, r2);
    const V mr = hn::Mul(hn::LoadU(d, ms + j), rinv);
    const V f = hn::Mul(mr, hn::Mul(rinv, rinv));
    ax = hn::MulAdd(dx, f, ax);
    ay = hn::MulAdd(dy, f, ay);
    az = hn::MulAdd(dz, f, az);
    if (Potential) aw = hn::Sub(aw, mr);
  }
  return reduce(d, ax, ay, az, aw);
}

Vec4 SumPoints(const PointArrays& s, float x, float y, float z, float eps2, bool potential) {
  const int end = simd_padded(s.count);
  return potential ? points_range<true>(s, 0, end, x, y, z, eps2)
                   : points_range<false>(s, 0, end, x, y, z, eps2);
}

// cell_field (octree.h), a vector of cells at a time; d = point - centre of mass.
template <bool Potential>
HWY_INLINE Vec4 cells_all(const CellArrays& c, float x, float y, float z, float eps2) {
  const D d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const V px = hn::Set(d, x), py = hn::Set(d, y), pz = hn::Set(d, z), e2 = hn::Set(d, eps2);
  const V k25 = hn::Set(d, 2.5f), k05 = hn::Set(d, 0.5f);
  V ax = hn::Zero(d), ay = hn::Zero(d), az = hn::Zero(d), aw = hn::Zero(d);
  const int end = simd_padded(c.count);
  for (int j = 0; j < end; j += lanes) {
    const V dx = hn::Sub(px, hn::LoadU(d, c.x.data() + j));
    const V dy = hn::Sub(py, hn::LoadU(d, c.y.data() + j));
    const V dz = hn::Sub(pz, hn::LoadU(d, c.z.data() + j));
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
    ax = hn::Add(ax, hn::NegMulAdd(radial, dx, hn::Mul(qx, rinv5)));
    ay = hn::Add(ay, hn::NegMulAdd(radial, dy, hn::Mul(qy, rinv5)));
    az = hn::Add(az, hn::NegMulAdd(radial, dz, hn::Mul(qz, rinv5)));
    if (Potential) aw = hn::Sub(aw, hn::MulAdd(m, rinv, hn::Mul(hn::Mul(k05, dqd), rinv5)));
  }
  return reduce(d, ax, ay, az, aw);
}

Vec4 SumCells(const CellArrays& c, float x, float y, float z, float eps2, bool potential) {
  return potential ? cells_all<true>(c, x, y, z, eps2) : cells_all<false>(c, x, y, z, eps2);
}

// Sources a tile at a time, every body of the block against the tile before the next: a tile's
// four arrays (32 KB) stay in the first-level cache while the block passes over them.
constexpr int k_tile = 2048;

void AllPairsBlock(const PointArrays& s, int first, int count, float eps2, Vec3* acc) {
  for (int k = 0; k < count; ++k) acc[k] = Vec3{0.0f, 0.0f, 0.0f};
  const int end = simd_padded(s.count);
  for (int t = 0; t < end; t += k_tile) {
    const int tile_end = t + k_tile < end ? t + k_tile : end;
    for (int k = 0; k < count; ++k) {
      const int i = first + k;
      const Vec4 a = points_range<false>(s, t, tile_end, s.x[static_cast<std::size_t>(i)],
                                         s.y[static_cast<std::size_t>(i)],
                                         s.z[static_cast<std::size_t>(i)], eps2);
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
HWY_EXPORT(SumCells);
HWY_EXPORT(AllPairsBlock);
HWY_EXPORT(LevelName);

Vec4 sum_points(const PointArrays& s, float x, float y, float z, float eps2, bool potential) {
  return HWY_DYNAMIC_DISPATCH(SumPoints)(s, x, y, z, eps2, potential);
}

Vec4 sum_cells(const CellArrays& c, float x, float y, float z, float eps2, bool potential) {
  return HWY_DYNAMIC_DISPATCH(SumCells)(c, x, y, z, eps2, potential);
}

void all_pairs_block(const PointArrays& s, int first, int count, float eps2, Vec3* acc) {
  HWY_DYNAMIC_DISPATCH(AllPairsBlock)(s, first, count, eps2, acc);
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
