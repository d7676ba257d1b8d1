// The time integrators: the seed's damped Euler, leapfrog (kick-drift-kick) and Yoshida's
// fourth-order composition of leapfrog. Each is an object that steps over the passes a Simulation
// (orrery/simulation.h) gives it, whatever the solver and wherever the arrays live.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "orrery/solver.h"

namespace orrery {

enum class Integrator { euler, leapfrog, yoshida4 };

const std::vector<std::string>& integrator_names();
// Throws InputError naming the valid integrators.
Integrator parse_integrator(const std::string& name);
const char* to_string(Integrator i);
// Force evaluations a step costs: euler 1, leapfrog 1 (kick-drift-kick: the last kick's forces
// are the next step's first, kept by the Simulation; 2 on a step after a change of state), yoshida4 3
// (drift-kick-drift form).
int force_evaluations(Integrator i);
// Throws InputError with one line when the integrator refuses the parameters: the symplectic ones
// take no damping (they are symplectic and time-reversible only without it).
void check_integrator(Integrator i, const SimParams& p);

// Throws InputError when time cannot run backwards under this integrator and parameters (the
// damped Euler and merges lose what reversal needs; the adaptive step is not time-symmetric).
void check_reversible(Integrator i, const SimParams& p);

// The two position arrays of a step: the positions it starts from and those it writes.
enum class Slot { in, out };

// The passes an integrator steps with, over one step's arrays (the Simulation gives them, in the
// run's precision: the integrators never see the arrays or their type).
class StepPasses {
 public:
  virtual ~StepPasses() = default;
  // vel += acc h (acc: the forces of the last forces() call).
  virtual void kick(double h) = 0;
  // to = from + vel h; to may be from.
  virtual void drift(Slot from, Slot to, double h) = 0;
  // acc = the accelerations at the positions of `at` (one force evaluation).
  virtual void forces(Slot at) = 0;
  // Whether acc holds the forces of the step's input positions (kept from the last step).
  virtual bool forces_kept() const = 0;
  // Forces and the seed's damped Euler in -> out: the module's fused launch where it has one.
  virtual void force_euler(double dt, float damping) = 0;
  // The collision stage on the newest positions (out, after the last drift).
  virtual void collide() = 0;
};

// One integrator: a step in -> out of signed dt; returns whether acc ends holding the forces of
// `out` (the next step's first kick may use them).
class IntegratorScheme {
 public:
  virtual ~IntegratorScheme() = default;
  virtual Integrator kind() const = 0;
  virtual bool step(StepPasses& s, double dt, const SimParams& p) const = 0;
};
std::unique_ptr<IntegratorScheme> make_scheme(Integrator i);

// Yoshida (1990): the weights of the three leapfrog substeps, w1 = 1 / (2 - 2^(1/3)) and
// w0 = -2^(1/3) w1 (w1, w0, w1 sum to 1).
double yoshida_w1();
double yoshida_w0();

}  // namespace orrery
