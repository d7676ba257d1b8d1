// Private: the configurations and launcher of the `cuda-fast` kernels (no CUDA types), for the
// solver, its autotuner and white-box tests.
#pragma once

#include <string>
#include <vector>

#include "orrery/solver.h"

namespace orrery {

struct FastConfig {
  int block = 256;            // threads per block = bodies per shared-memory tile
  int bodies_per_thread = 1;  // i-bodies each thread accumulates (one tile load feeds them all)
  int splits = 1;             // blocks sharing one body's j-range; > 1 adds a reduce kernel
};

const std::vector<int>& fast_block_sizes();
const std::vector<int>& fast_bodies_per_thread();
std::string to_string(const FastConfig& c);

// One step (or, with n_j < n, a step over the truncated j-range [0, n_j), used for timing only).
// partial: device buffer of at least c.splits * n elements when c.splits > 1, else unused.
void launch_fast(const FastConfig& c, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                 int n, int n_j, const SimParams& p);

// The configurations worth timing for n bodies on sm_count multiprocessors; block 0 = any.
std::vector<FastConfig> fast_candidates(int n, int sm_count, int block);

// Builds the solver; block 0 lets the autotuner choose the block size too. With `forced`, no
// autotuning: that configuration is used as given (tests).
std::unique_ptr<Solver> make_cuda_fast_solver(int block, const FastConfig* forced = nullptr);

}  // namespace orrery
