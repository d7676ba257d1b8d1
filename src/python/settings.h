// The Python module's settings: the keyword arguments of orrery.Simulation, checked by the rules
// the command lines use, and how they meet a preset's or a snapshot's own.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "orrery/presets.h"
#include "orrery/run_settings.h"

namespace orrery::python {

// The settings keywords as passed (none: not passed).
struct Keywords {
  std::optional<std::string> solver, integrator, collisions, precision;
  std::optional<int> block, gpus;
  std::optional<double> dt, box, radius;
  std::map<std::string, double> params;  // the parameter rows other than the step's, by name
  bool dt_auto = false;               // dt="auto": the adaptive step
  std::optional<double> dt_max, eta;  // its largest step and accuracy (they need dt="auto")
  std::optional<bool> gravity;
  std::optional<std::string> units;  // a preset's or arrays' units (parse_units; "henon" rescales)
};

// A run's settings as the Simulation is made with them: RunSettings plus the GPUs.
struct Chosen {
  RunSettings run;
  int gpus = 1;  // resolved: 1 for a solver that does not spread
};

// The file's (or the defaults') settings, a preset's gravity and collisions over them where one is
// given, and the keywords over both. Throws InputError ("dt=0: invalid time step 0: must be ...")
// naming the keyword; a solver that cannot run here gives the reason.
// `n`: the bodies, where known (> 0): with no solver asked for and no CUDA device, N from the
// CPU's crossover on uses the tree code (k_cpu_tree_from), as the viewer's sizing picks it.
Chosen choose(const RunSettings& base, const std::optional<Preset>& preset, const Keywords& k,
              long long n = 0);
// From this many bodies cpu-bh steps a Plummer sphere faster than cpu-omp on the CPU: the tree
// wins from between 4,096 and 8,192 (docs/benchmarks.md, "Crossover").
constexpr long long k_cpu_tree_from = 8192;

// Checks every setting by the core's rules, naming the keyword (a setter's whole check).
void check_settings(const RunSettings& s);

// Bodies when neither n= nor a scene gives a number: 16,384 with a CUDA device, 2,048 without
// (the viewer probes its own; a script gets the same number on every machine of a kind).
int default_bodies();

// A number as the messages show it (%g: 1e+39, 0.5).
std::string number_text(double v);

// A keyword's number as a float, refused when not finite or beyond float ("softening=1e+39: ...").
float as_float(double v, const char* keyword);
// as_float's checks, the value kept in double (dt).
double as_finite(double v, const char* keyword);
// A row's value as its field holds it (as_finite for a double row, else as_float).
double as_row_value(const ParamRow& row, double v, const char* keyword);

}  // namespace orrery::python
