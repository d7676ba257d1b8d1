// A tree node's moments as cuda-bh combines them: two children into their parent (the device's
// bottom-up pass, cuda_bh_tree.cuh) and, on the host, the parts that the ranks hold of one cell of
// the shared top tree (top_tree.h). One function for both, so a cell the ranks share has the
// moments one process's tree would give it.
#pragma once

#include <cmath>

#include "octree.h"
#include "orrery/physics.h"

namespace orrery {

struct Moments {
  float c[3];  // centre of mass
  float m;
  float q[6];  // about c: xx, yy, zz, xy, xz, yz
  float te;    // eps^2 sum m |x - c|^2: the trace term, premultiplied (octree.h, cell_field)
  float lo[3], hi[3];
};

ORRERY_HD Moments point_moments(const Vec4& p) {
  Moments r{};
  r.c[0] = r.lo[0] = r.hi[0] = p.x;
  r.c[1] = r.lo[1] = r.hi[1] = p.y;
  r.c[2] = r.lo[2] = r.hi[2] = p.z;
  r.m = p.w;
  return r;
}

// A node's walk arrays (com, quad, quad2_open, lo, hi) read back as moments.
ORRERY_HD Moments node_moments(const Vec4& com, const Vec4& q, const Vec4& q2, const Vec4& lo,
                               const Vec4& hi) {
  Moments r;
  r.c[0] = com.x, r.c[1] = com.y, r.c[2] = com.z, r.m = com.w;
  r.q[0] = q.x, r.q[1] = q.y, r.q[2] = q.z, r.q[3] = q.w, r.q[4] = q2.x, r.q[5] = q2.y;
  r.te = q2.w;
  r.lo[0] = lo.x, r.lo[1] = lo.y, r.lo[2] = lo.z;
  r.hi[0] = hi.x, r.hi[1] = hi.y, r.hi[2] = hi.z;
  return r;
}

// The parent of a and b: each child's mass moved to the new centre of mass (parallel axes).
ORRERY_HD Moments combine_moments(const Moments& a, const Moments& b, float eps2) {
  Moments r;
  r.m = a.m + b.m;
  for (int k = 0; k < 3; ++k) {
    r.lo[k] = fminf(a.lo[k], b.lo[k]);
    r.hi[k] = fmaxf(a.hi[k], b.hi[k]);
  }
  // A massless node's centre of mass is the middle of its box (it attracts nothing).
  for (int k = 0; k < 3; ++k)
    r.c[k] = r.m > 0.0f ? (a.m * a.c[k] + b.m * b.c[k]) / r.m : 0.5f * (r.lo[k] + r.hi[k]);
  for (int j = 0; j < 6; ++j) r.q[j] = a.q[j] + b.q[j];
  r.te = a.te + b.te;
  const Moments* parts[2] = {&a, &b};
  for (const Moments* p : parts) {
    const float dx = p->c[0] - r.c[0], dy = p->c[1] - r.c[1], dz = p->c[2] - r.c[2];
    const float d2 = dx * dx + dy * dy + dz * dz;
    r.te += eps2 * p->m * d2;
    r.q[0] += p->m * (3.0f * dx * dx - d2), r.q[1] += p->m * (3.0f * dy * dy - d2);
    r.q[2] += p->m * (3.0f * dz * dz - d2), r.q[3] += p->m * 3.0f * dx * dy;
    r.q[4] += p->m * 3.0f * dx * dz, r.q[5] += p->m * 3.0f * dy * dz;
  }
  return r;
}

// The walk's arrays of a node of moments r: out[0..5) = com, quad, quad2_open (with the opening
// radius l/theta + s), lo (w: relative_reach2), hi.
ORRERY_HD void node_arrays(const Moments& r, float inv_theta, Vec4* out) {
  const float l = fmaxf(fmaxf(r.hi[0] - r.lo[0], r.hi[1] - r.lo[1]), r.hi[2] - r.lo[2]);
  const float ex = r.c[0] - 0.5f * (r.lo[0] + r.hi[0]), ey = r.c[1] - 0.5f * (r.lo[1] + r.hi[1]),
              ez = r.c[2] - 0.5f * (r.lo[2] + r.hi[2]);
  const float s = sqrtf(ex * ex + ey * ey + ez * ez);
  out[0] = Vec4{r.c[0], r.c[1], r.c[2], r.m};
  out[1] = Vec4{r.q[0], r.q[1], r.q[2], r.q[3]};
  out[2] = Vec4{r.q[4], r.q[5], l * inv_theta + s, r.te};
  out[3] = Vec4{r.lo[0], r.lo[1], r.lo[2], relative_reach2(r.m, l)};
  out[4] = Vec4{r.hi[0], r.hi[1], r.hi[2], 0.0f};
}

}  // namespace orrery
