// The Simulation: the step over owned or lent arrays through the backend chosen for the gravity
// module's side, the integrator objects' passes, diagnostics, quantities, time and step count.
#include "orrery/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "../backend/backend.h"
#include "../backend/double_backend.h"

namespace orrery {

// The passes over one step's arrays of body type V (the run's precision); every stage a named
// phase. The float arrays alone have the fused launch and the collision stage (check_precision
// keeps a double run from asking for either).
template <class V>
class Simulation::PassesOf final : public Simulation::Passes {
 public:
  using Real = RealOf<V>;
  PassesOf(Simulation& s, ElementPasses<V>& ops, const V* in, V* out, V* vel, int& n)
      : m_s(s), m_b(ops), m_in(in), m_out(out), m_vel(vel), m_n(n) {}
  void kick(double h) override {
    m_s.m_phases->begin(Phase::integrate);
    m_b.kick(m_vel, m_b.acc(), m_n, static_cast<Real>(h));
  }
  void drift(Slot from, Slot to, double h) override {
    m_s.m_phases->begin(Phase::integrate);
    m_b.drift(at(from), at(to), m_vel, m_n, static_cast<Real>(h));
    m_t[int(to)] = m_t[int(from)] + h;
  }
  void forces(Slot at) override {
    m_s.before_evaluation(*this, m_t[int(at)]);
    m_s.m_phases->begin(Phase::force);
    accelerations(this->at(at), m_b.acc());
    m_s.m_eval_n = m_n;
    ++m_s.m_last_evals;
    if (at == Slot::in) m_fresh_in = true;
  }
  bool forces_kept() const override { return m_fresh_in || m_s.m_scheme->forces_kept(); }
  void force_euler(double dt, float damping) override {
    if constexpr (std::is_same_v<V, Vec4>) {
      Solver& g = *m_s.m_solver;
      if (g.has_fused_step() && !m_s.m_params.adaptive) {  // the seed's single launch
        m_s.m_phases->begin(Phase::force_integrate);
        SimParams p = m_s.m_params;
        p.dt = dt;
        count_sources(m_in);
        g.step(m_in, m_out, m_vel, m_n, p);
        ++m_s.m_last_evals;
        return;
      }
    }
    forces(Slot::in);
    m_s.m_phases->begin(Phase::integrate);
    m_b.euler(m_in, m_out, m_vel, m_b.acc(), m_n, static_cast<Real>(dt), damping);
  }
  void coast(double dt, float damping) override {
    m_s.m_phases->begin(Phase::integrate);
    if (damping < 1.0f) {
      m_b.zero(m_b.acc(), m_n);
      m_b.euler(m_in, m_out, m_vel, m_b.acc(), m_n, static_cast<Real>(dt), damping);
    } else {
      m_b.drift(m_in, m_out, m_vel, m_n, static_cast<Real>(dt));
    }
  }
  void collide() override {
    if constexpr (std::is_same_v<V, Vec4>) {
      const SimParams& p = m_s.m_params;
      if (p.collisions.mode == CollisionMode::off && p.collisions.box == 0.0f) return;
      const int before = m_n;
      m_n = m_s.collider().resolve(m_out, m_vel, m_n, p.collisions, p.gravity ? p.softening : 0.0f);
      if (m_n != before) {  // merged rows: what was kept is of other bodies
        m_s.m_known_evals = 0;
        m_s.m_sources_n = -1;
        m_s.m_scheme->bodies_changed(m_n);
      }
    }
  }

  double rate(bool start) override {
    return start ? m_b.relative_rate(m_b.acc(), nullptr, m_vel, m_n)
                 : m_b.relative_rate(m_b.acc(), m_b.prev_acc(), m_b.acc(), m_n);
  }
  void swap_acc() override { m_b.swap_acc(); }
  double total_mass() override { return m_b.total_mass(m_in, m_vel, m_n); }

