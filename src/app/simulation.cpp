// Simulation: preset loading, solver and integrator switching, stepping through the System (CPU
// runs on a worker thread), the non-finite check, diagnostics, phase timings and the block-size
// sweep.
#include "simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gfx/overlays.h"

namespace orrery::app {
Simulation::Simulation(gfx::DevicePath path, Integrator integrator, const SimParams& params)
    : m_buffers(std::make_shared<gfx::BodyBuffers>(path)),
      m_integrator(integrator),
      m_params(params) {
  check_integrator(integrator, params);
  if (path != gfx::DevicePath::none) m_probe = std::make_unique<FiniteProbe>();
}

void Simulation::reset(Preset preset, int n, std::uint64_t seed, std::optional<float> radius) {
  // May throw (an N the GPU cannot hold, or a bad N): the old state stays then.
  if (m_system) check_device_memory(solver_info(m_system->gravity().name()), n);
  BodyState s = make_preset(preset, n, seed);
  if (radius) set_radius(s.vel, *radius);
  load(s, nullptr);
  set_origin(&preset, s);
}

void Simulation::set_origin(const Preset* preset, const BodyState& s) {
  m_origin = orrery::origin_labels(preset, s);
  m_origin_names = orrery::origin_names(preset);
}

template <class F>
bool Simulation::with_state(F&& f) {
  if (m_job.active()) return false;
  const int n = m_buffers->count();
  m_system->storage().view([&](const Vec4* pos, const Vec4* vel) { f(pos, vel, n); });
  return true;
}

bool Simulation::quantity_host(Quantity q, std::vector<float>& out) {
  const int n = m_buffers->count();
  if (q == Quantity::origin) {
    if (!origin_valid()) return false;
    out = m_origin;
    return true;
  }
  out.resize(static_cast<std::size_t>(n));
  const bool device = m_system->gravity().on_device();
  return with_state([&](const Vec4* pos, const Vec4* vel, int count) {
    if (!device) return m_system->quantity(q, pos, vel, count, out.data());
    m_values_scratch.enlarge(static_cast<std::size_t>(count));
    float* values = m_values_scratch.data();
    m_system->quantity(q, pos, vel, count, values);
    device_download(values, out.data(), static_cast<std::size_t>(count));
  });
}

bool Simulation::quantity_mapped(Quantity q, const Vec4* pos, const Vec4* vel) {
  if (!m_system->gravity().on_device() || q == Quantity::origin) return false;
  m_system->quantity(q, pos, vel, m_buffers->count(), m_buffers->mapped_values());
  return true;
}

std::optional<Simulation::BodyReading> Simulation::read_body(int index) {
  std::optional<BodyReading> r;
  if (index < 0 || index >= m_buffers->count()) return r;
  if (m_job.active()) {  // a CPU run in flight: the published body, the last acceleration read
    BodyReading b;
    m_buffers->read_published_body(index, b.pos, b.vel);
    b.acc = index == m_acc_index ? m_acc_last : Vec3{NAN, NAN, NAN};
    return b;
  }
  const bool device = m_system->gravity().on_device();
  with_state([&](const Vec4* pos, const Vec4* vel, int n) {
    BodyReading b;
    if (device) {
      device_read_body(pos, vel, index, b.pos, b.vel);
    } else {
      b.pos = pos[index];
      b.vel = vel[index];
    }
    b.acc = m_system->body_acceleration(pos, n, index);
    m_acc_index = index, m_acc_last = b.acc;
    r = b;
  });
  return r;
}

std::optional<Vec3> Simulation::centre_of_mass() {
  std::optional<Vec3> c;
  with_state([&](const Vec4* pos, const Vec4* vel, int n) {
    const Vec3d d = m_system->centre_of_mass(pos, vel, n);
    c = Vec3{static_cast<float>(d.x), static_cast<float>(d.y), static_cast<float>(d.z)};
  });
  return c;
}

int Simulation::pick(const gfx::SpriteParams& p, float x, float y, float radius_px) {
  int picked = -1;
  if (m_job.active()) {  // a CPU run in flight: the published positions
    std::vector<Vec4> pos;
    m_buffers->read_published_positions(pos);
    return gfx::pick_cpu(pos.data(), static_cast<int>(pos.size()), p, x, y, radius_px);
  }
  const bool device = m_system->gravity().on_device();
  with_state([&](const Vec4* pos, const Vec4*, int n) {
    picked = device ? gfx::pick_device(pos, n, p, x, y, radius_px)
                    : gfx::pick_cpu(pos, n, p, x, y, radius_px);
  });
  return picked;
}

void Simulation::load(const BodyState& s, const RunState* run) {
  const int n = s.size();
  if (m_system) check_device_memory(solver_info(m_system->gravity().name()), n);
  if (run) {
    validate(run->params);
    check_integrator(run->integrator, run->params);
  }
  cancel_job();
  collect_phases();              // the old state's last reading, before the new state's first
  if (m_probe) m_probe->wait();  // the old state's check, whose result no longer matters
  m_warming_up = true;
  m_buffers->load(s.pos, s.vel);     // fills every copy, whichever side the solver runs on
  m_system->set_storage(m_buffers);  // time and steps from 0
  double mass = 0.0;
  for (const Vec4& p : s.pos) mass += p.w;
  m_mass_ref = static_cast<float>(mass / n);
  m_probe_step = m_last_finite_step = 0;
  m_frames_since_check = 0;
  m_blowup.reset();
  m_blown = false;
  if (run) {
    // euler takes any parameters: through it to the run's pair, whatever the current one is.
    m_system->set_integrator(Integrator::euler);
    m_system->set_params(run->params);
    m_system->set_integrator(run->integrator);
    m_params = run->params;
    m_integrator = run->integrator;
    m_system->resume(*run);
  }
  restart_diagnostics();
  set_origin(nullptr, s);
  ++m_epoch;
}

Snapshot Simulation::snapshot(int block) {
  Snapshot s;
  s.bodies = m_buffers->download();
  s.run = m_system->run_state();
  s.run.block = block;
  return s;
}

void Simulation::set_solver(const std::string& name, int block) {
  if (m_buffers->count() > 0) check_device_memory(solver_info(name), m_buffers->count());
  std::unique_ptr<Solver> next = make_solver(name, block);
  cancel_job();
  collect_phases();  // the old solver's last reading, before the new solver's first
  m_warming_up = true;
  m_buffers->set_on_device(next->on_device());
  if (!m_system)
    m_system = std::make_unique<System>(m_buffers, std::move(next), m_integrator, m_params);
  else
    m_system->set_gravity(std::move(next));
}

namespace {
// Time runs backwards only where the step can retrace: not the damped Euler.
void check_reversible(bool reversed, Integrator integrator, const SimParams& p) {
  if (reversed && integrator == Integrator::euler && p.damping < 1.0f)
    throw InputError("time cannot run backwards with euler and damping " +
                     std::to_string(p.damping).substr(0, 4) +
                     " < 1 (damping loses what reversal needs); use leapfrog or yoshida4, or "
                     "damping 1");
}
}  // namespace

void Simulation::set_time_reversed(bool reversed) {
  check_reversible(reversed, m_integrator, m_params);
  cancel_job();  // the state before the run in flight: the new direction starts from it
  collect_phases();
  m_system->set_time_reversed(reversed);
  m_warming_up = true;
}

bool Simulation::time_reversed() const { return m_system->time_reversed(); }

void Simulation::set_integrator(Integrator integrator) {
  check_integrator(integrator, m_params);  // before cancelling anything
  check_reversible(m_system->time_reversed(), integrator, m_params);
  cancel_job();
  collect_phases();
  m_system->set_integrator(integrator);
  m_integrator = integrator;
  m_warming_up = true;  // leapfrog's first step evaluates the forces twice
  restart_diagnostics();
}

void Simulation::set_params(const SimParams& params) {
  validate(params);
  check_integrator(m_integrator, params);
  check_reversible(m_system->time_reversed(), m_integrator, params);
  m_params = params;
}

void Simulation::cancel_job() {
  if (m_job.active()) m_job.cancel();
}

void Simulation::restart_diagnostics() {
  m_diag_start.reset();
  m_diag_history.clear();
  m_frames_since_diag = 0;
}

bool Simulation::diagnostics_due() {
  if (m_diag_every <= 0) return false;
  if (++m_frames_since_diag < m_diag_every) return false;
  m_frames_since_diag = 0;
  return true;
}

void Simulation::record_diagnostics(const Diagnostics& d, long long step, double time) {
  const DiagnosticsSample s{step, time, d};
  if (!m_diag_start) m_diag_start = s;
  if (m_diag_history.size() >= k_diag_history) m_diag_history.erase(m_diag_history.begin());
  m_diag_history.push_back(s);
}

void Simulation::advance(int steps, const gfx::Companion* companion) {
  const int n = m_buffers->count();
  m_last_ms = -1.0f;
  m_last_phases.reset();
  const bool want_start = m_diag_every > 0 && !m_diag_start;
  if (!m_system->gravity().on_device()) {
    if (!m_job.active()) {
      m_system->set_params(m_params);
      const gfx::BodyBuffers::HostArrays h = m_buffers->host_arrays();
      m_job.start(*m_system, steps, h.a, h.b, h.vel, n, want_start, diagnostics_due());
    }
    settle_job(companion, k_cpu_wait_ms);
    return;
  }
  collect_phases();  // the previous frame's steps: finished by now, or nearly
  collect_probe();
  m_system->set_params(m_params);
  const bool check = !m_blown && ++m_frames_since_check >= k_finite_check_frames;
  const bool diag = diagnostics_due();
  const long long step0 = m_system->step_count();
  const double time0 = m_system->time();
  std::optional<Diagnostics> before, after;
  m_buffers->set_companion(companion);
  try {
    m_system->advance(
        steps,
        want_start ? StateView([&](const Vec4* pos, const Vec4* vel) {
          before = m_system->measure_arrays(pos, vel, n);
        })
                   : StateView(),
        [&](const Vec4* pos, const Vec4* vel) {  // the newest state, inside the mapping
          if (check && !m_probe->pending()) {
            m_probe->launch(pos, vel, n);
            m_frames_since_check = 0;
            m_probe_step = step0 + steps;
          }
          if (diag) after = m_system->measure_arrays(pos, vel, n);
        });
  } catch (...) {
    m_buffers->set_companion(nullptr);
    throw;
  }
  m_buffers->set_companion(nullptr);
  if (before) record_diagnostics(*before, step0, time0);
  if (after) record_diagnostics(*after, m_system->step_count(), m_system->time());
  m_pending_steps = steps;
  m_pending_interactions = steps * m_system->interactions_per_step(n);
  m_phases_pending = true;
}

void Simulation::idle(const gfx::Companion* companion) {
  m_last_ms = -1.0f;
  m_last_phases.reset();
  if (m_job.active()) {
    settle_job(companion, 0.0);
  } else if (companion) {
    m_buffers->view_on_device(*companion);
  }
  if (m_system->gravity().on_device()) {
    collect_phases();
    collect_probe();
  }
}

// Publishes a CPU run that has ended within `wait_ms`; otherwise shows the published state.
void Simulation::settle_job(const gfx::Companion* companion, double wait_ms) {
  if (!m_job.wait_for(wait_ms)) {
    if (companion) m_buffers->view_on_device(*companion);
    return;
  }
  const long long step0 = m_system->step_count();
  const double time0 = m_system->time();
  const int done = m_job.finish();
  if (done > 0 && m_job.bodies_left() < m_buffers->count())
    m_buffers->set_count(m_job.bodies_left());
  if (done > 0)
    m_buffers->publish_host(done, companion);
  else if (companion)
    m_buffers->view_on_device(*companion);
  m_system->account(done);
  const PhaseTimes t = m_system->phases().take();
  if (m_job.before()) record_diagnostics(*m_job.before(), step0, time0);
  if (m_job.after()) record_diagnostics(*m_job.after(), m_system->step_count(), m_system->time());
  const bool first = m_warming_up;
  m_warming_up = false;
  if (!first && done > 0) {
    m_last_ms = static_cast<float>(t.total() - t[Phase::diagnostics]);
    m_last_phases = t;
  }
  m_last_steps = done;
  m_last_interactions = done * m_system->interactions_per_step(m_buffers->count());
  if (m_job.nonfinite_body() >= 0 && !m_blown) {
    const long long step = m_system->step_count();
    m_blowup = Blowup{step, step - 1, m_job.nonfinite_body()};
    m_blown = true;
  }
}

void Simulation::collect_phases() {
  if (!m_phases_pending) return;
  m_phases_pending = false;
  const PhaseTimes t = m_system->phases().take();
  m_last_steps = m_pending_steps;
  m_last_interactions = m_pending_interactions;
  // A first step's time says nothing about the next ones.
  if (!m_warming_up) {
    m_last_ms = static_cast<float>(t.total() - t[Phase::diagnostics]);
    m_last_phases = t;
  }
  m_warming_up = false;
}

void Simulation::collect_probe() {
  long long first = -1;
  if (!m_probe || !m_probe->poll(first)) return;
  if (first < 0) {
    m_last_finite_step = m_probe_step;
  } else if (!m_blown) {
    m_blowup = Blowup{m_probe_step, m_last_finite_step, first};
    m_blown = true;
  }
}

std::optional<CollisionTotals> Simulation::collision_totals() {
  if (m_job.active()) return std::nullopt;
  return m_system->collision_totals();
}

void Simulation::tree_boxes(int max_level, std::vector<CellBox>& out) {
  out.clear();
  if (m_job.active()) return;  // the worker owns the tree while it steps
  m_system->gravity().cell_boxes(max_level, k_max_tree_boxes, out);
}

std::optional<Blowup> Simulation::take_blowup() {
  std::optional<Blowup> b;
  b.swap(m_blowup);
  return b;
}

std::vector<ui::SweepPoint> Simulation::sweep_blocks(const std::string& name,
                                                     const std::vector<int>& blocks) {
  cancel_job();
  collect_phases();
  const BodyState state = m_buffers->download();
  std::vector<ui::SweepPoint> out;
  for (int block : blocks) {
    std::unique_ptr<Solver> solver = make_solver(name, block);
    System sweep(make_device_storage(state), std::move(solver), m_integrator, m_params);
    sweep.advance(1);  // warm-up (and cuda-fast's autotuning)
    const double once = std::max(sweep.phases().take().total(), 1e-3);
    const int reps = std::clamp(static_cast<int>(60.0 / once), 2, 50);  // about 60 ms per block
    sweep.advance(reps);
    out.push_back({block, static_cast<float>(sweep.phases().take().total() / reps)});
  }
  return out;
}

}  // namespace orrery::app
