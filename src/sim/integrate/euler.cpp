// The seed's damped semi-implicit Euler: v <- damping (v + a dt), x <- x + v dt, through the
// module's fused force + Euler launch where it has one.
#include "schemes.h"

namespace orrery {
namespace {

class Euler final : public IntegratorScheme {
 public:
  Integrator kind() const override { return Integrator::euler; }
  void step(StepPasses& s, double dt, const SimParams& p) override {
    s.force_euler(dt, p.damping);
    s.collide();
  }
  bool plans_across_steps() const override { return true; }
  // With gravity off its damping still acts.
  void coast(StepPasses& s, double dt, const SimParams& p) override { s.coast(dt, p.damping); }
};

}  // namespace

std::unique_ptr<IntegratorScheme> make_euler() { return std::make_unique<Euler>(); }

}  // namespace orrery
