// Private CUDA helpers of cuda-fast's double precision. Double precision has no hardware rsqrt:
// CUDA's rsqrt(double) is an estimate, several Newton steps and special cases. Here the estimate
// (rsqrt.approx.ftz.f64, good to about 2^-20) is refined once, to second order, in the force's own
// power: with e = 1 - r^2 y^2, r^-3 = y^3 (1 + 3/2 e + 15/8 e^2 + ...), whose first dropped term
// is about 2 e^3, 1e-18.
#pragma once

#include "orrery/physics.h"

namespace orrery {

__device__ __forceinline__ double rsqrt_estimate(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}

// r^-3 of r2 > 0, to about 1e-18 relative.
__device__ __forceinline__ double inverse_cube(double r2) {
  const double y = rsqrt_estimate(r2);
  const double y2 = y * y;
  const double e = fma(-r2, y2, 1.0);
  const double u = fma(e, fma(e, 1.875, 1.5), 1.0);
  return u * (y2 * y);
}

// The interactions of cuda-fast's kernels in each precision: float's are physics.h's; double's
// use inverse_cube.
__device__ __forceinline__ void fast_body(const Vec4& pi, const Vec4& pj, float eps2, Vec3& a) {
  body_body(pi, pj, eps2, a);
}
__device__ __forceinline__ void fast_pair(const Vec4& pi, const Vec4& pj, float eps2, Vec3& ai,
                                          Vec3& aj) {
  body_pair(pi, pj, eps2, ai, aj);
}
__device__ __forceinline__ void fast_body(const Vec4d& pi, const Vec4d& pj, double eps2, Vec3d& a) {
  const double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
  const double s = pj.w * inverse_cube(fma(dz, dz, fma(dy, dy, fma(dx, dx, eps2))));
  a.x = fma(s, dx, a.x), a.y = fma(s, dy, a.y), a.z = fma(s, dz, a.z);
}
__device__ __forceinline__ void fast_pair(const Vec4d& pi, const Vec4d& pj, double eps2, Vec3d& ai,
                                          Vec3d& aj) {
  const double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
  const double g = inverse_cube(fma(dz, dz, fma(dy, dy, fma(dx, dx, eps2))));
  const double si = pj.w * g, sj = pi.w * g;
  ai.x = fma(si, dx, ai.x), ai.y = fma(si, dy, ai.y), ai.z = fma(si, dz, ai.z);
  aj.x = fma(-sj, dx, aj.x), aj.y = fma(-sj, dy, aj.y), aj.z = fma(-sj, dz, aj.z);
}

}  // namespace orrery
