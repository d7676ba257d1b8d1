// The Simulation's double precision (--precision double): the passes over the double state, the
// rule for what may run in double, and the double state's seeding, copies and step.
#include <vector>

#include "../backend/backend.h"
#include "../backend/double_backend.h"
#include "orrery/input.h"
#include "orrery/simulation.h"

namespace orrery {

// The same passes over the double state (no fused launch, no collision stage: check_precision).
class Simulation::DoublePasses final : public StepPasses {
 public:
  explicit DoublePasses(Simulation& s) : m_s(s), m_b(*s.m_double) {}
  void kick(double h) override {
    m_s.m_phases->begin(Phase::integrate);
    m_b.kick(h);
  }
  void drift(Slot from, Slot to, double h) override {
    m_s.m_phases->begin(Phase::integrate);
    m_b.drift(at(from), at(to), h);
    m_t[int(to)] = m_t[int(from)] + h;
  }
  void forces(Slot at) override {
    m_s.before_evaluation(m_t[int(at)]);
    m_s.m_phases->begin(Phase::force);
    m_s.m_solver->accelerations_double(this->at(at), m_b.acc(), m_b.size(), m_s.m_params);
    ++m_s.m_last_evals;
  }
  bool forces_kept() const override { return m_s.m_acc_double_valid; }
  void force_euler(double dt, float damping) override {
    forces(Slot::in);
    m_s.m_phases->begin(Phase::integrate);
    m_b.euler(m_b.pos(), m_b.next(), dt, damping);
  }
  void collide() override {}
  void coast(double dt, float damping) override {
    m_s.m_phases->begin(Phase::integrate);
    if (damping < 1.0f) {
      m_b.zero_acc();
      m_b.euler(m_b.pos(), m_b.next(), dt, damping);
    } else {
      m_b.drift(m_b.pos(), m_b.next(), dt);
    }
  }

 private:
  Vec4d* at(Slot s) const { return s == Slot::in ? m_b.pos() : m_b.next(); }
  Simulation& m_s;
  DoubleBackend& m_b;
  double m_t[2] = {0.0, 0.0};  // each slot's time from the step's start
};

void check_precision(const std::string& solver, bool has_double, const SimParams& p) {
  if (p.precision != Precision::double_) return;
  if (!has_double)
    throw InputError(solver +
                     " has no double-precision path (a tree's approximation errs far above "
                     "float's rounding); use --precision single, or one of " +
                     double_solver_names());
  if (p.collisions.mode != CollisionMode::off || p.collisions.box != 0.0f)
    throw InputError(
        "collisions and walls run in single precision only; use --precision "
        "single, or --collisions off and --box 0");
}

void check_precision(const Solver& solver, const SimParams& p) {
  check_precision(solver.name(), solver.has_double(), p);
}

void Simulation::set_exact_state(const BodyState& s) {
  if (!is_double() || s.pos64.size() != s.pos.size() || s.vel64.size() != s.vel.size() ||
      s.pos.empty())
    return;
  // Doubles that no longer round to the floats (a caller scaled or edited these) are stale.
  const auto rounds_to = [](const Vec4d& d, const Vec4& f) {
    const Vec4 r = to_float(d);
    return r.x == f.x && r.y == f.y && r.z == f.z && r.w == f.w;
  };
  for (std::size_t i = 0; i < s.pos.size(); ++i)
    if (!rounds_to(s.pos64[i], s.pos[i]) || !rounds_to(s.vel64[i], s.vel[i])) return;
  if (!m_double || m_double->on_device() != m_backend->on_device())
    m_double = make_double_backend(m_backend->on_device());
  m_double->upload(s.pos64.data(), s.vel64.data(), s.size());
  m_double_held = true;
  m_acc_double_valid = false;
}

void Simulation::exact_state(BodyState& s) {
  if (!is_double()) return;
  if (m_double_held && m_double->size() == s.size())
    m_double->download(s.pos64, s.vel64);
  else  // none held yet: the next step widens these same floats
    widen_to_doubles(s);
}

DoubleBackend& Simulation::hold_double(const Bodies& b) {
  if (!m_double || m_double->on_device() != m_backend->on_device())
    m_double = make_double_backend(m_backend->on_device()), m_double_held = false;
  if (!m_double_held || m_double->size() != b.n) {
    m_double->widen(b.pos, b.vel, b.n);
    m_double_held = true;
    m_acc_double_valid = false;
  }
  return *m_double;
}

void Simulation::step_once_double() {
  DoublePasses passes(*this);
  DoubleBackend& d = *m_double;
  m_last_evals = 0;
  const double planned = begin_step(passes, nullptr, nullptr, d.size());
  const double h = until_stop(planned);
  const double dt = m_reversed ? -h : h;
  if (!m_params.gravity) {  // no forces: the integrator's coast
    m_scheme->coast(passes, dt, m_params);
    m_acc_double_valid = false;
  } else {
    m_acc_double_valid = m_scheme->step(passes, dt, m_params);
  }
  end_step(planned, h, d.size());
  d.flip();
}

}  // namespace orrery
