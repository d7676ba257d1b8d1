// What shapes a run besides its bodies: the time, the steps, the solver, the integrator and the
// parameters, for an exact restart. A Simulation gives and takes one; snapshots (orrery/snapshot.h)
// carry one with their bodies.
#pragma once

#include <string>

#include "orrery/collisions.h"
#include "orrery/integrators.h"
#include "orrery/params.h"

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
};

}  // namespace orrery
