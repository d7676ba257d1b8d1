// The Simulation's settings as Python sets them: each setter checks the whole set by the rules
// every setter shares (settings.h) before the engine takes it, so a refused value leaves the run
// as it was.
#include <string>

#include "orrery/device.h"
#include "orrery/input.h"
#include "py_simulation.h"

namespace orrery::python {

void PySimulation::set_dt(std::optional<double> dt) {
  SimParams p = m_sim->params();
  if (dt)
    p.dt = as_finite(*dt, "dt"), p.adaptive = false;
  else
    p.adaptive = true;
  check_settings(RunSettings{m_solver, 0, m_sim->integrator(), p});
  m_sim->set_params(p);
}

void PySimulation::set_adaptive_param(const char* keyword, const ParamRow& row, double v) {
  if (!m_sim->params().adaptive)
    throw InputError(std::string(keyword) + "=" + number_text(v) +
                     ": sets the adaptive step, which needs dt='auto'");
  set_param(row, v, keyword);
}

void PySimulation::set_precision(const std::string& text) {
  SimParams p = m_sim->params();
  try {
    p.precision = parse_precision(text);
  } catch (const InputError& e) {
    throw InputError("precision=" + text + ": " + e.what());
  }
  check_settings(RunSettings{m_solver, 0, m_sim->integrator(), p});
  check_fits(solver_info(m_solver), n(), p.precision);  // double needs more
  m_sim->set_params(p);
}

void PySimulation::rebuild_solver(const std::string& name, int block, int gpus) {
  const SolverInfo& info = solver_info(name);
  check_fits(info, n(), m_sim->params().precision);
  m_sim->set_solver(make_solver(name, block, gpus));
  m_solver = name;
  m_block_asked = block;
  m_gpus = gpus;
}

void PySimulation::set_solver(const std::string& name) {
  Keywords k;
  k.solver = name;
  const Chosen c =
      choose(RunSettings{"", 0, m_sim->integrator(), m_sim->params()}, std::nullopt, k);
  rebuild_solver(c.run.solver, 0, c.gpus);
}

void PySimulation::set_block(int block) {
  Keywords k;
  k.solver = m_solver;
  k.block = block;
  k.gpus = m_gpus;
  const Chosen c =
      choose(RunSettings{"", 0, m_sim->integrator(), m_sim->params()}, std::nullopt, k);
  rebuild_solver(m_solver, c.run.block, c.gpus);
}

void PySimulation::set_gpus(int gpus) {
  Keywords k;
  k.solver = m_solver;
  k.gpus = gpus;
  const Chosen c =
      choose(RunSettings{"", 0, m_sim->integrator(), m_sim->params()}, std::nullopt, k);
  rebuild_solver(m_solver, m_block_asked, c.gpus);
}

void PySimulation::set_integrator(const std::string& name) {
  Integrator i{};
  try {
    i = parse_integrator(name);
  } catch (const std::invalid_argument& e) {
    throw InputError("integrator=" + name + ": " + e.what());
  }
  check_settings(RunSettings{m_solver, 0, i, m_sim->params()});
  m_sim->set_integrator(i);
}

void PySimulation::set_param(const ParamRow& row, double v, const char* keyword) {
  SimParams p = m_sim->params();
  row.set(p, as_row_value(row, v, keyword ? keyword : row.name));
  check_settings(RunSettings{m_solver, 0, m_sim->integrator(), p});
  m_sim->set_params(p);
}

std::optional<float> PySimulation::box() const {
  const float b = m_sim->params().collisions.box;
  return b > 0.0f ? std::optional<float>(b) : std::nullopt;
}

void PySimulation::set_box(const std::optional<double>& v) {
  SimParams p = m_sim->params();
  p.collisions.box = 0.0f;
  if (v) {
    p.collisions.box = as_float(*v, "box");
    if (!(p.collisions.box > 0.0f))
      throw InputError("box=" + number_text(*v) + ": the side must be > 0 (None: no walls)");
    check_box_fits(p.collisions.box, m_sim->state().vel);
  }
  m_sim->set_params(p);
}

void PySimulation::set_gravity(bool on) {
  SimParams p = m_sim->params();
  p.gravity = on;
  m_sim->set_params(p);
}

void PySimulation::set_collisions(const std::string& mode) {
  SimParams p = m_sim->params();
  try {
    p.collisions.mode = parse_collision_mode(mode);
  } catch (const std::invalid_argument& e) {
    throw InputError("collisions=" + mode + ": " + e.what());
  }
  m_sim->set_params(p);
}

void PySimulation::set_time_reversed(bool r) { m_sim->set_time_reversed(r); }

}  // namespace orrery::python
