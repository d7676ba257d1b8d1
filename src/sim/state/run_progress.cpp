// The Simulation's run as a snapshot records it and as another Simulation of the same run
// continues it: the clock, the direction of time, the adaptive step's progress, the collision
// totals and the rows that carry the labels.
#include <algorithm>

#include "../backend/backend.h"
#include "../backend/double_backend.h"
#include "orrery/collisions.h"
#include "orrery/simulation.h"

namespace orrery {

RunState Simulation::run_state() {
  RunState r;
  r.time = m_time;
  r.steps = m_steps;
  r.solver = m_solver->name();
  r.integrator = m_integrator;
  r.params = m_params;
  r.time_reversed = m_reversed;
  r.totals = collision_totals();
  r.next_dt = m_params.adaptive ? m_dt_next : 0.0;
  r.units = m_units;
  if (!m_memory.empty() || !m_memory64.empty()) {  // restored, not yet stepped
    r.last_eval_time = m_memory_time;
    r.last_acc = m_memory, r.last_acc64 = m_memory64;
  } else if (m_params.adaptive && m_params.gravity && m_scheme->plans_across_steps() &&
             m_known_evals >= 1 && m_eval_n > 0) {
    r.last_eval_time = m_eval_time;
    const auto n = static_cast<std::size_t>(m_eval_n);
    if (is_double() && m_double && m_double_held) {
      r.last_acc64.resize(n);
      m_double->to_host(m_double->acc(), r.last_acc64.data(), m_eval_n);
    } else if (!is_double()) {
      m_backend->reserve(m_eval_n);
      r.last_acc.resize(n);
      m_backend->to_host(m_backend->acc(), r.last_acc.data(), m_eval_n);
    }
  }
  return r;
}

void Simulation::resume(const RunState& r) {
  m_time = r.time;
  m_steps = r.steps;
  m_reversed = r.time_reversed;
  m_dt_next = r.next_dt > 0.0 ? std::min(r.next_dt, static_cast<double>(m_params.dt)) : 0.0;
  m_memory_time = r.last_eval_time;
  m_memory = r.last_acc, m_memory64 = r.last_acc64;
  m_units = r.units;
  if (m_collider) m_collider->reset_totals();
  m_totals_before = r.totals;
}

void Simulation::follow(Simulation& other) {
  if (&other == this) return;
  m_time = other.m_time;
  m_steps = other.m_steps;
  m_reversed = other.m_reversed;
  m_dt_next = std::min(other.m_dt_next, static_cast<double>(m_params.dt));
  m_last_dt = other.m_last_dt;
  m_floor_hits = other.m_floor_hits;
  m_last_evals = other.m_last_evals;
  m_totals_before = other.collision_totals();
  if (m_collider) m_collider->reset_totals();
  m_rows = other.m_rows;
  m_keep_rows = other.m_keep_rows;
  m_types = other.m_types;
  m_ids = other.m_ids;
  m_units = other.m_units;
  if (m_collider) m_collider->set_rows(m_keep_rows ? &m_rows : nullptr);
}

CollisionTotals Simulation::collision_totals() {
  CollisionTotals t = m_totals_before;
  if (m_collider) t.add(m_collider->totals());
  return t;
}

}  // namespace orrery
