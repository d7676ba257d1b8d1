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
  bool pairs = false;         // visit each pair once, force to both bodies (splits unused)
};

const std::vector<int>& fast_block_sizes();
const std::vector<int>& fast_bodies_per_thread();
std::string to_string(const FastConfig& c);
// The pair-mode configurations that have kernels.
const std::vector<FastConfig>& fast_pair_configs();
// Elements of the device buffer `partial` that launch_fast needs for c at n bodies.
std::size_t fast_partial_size(const FastConfig& c, int n);

// One step (or, with n_j < n, a cheaper stand-in used only for timing: a step over the truncated
// j-range [0, n_j), or in pair mode a step of the first n_j bodies alone).
// partial: device buffer of at least fast_partial_size(c, n) elements. With acc_out, no step:
// acc_out[i] = (the acceleration of body i, 0) (pos_out and vel unused).
void launch_fast(const FastConfig& c, const Vec4* pos_in, Vec4* pos_out, Vec4* vel, Vec4* partial,
                 int n, int n_j, const SimParams& p, Vec4* acc_out = nullptr);
// The forces of one part of a step's work added into acc (a part of the rows: bodies [first,
// end) summed over all n; in pair mode a part of the tile pairs, whose forces land on both
// tiles' bodies). acc is zeroed by the caller before the first part.
void launch_fast_part(const FastConfig& c, const Vec4* pos, Vec4* acc, Vec4* partial, int n,
                      Part part, const SimParams& p);

// Pair mode: acc[i] = the acceleration of body i (acc is zeroed first). Defined in
// cuda_fast_pairs.cu. It needs one block per pair of tiles, at most k_max_grid_x of them.
constexpr long long k_max_grid_x = 2147483647LL;
long long fast_pair_blocks(int n, int tile);
void launch_pairs(const FastConfig& c, const Vec4* pos, Vec4* acc, int n, float eps2);
// Blocks [first, end) of that grid alone, added into acc (not zeroed here).
void launch_pairs_part(const FastConfig& c, const Vec4* pos, Vec4* acc, int n, float eps2,
                       long long first, long long end);

// Double precision (cuda_fast_double.cu): the configurations with a kernel (block and bodies per
// thread; no splits, no pair mode), and acc[i] = (the acceleration of body i, 0) summed over
// bodies [0, n_j) (n_j < n: the autotuner's timed stand-in).
const std::vector<FastConfig>& fast_double_configs();
// Pair mode in double (cuda_fast_pairs.cu): acc is zeroed, then every pair's force added to both.
const std::vector<FastConfig>& fast_pair_double_configs();
void launch_pairs_double(const FastConfig& c, const Vec4d* pos, Vec4d* acc, int n, double eps2);
void launch_fast_double(const FastConfig& c, const Vec4d* pos, Vec4d* acc, int n, int n_j,
                        double eps2);

// The configurations worth timing for n bodies on sm_count multiprocessors; block 0 = any.
std::vector<FastConfig> fast_candidates(int n, int sm_count, int block);

// Builds the solver; block 0 lets the autotuner choose the block size too. With `forced`, no
// autotuning: that configuration is used as given (tests).
std::unique_ptr<Solver> make_cuda_fast_solver(int block, const FastConfig* forced = nullptr);

}  // namespace orrery
