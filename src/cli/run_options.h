// The command-line options both programs take alike (orrery and orrery-bench), declared once: the
// preset and its seed, the step's parameters, the integrator, the scene's settings, and the files a
// run starts from or ends in. Kept as typed (none: not given); each program checks and resolves
// them with the core's parsers (orrery/input.h, scene.h, snapshot.h).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "orrery/formats.h"
#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "orrery/registry.h"
#include "orrery/scene.h"
#include "orrery/series.h"

namespace orrery::cli {

// Refuses an empty value ("--save ''") instead of taking it for "not given".
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& v) { return v.empty() ? std::string("empty value") : std::string(); },
      "");  // no description: --help shows the option's own type name alone
}

// Rows' options as typed, by the row's name (none: not typed).
using RowTexts = std::map<std::string, std::optional<std::string>>;

struct RunTexts {
  std::optional<std::string> preset, seed, dt, dt_max, eta, integrator, precision;
  // The plain parameter rows (orrery/param_table.h) by name, as typed; none: not typed. With
  // `sweeps`, a sweep row's values are in `sweeps` instead (every value of every --name given).
  RowTexts params;
  std::map<std::string, std::vector<std::string>> sweeps;
  std::optional<std::string> scene, load, save, export_csv;
  std::optional<std::string> save_every, series;  // a snapshot series (orrery/series.h)
  std::optional<std::string> types, gadget_g;  // how --load reads a GADGET file
  std::optional<std::string> units;            // a preset's or a unit-less file's units
  SceneTexts scene_settings;  // --collisions, --restitution, --radius, --box, --gravity
};

// --integrator's help, from the integrators' registry: each with what it is, and the rows that
// some refuse.
inline std::string integrator_help() {
  std::vector<std::string> each;
  for (const IntegratorInfo& info : integrator_table())
    each.push_back(std::string(info.name) + " (" + info.description + ")");
  std::string s = "time integrator (default " + integrator_names().front() + "): " + either(each);
  for (const ParamRow& row : param_rows()) {
    if (row.owner != ParamOwner::integrator || row.form != ParamForm::plain) continue;
    const std::vector<std::string> refusing = integrators_taking(row, false);
    if (refusing.empty()) continue;
    std::string names = refusing.front();  // "a, b and c"
    for (std::size_t i = 1; i < refusing.size(); ++i)
      names += (i + 1 == refusing.size() ? " and " : ", ") + refusing[i];
    s += "; " + names + (refusing.size() == 1 ? " takes" : " take") + " no " + row.name;
  }
  return s;
}

// The formats read (by content) or written (by the name's extension), from their registry:
// "Orrery (.orrery), TIPSY (.tipsy), ...".
inline std::string formats_help(bool written) {
  std::string s;
  for (const FormatInfo& f : format_table()) {
    if (written ? !f.encode : !f.looks_like) continue;
    s += (s.empty() ? "" : ", ") + std::string(f.name);
    if (written) {
      std::string ext;
      for (const std::string& e : f.extensions) ext += (ext.empty() ? "" : ", ") + e;
      s += " (" + ext + ")";
    }
  }
  return s;
}

// The plain parameter rows, one option each (--name, its help, bounds and default from the row).
// sweeps: a sweep row takes a comma-separated list, and may be given more than once (orrery-bench
// runs each value).
inline void add_param_options(CLI::App& app, RunTexts& t, bool sweeps) {
  for (const ParamRow* r : param_rows(ParamForm::plain)) {
    if (sweeps && r->sweep) {
      std::vector<std::string>& values = t.sweeps[r->name];
      values = {param_value_text(r->default_value())};
      app.add_option(r->option(), values,
                     param_help(*r) + "; a list runs each, where the solver takes it")
          ->type_name("LIST")
          ->capture_default_str();
    } else {
      app.add_option(r->option(), t.params[r->name], param_help(*r))->type_name("NUMBER");
    }
  }
}

// Rows' options as typed, parsed and checked by their rows over p (a SimParams, or the view's
// ViewParams); their names into `typed` where one is given. Throws InputError naming the option
// ("--softening '1e-20': invalid softening ...").
template <class Params>
void parse_row_options(const RowTexts& texts, Params& p, std::set<std::string>* typed = nullptr) {
  for (const auto& [name, text] : texts)
    if (text) {
      const ParamRow& r = param_row(name);
      r.set(p, parse_param_text(r, *text, r.option()));
      if (typed) typed->insert(name);
    }
}

