// RunController: preset loading, solver and integrator switching, stepping through the Simulation
// and the Runner (CPU runs on a worker thread), the non-finite check, diagnostics, phase timings
// and the block-size sweep.
#include "run_controller.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "cli.h"
#include "gfx/trails_picking.h"
#include "orrery/gpu_buffer.h"
#include "orrery/host_memory.h"
#include "orrery/runner.h"

namespace orrery::app {
RunController::RunController(gfx::DevicePath path, Integrator integrator, const SimParams& params)
    : m_buffers(std::make_unique<gfx::BodyBuffers>(path)),
      m_pending_integrator(integrator),
      m_pending_params(params) {
  validate(params);
  check_integrator(integrator, params);
  if (path != gfx::DevicePath::none) m_probe = std::make_unique<FiniteProbe>();
}

void RunController::reset(Preset preset, int n, std::uint64_t seed, std::optional<float> radius,
                          const UnitsChoice& units) {
  // May throw (an N the GPU cannot hold, or a bad N): the old state stays then.
  if (m_sim) check_device_memory(solver_info(m_sim->solver().name()), n);
  if (m_sim && !m_sim->solver().on_device())
    check_host_memory(n, k_viewer_host_bytes_per_body +
                             host_scratch_bytes_per_body(solver_info(m_sim->solver().name()),
                                                         m_sim->params().precision));
  BodyState s = make_preset(preset, n, seed);
  if (radius) set_radius(s.vel, *radius);
  if (units.henon) scale_to_henon(s);
  load(s, nullptr, units.units);
  set_origin(&preset, s);
}

void RunController::set_types(const std::vector<std::uint8_t>& types,
                              const std::vector<std::uint64_t>& ids) {
  if (static_cast<int>(types.size()) != count()) return;
  cancel_job();  // the labels are the published bodies': a run in flight is of their rows before
  m_sim->set_labels(types, ids);
  m_worker_current = false;
  m_origin.assign(types.begin(), types.end());
  m_origin_names = particle_type_names();
  refresh_labels(true);
}

void RunController::set_origin(const Preset* preset, const BodyState& s) {
  m_origin = orrery::origin_labels(preset, s);
  m_origin_names = orrery::origin_names(preset);
  refresh_labels(true);
}

void RunController::refresh_labels(bool force) {
  // Rows change only with merges (each drops one) or a new state (which forces this).
  if (!force && m_sim->rows().size() == m_labels_rows) return;
  m_labels_rows = m_sim->rows().size();
  m_origin_now = m_sim->follow_rows(m_origin);
  m_types_now = m_sim->types();
  m_ids_now = m_sim->ids();
}

// Reads the published state where it is (host arrays, device arrays, or the VBOs mapped
// read-only), outside the frame's mapping. A CPU run in flight steps its own arrays.
template <class F>
void RunController::with_state(F&& f) {
  gfx::Mapping m = m_buffers->map(0);
  f(m.bodies());
}

bool RunController::quantity_host(Quantity q, std::vector<float>& out, int stride) {
  if (quantity_info(q).label) {  // labels the controller keeps, apart from the state
    refresh_labels();
    if (!origin_valid()) return false;
    out = m_origin_now;
    return true;
  }
  stride = std::max(stride, 1);
  out.resize(static_cast<std::size_t>((m_buffers->count() + stride - 1) / stride));
  with_state([&](const Bodies& b) { m_sim->quantity_to_host(q, b, out.data(), stride); });
  return true;
}

bool RunController::quantity_mapped(Quantity q, gfx::Mapping& m) {
  if (!m_sim->on_device() || quantity_info(q).label || !m.values()) return false;
  m_sim->quantity(q, m.bodies(), m.values());
  return true;
}

std::optional<RunController::BodyReading> RunController::read_body(int index) {
  std::optional<BodyReading> r;
  if (index < 0 || index >= m_buffers->count()) return r;
  with_state([&](const Bodies& b) { r = m_sim->read_body(b, index); });
  return r;
}

std::optional<Vec3> RunController::centre_of_mass() {
  std::optional<Vec3> c;
  with_state([&](const Bodies& b) {
    const Vec3d d = m_sim->centre_of_mass(b);
    c = Vec3{static_cast<float>(d.x), static_cast<float>(d.y), static_cast<float>(d.z)};
  });
  return c;
}

void RunController::density_map(const gfx::SpriteParams& p,
                                std::unique_ptr<gfx::DeviceDensityMap>& device,
                                std::vector<float>& h, std::vector<float>& map) {
  with_state([&](const Bodies& b) {
    if (b.on_device) {
      if (!device) device = std::make_unique<gfx::DeviceDensityMap>();
      device->make(b.pos, b.n, p, map);
      return;
    }
    h.resize(static_cast<std::size_t>(b.n));
    map.resize(static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height));
    gfx::smoothing_lengths_cpu(b.pos, b.n, h.data());
    gfx::density_map_cpu(b.pos, h.data(), b.n, p, map.data());
  });
}

