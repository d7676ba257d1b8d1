// orrery-bench's measurements: timed runs of each solver through the step pipeline, the --compare
// check against `cpu`, and the --max-n search.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "options.h"
#include "orrery/accuracy.h"
#include "orrery/phases.h"
#include "orrery/simulation.h"

namespace orrery::bench {

// The plan's preset at n bodies (or the loaded snapshot's bodies), with --radius applied.
BodyState bench_state(const Plan& plan, int n);

// --decompose: the plan's one cpu-bh run over the MPI ranks this process is one of (mpirun);
// rank 0 prints its table. Returns the exit status (decomposed.cpp; a build without MPI throws
// UsageError).
int run_decomposed(const Plan& plan);

struct TimingResult {
  std::string solver, config;
  std::string integrator = "euler";
  float swept = NAN;  // the sweep row's value (theta); NaN for a solver that does not read it
  int n = 0;
  int block = 0;  // 0 for CPU solvers (shown as "-")
  int gpus = 1;   // the GPUs the solver was spread over (1: one GPU, or the CPU)
  int steps = 0, warmup = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // NaN when no timed step ran
  // The median of each phase over the timed steps (ms; 0 for phases the run has not).
  std::array<double, k_phase_count> phase_ms{};
  // Body-body interactions per step, from the solver (all-pairs: N^2 per force
  // evaluation, NVIDIA's convention), times the integrator's force evaluations.
  double interactions = 0;
  bool finite = true;            // the state stayed finite over the run
  std::string output_error;      // why --save / --export-csv wrote nothing ("" when they did)
  long long nonfinite_step = 0;  // the first step (1-based, warm-ups counted) that left a
                                 // non-finite position or velocity; the run stopped there
  long long nonfinite_body = -1;
  std::string nonfinite_parts;  // what of that body: "its position and its velocity", "its radius"
  double nonfinite_dt = 0;      // the size of the step that did it
  // With collisions or walls: touching pairs found per step (warm-ups counted), and the bodies
  // left at the end (merges remove some); contacts_per_step < 0 without them.
  double contacts_per_step = -1;
  int bodies_end = 0;
  // With the adaptive step: the time the steps covered (warm-ups counted), what the next step
  // would be and how often the floor held. sim_time < 0 with fixed steps.
  double sim_time = -1, next_dt = 0;
  long long floor_hits = 0;
  // --diagnostics: before the warm-up and after the last step, and what the last reading cost
  // (the diagnostics phase: CUDA events on the GPU).
  std::optional<Diagnostics> start, end;
  double diagnostics_ms = NAN;
  // --trace: readings every plan.trace_every steps, warm-ups counted, from step 0.
  struct Reading {
    long long step;
    double time;
    Diagnostics d;
  };
  std::vector<Reading> trace;

  double interactions_per_s() const;  // at the median step time
  double gflops() const;              // at k_flops_per_interaction
};

struct CompareResult {
  std::string solver, config;
  int n = 0;
  int block = 0;
  int gpus = 1;
  int steps = 0;
  double pos_error = 0, vel_error = 0;  // max_relative_error against `cpu`
  std::string problem;  // why no comparison was possible (a non-finite state), else empty
  bool pass() const { return problem.empty() && pos_error <= k_compare_tolerance; }
};

// One solver's --max-n answer: the largest N found and its step time; the N that failed above.
struct MaxNResult {
  std::string solver, config;
  int block = 0;
  double fps = 0;
  int n = 0;           // 0 when even the smallest N tried is too slow
  double ms = 0;       // median ms per step at n
  int too_slow_n = 0;  // the smallest N measured too slow (0: the search hit the memory limit)
  double too_slow_ms = 0;
  std::string limit;  // why the search stopped growing N, when not speed (memory)
};

// One --convergence point: the relative position error after one period of the e = 0.5 Kepler
// orbit (two bodies, started at true anomaly 1 rad) with `steps` steps.
struct ConvergenceResult {
  std::string solver, integrator;
  int steps = 0;
  double dt = 0, error = 0;
};

// One --accuracy row.
struct AccuracyResult {
  std::string solver, config;
  std::string preset;
  int n = 0;
  float swept = NAN;  // as TimingResult's
  AccuracyStats stats;
};

// Receives each result as soon as it exists, and lines about runs that were skipped.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void note(const std::string& line) = 0;
  virtual void timing(const TimingResult& r) = 0;
  virtual void compare(const CompareResult& r) = 0;
  virtual void max_n(const MaxNResult& r) = 0;
  virtual void convergence(const ConvergenceResult& r) = 0;
  virtual void accuracy(const AccuracyResult& r) = 0;
};

// Times every (N, solver, block) of the plan: warm-up steps, then the median of timed steps.
std::vector<TimingResult> run_timing(const Plan& plan, Reporter& out);
// Runs every selected solver other than `cpu` and `cpu` from the same state for
// k_compare_steps steps at each N up to plan.cpu_max_n.
std::vector<CompareResult> run_compare(const Plan& plan, Reporter& out);
// Every selected solver at every N and (where it reads it) swept value: the relative acceleration
// error.
std::vector<AccuracyResult> run_accuracy(const Plan& plan, Reporter& out);
// Every integrator through every selected solver on the Kepler orbit, at 25 to 6400 steps a period.
std::vector<ConvergenceResult> run_convergence(const Plan& plan, Reporter& out);
// For each selected solver, the largest N whose median step takes at most 1/fps s.
std::vector<MaxNResult> run_max_n(const Plan& plan, Reporter& out);

}  // namespace orrery::bench