// --save-every and --series, checked (none: no series). Throws InputError.
inline std::optional<SeriesPlan> series_plan(const RunTexts& t) {
  if (!t.save_every) {
    if (t.series) throw InputError("--series: names a series' files: give --save-every too");
    return std::nullopt;
  }
  SeriesPlan p = parse_series(*t.save_every, t.series.value_or(k_default_series_pattern),
                              "--save-every", "--series");
  SeriesWriter check(p);  // the folder can be written; no output exists yet
  return p;
}

// The plain rows typed, as values (for TypedSettings::params).
inline ParamValues typed_param_values(const RunTexts& t) {
  SimParams p;
  parse_row_options(t.params, p);
  ParamValues v;
  for (const auto& [name, text] : t.params)
    if (text) v[name] = param_row(name).get(p);
  return v;
}

// The view's rows, one option each (the viewer's; scenes and Python's render() take the same).
inline void add_view_options(CLI::App& app, RowTexts& t) {
  for (const ParamRow& r : view_rows())
    app.add_option(r.option(), t[r.name], param_help(r))->type_name("NUMBER");
}

// What --decompose refuses in either program before MPI starts: no mpirun (`example` is the
// program's launch line), and what a rank's bodies alone cannot decide (one step size for every
// rank, contacts across ranks) or the ranks do not carry (doubles). Throws InputError.
inline void check_over_ranks(const SimParams& p, const std::string& example) {
  if (p.adaptive)
    throw InputError(
        "--decompose: the adaptive step is not built over ranks yet: give a fixed --dt");
  if (p.collisions.mode != CollisionMode::off || p.collisions.box > 0.0f)
    throw InputError(
        "--decompose: collisions and walls are not built over ranks yet: gravity only");
  if (p.precision == Precision::double_)
    throw InputError(
        "--decompose runs in float precision (--precision double runs on one process)");
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("PMIX_RANK"))
    throw InputError("--decompose runs under mpirun, one process a rank: " + example);
}

// Real type names in --help instead of CLI11's TEXT: each option named here gets its type.
inline void name_value_types(CLI::App& app, const std::map<std::string, std::string>& types) {
  for (CLI::Option* o : app.get_options())
    if (const auto it = types.find(o->get_name()); it != types.end()) o->type_name(it->second);
}

// An option kept as typed: its flag, where the text goes, its value's type name for --help, its
// help, and whether an empty value is refused (a file name; a unit text).
struct TextOption {
  const char* flag;
  std::optional<std::string>* value;
  const char* type;
  std::string help;
  bool refuse_empty = false;
};

inline void add_text_options(CLI::App& app, const std::vector<TextOption>& rows) {
  for (const TextOption& r : rows) {
    CLI::Option* o = app.add_option(r.flag, *r.value, r.help)->type_name(r.type);
    if (r.refuse_empty) o->check(non_empty());
  }
}

