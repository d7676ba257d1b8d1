// Checks orrery-bench's command line and resolves it into a plan, before anything is allocated.
#include "options.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "cli/run_options.h"
#include "orrery/device.h"
#include "orrery/formats.h"
#include "orrery/host_memory.h"
#include "orrery/run_settings.h"
#include "orrery/simd.h"
#include "orrery/simulation.h"

namespace orrery::bench {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

namespace {

constexpr long long k_max_n = std::numeric_limits<std::int32_t>::max();
constexpr long long k_max_steps = std::numeric_limits<std::int32_t>::max();

std::string sizes(const std::vector<int>& v) {
  std::string s;
  for (int b : v) s += (s.empty() ? "" : " ") + std::to_string(b);
  return s;
}

template <class T>
void append_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// "all" must stand alone in a list.
bool is_all(const std::vector<std::string>& items, const char* option) {
  const bool any = std::find(items.begin(), items.end(), "all") != items.end();
  if (any && items.size() > 1)
    throw UsageError(std::string(option) + ": 'all' cannot be combined with other values");
  return any;
}

// The solvers named by --solver: those to check options against (for `all`, every compiled one)
// and those to run (for `all`, the ones that can run here; the others get a note).
void resolve_solvers(const RawOptions& raw, std::vector<SolverInfo>& checked, Plan& plan) {
  if (raw.solvers.empty()) throw UsageError("--solver: no solver given");
  if (is_all(raw.solvers, "--solver")) {
    checked = all_solvers();
    for (const SolverInfo& s : checked) {
      if (s.gpu && !device_present())
        plan.notes.push_back("skipped " + s.name + ": " + device_info().reason);
      else
        plan.solvers.push_back({s, {}});
    }
    return;
  }
  for (const std::string& name : raw.solvers) {
    const SolverInfo* info = nullptr;
    try {
      info = &solver_info(name);
    } catch (const std::invalid_argument& e) {
      if (!cuda_compiled() && name.rfind("cuda", 0) == 0)  // a CUDA solver in a CPU-only build
        throw UsageError("--solver " + name + ": not in this build; " + device_info().reason);
      throw UsageError(std::string("--solver: ") + e.what());
    }
    if (std::any_of(checked.begin(), checked.end(),
                    [&](const SolverInfo& s) { return s.name == name; }))
      continue;
    if (info->gpu) {
      try {
        require_device();
      } catch (const std::exception& e) {
        throw UsageError("--solver " + name + ": " + e.what());
      }
    }
    checked.push_back(*info);
    plan.solvers.push_back({*info, {}});
  }
}

// Fills each solver's block list from --block (nothing: defaults; `all`: each one's set).
void resolve_blocks(const RawOptions& raw, const std::vector<SolverInfo>& checked, Plan& plan) {
  const bool given = !raw.blocks.empty();
  if (!given || is_all(raw.blocks, "--block")) {
    for (SolverPlan& s : plan.solvers) {
      if (!s.info.gpu)
        s.blocks = {0};
      else if (given)
        s.blocks = s.info.block_sizes;
      else
        s.blocks = {default_block_size(s.info.name)};
    }
    return;
  }
  std::vector<int> asked;
  for (const std::string& text : raw.blocks) append_unique(asked, parse_block(text));

  std::vector<std::string> supported;  // "name: sizes" of every GPU solver checked against
  for (const SolverInfo& s : checked)
    if (s.gpu) supported.push_back(s.name + ": " + sizes(s.block_sizes));
  if (supported.empty()) {
    std::vector<std::string> names;
    for (const SolverInfo& s : checked) names.push_back(s.name);
    throw UsageError(raw.block_source + " " + std::to_string(asked.front()) +
                     ": none of the selected solvers (" + join(names) +
                     ") takes a block size; CPU solvers have none" +
                     (cuda_compiled() ? "" : " and this build has no CUDA solvers"));
  }
  for (int b : asked) {
    const bool any = std::any_of(checked.begin(), checked.end(), [&](const SolverInfo& s) {
      return std::find(s.block_sizes.begin(), s.block_sizes.end(), b) != s.block_sizes.end();
    });
    if (!any)
      throw UsageError(raw.block_source + " " + std::to_string(b) +
                       ": block size not supported by any selected solver (" +
                       join(supported, "; ") + ")");
  }
  for (SolverPlan& s : plan.solvers) {
    if (!s.info.gpu) {
      s.blocks = {0};
      continue;
    }
    for (int b : asked) {
      if (std::find(s.info.block_sizes.begin(), s.info.block_sizes.end(), b) !=
          s.info.block_sizes.end())
        s.blocks.push_back(b);
      else
        plan.notes.push_back("skipped " + s.info.name + " at block " + std::to_string(b) +
                             ": not supported (it has " + sizes(s.info.block_sizes) + ")");
    }
  }
  plan.solvers.erase(std::remove_if(plan.solvers.begin(), plan.solvers.end(),
                                    [](const SolverPlan& s) { return s.blocks.empty(); }),
                     plan.solvers.end());
}

// --precision double runs the solvers with a double path, on one GPU, without collisions: with
// --solver all the others are skipped with a line; a solver named for double without one is an
// error, as are collisions or walls.
void resolve_precision(const RawOptions& raw, Plan& plan) {
  if (plan.params.precision != Precision::double_) return;
  // The core's rule (orrery/simulation.h), its line under this option's name.
  const auto refuse = [&](const std::string& solver, bool has_double) {
    try {
      check_precision(solver, has_double, plan.params);
    } catch (const InputError& e) {
      throw UsageError(std::string("--precision double: ") + e.what());
    }
  };
  refuse("", true);  // collisions and walls
  const bool all = raw.solvers.size() == 1 && raw.solvers.front() == "all";
  for (SolverPlan& s : plan.solvers) {
    if (!s.info.doubles) {
      if (!all) refuse(s.info.name, false);
      plan.notes.push_back("skipped " + s.info.name + ": no double-precision path");
      s.gpus.clear();
      continue;
    }
    const auto spread = std::remove_if(s.gpus.begin(), s.gpus.end(), [](int g) { return g > 1; });
    if (spread != s.gpus.end())
      plan.notes.push_back("skipped " + s.info.name +
                           " on several GPUs: double precision runs on one GPU");
    s.gpus.erase(spread, s.gpus.end());
  }
  plan.solvers.erase(std::remove_if(plan.solvers.begin(), plan.solvers.end(),
                                    [](const SolverPlan& s) { return s.gpus.empty(); }),
                     plan.solvers.end());
  if (plan.solvers.empty())
    throw UsageError(
        "--precision double: no selected solver runs in double precision here on "
        "that many GPUs (" +
        double_solver_names() + " do, on one GPU)");
}

// Fills each solver's GPU counts from --gpus (nothing: the default, every visible GPU for a
// solver that spreads, one for the others). A count no selected solver can run at is an error;
// one that only some can is a note for the others.
void resolve_gpu_counts(const RawOptions& raw, Plan& plan) {
  if (raw.gpus.empty()) {
    for (SolverPlan& s : plan.solvers) s.gpus = {resolve_gpus(s.info, 0)};
    return;
  }
  std::vector<int> asked;
  for (const std::string& text : raw.gpus)
    append_unique(asked, static_cast<int>(parse_integer(text, "--gpus", 1, 4096)));
  for (int g : asked) {
    std::string refusal;
    bool any = false;
    for (const SolverPlan& s : plan.solvers) {
      try {
        resolve_gpus(s.info, g);
        any = true;
      } catch (const InputError& e) {
        if (refusal.empty()) refusal = e.what();
      }
    }
    if (!any) throw UsageError("--gpus " + std::to_string(g) + ": " + refusal);
  }
  for (SolverPlan& s : plan.solvers) {
    s.gpus.clear();
    for (int g : asked) {
      try {
        s.gpus.push_back(resolve_gpus(s.info, g));
      } catch (const InputError& e) {
        plan.notes.push_back("skipped " + s.info.name + " on " + std::to_string(g) +
                             " GPUs: " + e.what());
      }
    }
  }
  plan.solvers.erase(std::remove_if(plan.solvers.begin(), plan.solvers.end(),
                                    [](const SolverPlan& s) { return s.gpus.empty(); }),
                     plan.solvers.end());
}

// What the command line typed of a run's settings (resolve_settings puts it over a file's): the
// first of the solvers and blocks stands for "typed" (a file's settings then give way).
TypedSettings typed_settings(const RawOptions& raw, const SimParams& typed,
                             const SceneOverrides& scene) {
  TypedSettings t;
  if (raw.solver_given && !raw.solvers.empty()) t.solver = raw.solvers.front();
  if (raw.block_given) t.block = 0;
  type_step_options(raw.run.dt.has_value(), raw.run.dt_max.has_value(), raw.run.eta.has_value(),
                    typed, t);
  for (const auto& [name, text] : raw.run.params)
    if (text) t.params[name] = param_row(name).get(typed);
  if (raw.sweep_given) t.params[sweep_row().name] = sweep_row().get(typed);
  if (raw.run.precision) t.precision = typed.precision;
  t.scene = scene;
  return t;
}

// A file's solver and block where the command line gave none (the file's block goes with its
// solver), its integrator unless typed, and its parameters under the typed ones.
void adopt_file(const RunSettings& file, const std::string& what, RawOptions& raw, Plan& plan,
                const SceneOverrides& scene) {
  const ResolvedSettings r = resolve_settings(file, typed_settings(raw, plan.params, scene), what);
  if (!raw.solver_given && !r.settings.solver.empty()) {
    raw.solvers = {r.settings.solver}, raw.solver_given = true;
    if (!raw.block_given && r.settings.block > 0) {
      raw.blocks = {std::to_string(r.settings.block)}, raw.block_given = true;
      raw.block_source = "the " + what + "'s block";  // not a --block the user never typed
    }
  }
  if (!raw.integrator_given)
    raw.run.integrator = to_string(r.settings.integrator), raw.integrator_given = true;
  raw.settings_from = what;
  plan.params = r.settings.params;
  if (!raw.sweep_given) plan.sweep = {sweep_row().get(plan.params)};
}

// --save and --export-csv keep one run's last state: one solver, block, N and swept value; their
// places are checked before anything runs.
void check_saves(const RawOptions& raw, Plan& plan) {
  if (raw.save().empty() && raw.export_csv().empty() && !raw.run.save_every && !raw.run.series)
    return;
  const std::string what = !raw.save().empty()         ? "--save"
                           : !raw.export_csv().empty() ? "--export-csv"
                                                       : "--save-every";
  if (plan.compare || plan.max_n_fps > 0 || plan.convergence || plan.accuracy)
    throw UsageError(what +
                     ": keeps a timing run's last state: cannot be combined with --compare, " +
                     "--max-n, --convergence or --accuracy");
  if (plan.solvers.size() != 1 || plan.solvers.front().blocks.size() != 1 ||
      plan.solvers.front().gpus.size() != 1 || plan.ns.size() != 1 || plan.sweep.size() != 1)
    throw UsageError(what + ": keeps one run's last state: select one solver, block size, GPU " +
                     "count, N and " + sweep_row().name);
  if (!raw.save().empty())
    check_save_format(raw.save(), "--save"), check_can_save(raw.save(), "--save");
  if (!raw.export_csv().empty()) check_can_save(raw.export_csv(), "--export-csv");
  plan.save = raw.save();
  plan.export_csv = raw.export_csv();
  plan.series = cli::series_plan(raw.run);
}

// Parses --dt and the plain parameter rows by the core's rules (the message names the option).
SimParams parse_params(const RawOptions& raw) {
  SimParams p;
  parse_step_options(raw.run.dt, raw.run.dt_max, raw.run.eta, p);
  cli::parse_row_options(raw.run.params, p);
  if (raw.run.precision) {
    try {
      p.precision = parse_precision(*raw.run.precision);
    } catch (const InputError& e) {
      throw UsageError(std::string("--precision: ") + e.what());
    }
  }
  return p;
}

// Every item of every value of a list option.
std::vector<std::string> items_of(const std::vector<std::string>& values, const char* option) {
  std::vector<std::string> out;
  for (const std::string& v : values)
    for (std::string& item : split_list(v, option)) out.push_back(std::move(item));
  return out;
}

}  // namespace

int parse_body_count(const std::string& text) {
  return static_cast<int>(parse_integer(text, "--n", 1, k_max_n));
}

int parse_block(const std::string& text) {
  return static_cast<int>(parse_integer(text, "--block", 1, std::numeric_limits<int>::max()));
}

namespace {

// --decompose: one cpu-bh or cuda-bh run at one N under mpirun, its table on rank 0 (and, with
// --save or --save-every, snapshots of every rank's bodies written by rank 0).
void check_decompose(const RawOptions& raw, Plan& plan) {
  plan.rebalance_every =
      static_cast<int>(parse_integer(raw.rebalance_every, "--rebalance-every", 0, k_max_steps));
  if (!raw.decompose) {
    if (raw.rebalance_every != "10")
      throw UsageError("--rebalance-every " + raw.rebalance_every + ": needs --decompose");
    return;
  }
  plan.decompose = true;
  if (raw.solvers != std::vector<std::string>{"cpu-bh"} &&
      raw.solvers != std::vector<std::string>{"cuda-bh"})
    throw UsageError(
        "--decompose: give --solver cuda-bh (a GPU a rank) or --solver cpu-bh: the tree codes "
        "that run over MPI ranks");
  if (raw.ns.size() != 1) throw UsageError("--decompose: one --n at a time");
  if (raw.compare || !raw.max_n.empty() || raw.convergence || raw.accuracy || !raw.csv.empty() ||
      !raw.json.empty() || !raw.trace.empty() || !raw.export_csv().empty() || !raw.load().empty() ||
      !raw.scene_file().empty() || !raw.gpus.empty() || !raw.blocks.empty())
    throw UsageError(
        "--decompose times one run: leave out --compare, --max-n, --convergence, "
        "--accuracy, --csv, --json, --trace, --export-csv, --load, --scene, --gpus and --block");
  orrery::cli::check_over_ranks(plan.params,
                                "mpirun -np 4 orrery-bench --decompose --solver cuda-bh ...");
  // A rank's share of the bodies, for the memory check (its GPU holds only its own).
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) plan.ranks = std::max(1, std::atoi(v));
}

}  // namespace

