// The integrators' registry: one row each, and the rules every caller asks of them, read from the
// rows (no caller switches on the integrator).
#include "orrery/integrators.h"

#include <stdexcept>

#include "orrery/input.h"
#include "orrery/registry.h"
#include "schemes.h"

namespace orrery {

bool IntegratorInfo::takes_param(std::string_view row) const {
  for (const std::string& t : takes)
    if (t == row) return true;
  return false;
}

const std::vector<IntegratorInfo>& integrator_table() {
  static const std::vector<IntegratorInfo> rows = {
      {Integrator::euler,
       "euler",
       "the seed's damped semi-implicit Euler, fused with the force pass: the fastest, first order",
       1,
       1,
       false,
       {"damping"},
       "",
       make_euler},
      {Integrator::leapfrog,
       "leapfrog",
       "kick-drift-kick: second order, time-reversible, one force pass a step",
       2,
       1,
       true,
       {},
       "it is symplectic and time-reversible only without it",
       make_leapfrog},
      {Integrator::yoshida4,
       "yoshida4",
       "Yoshida's composition of three leapfrogs: fourth order, three force passes a step",
       4,
       3,
       true,
       {},
       "it is symplectic and time-reversible only without it",
       make_yoshida4},
  };
  return rows;
}

const IntegratorInfo& integrator_info(Integrator i) {
  return row_by_id(integrator_table(), i, "integrator_info");
}

const std::vector<std::string>& integrator_names() {
  static const std::vector<std::string> names = row_names(integrator_table());
  return names;
}

std::vector<std::string> integrators_taking(const ParamRow& row, bool taking) {
  std::vector<std::string> out;
  for (const IntegratorInfo& i : integrator_table())
    if (i.takes_param(row.name) == taking) out.push_back(i.name);
  return out;
}

Integrator parse_integrator(const std::string& name) {
  if (const IntegratorInfo* i = row_named(integrator_table(), name)) return i->id;
  throw InputError("unknown integrator '" + name + "' (choose " + either(integrator_names()) + ")");
}

const char* to_string(Integrator i) { return integrator_info(i).name; }

int force_evaluations(Integrator i) { return integrator_info(i).force_evaluations; }

std::unique_ptr<IntegratorScheme> make_scheme(Integrator i) { return integrator_info(i).make(); }

void check_integrator(Integrator i, const SimParams& p) {
  const IntegratorInfo& info = integrator_info(i);
  for (const ParamRow& row : param_rows()) {
    if (row.owner != ParamOwner::integrator || row.form != ParamForm::plain) continue;
    if (info.takes_param(row.name) || row.get(p) == row.default_value()) continue;
    throw InputError(std::string(info.name) + " takes no " + row.name + " (" + info.refuses_why +
                     "); use " + row.option() + " " + param_value_text(row.default_value()) +
                     " or --integrator " + either(integrators_taking(row, true)));
  }
}

void check_reversible(Integrator i, const SimParams& p) {
  if (p.adaptive)
    throw InputError(
        "time cannot run backwards with the adaptive step (--dt auto): each step's "
        "size comes from the state before it, so the steps back would not retrace "
        "the steps forward; use a fixed --dt");
  if (p.collisions.mode == CollisionMode::merge)
    throw InputError(
        "time cannot run backwards while bodies merge (a merge loses what reversal "
        "needs); use --collisions bounce or off");
  const IntegratorInfo& info = integrator_info(i);
  for (const ParamRow& row : param_rows()) {
    if (row.owner != ParamOwner::integrator || row.form != ParamForm::plain) continue;
    const float v = row.get(p), d = row.default_value();
    if (!info.takes_param(row.name) || v == d) continue;
    throw InputError("time cannot run backwards with " + std::string(info.name) + " and " +
                     row.name + " " + param_value_text(v) + " (" + row.name + " other than " +
                     param_value_text(d) + " loses what reversal needs); use " +
                     either(integrators_taking(row, false)) + ", or " + row.name + " " +
                     param_value_text(d));
  }
}

}  // namespace orrery
