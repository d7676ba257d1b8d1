// A run's settings (solver, block, integrator, parameters) and the one rule for how a
// file's settings - a snapshot's run, or a scene's - meet what a caller typed over them. Both
// programs' command lines and the viewer's scene loading resolve through here.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "orrery/params.h"
#include "orrery/scene.h"
#include "orrery/scene_file.h"
#include "orrery/snapshot.h"

namespace orrery {

struct RunSettings {
  std::string solver;  // empty: the caller's default
  int block = 0;       // 0: the solver's default
  Integrator integrator = Integrator::euler;
  SimParams params;
};

// What a caller typed; none: not typed.
struct TypedSettings {
  std::optional<std::string> solver;
  std::optional<int> block;
  std::optional<Integrator> integrator;
  std::optional<double> dt;  // the step, or the adaptive one's largest
  std::optional<bool> adaptive;
  std::optional<float> eta;
  std::optional<Precision> precision;
  ParamValues params;    // the plain rows typed (orrery/param_table.h)
  SceneOverrides scene;  // collisions, restitution, box, gravity (the radius is the bodies')
};

// What the step options typed (--dt, --dt-max, --eta: whether each was, and `p` as
// parse_step_options left it) into t: --dt's choice of a fixed or the adaptive step, and the step
// or largest step and eta where typed.
void type_step_options(bool dt, bool dt_max, bool eta, const SimParams& p, TypedSettings& t);

// The settings a snapshot's run or a scene file brings.
RunSettings settings_of(const RunState& r);
RunSettings settings_of(const SceneFile& sc);

struct ResolvedSettings {
  RunSettings settings;
  std::string note;  // set when the file's solver cannot run here and gave way
};

// The file's settings with the typed ones over them: the file's solver (with its block, unless a
// block was typed) where none was typed and `runs_here` says it runs (an empty `runs_here`: any);
// else the solver stays as typed or empty, and `note` names the file's (`what`: "snapshot",
// "scene"). The file's integrator unless typed; its parameters with the typed ones and the scene
// overrides over them.
// Where an integrator and a damping that do not go together came from, for the error line: each
// as typed ("--integrator leapfrog", "--damping 0.9") or from the file ("the scene's integrator
// leapfrog"); `file` names it ("scene", "snapshot"; empty: the defaults).
std::string integrator_damping_source(const std::string& integrator, bool integrator_typed,
                                      float damping, bool damping_typed, const std::string& file);

ResolvedSettings resolve_settings(const RunSettings& file, const TypedSettings& typed,
                                  const std::string& what,
                                  const std::function<bool(const std::string&)>& runs_here = {});

}  // namespace orrery
