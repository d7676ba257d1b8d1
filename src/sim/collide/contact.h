// Private: the collision maths both colliders share (ORRERY_HD): the grid's cell size and hashed
// cell keys, the touching test, the handshake keys, and the resolution of one pair and one wall.
// The CPU and GPU colliders run the same steps with these, so they find the same pairs and match
// them the same way.
#pragma once

#include <cstdint>
#include <cstring>

#include "orrery/physics.h"

namespace orrery::contact {

// Radii are binned by their float bits >> 21 (exponent and two mantissa bits: a quarter octave per
// bin) to choose the cell size.
constexpr int k_radius_bins = 1024;
constexpr int k_radius_shift = 21;
// Cell coordinates are clamped to +-2^20 so far bodies cannot overflow them (a clamped body shares
// an edge cell with others: the exact test still decides).
constexpr float k_cell_clamp = 1048576.0f;

ORRERY_HD std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

ORRERY_HD float bits_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

// Products and sums rounded as written (no fused multiply-add on the device), so the host and the
// device decide a touching test alike.
ORRERY_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
ORRERY_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}

// The histogram bin of a radius; radii <= 0 (points) and non-finite ones are left out (-1).
ORRERY_HD int radius_bin(float r) {
  if (!(r > 0.0f) || !(r < 3.0e38f)) return -1;
  return static_cast<int>(float_bits(r) >> k_radius_shift);
}
// The smallest radius above every radius of bin b.
ORRERY_HD float bin_upper(int b) {
  return bits_float(static_cast<std::uint32_t>(b + 1) << k_radius_shift);
}

// The grid of one step: cells of side `cell` (2 x a radius that all but the few largest bodies
// stay under); a body with 2r > cell is "large" and is checked against every body apart.
struct Grid {
  float cell = 0.0f;       // 0: no body has a radius, no contact is possible
  float inv_cell = 0.0f;   // 1 / cell
  std::uint32_t mask = 0;  // buckets - 1 (a power of two minus one)
};

// How many bodies may be large (each is checked against every body): the cell is chosen so at
// most this many are.
constexpr int k_large_allowance = 32;

// Chooses the cell from a histogram of radius bins: the smallest bin edge such that at most
// k_large_allowance bodies have a larger radius, doubled.
inline float cell_from_histogram(const unsigned* hist) {
  const long long allowed = k_large_allowance;
  long long above = 0;
  int top = -1;
  for (int b = k_radius_bins - 1; b >= 0; --b) {
    if (hist[b] == 0) continue;
    if (top < 0) top = b;
    if (above + hist[b] > allowed) return 2.0f * bin_upper(b);
    above += hist[b];
  }
  // Every radius fits the allowance: size the cell by the largest bin anyway (no body is large).
  return top < 0 ? 0.0f : 2.0f * bin_upper(top);
}

struct Cell {
  int x, y, z;
};

// floor(c) clamped to +-2^20 (NaN goes to -2^20), without library calls.
ORRERY_HD int clamp_cell(float c) {
  if (!(c >= -k_cell_clamp)) c = -k_cell_clamp;
  if (c > k_cell_clamp) c = k_cell_clamp;
  const int t = static_cast<int>(c);  // truncates towards zero
  // Minus one below zero between integers, without a branch: half of a centred system's
  // coordinates are negative, and a branch there mispredicts every other body.
  return t - static_cast<int>(static_cast<float>(t) > c);
}

ORRERY_HD Cell cell_of(const Vec4& p, float inv_cell) {
  return Cell{clamp_cell(p.x * inv_cell), clamp_cell(p.y * inv_cell), clamp_cell(p.z * inv_cell)};
}

// Every third bit from bit 0: the three low bits of v at bits 0, 3 and 6.
ORRERY_HD std::uint32_t spread3(std::uint32_t v) {
  return (v & 1u) | (v & 2u) << 2 | (v & 4u) << 4;
}

