// The integrators' names and rules, and their element-wise passes on host arrays.
#include "orrery/integrators.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "orrery/input.h"
#include "stage_ops.h"

namespace orrery {

const std::vector<std::string>& integrator_names() {
  static const std::vector<std::string> names = {"euler", "leapfrog", "yoshida4"};
  return names;
}

Integrator parse_integrator(const std::string& name) {
  const auto& n = integrator_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<Integrator>(i);
  throw InputError("unknown integrator '" + name + "' (choose euler, leapfrog or yoshida4)");
}

const char* to_string(Integrator i) { return integrator_names()[static_cast<int>(i)].c_str(); }

int force_evaluations(Integrator i) { return i == Integrator::yoshida4 ? 3 : 1; }

void check_integrator(Integrator i, const SimParams& p) {
  if (i != Integrator::euler && p.damping != 1.0f)
    throw InputError(std::string(to_string(i)) +
                     " takes no damping (it is symplectic and time-reversible only without it); "
                     "use --damping 1 or --integrator euler");
}

void check_reversible(Integrator i, const SimParams& p) {
  if (p.adaptive)
    throw InputError(
        "time cannot run backwards with the adaptive step (--dt auto): each step's "
        "size comes from the state before it, so the steps back would not retrace "
        "the steps forward; use a fixed --dt");
  if (p.collisions.mode == CollisionMode::merge)
    throw InputError("time cannot run backwards while bodies merge (a merge loses what reversal "
                     "needs); use --collisions bounce or off");
  if (i == Integrator::euler && p.damping < 1.0f)
    throw InputError("time cannot run backwards with euler and damping " +
                     std::to_string(p.damping).substr(0, 4) +
                     " < 1 (damping loses what reversal needs); use leapfrog or yoshida4, or "
                     "damping 1");
}

namespace {

class Euler final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::euler; }
  bool step(StepPasses& s, double dt, const SimParams& p) const override {
    s.force_euler(dt, p.damping);
    s.collide();
    return false;
  }
};

// Kick dt/2, drift dt, (collisions), kick dt/2; the last kick's forces are the next step's first.
class Leapfrog final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::leapfrog; }
  bool step(StepPasses& s, double dt, const SimParams&) const override {
    if (!s.forces_kept()) s.forces(Slot::in);
    s.kick(0.5 * dt);
    s.drift(Slot::in, Slot::out, dt);
    s.collide();
    s.forces(Slot::out);
    s.kick(0.5 * dt);
    return true;
  }
};

// Three drift-kick-drift leapfrogs of w1 dt, w0 dt, w1 dt.
class Yoshida4 final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::yoshida4; }
  bool step(StepPasses& s, double dt, const SimParams&) const override {
    const double w1 = yoshida_w1(), w0 = yoshida_w0();
    const double d1 = 0.5 * w1 * dt, d2 = 0.5 * (w0 + w1) * dt;
    s.drift(Slot::in, Slot::out, d1);
    s.forces(Slot::out);
    s.kick(w1 * dt);
    s.drift(Slot::out, Slot::out, d2);
    s.forces(Slot::out);
    s.kick(w0 * dt);
    s.drift(Slot::out, Slot::out, d2);
    s.forces(Slot::out);
    s.kick(w1 * dt);
    s.drift(Slot::out, Slot::out, d1);
    s.collide();
    return false;
  }
};

}  // namespace

std::unique_ptr<IntegratorScheme> make_scheme(Integrator i) {
  switch (i) {
    case Integrator::euler:
      return std::make_unique<Euler>();
    case Integrator::leapfrog:
      return std::make_unique<Leapfrog>();
    case Integrator::yoshida4:
      return std::make_unique<Yoshida4>();
  }
  throw std::logic_error("make_scheme: unknown integrator");
}

double yoshida_w1() { return 1.0 / (2.0 - std::cbrt(2.0)); }
double yoshida_w0() { return -std::cbrt(2.0) * yoshida_w1(); }

void host_zero(Vec4* a, int n) { std::fill(a, a + n, Vec4{0.0f, 0.0f, 0.0f, 0.0f}); }

void host_kick(Vec4* vel, const Vec4* acc, int n, float h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i) {
    vel[i].x += acc[i].x * h;
    vel[i].y += acc[i].y * h;
    vel[i].z += acc[i].z * h;
  }
}

void host_drift(const Vec4* in, Vec4* out, const Vec4* vel, int n, float h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i)
    out[i] = Vec4{in[i].x + vel[i].x * h, in[i].y + vel[i].y * h, in[i].z + vel[i].z * h, in[i].w};
}

void host_euler(const Vec4* in, Vec4* out, Vec4* vel, const Vec4* acc, int n, float dt,
                float damping) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i)
    integrate(in[i], out[i], vel[i], Vec3{acc[i].x, acc[i].y, acc[i].z}, dt, damping);
}

}  // namespace orrery
