// The command-line options both programs take alike (orrery and orrery-bench), declared once: the
// preset and its seed, the step's parameters, the integrator, the scene's settings, and the files a
// run starts from or ends in. Kept as typed (none: not given); each program checks and resolves
// them with the core's parsers (orrery/input.h, scene.h, snapshot.h).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "orrery/scene.h"

namespace orrery::cli {

// Refuses an empty value ("--save ''") instead of taking it for "not given".
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& v) { return v.empty() ? std::string("empty value") : std::string(); },
      "NOT EMPTY");
}

struct RunTexts {
  std::optional<std::string> preset, seed, dt, dt_max, eta, softening, damping, integrator,
      precision;
  std::optional<std::string> scene, load, save, export_csv;
  std::optional<std::string> types, gadget_g;  // how --load reads a GADGET file
  SceneTexts scene_settings;  // --collisions, --restitution, --radius, --box, --gravity
};

// default_preset: the program's preset when none is given (named in the help).
inline void add_run_options(CLI::App& app, RunTexts& t, const std::string& default_preset) {
  app.add_option("--preset", t.preset,
                 "initial conditions: random, shell, expand, disk, collision, plummer, box (a gas "
                 "of balls in walls, gravity off) or accretion (a cold cloud whose bodies merge) "
                 "(default " + default_preset + ")");
  app.add_option("--seed", t.seed, "random seed of the preset, 0 to 2^64-1 (default 1)");
  app.add_option("--dt", t.dt,
                 "time step, finite and > 0 (default 0.016), or auto: the adaptive step, each "
                 "step's size from how fast the forces change (docs/physics.md)");
  app.add_option("--dt-max", t.dt_max,
                 "with --dt auto: the largest step, finite and > 0 (default 0.016)");
  app.add_option("--eta", t.eta,
                 "with --dt auto: the accuracy parameter in (0, 1] (default 0.02; smaller: "
                 "smaller steps)");
  app.add_option("--softening", t.softening, "softening length eps, >= 1e-10 (default 0.1)");
  app.add_option("--damping", t.damping,
                 "velocity damping per step, in [0, 1] (default 1; euler only)");
  app.add_option("--integrator", t.integrator,
                 "time integrator: euler (the default: the seed's damped Euler, fused with the "
                 "force pass), leapfrog (kick-drift-kick, 2nd order, time-reversible) or yoshida4 "
                 "(4th order); the last two take no damping");
  app.add_option("--precision", t.precision,
                 "single (the default) or double: positions, velocities, masses and the gravity "
                 "sums in double (cpu, cpu-omp, cuda-static, cuda-dynamic, cuda-fast; no "
                 "collisions)");
  app.add_option("--collisions", t.scene_settings.collisions,
                 "collision stage: off, bounce or merge (default: the preset's; box: bounce, "
                 "accretion: merge, the others off)");
  app.add_option("--restitution", t.scene_settings.restitution,
                 "bounce restitution e in [0, 1], for walls too (default 1: elastic)");
  app.add_option("--radius", t.scene_settings.radius,
                 "every body's radius, >= 0 (default: the preset's radii)");
  app.add_option("--box", t.scene_settings.box,
                 "side of a cube of reflecting walls centred at the origin, > 0 (default: the "
                 "preset's; box: 20, the others none)");
  app.add_option("--gravity", t.scene_settings.gravity,
                 "on or off (default: the preset's; box: off)");
  app.add_option("--scene", t.scene,
                 "start from a scene file (assets/scenes/*.json: a preset with N, seed, scale and "
                 "velocity scale, or a snapshot, and the run's solver, integrator and parameters; "
                 "options typed here go over them)")
      ->check(non_empty());
  app.add_option("--load", t.load,
                 "start from a snapshot instead of a preset (Orrery's format, TIPSY, GADGET-2 or "
                 "HDF5, told by the content; an Orrery snapshot also brings its solver, block, "
                 "integrator, "
                 "parameters, time and step count, under the options typed here)")
      ->check(non_empty());
  app.add_option("--types", t.types,
                 "with --load of a GADGET file: the particle types to keep, e.g. 1,2 (0 gas, 1 "
                 "halo, 2 disk, 3 bulge, 4 stars, 5 boundary; default all)");
  app.add_option("--gadget-g", t.gadget_g,
                 "with --load of a GADGET-2 file: G in the file's units, > 0 (default 43007.1: "
                 "GADGET's kpc, 1e10 solar masses, km/s; 1 for a file in G = 1 units). "
                 "Velocities are divided by sqrt(G) so the run's G is 1");
  app.add_option("--save", t.save,
                 "after the run, save its last state: TIPSY when the name ends in .tipsy, else "
                 "Orrery's format (docs/formats.md)")
      ->check(non_empty());
  app.add_option("--export-csv", t.export_csv,
                 "after the run, write its last state as CSV: x,y,z,vx,vy,vz,mass,radius")
      ->check(non_empty());
}

}  // namespace orrery::cli
