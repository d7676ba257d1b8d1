// Private: constructors of the CUDA solvers, for the factory (compiled only with CUDA).
#pragma once

#include <memory>

#include "orrery/solver.h"

namespace orrery {
std::unique_ptr<Solver> make_cuda_dynamic_solver(int block_size);
std::unique_ptr<Solver> make_cuda_static_solver(int block_size);
std::unique_ptr<Solver> make_cuda_bh_solver(int block_size);
}  // namespace orrery