 private:
  void count_sources(const V* pos) {
    m_s.aim_solver(m_n, [&] { return m_b.sources(pos, m_n); });
  }
  void accelerations(const V* pos, V* acc) {
    count_sources(pos);
    if constexpr (std::is_same_v<V, Vec4>)
      m_s.m_solver->accelerations(pos, acc, m_n, m_s.m_params);
    else
      m_s.m_solver->accelerations_double(pos, acc, m_n, m_s.m_params);
  }
  // The step writes only `out`: `in` is read, never written.
  V* at(Slot s) const { return s == Slot::in ? const_cast<V*>(m_in) : m_out; }
  Simulation& m_s;
  ElementPasses<V>& m_b;
  const V* m_in;
  V* m_out;
  V* m_vel;
  int& m_n;
  double m_t[2] = {0.0, 0.0};  // each slot's time from the step's start
  bool m_fresh_in = false;     // acc holds the forces of `in`, evaluated this step
};

Simulation::Simulation(std::unique_ptr<Solver> solver, Integrator integrator,
                       const SimParams& params)
    : m_solver(std::move(solver)),
      m_backend(make_backend(m_solver->on_device())),
      m_integrator(integrator),
      m_scheme(make_scheme(integrator)),
      m_params(params) {
  check(integrator, params, false);
  attach_phases(true);
}

Simulation::Simulation(const BodyState& state, std::unique_ptr<Solver> solver,
                       Integrator integrator, const SimParams& params)
    : Simulation(std::move(solver), integrator, params) {
  set_state(state);
}

Simulation::~Simulation() = default;

bool Simulation::on_device() const { return m_backend->on_device(); }

void Simulation::check(Integrator integrator, const SimParams& params, bool reversed) const {
  validate(params);
  check_precision(*m_solver, params);
  check_integrator(integrator, params);
  if (reversed) check_reversible(integrator, params);
}

void Simulation::set_state(const BodyState& s) {
  const int before = m_own.n;
  m_own = m_backend->hold(s);
  if (s.size() != before) m_scheme->bodies_changed(s.size());
  m_double_held = false;
  if (!m_types.empty()) {  // the same bodies keep their labels, in their current order
    std::vector<std::uint8_t> types = this->types();
    std::vector<std::uint64_t> ids = this->ids();
    if (static_cast<int>(types.size()) != s.size()) types.clear(), ids.clear();
    m_types = std::move(types), m_ids = std::move(ids);
  }
  if (m_keep_rows) mark_rows(s.size());
  state_changed(Clock{});
  set_exact_state(s);
  if (m_collider) m_collider->reset_totals();
  m_totals_before = CollisionTotals{};
}

BodyState Simulation::state() { return state(m_own); }
void Simulation::state_into(BodyState& into) {
  m_backend->fetch(m_own, into);
  into.pos64.clear(), into.vel64.clear();  // a single-precision run has none
  exact_state(into);
}
BodyState Simulation::state(const Bodies& b) {
  BodyState s = m_backend->fetch(b);
  exact_state(s);
  return s;
}

// Gives the solver the phase timer, a new one when the module runs on the other side
// (CUDA events or the clock) than the timer, the old one's marks dropped.
void Simulation::attach_phases(bool fresh) {
  if (fresh || m_phases->on_device() != m_solver->on_device()) {
    if (m_phases && m_phases->pending()) m_phases->take();
    m_phases = std::make_unique<PhaseTimer>(m_solver->on_device());
  }
  m_solver->set_phases(m_phases.get());
}

void Simulation::set_solver(std::unique_ptr<Solver> solver) {
  check_precision(*solver, m_params);
  if (solver->on_device() != m_backend->on_device()) {
    std::unique_ptr<Backend> next = make_backend(solver->on_device());
    if (m_own.n > 0) {
      const BodyState s = m_backend->fetch(m_own);
      m_own = next->hold(s);
    }
    m_backend = std::move(next);
    if (m_double && m_double_held) {  // the double state moves too
      std::vector<Vec4d> pos, vel;
      m_double->download(pos, vel);
      m_double = make_double_backend(m_backend->on_device());
      m_double->upload(pos.data(), vel.data(), static_cast<int>(pos.size()));
    }
  }
  m_solver = std::move(solver);
  forget_forces();
  attach_phases(false);
}

void Simulation::set_integrator(Integrator integrator) {
  check(integrator, m_params, m_reversed);
  m_scheme = make_scheme(integrator);
  m_integrator = integrator;
}

void Simulation::set_params(const SimParams& params) {
  check(m_integrator, params, m_reversed);
  if (params.softening != m_params.softening || params.gravity != m_params.gravity ||
      params.theta != m_params.theta || params.precision != m_params.precision)
    forget_forces();
  // From single: the double state is widened from the float view at the next step.
  if (params.precision != m_params.precision) m_double_held = false;
  if (params.adaptive && !m_params.adaptive) m_dt_next = 0.0;  // estimated at the next step
  m_dt_next = std::min(m_dt_next, static_cast<double>(params.dt));
  m_params = params;
}

void Simulation::set_time_reversed(bool reversed) {
  if (reversed) check_reversible(m_integrator, m_params);
  m_reversed = reversed;
}

void Simulation::mark_rows(int n) {
  m_keep_rows = true;
  m_rows.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) m_rows[static_cast<std::size_t>(i)] = i;
  if (m_collider) m_collider->set_rows(&m_rows);
}

void Simulation::set_labels(std::vector<std::uint8_t> types, std::vector<std::uint64_t> ids) {
  if (types.size() != ids.size())
    throw std::invalid_argument("Simulation::set_labels: " + std::to_string(types.size()) +
                                " types and " + std::to_string(ids.size()) + " IDs");
  const int n = static_cast<int>(types.size());
  m_types = std::move(types), m_ids = std::move(ids);
  if (n > 0) mark_rows(n);
}

std::vector<std::uint8_t> Simulation::types() const { return follow_rows(m_types); }
std::vector<std::uint64_t> Simulation::ids() const { return follow_rows(m_ids); }

void Simulation::state_changed() {
  forget_forces();
  m_double_held = false;
  m_dt_next = 0.0;
  m_total_mass = -1.0;
  m_sources_n = -1;
}

void Simulation::state_changed(const Clock& clock) {
  state_changed();
  m_floor_hits = 0;
  m_time = clock.time;
  m_steps = clock.steps;
}

