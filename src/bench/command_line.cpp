// orrery-bench's command line: its options (CLI11), those both programs take (cli/run_options.h),
// and the help; make_plan (options.cpp) checks what was typed.
#include <CLI/CLI.hpp>

#include "cli/run_options.h"
#include "options.h"
#include "orrery/simd.h"
#include "orrery/version.h"

namespace orrery::bench {

std::optional<Plan> parse_command_line(int argc, const char* const* argv) {
  RawOptions raw;
  CLI::App app{
      "orrery-bench: times Orrery's N-body solvers headless (no window), or with --compare checks "
      "them against the cpu reference.",
      "orrery-bench"};
  app.set_version_flag("--version", "orrery-bench " + version_description(),
                       "print the version (and the git checkout it was built from) and exit");
  app.footer(
      "Lists are comma separated (no empty items); numbers are decimal. Exit status: 0 ok; 1 a run "
      "failed or --compare found an error above tolerance; 2 bad input.\nExample: orrery-bench "
      "--solver cuda-static,cuda-dynamic --n 16384,65536 --block 64,128,256 --steps 20 --warmup 3");
  app.add_option("--solver", raw.solvers,
                 "solvers to run, or 'all' (every solver that can run on this machine)")
      ->capture_default_str();
  app.add_option("--n", raw.ns, "body counts, each in [1, 2147483647]")->capture_default_str();
  app.add_option("--block", raw.blocks,
                 "GPU block sizes, or 'all' (each GPU solver's supported set); default: each "
                 "solver's default (cuda-fast autotunes); CPU solvers have none");
  app.add_option("--gpus", raw.gpus,
                 "GPU counts to run each solver that spreads over several GPUs at (cuda-dynamic, "
                 "cuda-static, cuda-fast, cuda-bh; through NCCL), e.g. 1,2; default: every "
                 "visible GPU for those, one for the others");
  app.add_option("--steps", raw.steps, "timed steps per run (the median is reported)")
      ->capture_default_str();
  app.add_option("--warmup", raw.warmup, "untimed steps before timing")->capture_default_str();
  cli::add_run_options(app, raw.run, raw.preset(), true);
  cli::add_series_options(app, raw.run);
  app.add_flag("--accuracy", raw.accuracy,
               "instead of timing: each selected solver's relative acceleration error against an "
               "exact double-precision sum (every body up to N = 131072, 8192 sampled targets "
               "above): median, RMS, 99th percentile, max, interactions per body");
  app.add_option("--csv", raw.csv, "also write the results to this CSV file")
      ->check(cli::non_empty());
  app.add_option("--json", raw.json, "also write the results to this JSON file")
      ->check(cli::non_empty());
  app.add_option("--simd", raw.simd,
                 "the CPU solvers' SIMD level (default: the widest this CPU runs; the header lists "
                 "them)")
      ->check(cli::non_empty());
  app.add_option("--cpu-max-n", raw.cpu_max_n,
                 "largest N the CPU solvers run at (and --compare checks at); larger ones are "
                 "skipped with a line saying so")
      ->capture_default_str();
  app.add_flag("--diagnostics", raw.diagnostics,
               "measure E, P and L before the warm-up and after the timed steps (GPU: reductions "
               "on the device) and report their drift per run");
  app.add_flag("--phases", raw.phases,
               "report the median ms of each phase of the step (force, integrate, "
               "force+integrate)");
  app.add_option("--trace", raw.trace,
                 "write the diagnostics (E, P, L, 2K/|W| and their drifts) every --trace-every "
                 "steps of each timed run to this CSV file (outside the timed region)")
      ->check(cli::non_empty());
  app.add_option("--trace-every", raw.trace_every, "steps between --trace readings")
      ->capture_default_str();
  app.add_flag("--convergence", raw.convergence,
               "instead of timing: each integrator's position error after one period of the "
               "e = 0.5 two-body Kepler orbit at 25 to 6400 steps an orbit, through each selected "
               "solver (the measured order of convergence)");
  app.add_option("--max-n", raw.max_n,
                 "instead of timing at --n: for each solver, the largest N whose step sustains "
                 "FPS steps per second (doubling, then bisection to within 5%)")
      ->check(cli::non_empty());
  app.add_flag(
      "--compare", raw.compare,
      "instead of timing, run each selected solver and cpu from the same state for 3 "
      "steps and print the max relative position and velocity errors; exit 1 if above 1e-4");
  app.add_flag("--decompose", raw.decompose,
               "under mpirun: one cuda-bh (a GPU a rank) or cpu-bh run over the ranks, each "
               "holding the bodies of a range of Morton keys balanced by their work and "
               "exchanging essential trees (mpirun -np 4 --bind-to none orrery-bench --decompose "
               "--solver cuda-bh --n 268435456)");
  app.add_option("--rebalance-every", raw.rebalance_every,
                 "with --decompose: steps between decompositions by the bodies' measured work "
                 "(0: the first only)")
      ->capture_default_str();
  cli::name_value_types(app, {{"--solver", "LIST"},
                              {"--rebalance-every", "INT"},
                              {"--n", "LIST"},
                              {"--block", "LIST"},
                              {"--gpus", "LIST"},
                              {"--steps", "INT"},
                              {"--warmup", "INT"},
                              {"--csv", "FILE"},
                              {"--json", "FILE"},
                              {"--simd", "NAME"},
                              {"--cpu-max-n", "INT"},
                              {"--trace", "FILE"},
                              {"--trace-every", "INT"},
                              {"--max-n", "FPS"}});
  try {
    app.parse(argc, argv);
    raw.ns_given = app.count("--n") > 0;
    raw.sweep_given = app.count(sweep_row().option()) > 0;
    raw.integrator_given = raw.integrator_typed = app.count("--integrator") > 0;
    raw.solver_given = app.count("--solver") > 0, raw.block_given = app.count("--block") > 0;
    raw.preset_given = app.count("--preset") > 0, raw.seed_given = app.count("--seed") > 0;
    raw.trace_every_given = app.count("--trace-every") > 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      app.exit(e);
      return std::nullopt;
    }
    throw UsageError(std::string(e.what()) + " (see orrery-bench --help)");
  }
  return make_plan(raw);
}

}  // namespace orrery::bench
