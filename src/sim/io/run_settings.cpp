// The one rule for a file's run settings under the typed ones.
#include "orrery/run_settings.h"

#include <cstdio>

namespace orrery {

void type_step_options(bool dt, bool dt_max, bool eta, const SimParams& p, TypedSettings& t) {
  if (dt) t.adaptive = p.adaptive;
  if ((dt && !p.adaptive) || dt_max) t.dt = p.dt;
  if (eta) t.eta = p.eta;
}

RunSettings settings_of(const RunState& r) {
  return RunSettings{r.solver, r.block, r.integrator, r.params};
}

RunSettings settings_of(const SceneFile& sc) {
  return RunSettings{sc.solver, sc.block, sc.integrator, sc.params};
}

ResolvedSettings resolve_settings(const RunSettings& file, const TypedSettings& typed,
                                  const std::string& what,
                                  const std::function<bool(const std::string&)>& runs_here) {
  ResolvedSettings r;
  RunSettings& s = r.settings;
  s.solver = typed.solver.value_or("");
  s.block = typed.block.value_or(0);
  if (!typed.solver && !file.solver.empty()) {
    if (!runs_here || runs_here(file.solver)) {
      s.solver = file.solver;
      if (!typed.block) s.block = file.block;
    } else {
      r.note = "the " + what + "'s solver " + file.solver + " cannot run here";
    }
  }
  s.integrator = typed.integrator.value_or(file.integrator);
  s.params = file.params;
  if (typed.dt) s.params.dt = *typed.dt;
  if (typed.adaptive) s.params.adaptive = *typed.adaptive;
  if (typed.eta) s.params.eta = *typed.eta;
  apply_params(typed.params, s.params);
  if (typed.precision) s.params.precision = *typed.precision;
  apply_overrides(typed.scene, s.params);
  return r;
}

std::string integrator_damping_source(const std::string& integrator, bool integrator_typed,
                                      float damping, bool damping_typed, const std::string& file) {
  const std::string from = file.empty() ? "the default " : "the " + file + "'s ";
  char d[32];
  std::snprintf(d, sizeof d, "%g", static_cast<double>(damping));
  return (integrator_typed ? "--integrator " : from + "integrator ") + integrator + " with " +
         (damping_typed ? "--damping " : from + "damping ") + d;
}

}  // namespace orrery
