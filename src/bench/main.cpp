// orrery-bench: times the solvers headless (no window) and checks them against `cpu` (--compare).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "options.h"
#include "report.h"
#include "runner.h"

namespace {

using namespace orrery::bench;

constexpr int k_exit_failure = 1;  // a run failed, or --compare found an error above tolerance
constexpr int k_exit_usage = 2;    // bad input

// Errors are printed as exactly one line.
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void print_error(const std::string& what) {
  std::fprintf(stderr, "orrery-bench: error: %s\n", one_line(what).c_str());
}

int run(int argc, char** argv) {
  RawOptions raw;
  CLI::App app{
      "orrery-bench: times Orrery's N-body solvers headless (no window), or with --compare checks "
      "them against the cpu reference.",
      "orrery-bench"};
  app.footer(
      "Lists are comma separated. Exit status: 0 ok; 1 a run failed or --compare found an error "
      "above tolerance; 2 bad input.\nExample: orrery-bench --solver cuda-static,cuda-dynamic "
      "--n 16384,65536 --block 64,128,256 --steps 20 --warmup 3");
  app.add_option("--solver", raw.solvers,
                 "solvers to run, or 'all' (every solver that can run on this machine)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--n", raw.ns, "body counts, each in [1, 2147483647]")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--block", raw.blocks,
                 "GPU block sizes, or 'all' (each GPU solver's supported set); default: each "
                 "solver's default (cuda-fast autotunes); CPU solvers have none")
      ->delimiter(',');
  app.add_option("--steps", raw.steps, "timed steps per run (the median is reported)")
      ->capture_default_str();
  app.add_option("--warmup", raw.warmup, "untimed steps before timing")->capture_default_str();
  app.add_option("--preset", raw.preset,
                 "initial conditions: random, shell, expand, disk, collision")
      ->capture_default_str();
  app.add_option("--dt", raw.params.dt, "time step")->capture_default_str();
  app.add_option("--softening", raw.params.softening, "softening length eps (> 0)")
      ->capture_default_str();
  app.add_option("--damping", raw.params.damping, "velocity damping per step, in [0, 1]")
      ->capture_default_str();
  app.add_option("--seed", raw.seed, "seed of the preset")->capture_default_str();
  app.add_option("--csv", raw.csv, "also write the results to this CSV file");
  app.add_option("--json", raw.json, "also write the results to this JSON file");
  app.add_option("--cpu-max-n", raw.cpu_max_n,
                 "largest N the CPU solvers run at (and --compare checks at); larger ones are "
                 "skipped with a line saying so")
      ->capture_default_str();
  app.add_flag(
      "--compare", raw.compare,
      "instead of timing, run each selected solver and cpu from the same state for 3 "
      "steps and print the max relative position and velocity errors; exit 1 if above 1e-4");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    throw UsageError(std::string(e.what()) + " (see orrery-bench --help)");
  }

  const Plan plan = make_plan(raw);
  print_header(stdout, plan);
  TableReporter table(stdout);
  if (plan.compare) {
    const auto results = run_compare(plan, table);
    if (!plan.csv.empty()) write_compare_csv(plan.csv, results);
    if (!plan.json.empty()) write_json(plan.json, plan, {}, results);
    const auto failed = std::count_if(results.begin(), results.end(),
                                      [](const CompareResult& r) { return !r.pass(); });
    if (failed > 0) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "%ld of %zu comparisons with cpu are above the tolerance %g",
                    static_cast<long>(failed), results.size(), k_compare_tolerance);
      print_error(msg);
      return k_exit_failure;
    }
    std::printf("%zu comparisons with cpu, all within the tolerance %g\n", results.size(),
                k_compare_tolerance);
    return 0;
  }
  const auto results = run_timing(plan, table);
  if (!plan.csv.empty()) write_timing_csv(plan.csv, results);
  if (!plan.json.empty()) write_json(plan.json, plan, results, {});
  const auto bad =
      std::find_if(results.begin(), results.end(), [](const TimingResult& r) { return !r.finite; });
  if (bad != results.end()) {
    print_error(bad->config + " at N=" + std::to_string(bad->n) +
                " left non-finite positions or velocities: its timing is not of a real run");
    return k_exit_failure;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    print_error(e.what());
    return k_exit_usage;
  } catch (const std::exception& e) {
    print_error(e.what());
    return k_exit_failure;
  } catch (...) {
    print_error("unknown exception");
    return k_exit_failure;
  }
}
