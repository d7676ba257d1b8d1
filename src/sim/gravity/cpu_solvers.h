// Private: the all-pairs sums on the host and the constructors of the CPU solvers, for the
// registry.
#pragma once

#include <memory>

#include "orrery/solver.h"

namespace orrery {

// Whether the next `bodies` bodies may go ahead under the control (if any): counts them as done,
// unless the run was cancelled. Every CPU module's per-body (or per-block) loops ask it.
inline bool proceed(StepControl* control, int bodies = 1) {
  if (!control) return true;
  if (control->cancel.load(std::memory_order_relaxed)) return false;
  control->bodies_done.fetch_add(bodies, std::memory_order_relaxed);
  return true;
}

// The all-pairs acceleration of body i from bodies [0, sources) (self term included: zero, no
// branch), summed in order.
inline Vec3 all_pairs_acceleration(const Vec4* pos, int sources, int i, float eps2) {
  const Vec4 pi = pos[i];
  Vec3 acc{0.0f, 0.0f, 0.0f};
  for (int j = 0; j < sources; ++j) body_body(pi, pos[j], eps2, acc);
  return acc;
}

// Each body's softened potential, out[i] = (0, 0, 0, phi_i), summed in double on the host (OpenMP
// over bodies). With a control: progress per body, and a cancelled run stops early.
void host_potentials(const Vec4* pos, Vec4* out, int n, float softening, StepControl* control);

std::unique_ptr<Solver> make_cpu_solver(int block_size);
std::unique_ptr<Solver> make_cpu_omp_solver(int block_size);
std::unique_ptr<Solver> make_cpu_bh_solver(int block_size);
}  // namespace orrery
