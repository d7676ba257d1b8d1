// What shapes a run besides its bodies: the time, the steps, the solver, the integrator and the
// parameters, for an exact restart. A Simulation gives and takes one; snapshots (orrery/snapshot.h)
// carry one with their bodies.
#pragma once

#include <string>
#include <vector>

#include "orrery/collisions.h"
#include "orrery/integrators.h"
#include "orrery/params.h"
#include "orrery/physics.h"
#include "orrery/units.h"

namespace orrery {

struct RunState {
  double time = 0;      // simulation time
  long long steps = 0;  // steps taken
  std::string solver;   // the solver's registry name; empty: not recorded
  int block = 0;        // its block size (0: its default)
  Integrator integrator = Integrator::euler;
  SimParams params;
  bool time_reversed = false;
  CollisionTotals totals;  // the energy offset and the counts so far
  double next_dt = 0;      // the adaptive step's next size (0: estimated from the state)
  // The adaptive step's memory, where the integrator plans the next step by comparing a step's
  // force evaluation with the step before's (euler): that earlier evaluation's time and
  // accelerations, in the run's precision (last_acc, or last_acc64 for a double run). Empty: none
  // kept (the first step after a restart then keeps its planned size).
  double last_eval_time = 0;
  std::vector<Vec4> last_acc;
  std::vector<Vec4d> last_acc64;
  bool has_memory() const;
  // The units of the state's numbers (the engine's velocities and times are in G = 1 units of
  // them): from the file or the preset, kept through every save.
  UnitSystem units;
};

}  // namespace orrery