// A cell's bucket: blocks of 8^3 cells are hashed to slots of 512 buckets, and the cells of a block
// fill their slot in Morton order - so neighbouring cells sit in neighbouring buckets (a warp's
// lookups and the bodies they find stay in cache), while bodies spread over any extent still fill
// the table evenly.
ORRERY_HD std::uint32_t bucket_of(int x, int y, int z, std::uint32_t mask) {
  const std::uint32_t ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y),
                      uz = static_cast<std::uint32_t>(z);
  const std::uint32_t local = spread3(ux & 7u) | spread3(uy & 7u) << 1 | spread3(uz & 7u) << 2;
  std::uint32_t h = (ux >> 3) * 73856093u ^ (uy >> 3) * 19349663u ^ (uz >> 3) * 83492791u;
  h ^= h >> 16;
  return (h << 9 | local) & mask;
}

ORRERY_HD bool is_large(float r, float cell) { return 2.0f * r > cell; }

// Buckets for n bodies: at least 4n, a power of two; the mask is their count - 1.
ORRERY_HD std::uint32_t bucket_mask(int n) {
  std::uint32_t buckets = 4096;
  while (buckets < 4u * static_cast<std::uint32_t>(n) && buckets < (1u << 30)) buckets *= 2;
  return buckets - 1;
}

// The grid of n bodies for a cell size.
ORRERY_HD Grid make_grid(float cell, int n) {
  Grid g;
  if (!(cell > 0.0f) || !(cell < 3.0e38f)) return g;
  g.cell = cell;
  g.inv_cell = 1.0f / cell;
  g.mask = bucket_mask(n);
  return g;
}

// The 27 cells around c (c itself included) by k = 9 (dz + 1) + 3 (dy + 1) + (dx + 1): c is
// k_own_cell, and the cells after it are the 13 forward ones.
constexpr int k_own_cell = 13;
ORRERY_HD Cell neighbour(const Cell& c, int k) {
  return Cell{c.x + k % 3 - 1, c.y + k / 3 % 3 - 1, c.z + k / 9 - 1};
}

// Calls f(cell, bucket, own) for p's cell (own: true) and the 13 of its neighbours that come after
// it (dz > 0; or dz = 0 and dy > 0; or dz = dy = 0 and dx > 0): a touching pair of small bodies in
// two cells is found from exactly one of them, in its own cell from one body of the pair. A bucket
// may hold other cells too: the caller keeps a body only when its own cell is the one visited.
// With share of shares (the GPU's small N, where several threads split a body's cells), only the
// cells share, share + shares, ... of the 14.
template <class F>
ORRERY_HD void for_each_forward_bucket(const Vec4& p, const Grid& g, F&& f, int share = 0,
                                       int shares = 1) {
  const Cell c = cell_of(p, g.inv_cell);
  for (int k = k_own_cell + share; k < 27; k += shares) {
    const Cell nc = neighbour(c, k);
    f(nc, bucket_of(nc.x, nc.y, nc.z, g.mask), k == k_own_cell);
  }
}

ORRERY_HD bool same_cell(const Vec4& p, const Grid& g, const Cell& c) {
  const Cell pc = cell_of(p, g.inv_cell);
  return pc.x == c.x && pc.y == c.y && pc.z == c.z;
}

// Whether two spheres touch: |x_j - x_i| < r_i + r_j (points never do).
ORRERY_HD bool touching(const Vec4& pi, float ri, const Vec4& pj, float rj) {
  const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
  const float d2 = add_rn(add_rn(mul_rn(dx, dx), mul_rn(dy, dy)), mul_rn(dz, dz));
  const float s = ri + rj;
  return s > 0.0f && d2 < mul_rn(s, s);
}