// default_preset: the program's preset when none is given (named in the help). sweeps: as for
// add_param_options.
inline void add_run_options(CLI::App& app, RunTexts& t, const std::string& default_preset,
                            bool sweeps = false) {
  add_text_options(
      app,
      {{"--preset", &t.preset, "NAME",
        "initial conditions: " + either(preset_names()) + " (default " + default_preset +
            "; box: a gas of balls in walls, gravity off; accretion: a cold cloud whose bodies "
            "merge)"},
       {"--seed", &t.seed, "INT", "random seed of the preset, 0 to 2^64-1 (default 1)"},
       {"--dt", &t.dt, "NUMBER|auto",
        "time step, finite and > 0 (default 0.016), or auto: the adaptive step, each step's size "
        "from how fast the forces change (docs/physics.md)"},
       {"--dt-max", &t.dt_max, "NUMBER",
        "with --dt auto: the largest step, finite and > 0 (default 0.016)"},
       {"--eta", &t.eta, "NUMBER",
        "with --dt auto: the accuracy parameter in (0, 1] (default 0.02; smaller: smaller "
        "steps)"}});
  add_param_options(app, t, sweeps);
  app.add_option("--integrator", t.integrator, integrator_help())->type_name("NAME");
  SceneTexts& scene = t.scene_settings;
  add_text_options(
      app,
      {{"--precision", &t.precision, "NAME",
        "single (the default) or double: positions, velocities, masses and the gravity sums in "
        "double (cpu, cpu-omp, cuda-static, cuda-dynamic, cuda-fast; no collisions)"},
       {"--collisions", &scene.collisions, "NAME",
        "collision stage: off, bounce or merge (default: the preset's; box: bounce, accretion: "
        "merge, the others off)"},
       {"--restitution", &scene.restitution, "NUMBER",
        "bounce restitution e in [0, 1], for walls too (default 1: elastic)"},
       {"--radius", &scene.radius, "NUMBER",
        "every body's radius, >= 0 (default: the preset's radii)"},
       {"--box", &scene.box, "NUMBER",
        "side of a cube of reflecting walls centred at the origin, > 0 (default: the preset's; "
        "box: 20, the others none)"},
       {"--gravity", &scene.gravity, "on|off", "on or off (default: the preset's; box: off)"},
       {"--scene", &t.scene, "FILE",
        "start from a scene file (assets/scenes/*.json: a preset with N, seed, scale and velocity "
        "scale, or a snapshot, and the run's solver, integrator and parameters; options typed "
        "here go over them)",
        true},
       {"--load", &t.load, "FILE",
        "start from a snapshot instead of a preset (" + formats_help(false) +
            "; told by the content; a file that keeps its run also brings its solver, block, "
            "integrator, parameters, time and step count, under the options typed here; the "
            "viewer plays a series back from a glob in quotes or a folder)",
        true},
       {"--types", &t.types, "LIST",
        "with --load of a GADGET file: the particle types to keep, e.g. 1,2 (0 gas, 1 halo, 2 "
        "disk, 3 bulge, 4 stars, 5 boundary; default all)"},
       {"--gadget-g", &t.gadget_g, "NUMBER",
        "with --load of a GADGET-2 file: G in the file's units, > 0 (default 43007.1: GADGET's "
        "kpc, 1e10 solar masses, km/s; 1 for a file in G = 1 units). Velocities are divided by "
        "sqrt(G) so the run's G is 1. Giving it says the file has no physical scale (--units "
        "gives one)"},
       {"--units", &t.units, "UNITS",
        "the units of the state's numbers: nbody (G = 1, no physical scale; a preset's default), "
        "henon (a preset rescaled to Henon's: G = M = 1, E = -1/4, virial radius 1), gadget "
        "(kpc, 1e10 Msun, km/s), or 'LENGTH, MASS[, VELOCITY]' such as '1 pc, 1 Msun' (the "
        "velocity unit then makes G = 1) or '1 kpc, 1e10 Msun, 1 km/s'. For a preset, or a "
        "--load of a file that brings none (TIPSY, GADGET-2, HDF5 without a Units group). HDF5 "
        "saves are written in them (docs/formats.md)",
        true},
       {"--save", &t.save, "FILE",
        "after the run, save its last state in the format its name asks for: " +
            formats_help(true) + "; a name with no extension is Orrery's format (docs/formats.md)",
        true},
       {"--export-csv", &t.export_csv, "FILE",
        "after the run, write its last state as CSV: x,y,z,vx,vy,vz,mass,radius", true}});
}

// --save-every and --series: a run's snapshot series (both programs).
inline void add_series_options(CLI::App& app, RunTexts& t) {
  add_text_options(
      app,
      {{"--save-every", &t.save_every, "K|time=T",
        "write a snapshot series: the state at the start, then every K steps (or steps=K), or at "
        "the step nearest each multiple of T of simulation time (time=T); one file an output, "
        "named by --series",
        true},
       {"--series", &t.series, "PATTERN",
        std::string("with --save-every: the files' names, one %d, %Nd or %0Nd for the output's "
                    "number (%% for a percent sign), in the format the extension asks for "
                    "(default ") +
            k_default_series_pattern +
            ": GADGET-4's names, which yt's DatasetSeries opens); a series overwrites no file",
        true}});
}

}  // namespace orrery::cli
