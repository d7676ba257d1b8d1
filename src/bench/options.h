// orrery-bench's options: the raw command line values, their checking, and the resolved plan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/run_options.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/output_file.h"
#include "orrery/presets.h"
#include "orrery/scene.h"
#include "orrery/scene_file.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

namespace orrery::bench {

// Bad input: main prints its message as one line and exits with code 2.
using UsageError = InputError;

// The --compare tolerance on the max relative position error against `cpu` (issue 2's check).
// Velocities are printed but not judged: `cpu` sums each force sequentially in float, and at
// N = 16384 that sum alone is 1e-4 off a double-precision oracle, while cuda-fast's split sums
// are 2e-6 off it (docs/benchmarks.md), so a velocity check against `cpu` would fail the more
// accurate solver.
constexpr double k_compare_tolerance = 1e-4;
// Steps each solver and `cpu` take from the same state under --compare.
constexpr int k_compare_steps = 3;

// What the command line said, as text, before checking. A list option may be given more than
// once; each value is a comma-separated list (split by split_list: no empty items).
struct RawOptions {
  std::vector<std::string> solvers{"all"};
  std::vector<std::string> ns{"16384"};
  std::vector<std::string> blocks;  // empty: each GPU solver's default
  std::vector<std::string> gpus;    // empty: each solver's default (resolve_gpus)
  std::string steps = "20";
  std::string warmup = "3";
  std::string csv, json;
  bool compare = false;
  std::string cpu_max_n = "65536";
  std::string simd;  // --simd LEVEL; empty: the CPU's widest
  bool diagnostics = false, phases = false;
  std::string max_n;  // --max-n FPS; empty: not asked
  std::string trace, trace_every = "10";
  bool convergence = false, accuracy = false;
  bool decompose = false;              // --decompose: one cpu-bh run over the MPI ranks
  std::string rebalance_every = "10";  // steps between its decompositions
  bool ns_given = false;  // --n was on the command line (--max-n chooses N itself)
  // The options both programs take (src/cli/run_options.h), as typed; the defaults where not.
  cli::RunTexts run;
  std::string preset() const { return run.preset.value_or("random"); }
  std::string seed() const { return run.seed.value_or("1"); }
  // The opening angles to run at: the sweep row's values (orrery/param_table.h).
  const std::vector<std::string>& sweep_texts() const { return run.sweeps.at(sweep_row().name); }
  bool typed(const char* param) const { return run.params.at(param).has_value(); }
  std::string integrator() const { return run.integrator.value_or("euler"); }
  std::string scene_file() const { return run.scene.value_or(""); }
  std::string load() const { return run.load.value_or(""); }
  std::string save() const { return run.save.value_or(""); }
  std::string export_csv() const { return run.export_csv.value_or(""); }
  // Options typed on the command line (a loaded snapshot's settings give way to these).
  bool sweep_given = false;
  bool integrator_given = false, solver_given = false, block_given = false;
  bool integrator_typed = false;  // on the command line (integrator_given: or from a file)
  std::string settings_from;      // "scene" or "snapshot" when a file's settings were taken
  std::string block_source = "--block";  // where the blocks came from, for the error line
  bool preset_given = false, seed_given = false, trace_every_given = false;
};

// One solver to run, with the block sizes to run it at (0 = the solver's default; CPU: {0}) and
// the GPU counts (each >= 1; 1 for CPU solvers).
struct SolverPlan {
  SolverInfo info;
  std::vector<int> blocks;
  std::vector<int> gpus{1};
};

// The checked, resolved plan.
struct Plan {
  std::vector<SolverPlan> solvers;
  std::vector<int> ns;
  int steps = 20;
  int warmup = 3;
  Preset preset = Preset::random;
  SimParams params;             // gravity and collisions: the preset's, with the options over them
  std::optional<float> radius;  // --radius: every body's
  UnitsChoice preset_units;     // --units for a preset (henon rescales it)
  std::uint64_t seed = 1;
  std::string csv, json;
  bool compare = false;
  int cpu_max_n = 65536;
  std::string simd;  // the CPU solvers' SIMD level (orrery/simd.h); empty: the widest
  Integrator integrator = Integrator::euler;
  bool diagnostics = false;  // E, P, L before and after each run, and their drift
  bool phases = false;       // a column per phase of the step (median ms)
  double max_n_fps = 0;      // > 0: find each solver's largest N that sustains this many steps/s
  bool convergence = false;  // the integrators' one-period errors on the e = 0.5 Kepler orbit
  bool accuracy = false;     // tree codes' acceleration error against the exact double sum
  std::vector<double> sweep{0.5};   // the sweep row's values: a solver that reads it runs each
  std::string trace;                // --trace FILE: diagnostics every trace_every steps of each run
  int trace_every = 10;
  // Lines to print before running, for selected solvers or blocks that cannot run here.
  std::vector<std::string> notes;
  // --load: the state every run starts from (and, from Orrery's format, the run's settings, time
  // and step count); none: the preset.
  std::shared_ptr<const Snapshot> loaded;
  // --scene: a preset scene's bodies (scaled) come from it; its settings are in the plan.
  std::shared_ptr<const SceneFile> scene;
  // --save, --export-csv: the one run's last state (after its warm-up and timed steps).
  std::string save, export_csv;
  std::optional<SeriesPlan> series;  // --save-every: a snapshot series of the run
  bool decompose = false;            // --decompose: the run over the MPI ranks (run_decomposed)
  int rebalance_every = 10;          // steps between its decompositions (0: the first only)
  int ranks = 1;                     // under mpirun: the ranks (a GPU holds N / ranks bodies)
};

// Checks everything, including device presence and memory for each N, before anything runs.
// Throws UsageError with a one-line message naming the bad value. Opens no file.
Plan make_plan(const RawOptions& raw);
// Rejects an N whose buffers cannot fit on the host or the GPU, before anything is allocated
// (memory_check.cpp). Throws UsageError.
void check_memory(const Plan& plan);

// The names in one line, `sep` between them.
std::string join(const std::vector<std::string>& v, const char* sep = ", ");

// The command line parsed (CLI11) and checked: a plan, or none after --help (printed to stdout).
// Throws UsageError. Opens no file (the fuzz target calls this).
std::optional<Plan> parse_command_line(int argc, const char* const* argv);

// The plan's output files, opened for writing before the run; the same file named twice (however
// spelled) is an error. Throws UsageError.
struct Outputs {
  OutputFile csv, json, trace;
};
Outputs open_outputs(const Plan& plan);

// Parses one body count: a whole number in [1, INT32_MAX]. Throws UsageError.
int parse_body_count(const std::string& text);
// Parses one block size: a whole number (checked against the solvers by make_plan). Throws
// UsageError.
int parse_block(const std::string& text);

}  // namespace orrery::bench
