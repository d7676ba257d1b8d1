// Private: constructors of the CUDA solvers, for the factory (compiled only with CUDA).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "orrery/solver.h"

namespace orrery {
std::unique_ptr<Solver> make_cuda_dynamic_solver(int block_size);
std::unique_ptr<Solver> make_cuda_static_solver(int block_size);
std::unique_ptr<Solver> make_cuda_bh_solver(int block_size);
// White-box tests of cuda-bh: a frontier of `frontier` entries a level per warp (so that groups
// outgrow it and go to the retry pass), and the groups retried so far by a cuda-bh solver.
std::unique_ptr<Solver> make_cuda_bh_solver_with_frontier(int frontier);
int cuda_bh_retried(const Solver& s);

// Where a run-time number becomes a template argument: calls f(std::integral_constant<int, V>{})
// for the V of Values that equals `value`; false when none does.
template <int... Values, class F>
bool with_constant(int value, F&& f) {
  return ((value == Values && (f(std::integral_constant<int, Values>{}), true)) || ...);
}

// A block size as a template argument; any other size throws "<who> has no kernel for block
// size <block>".
template <int... Sizes, class F>
void with_block_size(int block, const char* who, F&& f) {
  if (!with_constant<Sizes...>(block, f))
    throw std::invalid_argument(std::string(who) + " has no kernel for block size " +
                                std::to_string(block));
}
}  // namespace orrery
