// The time integrators, as a registry of records (REBOUND's struct reb_integrator): the seed's
// damped Euler, leapfrog (kick-drift-kick) and Yoshida's fourth-order composition of leapfrog. Each
// record says what the integrator is and accepts; its scheme steps over the passes a Simulation
// (orrery/simulation.h) gives it, whatever the solver and wherever the arrays live. A new
// integrator is its scheme's file in src/sim/integrate/ and one row in integrators.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/param_table.h"
#include "orrery/params.h"

namespace orrery {

// An integrator's number: its row in the registry, and what Orrery snapshots store (so a number is
// never reused).
enum class Integrator { euler, leapfrog, yoshida4 };
class IntegratorScheme;

struct IntegratorInfo {
  Integrator id;
  const char* name;
  const char* description;  // one sentence, for --help, the panel and Python
  int order;                // of the error per unit time
  // Force passes a step costs while forces are kept (leapfrog: its last kick's forces are the
  // next step's first; 2 on a step after a change of state).
  int force_evaluations;
  bool time_symmetric;  // a step back retraces a step forward (to rounding)
  // The integrator-owned parameter rows it reads (param_table.h); it refuses the others away from
  // their defaults, saying why (`refuses_why`).
  std::vector<std::string> takes;
  const char* refuses_why;
  std::unique_ptr<IntegratorScheme> (*make)();
  bool takes_param(std::string_view row) const;
};

// Every integrator, in the order of their numbers.
const std::vector<IntegratorInfo>& integrator_table();
// The names of the integrators that take an integrator-owned row (taking), or that refuse it.
std::vector<std::string> integrators_taking(const ParamRow& row, bool taking);
const IntegratorInfo& integrator_info(Integrator i);

const std::vector<std::string>& integrator_names();
// Throws InputError naming the valid integrators.
Integrator parse_integrator(const std::string& name);
const char* to_string(Integrator i);
// Force evaluations a step costs (IntegratorInfo::force_evaluations).
int force_evaluations(Integrator i);
// Throws InputError with one line when the integrator refuses the parameters: an integrator-owned
// row it does not take, away from its default ("leapfrog takes no damping (...)").
void check_integrator(Integrator i, const SimParams& p);

// Throws InputError when time cannot run backwards under this integrator and parameters: an
// integrator-owned row away from its default (euler's damping loses what reversal needs), merges,
// and the adaptive step (not time-symmetric).
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
  // Whether acc holds the forces of the step's input positions (the integrator kept them from the
  // last step, or the adaptive step evaluated them for its estimate).
  virtual bool forces_kept() const = 0;
  // Forces and the seed's damped Euler in -> out: the module's fused launch where it has one.
  virtual void force_euler(double dt, float damping) = 0;
  // The collision stage on the newest positions (out, after the last drift).
  virtual void collide() = 0;
  // No forces (gravity off): in -> out along the velocities, which `damping` < 1 damps.
  virtual void coast(double dt, float damping) = 0;
};

// One integrator, made per Simulation (IntegratorInfo::make): a step in -> out of signed dt, and
// the state it keeps between steps (leapfrog's: that its last kick's forces are the next step's
// first), which the Simulation tells it to drop when the bodies, their forces or the precision
// change, and when bodies are added or removed.
class IntegratorScheme {
 public:
  virtual ~IntegratorScheme() = default;
  virtual Integrator kind() const = 0;
  virtual void step(StepPasses& s, double dt, const SimParams& p) = 0;
  // A step with gravity off: a drift (an integrator that damps damps it too). No forces are left.
  virtual void coast(StepPasses& s, double dt, const SimParams&) { s.coast(dt, 1.0f); }
  // Whether the passes' accelerations hold the forces of the newest positions, kept for the next
  // step.
  virtual bool forces_kept() const { return false; }
  // Whether its adaptive step plans the next step from two steps' evaluations (one evaluation a
  // step: euler), so that a restart needs the earlier one (RunState::last_acc).
  virtual bool plans_across_steps() const { return false; }
  // The reset: what it keeps is no longer true of the state.
  virtual void forget() {}
  // Bodies were added or removed (merges; a new state of another size): n are left.
  virtual void bodies_changed(int n) {
    (void)n;
    forget();
  }
};
std::unique_ptr<IntegratorScheme> make_scheme(Integrator i);

// Yoshida (1990): the weights of the three leapfrog substeps, w1 = 1 / (2 - 2^(1/3)) and
// w0 = -2^(1/3) w1 (w1, w0, w1 sum to 1).
double yoshida_w1();
double yoshida_w0();

}  // namespace orrery
