// Private: constructors of the CPU solvers, for the factory.
#pragma once

#include <memory>

#include "orrery/solver.h"

namespace orrery {
std::unique_ptr<Solver> make_cpu_solver();
std::unique_ptr<Solver> make_cpu_omp_solver();
}  // namespace orrery