std::vector<Vec4> RunController::sample_positions(std::size_t max) {
  std::vector<Vec4> out;
  with_state([&](const Bodies& b) { out = m_sim->sample_positions(b, max); });
  return out;
}

int RunController::pick(const gfx::SpriteParams& p, float x, float y, float radius_px) {
  int picked = -1;
  with_state([&](const Bodies& b) {
    picked = b.on_device ? gfx::pick_device(b.pos, b.n, p, x, y, radius_px)
                         : gfx::pick_cpu(b.pos, b.n, p, x, y, radius_px);
  });
  return picked;
}

// After a playback state replaced the published one: kept forces are another state's, and the
// run's clock is the state's time.
void RunController::shown_at(double time) {
  m_sim->state_changed();
  RunState r = m_sim->run_state();
  r.time = time;
  m_sim->resume(r);
}

void RunController::show(const BodyState& s, double time) {
  const int n = s.size();
  if (n != count()) throw std::logic_error("RunController::show: the count changed (load instead)");
  cancel_job();
  if (m_buffers->on_device()) {
    gfx::Mapping m = m_buffers->map(1);  // the next buffer write-discard, as a step writes it
    Bodies& b = m.bodies();
    gpu_memory::upload(b.next, s.pos.data(), sizeof(Vec4) * static_cast<std::size_t>(n));
    gpu_memory::upload(b.vel, s.vel.data(), sizeof(Vec4) * static_cast<std::size_t>(n));
    b.flip();
    m.commit();
  } else {
    m_buffers->publish_host(Bodies{const_cast<Vec4*>(s.pos.data()), nullptr,
                                   const_cast<Vec4*>(s.vel.data()), n, false});
    m_worker_current = false;  // the worker's copy is of the state before
  }
  shown_at(time);
}

void RunController::show_on_device(const std::function<void(Bodies&)>& write, double time) {
  if (!m_buffers->on_device()) throw std::logic_error("RunController::show_on_device: a CPU run");
  {
    gfx::Mapping m = m_buffers->map(1);
    write(m.bodies());
    m.bodies().flip();
    m.commit();
  }
  shown_at(time);
}