// A pair's handshake key in round `round` (1..31): the round in the top bits (so an older round's
// choice never wins), then the relative overlap (bigger first), then i ^ j, which tells apart the
// pairs of one body. Both bodies of a pair compute the same key; a pair is matched when it is the
// largest key of both. 0 when the pair needs nothing (not touching; touching, separating and with
// negligible overlap for bounce).
ORRERY_HD std::uint64_t pair_key(int round, const Vec4& pi, const Vec4& vi, const Vec4& pj,
                                 const Vec4& vj, int i, int j, bool bounce) {
  const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
  const float d2 = dx * dx + dy * dy + dz * dz;
  const float s = vi.w + vj.w;
  if (!(s > 0.0f) || !(d2 < s * s)) return 0;
  const float d = sqrtf(d2);
  const float depth = (s - d) / s;  // in (0, 1]
  if (bounce) {
    const float vn = (vj.x - vi.x) * dx + (vj.y - vi.y) * dy + (vj.z - vi.z) * dz;
    if (vn >= 0.0f && depth < 1e-5f) return 0;  // separating, and apart to rounding
  }
  const std::uint32_t depth_bits = float_bits(fminf(depth, 1.0f)) >> 2;  // < 2^28, monotone
  return (static_cast<std::uint64_t>(round) << 59) |
         (static_cast<std::uint64_t>(depth_bits) << 31) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(i ^ j) & 0x7fffffffu);
}

// The unit vector from i to j; a fixed axis when they coincide.
ORRERY_HD void normal(const Vec4& pi, const Vec4& pj, float& nx, float& ny, float& nz, float& d) {
  nx = pj.x - pi.x, ny = pj.y - pi.y, nz = pj.z - pi.z;
  d = sqrtf(nx * nx + ny * ny + nz * nz);
  if (d > 0.0f) {
    nx /= d, ny /= d, nz /= d;
  } else {
    nx = 1.0f, ny = 0.0f, nz = 0.0f;
  }
}

// Mass weights of a pair's corrections: i moves by w_i, j by w_j (w_i + w_j = 1; equal when both
// masses are 0).
ORRERY_HD void weights(float mi, float mj, float& wi, float& wj) {
  const float m = mi + mj;
  if (m > 0.0f) {
    wi = mj / m, wj = mi / m;
  } else {
    wi = wj = 0.5f;
  }
}

// Bounce: pushes the pair apart to touching (mass-weighted, the centre of mass kept) and, when it
// approaches, gives it the hard-sphere impulse along the line of centres with restitution e.
// Returns the kinetic energy removed, 1/2 mu (1 - e^2) vn^2.
ORRERY_HD float bounce_pair(Vec4& pi, Vec4& vi, Vec4& pj, Vec4& vj, float e) {
  float nx, ny, nz, d;
  normal(pi, pj, nx, ny, nz, d);
  float wi, wj;
  weights(pi.w, pj.w, wi, wj);
  const float overlap = vi.w + vj.w - d;
  if (overlap > 0.0f) {
    pi.x -= nx * overlap * wi, pi.y -= ny * overlap * wi, pi.z -= nz * overlap * wi;
    pj.x += nx * overlap * wj, pj.y += ny * overlap * wj, pj.z += nz * overlap * wj;
  }
  const float vn = (vj.x - vi.x) * nx + (vj.y - vi.y) * ny + (vj.z - vi.z) * nz;
  if (!(vn < 0.0f)) return 0.0f;
  const float k = (1.0f + e) * vn;
  vi.x += k * wi * nx, vi.y += k * wi * ny, vi.z += k * wi * nz;
  vj.x -= k * wj * nx, vj.y -= k * wj * ny, vj.z -= k * wj * nz;
  const float mu = pi.w * wi;  // m_i m_j / (m_i + m_j)
  return 0.5f * mu * (1.0f - e * e) * vn * vn;
}