Collider& Simulation::collider() {
  const bool dev = m_backend->on_device();
  if (!m_collider || m_collider->on_device() != dev) {
    if (m_collider) m_totals_before.add(m_collider->totals());  // this run's, across the change
    m_collider = m_backend->on_device() ? make_device_collider() : make_host_collider();
  }
  m_collider->set_phases(m_phases.get());
  m_collider->set_rows(m_keep_rows ? &m_rows : nullptr);
  return *m_collider;
}

template <class V>
bool Simulation::step_once(ElementPasses<V>& ops, const V* in, V* out, V* vel, int& n) {
  using Real = RealOf<V>;
  PassesOf<V> passes(*this, ops, in, out, vel, n);
  recall(ops, n);
  m_last_evals = 0;
  // The passes step by Real(h): the time and the evaluations' times count that.
  const double planned = static_cast<Real>(begin_step(passes));
  const double h = static_cast<Real>(until_stop(planned));
  const Real dt = static_cast<Real>(m_reversed ? -h : h);
  if (h > 0.0 && m_time + dt == m_time) return false;  // step() says why
  if (!m_params.gravity) {  // no forces: the integrator's coast
    m_scheme->coast(passes, dt, m_params);
    passes.collide();
    m_scheme->forget();
  } else {
    m_scheme->step(passes, dt, m_params);
  }
  end_step(passes, planned, h);
  return true;
}

void Simulation::step(int k, Bodies& b) {
  if (k < 1) return;
  if (b.n < 1) throw std::invalid_argument("the simulation has no bodies");
  if (b.on_device != m_backend->on_device())
    throw std::logic_error("Simulation::step: the arrays are not on the solver's side");
  m_backend->reserve(b.n);
  // Fixed steps: the clock counts them from where this step size began (origin + count x dt),
  // so ten steps of 0.1 are 1 however the calls split them; anything else that set the time
  // starts a new count.
  const double signed_step = m_reversed ? -fixed_step() : fixed_step();
  if (signed_step != m_clock.step || m_time != m_clock.last)
    m_clock = FixedClock{m_time, 0, signed_step, m_time};

  int done = 0;
  bool moves = true;  // the clock still moves by a step
  // A step that throws (out of memory in a tree build) leaves the state as it was before it: the
  // positions it read are untouched, and the velocities it kicked in place come back from a copy
  // (host memory only: the device's allocations are made before a step).
  const bool host = !m_backend->on_device();
  std::exception_ptr failed;
  const auto guarded = [&](auto* vel, auto& kept, int& n, auto&& one_step) {
    int n_step = n;  // the bodies at the failing step's start (merges before it shrank them)
    try {
      for (; done < k && !at_stop(); ++done) {
        n_step = n;
        if (host) kept.assign(vel, vel + n);
        if (!(moves = one_step())) break;
      }
    } catch (...) {
      failed = std::current_exception();
      if (host && static_cast<int>(kept.size()) == n_step) {
        std::copy(kept.begin(), kept.end(), vel);
        n = n_step;
      }
    }
  };
  if (is_double()) {
    DoubleBackend& d = hold_double(b);
    int n = d.size();
    guarded(d.vel(), m_vel64_kept, n, [&] {
      int m = d.size();
      const bool moved = step_once(d, d.pos(), d.next(), d.vel(), m);
      if (moved) d.flip();
      return moved;
    });
    m_phases->begin(Phase::integrate);  // the float view
    d.narrow(b.next, b.vel);
    b.flip();
  } else {
    guarded(b.vel, m_vel_kept, b.n, [&] {
      const bool moved = step_once(*m_backend, b.pos, b.next, b.vel, b.n);
      if (moved) b.flip();
      return moved;
    });
  }
  m_phases->end();
  m_steps += done;
  // Fixed steps: the steps taken at once (the adaptive ones add their own as they go). A fixed
  // step that cannot move the clock cannot from the first step on: none was taken then.
  if (!m_params.adaptive && done > 0) {
    m_clock.count += done;
    m_time = m_clock.origin + static_cast<double>(m_clock.count) * signed_step;
    m_clock.last = m_time;
  }
  if (failed) {
    forget_forces();  // the failed step's forces were of positions it did not keep
    std::rethrow_exception(failed);
  }
  if (!moves) throw_clock_stopped(done);
}

void Simulation::throw_clock_stopped(int done) const {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "the clock cannot advance: at t = %.17g a step of %g leaves the time unchanged "
                "(a double holds about 16 digits), so the steps would not follow the dynamics; "
                "stopped after %d step(s) of this call. Start the run from a smaller time, or "
                "use a larger step",
                m_time, next_dt(), done);
  throw std::runtime_error(buf);
}

std::vector<Contact> Simulation::contacts(const Bodies& b) {
  return collider().find_contacts(b.pos, b.vel, b.n);
}

double Simulation::interactions_per_step(int n) const {
  if (!m_params.gravity) return 0.0;
  const int evals = m_last_evals > 0 ? m_last_evals : force_evaluations(m_integrator);
  return evals * m_solver->interactions(n);
}

}  // namespace orrery
