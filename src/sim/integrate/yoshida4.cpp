// Yoshida's (1990) fourth-order integrator: three drift-kick-drift leapfrogs of w1 dt, w0 dt, w1
// dt.
#include <cmath>

#include "schemes.h"

namespace orrery {
namespace {

class Yoshida4 final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::yoshida4; }
  void step(StepPasses& s, double dt, const SimParams&) override {
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
  }
};

}  // namespace

std::unique_ptr<IntegratorScheme> make_yoshida4() { return std::make_unique<Yoshida4>(); }

double yoshida_w1() { return 1.0 / (2.0 - std::cbrt(2.0)); }
double yoshida_w0() { return -std::cbrt(2.0) * yoshida_w1(); }

}  // namespace orrery
