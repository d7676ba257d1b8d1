// orrery-bench: times the solvers headless (no window) and checks them against `cpu` (--compare).
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <new>
#include <string>

#include "cli/launched_rank.h"
#include "options.h"
#include "orrery/param_table.h"
#include "orrery/simd.h"
#include "report.h"
#include "runs.h"
#include "stop.h"

namespace {

using namespace orrery::bench;

constexpr int k_exit_failure = 1;  // a run failed, or --compare found an error above tolerance
constexpr int k_exit_usage = 2;    // bad input

// Errors are printed as exactly one line (orrery/input.h's one_line).
void print_error(const std::string& what) {
  std::fprintf(stderr, "orrery-bench: error: %s\n", orrery::one_line(what).c_str());
}

// Writes one output file after the run; a failure is reported and makes the exit status 1, but
// the table is printed already and the other file is still written.
bool write_output(orrery::OutputFile& file, const std::function<void(orrery::OutputFile&)>& write) {
  if (!file.is_open()) return true;
  try {
    write(file);
    return true;
  } catch (const std::exception& e) {
    print_error(e.what());
    return false;
  }
}

int run(int argc, char** argv) {
  const std::optional<Plan> parsed = parse_command_line(argc, argv);
  if (!parsed) return 0;  // --help
  const Plan& plan = *parsed;
  catch_stop_signals();
  if (!plan.simd.empty()) orrery::use_simd_level(plan.simd);  // checked by the plan
  if (plan.decompose) return run_decomposed(plan);
  Outputs outputs = open_outputs(plan);  // before anything runs: a bad path costs no run
  print_header(stdout, plan);
  TableReporter table(stdout, plan);
  if (plan.accuracy) {
    const auto results = run_accuracy(plan, table);
    return write_output(outputs.csv, [&](auto& f) { write_accuracy_csv(f, results); })
               ? 0
               : k_exit_failure;
  }
  if (plan.convergence) {
    const auto results = run_convergence(plan, table);
    return write_output(outputs.csv, [&](auto& f) { write_convergence_csv(f, results); })
               ? 0
               : k_exit_failure;
  }
  if (plan.max_n_fps > 0) {
    const auto results = run_max_n(plan, table);
    bool written = write_output(outputs.csv, [&](auto& f) { write_max_n_csv(f, results); });
    written &= write_output(outputs.json, [&](auto& f) { write_json(f, plan, {}, {}, results); });
    return written ? 0 : k_exit_failure;
  }
  if (plan.compare) {
    const auto results = run_compare(plan, table);
    const auto failed = std::count_if(results.begin(), results.end(),
                                      [](const CompareResult& r) { return !r.pass(); });
    bool written = write_output(outputs.csv, [&](auto& f) { write_compare_csv(f, results); });
    written &= write_output(outputs.json, [&](auto& f) { write_json(f, plan, {}, results); });
    if (failed > 0) {
      char msg[160];
      std::snprintf(msg, sizeof msg,
                    "%ld of %zu comparisons with cpu failed (above the tolerance %g "
                    "or non-finite)",
                    static_cast<long>(failed), results.size(), k_compare_tolerance);
      print_error(msg);
      return k_exit_failure;
    }
    std::printf("%zu comparisons with cpu, all within the tolerance %g\n", results.size(),
                k_compare_tolerance);
    return written ? 0 : k_exit_failure;
  }
  const auto results = run_timing(plan, table);
  bool written = write_output(outputs.csv, [&](auto& f) { write_timing_csv(f, results); });
  written &= write_output(outputs.json, [&](auto& f) { write_json(f, plan, results, {}); });
  written &= write_output(outputs.trace, [&](auto& f) { write_trace_csv(f, results); });
  for (const TimingResult& r : results)
    if (!r.output_error.empty()) {
      print_error(r.output_error);
      written = false;
    }
  const auto bad =
      std::find_if(results.begin(), results.end(), [](const TimingResult& r) { return !r.finite; });
  if (bad != results.end()) {
    print_error(
        bad->solver + " at N=" + std::to_string(bad->n) + ": the state became non-finite at step " +
        std::to_string(bad->nonfinite_step) + " (body " + std::to_string(bad->nonfinite_body) +
        (bad->nonfinite_parts.empty() ? "" : ": " + bad->nonfinite_parts) + ")" +
        (bad->nonfinite_dt > 0 ? " after a step of " + orrery::param_value_text(bad->nonfinite_dt)
                               : "") +
        "; the run stopped there and its timing is not of a real run (a smaller --dt or "
        "--dt-max, or a larger --softening, may hold it)");
    return k_exit_failure;
  }
  return written ? 0 : k_exit_failure;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const Stopped& s) {  // the outputs opened for the run were removed on the way here
    std::fprintf(stderr, "orrery-bench: stopped by %s between steps; no output file was written\n",
                 s.signal == SIGTERM ? "SIGTERM" : "SIGINT");
    return 128 + s.signal;
  } catch (const UsageError& e) {
    // Under mpirun, the same line on every rank (a failure of one rank alone is no UsageError:
    // Ranks::abort names the rank).
    if (!orrery::cli::another_rank()) print_error(e.what());
    return k_exit_usage;
  } catch (const std::bad_alloc&) {  // a step's own allocations (a tree), past the first check
    print_error(
        "out of host memory during the run; fewer bodies, or a solver that needs less "
        "(cpu-omp, or a GPU solver), may fit");
    return k_exit_failure;
  } catch (const std::exception& e) {
    print_error(e.what());
    return k_exit_failure;
  } catch (...) {
    print_error("unknown exception");
    return k_exit_failure;
  }
}
