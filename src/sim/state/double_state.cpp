// The Simulation's double precision (--precision double): the rule for what may run in double, and
// the double state's seeding and copies (simulation.cpp steps it, as it steps the float arrays).
#include <vector>

#include "../backend/backend.h"
#include "../backend/double_backend.h"
#include "orrery/input.h"
#include "orrery/simulation.h"

namespace orrery {

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
  m_scheme->forget();
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
    m_scheme->forget();
  }
  return *m_double;
}

}  // namespace orrery