Plan make_plan(const RawOptions& raw_in) {
  Plan plan;
  RawOptions raw = raw_in;
  raw.ns = items_of(raw_in.ns, "--n");
  raw.solvers = items_of(raw_in.solvers, "--solver");
  raw.blocks = items_of(raw_in.blocks, "--block");
  raw.gpus = items_of(raw_in.gpus, "--gpus");
  raw.run.sweeps.at(sweep_row().name) =
      items_of(raw_in.sweep_texts(), sweep_row().option().c_str());
  std::shared_ptr<const SceneFile> scene_file;
  if (!raw.scene_file().empty()) {
    if (!raw.load().empty() || raw.preset_given || raw.seed_given)
      throw UsageError(
          "--scene: the scene names its bodies: leave out --load, --preset and --seed");
    scene_file = std::make_shared<const SceneFile>(load_scene(raw.scene_file()));
    const SceneFile& sc = *scene_file;
    if (!sc.snapshot.empty()) {
      raw.run.load = sc.snapshot;  // its bodies; the scene's settings below
    } else {
      raw.run.preset = to_string(sc.preset);
      raw.run.seed = std::to_string(sc.seed);
      if (!raw.ns_given && sc.n > 0) raw.ns = {std::to_string(sc.n)};
      plan.scene = scene_file;
    }
  }
  if (!raw.load().empty()) {
    if (raw.ns_given || (raw.scene_file().empty() && (raw.preset_given || raw.seed_given)))
      throw UsageError("--load: the bodies come from the file: leave out --n, --preset and --seed");
    if (raw.compare || !raw.max_n.empty() || raw.convergence || raw.accuracy)
      throw UsageError(
          "--load: cannot be combined with --compare, --max-n, --convergence or --accuracy");
    LoadOptions lo = parse_load_options(raw.run.types, raw.run.gadget_g, raw.run.units);
    LoadProgress progress;  // a line every 2 s of a long load
    print_load_progress(progress, "orrery-bench", raw.load());
    lo.progress = &progress;
    plan.loaded = std::make_shared<const Snapshot>(load_snapshot(raw.load(), lo));
    raw.ns = {std::to_string(plan.loaded->bodies.size())};
  }
  if (raw.load().empty() && raw.scene_file().empty() && raw.run.units)
    plan.preset_units = parse_units(*raw.run.units, "--units");
  if (raw.load().empty() && (raw.run.types || raw.run.gadget_g))
    throw UsageError(std::string(raw.run.types ? "--types" : "--gadget-g") +
                     ": only with --load of a GADGET file (or a scene that names one)");
  if (raw.ns.empty()) throw UsageError("--n: no body count given");
  for (const std::string& text : raw.ns) append_unique(plan.ns, parse_body_count(text));
  if (plan.preset_units.henon)  // before any size is skipped or run
    for (int n : plan.ns)
      if (static_cast<std::size_t>(n) > k_henon_max_bodies)
        throw UsageError("--units henon: --n " + std::to_string(n) +
                         "; its exact potential energy is summed over every pair, for at most " +
                         std::to_string(k_henon_max_bodies) + " bodies");
  plan.steps = static_cast<int>(parse_integer(raw.steps, "--steps", 1, k_max_steps));
  plan.warmup = static_cast<int>(parse_integer(raw.warmup, "--warmup", 0, k_max_steps));
  plan.cpu_max_n = static_cast<int>(parse_integer(raw.cpu_max_n, "--cpu-max-n", 0, k_max_n));
  if (!raw.simd.empty()) {
    const std::vector<std::string> levels = simd_levels();
    if (std::find(levels.begin(), levels.end(), raw.simd) == levels.end())
      throw UsageError("--simd: '" + raw.simd + "' is not a SIMD level this CPU runs (choose " +
                       join(levels) + ")");
    plan.simd = raw.simd;
  }
  try {
    plan.preset = parse_preset(raw.preset());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--preset: ") + e.what());
  }
  plan.params = parse_params(raw);
  const SceneOverrides scene = parse_scene_options(raw.run.scene_settings);
  apply_scene(plan.preset, scene, plan.params);
  plan.radius = scene.radius;
  const ParamRow& swept = sweep_row();
  plan.sweep.clear();
  for (const std::string& text : raw.sweep_texts()) {
    SimParams one;
    parse_param(text, swept.option(), swept.name, one);
    append_unique(plan.sweep, swept.get(one));
  }
  if (plan.sweep.empty()) throw UsageError(swept.option() + ": no value given");
  swept.set(plan.params, plan.sweep.front());
  // A file's settings under the typed ones: a scene's (over its snapshot's), else a loaded
  // snapshot's (Orrery's format: its run's; TIPSY: the defaults).
  if (scene_file) {
    adopt_file(settings_of(*scene_file), "scene", raw, plan, scene);
    if (scene_file->radius && !plan.radius) plan.radius = scene_file->radius;
  } else if (plan.loaded) {
    adopt_file(plan.loaded->run_recorded ? settings_of(plan.loaded->run) : RunSettings{},
               "snapshot", raw, plan, scene);
  }
  plan.seed = parse_u64(raw.seed(), "--seed");
  plan.csv = raw.csv;
  plan.json = raw.json;
  plan.compare = raw.compare;
  try {
    plan.integrator = parse_integrator(raw.integrator());
  } catch (const InputError& e) {
    throw UsageError(std::string("--integrator: ") + e.what());
  }
  try {
    check_integrator(plan.integrator, plan.params);
  } catch (const InputError& e) {
    throw UsageError(integrator_damping_source(raw.integrator(), raw.integrator_typed,
                                               plan.params.damping, raw.typed("damping"),
                                               raw.settings_from) +
                     ": " + e.what());
  }
  plan.diagnostics = raw.diagnostics;
  plan.convergence = raw.convergence;
  plan.accuracy = raw.accuracy;
  if (plan.accuracy && (raw.compare || !raw.max_n.empty() || !raw.trace.empty() ||
                        raw.convergence || !raw.json.empty()))
    throw UsageError(
        "--accuracy: cannot be combined with --compare, --max-n, --trace, --convergence or --json");
  if (plan.convergence) {
    if (raw.compare || !raw.max_n.empty() || !raw.trace.empty() || !raw.json.empty())
      throw UsageError(
          "--convergence: cannot be combined with --compare, --max-n, --trace or --json");
    if (raw.ns_given) throw UsageError("--convergence runs the two-body orbit: leave out --n");
    plan.ns = {2};
  }
  plan.trace = raw.trace;
  plan.trace_every =
      static_cast<int>(parse_integer(raw.trace_every, "--trace-every", 1, k_max_steps));
  if (raw.trace_every_given && plan.trace.empty())
    throw UsageError("--trace-every " + raw.trace_every + ": readings need --trace FILE");
  if (!plan.trace.empty() && raw.compare)
    throw UsageError("--trace: cannot be combined with --compare");
  plan.phases = raw.phases;
  if (!raw.max_n.empty()) {
    plan.max_n_fps = parse_float_in(raw.max_n, "--max-n", 0.1f, 100000.0f);
    if (plan.compare) throw UsageError("--max-n: cannot be combined with --compare");
    if (!plan.trace.empty()) throw UsageError("--max-n: cannot be combined with --trace");
    if (raw.ns_given) throw UsageError("--max-n chooses N itself: leave out --n");
    if (plan.preset_units.henon)
      throw UsageError("--max-n with --units henon: the search grows N past the " +
                       std::to_string(k_henon_max_bodies) + " bodies Henon's scaling sums");
  }

  check_decompose(raw, plan);
  std::vector<SolverInfo> checked;
  resolve_solvers(raw, checked, plan);
  resolve_blocks(raw, checked, plan);
  resolve_gpu_counts(raw, plan);
  resolve_precision(raw, plan);
  if (plan.compare) {
    const bool other = std::any_of(plan.solvers.begin(), plan.solvers.end(),
                                   [](const SolverPlan& s) { return s.info.name != "cpu"; });
    if (!other)
      throw UsageError("--compare: select a solver other than cpu (cpu is the reference)");
  }
  check_saves(raw, plan);
  if (plan.max_n_fps == 0) check_memory(plan);  // --max-n checks each N as it goes
  return plan;
}

Outputs open_outputs(const Plan& plan) {
  Outputs o;
  if (!plan.csv.empty()) o.csv = OutputFile::open(plan.csv, "--csv");
  if (!plan.json.empty()) o.json = OutputFile::open(plan.json, "--json");
  if (!plan.trace.empty()) o.trace = OutputFile::open(plan.trace, "--trace");
  // Every output of the run names its own file, however the names are spelled (the ones just
  // opened by their inode, the others by their real folder and name).
  require_distinct_outputs({{"--save", plan.save},
                            {"--export-csv", plan.export_csv},
                            {"--csv", o.csv.path()},
                            {"--json", o.json.path()},
                            {"--trace", o.trace.path()}});
  return o;
}

}  // namespace orrery::bench