void RunController::load(const BodyState& s, const RunState* run, const UnitSystem& units) {
  const int n = s.size();
  if (m_sim) check_device_memory(solver_info(m_sim->solver().name()), n);
  if (run) {
    validate(run->params);
    check_integrator(run->integrator, run->params);
  }
  check_box_fits((run ? run->params : params()).collisions.box, s.vel);
  cancel_job();
  collect_phases();              // the old state's last reading, before the new state's first
  if (m_probe) m_probe->wait();  // the old state's check, whose result no longer matters
  m_warming_up = true;
  m_buffers->load(s.pos, s.vel);  // fills every copy, whichever side the solver runs on
  m_sim->state_changed();
  m_sim->mark_rows(n);  // labels (origins, types, IDs) follow the bodies through merges
  m_sim->set_labels({}, {});
  m_sim->resume(RunState{});  // time, steps, direction and collision totals from 0
  m_sim->set_units(units);
  double mass = 0.0;
  for (const Vec4& p : s.pos) mass += p.w;
  m_mass_ref = static_cast<float>(mass / n);
  m_probe_step = m_last_finite_step = 0;
  m_frames_since_check = 0;
  m_blowup.reset();
  m_blown = false;
  if (run) {
    // euler takes any parameters: through it to the run's pair, whatever the current one is.
    m_sim->set_time_reversed(false);
    m_sim->set_integrator(Integrator::euler);
    m_sim->set_params(run->params);
    m_sim->set_integrator(run->integrator);
    m_sim->resume(*run);
  }
  m_worker_current = false;
  m_sim->set_exact_state(s);  // a double-precision file's own values, not their float rounding
  restart_diagnostics();
  set_origin(nullptr, s);
  ++m_epoch;
}

Snapshot RunController::snapshot(int block) {
  Snapshot s;
  s.bodies = m_buffers->download();
  s.run = m_sim->run_state();
  m_sim->exact_state(s.bodies);
  s.run.block = block;
  refresh_labels();
  if (m_types_now.size() == s.bodies.pos.size()) s.types = m_types_now, s.ids = m_ids_now;
  return s;
}

void RunController::set_solver(const std::string& name, int block, int gpus) {
  if (m_buffers->count() > 0) check_device_memory(solver_info(name), m_buffers->count());
  std::unique_ptr<Solver> next = make_solver(name, block, gpus);
  if (m_sim) check_precision(*next, params());  // before cancelling anything
  cancel_job();
  collect_phases();  // the old solver's last reading, before the new solver's first
  m_warming_up = true;
  m_buffers->set_on_device(next->on_device());
  if (!m_sim) {
    m_sim = std::make_unique<Simulation>(std::move(next), m_pending_integrator, *m_pending_params);
    m_pending_params.reset();
  } else {
    m_sim->set_solver(std::move(next));
  }
  m_solver_name = name, m_block = block, m_gpus = gpus;
  m_worker.reset();  // made again with the new module at the next CPU run
}

void RunController::set_time_reversed(bool reversed) {
  if (reversed) check_reversible(m_sim->integrator(), params());
  cancel_job();  // the published state: the new direction starts from it
  collect_phases();
  m_sim->set_time_reversed(reversed);
  m_worker_current = false;
  m_warming_up = true;
}

bool RunController::time_reversed() const { return m_sim->time_reversed(); }

void RunController::set_integrator(Integrator integrator) {
  m_sim->check(integrator, params(), m_sim->time_reversed());  // before cancelling anything
  cancel_job();
  collect_phases();
  m_sim->set_integrator(integrator);
  m_worker_current = false;
  m_warming_up = true;  // leapfrog's first step evaluates the forces twice
  restart_diagnostics();
}

void RunController::set_params(const SimParams& params) {
  m_sim->check(m_sim->integrator(), params, m_sim->time_reversed());
  // New walls (the panel's box) must hold the bodies, as at the start: smaller ones once
  // collapsed every body to the origin.
  if (params.collisions.box > 0.0f && params.collisions.box != this->params().collisions.box)
    check_box_fits(params.collisions.box, m_buffers->download().vel);
  m_sim->set_params(params);  // the worker's take them at its next run
}

void RunController::cancel_job() {
  if (!m_job.active()) return;
  m_job.cancel();
  m_worker_current = false;  // part of a run: seeded again from the published one
}

Simulation& RunController::worker() {
  if (m_worker && m_worker_current) {
    m_worker->set_params(m_sim->params());  // what its integrator kept stays, where still true
    return *m_worker;
  }
  BodyState s = m_buffers->download();
  m_sim->exact_state(s);
  m_worker = std::make_unique<Simulation>(s, make_solver(m_solver_name, m_block, m_gpus),
                                          m_sim->integrator(), m_sim->params());
  m_worker->set_time_reversed(m_sim->time_reversed());
  m_worker->follow(*m_sim);
  m_worker_current = true;
  return *m_worker;
}