// Merge: the survivor (the heavier; the lower index on a tie) takes the pair's mass, momentum and
// volume (r^3 adds) at the centre of mass; the other is left with mass and radius 0, for
// compaction. Returns the energy removed: the relative motion's kinetic energy and, with gravity
// (eps > 0), the pair's softened potential (it vanishes inside one body).
ORRERY_HD float merge_pair(Vec4& ps, Vec4& vs, Vec4& pv, Vec4& vv, float eps) {
  const float ms = ps.w, mv = pv.w, m = ms + mv;
  float ws, wv;  // the centre of mass's weights
  if (m > 0.0f) {
    ws = ms / m, wv = mv / m;
  } else {
    ws = wv = 0.5f;
  }
  const float rx = vv.x - vs.x, ry = vv.y - vs.y, rz = vv.z - vs.z;
  const float dx = pv.x - ps.x, dy = pv.y - ps.y, dz = pv.z - ps.z;
  float removed = 0.5f * ms * wv * (rx * rx + ry * ry + rz * rz);
  if (eps > 0.0f) removed -= ms * mv / sqrtf(dx * dx + dy * dy + dz * dz + eps * eps);
  const float rs = vs.w, rv = vv.w;
  ps = Vec4{ps.x * ws + pv.x * wv, ps.y * ws + pv.y * wv, ps.z * ws + pv.z * wv, m};
  vs = Vec4{vs.x * ws + vv.x * wv, vs.y * ws + vv.y * wv, vs.z * ws + vv.z * wv,
            cbrtf(rs * rs * rs + rv * rv * rv)};
  pv.w = 0.0f;
  vv = Vec4{0.0f, 0.0f, 0.0f, 0.0f};
  return removed;
}

// Which of a pair survives a merge: true when i does.
ORRERY_HD bool survivor_is_i(float mi, float mj, int i, int j) {
  return mi > mj || (mi == mj && i < j);
}

// Resolves a matched pair (i, j): bounces it, or merges it; returns the energy removed and sets
// `gone` to the body merged away (-1 for a bounce).
ORRERY_HD float resolve_pair(Vec4* pos, Vec4* vel, int i, int j, bool bounce, float e, float eps,
                             int& gone) {
  gone = -1;
  if (bounce) return bounce_pair(pos[i], vel[i], pos[j], vel[j], e);
  const bool keep_i = survivor_is_i(pos[i].w, pos[j].w, i, j);
  const int s = keep_i ? i : j;
  gone = keep_i ? j : i;
  return merge_pair(pos[s], vel[s], pos[gone], vel[gone], eps);
}

// One wall axis: a body past a wall (its sphere through it) moving outwards bounces with
// restitution e and is put back inside; one too big for the box sits at its centre. Adds the
// momentum change m dv to `impulse` and the kinetic energy removed to `removed`; returns whether
// it hit.
ORRERY_HD bool wall_axis(float& x, float& v, float r, float m, float half, float e, float& impulse,
                         float& removed) {
  const float lim = half - r;
  if (!(lim > 0.0f)) {  // too big for the box: held at the centre
    const bool hit = x != 0.0f || v != 0.0f;
    if (hit) {
      impulse -= m * v;
      removed += 0.5f * m * v * v;
    }
    x = 0.0f, v = 0.0f;
    return hit;
  }
  bool hit = false;
  if (x > lim) {
    x = fmaxf(lim - e * (x - lim), -lim);
    if (v > 0.0f) {
      impulse -= (1.0f + e) * m * v;
      removed += 0.5f * m * (1.0f - e * e) * v * v;
      v = -e * v;
    }
    hit = true;
  } else if (x < -lim) {
    x = fminf(-lim + e * (-lim - x), lim);
    if (v < 0.0f) {
      impulse -= (1.0f + e) * m * v;
      removed += 0.5f * m * (1.0f - e * e) * v * v;
      v = -e * v;
    }
    hit = true;
  }
  if (!(x <= lim && x >= -lim)) {  // non-finite: to the centre
    x = 0.0f;
    hit = true;
  }
  return hit;
}

struct WallResult {
  float impulse[3] = {0.0f, 0.0f, 0.0f};
  float removed = 0.0f;
  int hits = 0;
};

// The three wall axes of one body in a cube of half-side `half`.
ORRERY_HD WallResult wall_body(Vec4& p, Vec4& v, float half, float e) {
  WallResult w;
  const float r = v.w, m = p.w;
  w.hits += wall_axis(p.x, v.x, r, m, half, e, w.impulse[0], w.removed);
  w.hits += wall_axis(p.y, v.y, r, m, half, e, w.impulse[1], w.removed);
  w.hits += wall_axis(p.z, v.z, r, m, half, e, w.impulse[2], w.removed);
  return w;
}

}  // namespace orrery::contact
