// Private: the adaptive step's measure of how fast the state changes (docs/physics.md, "Adaptive
// time step"), for both body types and both sides: rate = max_i |a_i - b_i| / (|c_i| + mean_k
// |c_k|), summed in double. With c = a and b the last evaluation's accelerations it is the
// relative change of the forces over the time between the two evaluations; with b absent and
// c the velocities, the rate at which the forces change the velocities (the first step's).
#pragma once

#include <cmath>

#include "orrery/physics.h"
#include "stage_ops.h"

namespace orrery {

template <class V>
ORRERY_HD double norm3(const V& v) {
  const double x = v.x, y = v.y, z = v.z;
  return sqrt(x * x + y * y + z * z);
}

// Body i's term: |a_i - b_i| / (|c_i| + mean); 0 where a_i = b_i (no change, whatever c is), and
// +inf where the change meets a zero scale.
template <class V>
ORRERY_HD double rate_term(const V* a, const V* b, const V* c, int i, double mean) {
  const V d = b ? V{a[i].x - b[i].x, a[i].y - b[i].y, a[i].z - b[i].z, 0} : a[i];
  const double num = norm3(d);
  if (num == 0.0) return 0.0;
  const double den = norm3(c[i]) + mean;
  return den > 0.0 ? num / den : HUGE_VAL;
}

// The host's pass (b may be null: zeros).
template <class V>
double host_relative_rate(const V* a, const V* b, const V* c, int n) {
  if (n <= 0) return 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += norm3(c[i]);
  const double mean = sum / n;
  double rate = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = rate_term(a, b, c, i, mean);
    if (t != t) return t;  // a non-finite state has no step to give
    if (t > rate) rate = t;
  }
  return rate;
}

}  // namespace orrery
