// Leapfrog, kick-drift-kick: second order and time-symmetric. The last kick's forces are the next
// step's first, so a step costs one force pass.
#include "schemes.h"

namespace orrery {
namespace {

class Leapfrog final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::leapfrog; }
  void step(StepPasses& s, double dt, const SimParams&) override {
    if (!s.forces_kept()) s.forces(Slot::in);
    s.kick(0.5 * dt);
    s.drift(Slot::in, Slot::out, dt);
    s.collide();
    s.forces(Slot::out);
    s.kick(0.5 * dt);
    m_kept = true;
  }
  bool forces_kept() const override { return m_kept; }
  void forget() override { m_kept = false; }

 private:
  bool m_kept = false;  // the last kick's forces are those of the newest positions
};

}  // namespace

std::unique_ptr<IntegratorScheme> make_leapfrog() { return std::make_unique<Leapfrog>(); }

}  // namespace orrery