void RunController::restart_diagnostics() {
  m_diag_start.reset();
  m_diag_history.clear();
  m_frames_since_diag = 0;
}

bool RunController::diagnostics_due() {
  if (m_diag_every <= 0) return false;
  if (++m_frames_since_diag < m_diag_every) return false;
  m_frames_since_diag = 0;
  return true;
}

void RunController::record_diagnostics(const Diagnostics& d, long long step, double time) {
  const DiagnosticsSample s{step, time, d};
  if (!m_diag_start) m_diag_start = s;
  if (m_diag_history.size() >= k_diag_history) m_diag_history.erase(m_diag_history.begin());
  m_diag_history.push_back(s);
}

void RunController::record(const RunResult& r) {
  m_steps_taken += r.steps;
  for (const RunReading& x : r.readings) {
    record_diagnostics(x.d, x.step, x.time);
    m_reading_ms = x.d.ms;
  }
}

void RunController::step_host(int steps) {
  m_last_ms = -1.0f;
  m_last_phases.reset();
  if (!m_job.active()) start_job(steps);
  publish_finished_run(k_cpu_wait_ms + std::min(m_job_readings * m_reading_ms, k_cpu_wait_ms));
}

void RunController::start_next_host(int steps) {
  if (!m_job.active() && !m_sim->on_device()) start_job(steps);
}

std::function<void(Simulation&, const Bodies&)> RunController::series_hook() {
  if (!m_series || !m_series_error.empty()) return {};
  return [this](Simulation& sim, const Bodies& b) {
    if (!m_series_error.empty()) return;
    try {
      m_series->after_step(sim, b);
    } catch (const std::exception& e) {
      m_series_error = e.what();  // told once by take_series_error(); the run goes on
    }
  };
}

void RunController::set_series(const SeriesPlan& plan) {
  m_series.emplace(plan);
  m_series_error.clear(), m_series_told = false;
  cancel_job();  // output 0 is the published state, and the run's clock starts there
  try {
    if (m_buffers->on_device()) {
      gfx::Mapping m = m_buffers->map(0);
      m_series->start(*m_sim, m.bodies());
    } else {
      m_series->start(*m_sim, m_buffers->host_bodies());
    }
  } catch (const std::exception& e) {
    m_series_error = e.what();
  }
}

void RunController::finish_series() {
  if (!m_series) return;
  cancel_job();  // no step writes an output while this waits
  try {
    m_series->finish();
  } catch (const std::exception& e) {
    if (m_series_error.empty()) m_series_error = e.what();
  }
}

std::string RunController::take_series_error() {
  if (m_series_error.empty() || m_series_told) return "";
  m_series_told = true;
  return m_series_error;
}

void RunController::start_job(int steps) {
  Simulation& w = worker();
  const bool want_start = m_diag_every > 0 && !m_diag_start;
  const bool want_end = diagnostics_due();
  m_job.start(w, steps, want_start, want_end, series_hook());
  m_job_readings = int(want_start) + int(want_end);
}

void RunController::step_mapped(int steps, gfx::Mapping& m) {
  m_last_ms = -1.0f;
  m_last_phases.reset();
  collect_phases();  // the previous frame's steps: finished by now, or nearly
  collect_probe();
  const bool check = !m_blown && ++m_frames_since_check >= k_finite_check_frames;
  RunPlan plan;
  plan.steps = steps;
  plan.measure_start = m_diag_every > 0 && !m_diag_start;
  plan.measure_end = diagnostics_due();
  plan.phases = PhaseCollection::left;  // read a frame late: the CPU never waits for them here
  if (check) plan.finite = FiniteCheck::launch, plan.probe = m_probe.get();
  plan.after_step = series_hook();
  const RunResult r = Runner::run(*m_sim, m.bodies(), plan);  // inside the frame's mapping
  m.commit();
  if (r.probe_launched) {
    m_frames_since_check = 0;
    m_probe_step = m_sim->step_count();
  }
  record(r);
  m_pending_steps = steps;
  m_pending_interactions = r.interactions;
  m_phases_pending = true;
}

