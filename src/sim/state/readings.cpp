// The Simulation's readings of a state, not timed as steps: per-body quantities and fields, one
// body, the centre of mass, the finite check and the diagnostics.
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

#include "../backend/backend.h"
#include "../backend/double_backend.h"
#include "orrery/simulation.h"

namespace orrery {
namespace {

Vec3d vec(const double (&v)[3]) { return Vec3d{v[0], v[1], v[2]}; }

Vec3d centre(const Sums& s) {
  return s.mass > 0 ? Vec3d{s.mr[0] / s.mass, s.mr[1] / s.mass, s.mr[2] / s.mass} : Vec3d{};
}
}  // namespace

namespace {
// The solver's own phase marks (tree codes) stay out of the step's while it works for
// something other than a step.
struct PhasesOff {
  Solver& g;
  PhaseTimer* timer;
  PhasesOff(Solver& solver, PhaseTimer* t) : g(solver), timer(t) { g.set_phases(nullptr); }
  ~PhasesOff() { g.set_phases(timer); }
};
}  // namespace

void Simulation::quantity(Quantity q, const Bodies& b, float* out) {
  const int n = b.n;
  if (n <= 0) return;
  m_backend->reserve(n);
  Backend& be = *m_backend;
  switch (q) {
    case Quantity::speed:
      return be.speeds(b.vel, n, out);
    case Quantity::mass:
      return be.masses(b.pos, n, out);
    case Quantity::density:
      return be.density(b.pos, n, out);
    case Quantity::acceleration:
    case Quantity::potential: {
      PhasesOff off(*m_solver, m_phases.get());
      aim_solver(n, [&] { return be.sources(b.pos, n); });
      if (q == Quantity::potential) {
        m_solver->potentials(b.pos, be.pot(), n, m_params);
        be.depths(be.pot(), n, out);
      } else if (!m_params.gravity) {
        be.zero(be.pot(), n);
        be.magnitudes(be.pot(), n, out);
      } else if (float_forces_kept()) {
        be.magnitudes(be.acc(), n, out);
      } else {
        aim_solver(n, [&] { return be.sources(b.pos, n); });
        m_solver->accelerations(b.pos, be.pot(), n, m_params);
        be.magnitudes(be.pot(), n, out);
      }
      return;
    }
    case Quantity::origin:
      break;
  }
  throw std::logic_error("Simulation::quantity: origin is a label the caller keeps");
}

void Simulation::quantity_to_host(Quantity q, const Bodies& b, float* out, int stride) {
  if (b.n <= 0) return;
  stride = std::max(stride, 1);
  float* values = m_backend->float_scratch(b.n);
  quantity(q, b, values);
  m_backend->fetch(values, out, (b.n + stride - 1) / stride, stride);
}

std::vector<Vec4> Simulation::field_to_host(Field f, const Bodies& b) {
  std::vector<Vec4> out(static_cast<std::size_t>(std::max(b.n, 0)), Vec4{0, 0, 0, 0});
  if (b.n <= 0) return out;
  m_backend->reserve(b.n);
  Backend& be = *m_backend;
  const Vec4* src = be.pot();
  {
    PhasesOff off(*m_solver, m_phases.get());
    aim_solver(b.n, [&] { return be.sources(b.pos, b.n); });
    if (f == Field::potential) {
      if (m_params.gravity)
        m_solver->potentials(b.pos, be.pot(), b.n, m_params);
      else
        be.zero(be.pot(), b.n);
    } else if (!m_params.gravity) {
      be.zero(be.pot(), b.n);
    } else if (float_forces_kept()) {
      src = be.acc();
    } else {
      m_solver->accelerations(b.pos, be.pot(), b.n, m_params);
    }
  }
  be.fetch(reinterpret_cast<const float*>(src), reinterpret_cast<float*>(out.data()), 4 * b.n);
  return out;
}

Simulation::BodyReading Simulation::read_body(const Bodies& b, int i) {
  if (i < 0 || i >= b.n)
    throw std::out_of_range("Simulation::read_body: no body " + std::to_string(i));
  m_backend->reserve(b.n);
  BodyReading r;
  m_backend->read_body(b.pos, b.vel, i, r.pos, r.vel);
  r.acc = m_backend->body_acceleration(b.pos, b.n, i, m_params.softening);
  return r;
}

Vec3d Simulation::centre_of_mass(const Bodies& b) {
  return centre(m_backend->sums(b.pos, b.vel, nullptr, b.n));
}

std::vector<Vec4> Simulation::sample_positions(const Bodies& b, std::size_t max) {
  if (b.n <= 0 || max == 0) return {};
  const int stride = static_cast<int>((static_cast<std::size_t>(b.n) + max - 1) / max);
  std::vector<Vec4> out((static_cast<std::size_t>(b.n) + stride - 1) / stride);
  m_backend->read_positions(b.pos, b.n, stride, out.data());
  return out;
}

long long Simulation::first_nonfinite(const Bodies& b) {
  return m_backend->first_nonfinite(b.pos, b.vel, b.n);
}

Diagnostics Simulation::measure(const Bodies& b) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n = b.n;
  const Vec4 *pos = b.pos, *vel = b.vel;
  m_backend->reserve(n);
  Backend& be = *m_backend;
  m_phases->begin(Phase::diagnostics);
  Sums s;
  std::optional<double> pair;
  if (m_params.gravity && m_solver->all_pairs() && !is_double())
    pair = be.pair_potential_energy(pos, n, m_params.softening);
  if (is_double()) {  // the run's own state, its energy summed in double
    DoubleBackend& d = hold_double(b);
    s = d.sums();
    if (m_params.gravity) s.potential2 = 2.0 * d.potential_energy(m_params.softening);
  } else if (!m_params.gravity) {  // no potential energy
    s = be.sums(pos, vel, nullptr, n);
  } else if (pair) {
    s = be.sums(pos, vel, nullptr, n);
    s.potential2 = 2.0 * *pair;
  } else {
    aim_solver(n, [&] { return be.sources(pos, n); });
    m_solver->potentials(pos, be.pot(), n, m_params);
    s = be.sums(pos, vel, be.pot(), n);
  }
  m_phases->end();
  Diagnostics d;
  d.mass = s.mass;
  d.kinetic = s.kinetic;
  d.potential = 0.5 * s.potential2;
  d.momentum = vec(s.p);
  d.angular_momentum = vec(s.l);
  d.centre_of_mass = centre(s);
  d.momentum_scale = s.momentum_scale;
  d.bodies = n;
  d.energy_offset = collision_totals().energy_offset;
  d.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return d;
}

}  // namespace orrery
