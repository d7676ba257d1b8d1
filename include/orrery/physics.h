// The physics shared by every solver: one body-body interaction and the integration step.
#pragma once

#include <cmath>
#include <type_traits>

#if defined(__CUDACC__)
#define ORRERY_HD __host__ __device__ __forceinline__
#else
#define ORRERY_HD inline
#endif

namespace orrery {

// An axis-aligned box: a tree cell's bounds, the walls' cube.
struct Aabb {
  float lo[3], hi[3];
};

// Same layout as CUDA's float4 (16 bytes, 16-byte aligned): x, y, z and w. For positions w is the
// mass; for velocities w is unused (kept so both arrays share one layout and one load width).
struct alignas(16) Vec4 {
  float x, y, z, w;
};

struct Vec3 {
  float x, y, z;
};

// A body in double precision (--precision double): the same fields as Vec4 in doubles.
struct alignas(32) Vec4d {
  double x, y, z, w;
};

struct Vec3d {
  double x = 0, y = 0, z = 0;
};

// Flops per interaction used to turn interactions/s into GFLOP/s (NVIDIA's nbody sample
// convention).
constexpr double k_flops_per_interaction = 20.0;

// 1 / sqrt(v) in float or double; on the device, the hardware's reciprocal square root.
template <class T>
ORRERY_HD T reciprocal_sqrt(T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>)
    return rsqrtf(v);
  else
    return rsqrt(v);
#else
  return T(1) / std::sqrt(v);
#endif
}

// A body in the other precision: widened exactly, or rounded to float.
ORRERY_HD Vec4d to_double(const Vec4& v) { return Vec4d{v.x, v.y, v.z, v.w}; }
ORRERY_HD Vec4 to_float(const Vec4d& v) {
  return Vec4{float(v.x), float(v.y), float(v.z), float(v.w)};
}

// A body type's number and acceleration types: float and Vec3 for Vec4, double and Vec3d for
// Vec4d.
template <class V>
struct BodyTypes {
  using real = float;
  using acc = Vec3;
};
template <>
struct BodyTypes<Vec4d> {
  using real = double;
  using acc = Vec3d;
};
template <class V>
using RealOf = typename BodyTypes<V>::real;
template <class V>
using AccOf = typename BodyTypes<V>::acc;

// Adds to acc the acceleration body j exerts on body i (G = 1), in the bodies' precision (Vec4
// and Vec3, or Vec4d and Vec3d):
//   a += m_j r_ij / (|r_ij|^2 + eps^2)^(3/2),  r_ij = x_j - x_i.
// With eps2 > 0 the self term (i == j) contributes exactly zero, so callers never branch on it.
template <class V, class A>
ORRERY_HD void body_body(const V& pi, const V& pj, RealOf<V> eps2, A& acc) {
  using R = RealOf<V>;
  const R rx = pj.x - pi.x;
  const R ry = pj.y - pi.y;
  const R rz = pj.z - pi.z;
  // eps^2 first, so the sum is one chain of three fused multiply-adds.
  const R dist2 = eps2 + rx * rx + ry * ry + rz * rz;
  const R inv = reciprocal_sqrt(dist2);
  const R s = pj.w * inv * (inv * inv);
  acc.x += rx * s;
  acc.y += ry * s;
  acc.z += rz * s;
}

// The same interaction applied to both bodies of a pair (Newton's third law), for solvers that
// visit each pair once: acc_i gets m_j r_ij s, acc_j gets -m_i r_ij s, s = (|r_ij|^2 +
// eps^2)^(-3/2).
ORRERY_HD void body_pair(const Vec4& pi, const Vec4& pj, float eps2, Vec3& acc_i, Vec3& acc_j) {
  const float rx = pj.x - pi.x;
  const float ry = pj.y - pi.y;
  const float rz = pj.z - pi.z;
  const float dist2 = eps2 + rx * rx + ry * ry + rz * rz;
  const float inv = reciprocal_sqrt(dist2);
  const float inv3 = inv * (inv * inv);
  const float si = pj.w * inv3;
  const float sj = pi.w * inv3;
  acc_i.x += rx * si;
  acc_i.y += ry * si;
  acc_i.z += rz * si;
  acc_j.x -= rx * sj;
  acc_j.y -= ry * sj;
  acc_j.z -= rz * sj;
}

// The seed's damped semi-implicit Euler: v <- damping * (v + a dt); x <- x + v dt. Mass (w) kept.
// In the bodies' precision (acc: any type with x, y, z).
template <class V, class A>
ORRERY_HD void integrate(const V& pos_in, V& pos_out, V& vel, const A& acc, RealOf<V> dt,
                         RealOf<V> damping) {
  vel.x = damping * (vel.x + acc.x * dt);
  vel.y = damping * (vel.y + acc.y * dt);
  vel.z = damping * (vel.z + acc.z * dt);
  pos_out.x = pos_in.x + vel.x * dt;
  pos_out.y = pos_in.y + vel.y * dt;
  pos_out.z = pos_in.z + vel.z * dt;
  pos_out.w = pos_in.w;
}

}  // namespace orrery
