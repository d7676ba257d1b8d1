// The panel's readouts that the App fills from the run: the collision stage's counts, the
// diagnostics' drifts, and the phases' timings.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app.h"

namespace orrery::app {

void App::fill_collisions() {
  ui::CollisionReadout& out = m_shown.readouts.collisions;
  out.bodies = m_run->count();
  const CollisionParams& c = m_run->params().collisions;
  if (c.mode == CollisionMode::off && c.box == 0.0f) return;
  const CollisionTotals t = m_run->collision_totals();
  const long long steps = m_run->step_count();
  if (steps < m_shown.collision_steps || t.contacts < m_shown.collision_contacts)  // a reset since
    m_shown.collision_steps = 0, m_shown.collision_contacts = 0;
  if (steps > m_shown.collision_steps)
    out.contacts_per_step = static_cast<double>(t.contacts - m_shown.collision_contacts) /
                            static_cast<double>(steps - m_shown.collision_steps);
  m_shown.collision_steps = steps;
  m_shown.collision_contacts = t.contacts;
  out.merges = t.merges;
  out.wall_hits = t.wall_hits;
  out.energy_offset = t.energy_offset;
}

// The newest diagnostics reading and the drifts since the first, for the panel.
void App::fill_diagnostics() {
  ui::DiagnosticsReadout& out = m_shown.readouts.diagnostics;
  const auto& history = m_run->diagnostics_history();
  const auto& start = m_run->diagnostics_start();
  out.available = start.has_value() && !history.empty();
  if (!out.available) {
    out.energy.clear();
    out.momentum_history.clear();
    out.angular.clear();
    out.virial_history.clear();
    return;
  }
  if (history.size() == out.energy.size() && out.step == history.back().step) return;
  const DiagnosticsSample& now = history.back();
  const Diagnostics& d = now.d;
  out.step = now.step;
  out.time = now.time;
  out.time_text = time_text(m_run->units(), now.time);
  out.length_unit = length_name(m_run->units());
  out.kinetic = d.kinetic;
  out.potential = d.potential;
  out.total = d.total();
  out.virial = d.virial();
  const Vec3d* v[3] = {&d.momentum, &d.angular_momentum, &d.centre_of_mass};
  double* o[3] = {out.momentum, out.angular_momentum, out.centre_of_mass};
  for (int k = 0; k < 3; ++k) o[k][0] = v[k]->x, o[k][1] = v[k]->y, o[k][2] = v[k]->z;
  const Drift dr = drift(start->d, d);
  out.energy_drift = dr.energy;
  out.momentum_drift = dr.momentum;
  out.angular_momentum_drift = dr.angular_momentum;
  out.energy.clear();
  out.momentum_history.clear();
  out.angular.clear();
  out.virial_history.clear();
  for (const DiagnosticsSample& s : history) {
    const Drift x = drift(start->d, s.d);
    out.energy.push_back(static_cast<float>(x.energy));
    out.momentum_history.push_back(static_cast<float>(x.momentum));
    out.angular.push_back(static_cast<float>(x.angular_momentum));
    out.virial_history.push_back(static_cast<float>(s.d.virial()));
  }
  // The cost: the diagnostics phase when it was timed with the steps (CUDA events), else the
  // reading's own clock (CPU: measured on the worker thread, nothing else in it).
  out.cost_from_events = m_run->timed_with_events();
  if (!out.cost_from_events) {
    out.cost_ms = d.ms;
    m_shown.diag_total_ms += d.ms;
    ++m_shown.diag_readings;
  }
}

// This frame's phases (the steps' from the Simulation, read a frame late on the GPU), with draw and
// UI.
void App::record_phases(float ui_ms) {
  const std::optional<PhaseTimes>& t = m_run->last_phases();
  ui::PhaseFrame f;
  if (t) {
    f.force = static_cast<float>((*t)[Phase::force]);
    f.integrate = static_cast<float>((*t)[Phase::integrate]);
    f.force_integrate = static_cast<float>((*t)[Phase::force_integrate]);
    f.diagnostics = static_cast<float>((*t)[Phase::diagnostics]);
    f.tree = static_cast<float>((*t)[Phase::bounds] + (*t)[Phase::sort] + (*t)[Phase::build] +
                                (*t)[Phase::moments]);
    f.walk = static_cast<float>((*t)[Phase::walk]);
    f.collide =
        static_cast<float>((*t)[Phase::grid] + (*t)[Phase::contacts] + (*t)[Phase::resolve]);
    if (f.diagnostics > 0.0f && m_run->timed_with_events()) {
      m_shown.readouts.diagnostics.cost_ms = f.diagnostics;
      m_shown.diag_total_ms += f.diagnostics;
      ++m_shown.diag_readings;
    }
  }
  f.draw =
      std::max(m_display.draw_timer.last_ms(), 0.0f) + std::max(m_shown.readouts.splat_ms, 0.0f);
  f.ui = ui_ms;
  m_shown.readouts.phases_from_events = m_run->timed_with_events();
  std::vector<ui::PhaseFrame>& h = m_shown.readouts.phases;
  if (h.size() >= k_phase_frames) h.erase(h.begin());
  h.push_back(f);
}

// A non-finite state pauses the run with one line naming the step, and the panel offers Reset.

}  // namespace orrery::app
