// orrery-bench's measurements: timed runs of each solver and the --compare check against `cpu`.
#pragma once

#include <string>
#include <vector>

#include "options.h"

namespace orrery::bench {

struct TimingResult {
  std::string solver, config;
  int n = 0;
  int block = 0;  // 0 for CPU solvers (shown as "-")
  int steps = 0, warmup = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // NaN when no timed step ran
  bool finite = true;                            // the state stayed finite over the run
  long long nonfinite_step = 0;  // the first step (1-based, warm-ups counted) that left a
                                 // non-finite position or velocity; the run stopped there
  long long nonfinite_body = -1;

  // N^2 interactions per step (NVIDIA's convention), per second at the median step time.
  double interactions_per_s() const;
  double gflops() const;  // at k_flops_per_interaction
};

struct CompareResult {
  std::string solver, config;
  int n = 0;
  int block = 0;
  int steps = 0;
  double pos_error = 0, vel_error = 0;  // max_relative_error against `cpu`
  std::string problem;  // why no comparison was possible (a non-finite state), else empty
  bool pass() const { return problem.empty() && pos_error <= k_compare_tolerance; }
};

// Receives each result as soon as it exists, and lines about runs that were skipped.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void note(const std::string& line) = 0;
  virtual void timing(const TimingResult& r) = 0;
  virtual void compare(const CompareResult& r) = 0;
};

// Times every (N, solver, block) of the plan: warm-up steps, then the median of timed steps.
std::vector<TimingResult> run_timing(const Plan& plan, Reporter& out);
// Runs every selected solver other than `cpu` and `cpu` from the same state for
// k_compare_steps steps at each N up to plan.cpu_max_n.
std::vector<CompareResult> run_compare(const Plan& plan, Reporter& out);

}  // namespace orrery::bench
