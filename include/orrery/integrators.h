// The time integrators of the step pipeline: the seed's damped Euler, leapfrog (kick-drift-kick)
// and Yoshida's fourth-order composition of leapfrog. The System (orrery/system.h) runs them over
// any gravity module, on the host or the device.
#pragma once

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
// are the next step's first, kept by the System; 2 on a step after a change of state), yoshida4 3
// (drift-kick-drift form).
int force_evaluations(Integrator i);
// Throws InputError with one line when the integrator refuses the parameters: the symplectic ones
// take no damping (they are symplectic and time-reversible only without it).
void check_integrator(Integrator i, const SimParams& p);

// Yoshida (1990): the weights of the three leapfrog substeps, w1 = 1 / (2 - 2^(1/3)) and
// w0 = -2^(1/3) w1 (w1, w0, w1 sum to 1).
double yoshida_w1();
double yoshida_w0();

}  // namespace orrery