void RunController::idle() {
  m_last_ms = -1.0f;
  m_last_phases.reset();
  publish_finished_run(0.0);
  if (m_sim->on_device()) {
    collect_phases();
    collect_probe();
  }
}

// Publishes a CPU run that has ended within `wait_ms`.
void RunController::publish_finished_run(double wait_ms) {
  if (!m_job.wait_for(wait_ms)) return;
  m_worker_current = false;  // until the run is known to have ended without an exception
  const RunResult& r = m_job.finish();
  m_worker_current = true;
  Simulation& w = *m_worker;
  if (r.steps > 0) {
    m_buffers->publish_host(w.bodies());
    m_sim->follow(w);
    if (w.params().precision == Precision::double_) m_sim->set_exact_state(w.state());
  }
  const PhaseTimes t = w.phases().take();
  record(r);
  const bool first = m_warming_up;
  m_warming_up = false;
  if (!first && r.steps > 0) {
    m_last_ms = static_cast<float>(t.total() - t[Phase::diagnostics]);
    m_last_phases = t;
  }
  m_last_steps = r.steps;
  m_last_interactions = r.interactions;
  if (r.nonfinite_body >= 0 && !m_blown) {
    const long long step = m_sim->step_count();
    m_blowup = Blowup{step, step - 1, r.nonfinite_body};
    m_blown = true;
  }
}

void RunController::collect_phases() {
  if (!m_phases_pending) return;
  m_phases_pending = false;
  const PhaseTimes t = m_sim->phases().take();
  m_last_steps = m_pending_steps;
  m_last_interactions = m_pending_interactions;
  // A first step's time says nothing about the next ones.
  if (!m_warming_up) {
    m_last_ms = static_cast<float>(t.total() - t[Phase::diagnostics]);
    m_last_phases = t;
  }
  m_warming_up = false;
}

void RunController::collect_probe() {
  long long first = -1;
  if (!m_probe || !m_probe->poll(first)) return;
  if (first < 0) {
    m_last_finite_step = m_probe_step;
  } else if (!m_blown) {
    m_blowup = Blowup{m_probe_step, m_last_finite_step, first};
    m_blown = true;
  }
}

void RunController::tree_boxes(int max_level, std::vector<Aabb>& out) {
  out.clear();
  if (m_job.active()) return;                         // the worker's tree is its own while it steps
  Simulation& built = m_worker ? *m_worker : *m_sim;  // the tree of the published state
  built.solver().tree_cells(max_level, k_max_tree_boxes, out);
}

std::optional<Blowup> RunController::take_blowup() {
  std::optional<Blowup> b;
  b.swap(m_blowup);
  return b;
}

std::vector<ui::SweepPoint> RunController::sweep_blocks(const std::string& name,
                                                        const std::vector<int>& blocks) {
  cancel_job();
  collect_phases();
  const BodyState state = m_buffers->download();
  std::vector<ui::SweepPoint> out;
  for (int block : blocks) {
    Simulation sweep(state, make_solver(name, block), m_sim->integrator(), m_sim->params());
    RunPlan once;  // warm-up (and cuda-fast's autotuning)
    const double first = std::max(Runner::run(sweep, once).phases.total(), 1e-3);
    RunPlan timed;
    timed.steps = std::clamp(static_cast<int>(60.0 / first), 2, 50);  // about 60 ms per block
    const RunResult r = Runner::run(sweep, timed);
    out.push_back({block, static_cast<float>(r.phases.total() / timed.steps)});
  }
  return out;
}

}  // namespace orrery::app
