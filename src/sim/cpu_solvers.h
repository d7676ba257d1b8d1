// Private: constructors of the CPU solvers, for the factory.
#pragma once

#include <memory>

#include "orrery/solver.h"

namespace orrery {

// The all-pairs acceleration of body i (self term included: zero, no branch), summed in order.
inline Vec3 all_pairs_acceleration(const Vec4* pos, int n, int i, float eps2) {
  const Vec4 pi = pos[i];
  Vec3 acc{0.0f, 0.0f, 0.0f};
  for (int j = 0; j < n; ++j) body_body(pi, pos[j], eps2, acc);
  return acc;
}

std::unique_ptr<Solver> make_cpu_solver();
std::unique_ptr<Solver> make_cpu_omp_solver();
}  // namespace orrery
