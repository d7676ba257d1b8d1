// Private: one module spread over several GPUs of this host (--gpus). The state stays on GPU 0,
// where the Simulation, the collision stage, the diagnostics and the viewer have it. Every pass,
// GPU 0's positions go to every GPU (ncclBroadcast), each GPU adds the forces of its part of the
// work (Solver::accelerations_part) into zeroed accelerations with its own copy of the module
// (the tree codes build the whole tree on each and walk their part), and the GPUs' accelerations
// come back summed into GPU 0's (ncclReduce). The parts follow the measured times.
#pragma once

#include <memory>
#include <vector>

#include "orrery/solver.h"

namespace orrery {

// The work in `parts` equal parts: parts + 1 cuts from 0 to 1.
std::vector<double> even_cuts(int parts);

// The cuts for the next pass: each moved halfway toward where every part would have taken the
// same time, given each part's measured time ms at the current cuts (the time of a part taken as
// spread evenly over it). Unchanged when a time is missing (not > 0, or not finite) or the sizes
// do not match.
std::vector<double> balance_cuts(const std::vector<double>& cuts, const std::vector<double>& ms);

// `info`'s module (block as make_solver takes it) on GPUs 0 .. gpus-1, through NCCL. Throws
// std::runtime_error when NCCL cannot be opened or set up.
std::unique_ptr<Solver> make_spread_solver(const SolverInfo& info, int block, int gpus);

}  // namespace orrery
