// Private: constructors of the CUDA solvers, for the factory (compiled only with CUDA).
#pragma once

#include <memory>

#include "orrery/solver.h"

namespace orrery {
std::unique_ptr<Solver> make_cuda_dynamic_solver(int block_size);
std::unique_ptr<Solver> make_cuda_static_solver(int block_size);
std::unique_ptr<Solver> make_cuda_bh_solver(int block_size);
// White-box tests of cuda-bh: a frontier of `frontier` entries a level per warp (so that groups
// outgrow it and go to the retry pass), and the groups retried so far by a cuda-bh solver.
std::unique_ptr<Solver> make_cuda_bh_solver_with_frontier(int frontier);
int cuda_bh_retried(const Solver& s);
}  // namespace orrery
