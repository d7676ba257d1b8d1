// The Simulation's adaptive step (--dt auto): each step's size from the forces' rate of change,
// measured between the last two force evaluations. docs/physics.md says why this criterion.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "../backend/double_backend.h"
#include "../backend/element_passes.h"
#include "orrery/simulation.h"

namespace orrery {

double Simulation::fixed_step() const {
  return is_double() ? m_params.dt : static_cast<double>(static_cast<float>(m_params.dt));
}

double Simulation::next_dt() const {
  if (!m_params.adaptive) return fixed_step();
  return m_dt_next > 0.0 ? m_dt_next : m_params.dt;
}

void Simulation::forget_forces() {
  m_scheme->forget();
  m_known_evals = 0;
  m_memory.clear(), m_memory64.clear();
}

template <class V>
void Simulation::recall(ElementPasses<V>& ops, int n) {
  auto& memory = [&]() -> std::vector<V>& {
    if constexpr (std::is_same_v<V, Vec4>)
      return m_memory;
    else
      return m_memory64;
  }();
  if (memory.empty()) return;
  if (static_cast<int>(memory.size()) == n && m_params.adaptive) {
    ops.from_host(memory.data(), ops.acc(), n);
    m_eval_time = m_memory_time;
    m_known_evals = 1;
    m_eval_n = n;
  }
  m_memory.clear(), m_memory64.clear();
}
template void Simulation::recall(ElementPasses<Vec4>&, int);
template void Simulation::recall(ElementPasses<Vec4d>&, int);

bool Simulation::float_forces_kept() const { return !is_double() && m_scheme->forces_kept(); }

void Simulation::before_evaluation(Passes& passes, double offset) {
  if (!m_params.adaptive) return;
  passes.swap_acc();
  m_prev_eval_time = m_eval_time;
  m_eval_time = m_time + offset;
  m_known_evals = std::min(m_known_evals + 1, 2);
}

double Simulation::until_stop(double planned) const {
  return m_params.adaptive && m_stop ? std::min(planned, *m_stop - m_time) : planned;
}

// The criterion's step within its bounds: at most the largest; at least eta over the fastest
// frequency of a softened field, sqrt(G M / eps^3) (the harmonic core of all the mass within one
// softening length) - without it, a body whose acceleration passes through zero (two bodies
// through each other's core) would shrink the step by eta at every step: its relative change is 2
// whatever the step; and below the counted floor, k_min_dt_fraction of the largest, the floor.
double Simulation::bounded_step(double h) {
  const double dt_max = m_params.dt, floor = k_min_dt_fraction * dt_max;
  const double eps = m_params.softening;
  const double core =
      m_total_mass > 0.0 ? m_params.eta * std::sqrt(eps * eps * eps / m_total_mass) : 0.0;
  h = std::min(std::max(h, core), dt_max);
  if (h < floor) h = floor, ++m_floor_hits;
  return h;
}

double Simulation::begin_step(Passes& passes) {
  const double dt_max = m_params.dt;
  if (!m_params.adaptive) return dt_max;
  if (!m_params.gravity) return m_dt_next = dt_max;  // no forces to follow
  if (m_total_mass < 0.0)                            // merges keep the total: measured once a state
    m_total_mass = passes.total_mass();
  if (m_dt_next > 0.0) return m_dt_next;
  // The first step: how soon the forces change the velocities by their own size (plus the mean),
  // from the forces at the start, which the step then keeps.
  if (!passes.forces_kept()) passes.forces(Slot::in);
  const double rate = passes.rate(true);
  double h = dt_max;
  if (std::isinf(rate))
    h = m_params.eta * dt_max;  // every body at rest: nothing yet says how fast things will go
  else if (rate > 0.0)
    h = m_params.eta / rate;
  else if (std::isnan(rate))
    h = 0.0;  // a non-finite state: the finite checks report it
  return m_dt_next = bounded_step(h);
}

void Simulation::end_step(Passes& passes, double planned, double h) {
  m_last_dt = h;
  if (!m_params.adaptive) return;
  m_time += m_reversed ? -h : h;
  if (!m_params.gravity) return;
  // A step shortened to land on the stop time keeps the plan: its evaluations are too close
  // together to measure by.
  if (h < planned) return;
  // Without two evaluations at different times (euler's first step, a merge) the step stays.
  double next = planned;
  if (m_known_evals >= 2 && m_eval_time != m_prev_eval_time) {
    const double rate = passes.rate(false);
    const double gap = std::fabs(m_eval_time - m_prev_eval_time);
    if (std::isnan(rate))
      next = 0.0;  // a non-finite state: the finite checks report it
    else
      next = rate > 0.0 ? m_params.eta * gap / rate : m_params.dt;
  }
  m_dt_next = bounded_step(std::min(next, 2.0 * planned));
}

}  // namespace orrery
