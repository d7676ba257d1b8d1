// Private: one module spread over several GPUs of this host (--gpus). The state stays on GPU 0,
// where the Simulation, the collision stage, the diagnostics and the viewer have it. Every pass,
// GPU 0's positions go to every GPU (ncclBroadcast), each GPU sums the forces on its part of the
// bodies with its own copy of the module (the tree codes build the whole tree on each, walk their
// part), and the parts' accelerations come back summed into GPU 0's (ncclReduce: every body is
// written by one GPU, the others hold 0 there). The parts follow the measured times.
#pragma once

#include <memory>
#include <vector>

#include "orrery/solver.h"

namespace orrery {

// n bodies in `parts` parts as even as can be: parts + 1 cuts from 0 to n.
std::vector<int> even_cuts(int n, int parts);

// The cuts for the next pass: each moved halfway toward where every part would have taken the
// same time, given each part's measured time ms at the current cuts (the time of a part taken as
// spread evenly over its bodies). Unchanged when a time is missing (not > 0, or not finite) or
// the sizes do not match.
std::vector<int> balance_cuts(const std::vector<int>& cuts, const std::vector<double>& ms);

// `info`'s module (block as make_solver takes it) on GPUs 0 .. gpus-1, through NCCL. Throws
// std::runtime_error when NCCL cannot be opened or set up.
std::unique_ptr<Solver> make_spread_solver(const SolverInfo& info, int block, int gpus);

}  // namespace orrery
