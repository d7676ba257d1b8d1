// The run controller: the viewer's hop between the frame and the Simulation. It owns the
// Simulation the viewer reads and the body buffers. GPU solvers: it steps the arrays the frame
// lends it (the frame's mapping). CPU solvers: a worker thread steps a second Simulation of its
// own, and each finished run is published - its state into the buffers, its progress into the
// Simulation the viewer reads (REBOUND's display works on a copy the same way) - so everything
// the frame reads is the published state, whether or not a run is in flight. It keeps what the
// panel shows: the non-finite check, the diagnostics every K frames and the per-phase timings.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu_job.h"
#include "gfx/body_buffers.h"
#include "gfx/density_map.h"
#include "gfx/sprite.h"
#include "orrery/device.h"
#include "orrery/fields.h"
#include "orrery/presets.h"
#include "orrery/runner.h"
#include "orrery/series.h"
#include "orrery/simulation.h"
#include "orrery/snapshot.h"
#include "ui/settings.h"

namespace orrery::app {

// Where a state first showed a non-finite position or velocity.
struct Blowup {
  long long step = 0;         // the step after which the check found it
  long long last_finite = 0;  // the last step a check found finite (== step - 1 when exact)
  long long body = -1;
};

// One diagnostics reading and where it was taken.
struct DiagnosticsSample {
  long long step = 0;
  double time = 0;
  Diagnostics d;
};

class RunController {
 public:
  // Throws InputError when the integrator refuses the parameters.
  RunController(gfx::DevicePath path, Integrator integrator, const SimParams& params);

  // New bodies from a preset; every buffer is re-created (and re-registered with CUDA). A CPU run
  // in flight is cancelled. Time, step count and the diagnostics' history start again.
  // radius: every body's, instead of the preset's radii.
  // units: the preset's (henon rescales its bodies).
  void reset(Preset preset, int n, std::uint64_t seed, std::optional<float> radius = {},
             const UnitsChoice& units = {});
  // The origin labels of the state just loaded (load() labels a state by its octants).
  void set_origin(const Preset* preset, const BodyState& s);
  // A file's particle types (the origin labels, named gas, halo, disk, bulge, stars, boundary)
  // and IDs, for the state just loaded: merges keep the heavier body's, and snapshots save them.
  void set_types(const std::vector<std::uint8_t>& types, const std::vector<std::uint64_t>& ids);
  // The same from given bodies; with `run` (a snapshot's), its integrator, parameters, time, step
  // count, collision totals and units too (the solver stays); without, `units`. Throws InputError
  // (bad parameters) or the memory check's error, keeping the old state.
  void load(const BodyState& s, const RunState* run, const UnitSystem& units = {});
  // --save-every: writes the run as a series, its first output the state now (written here). A
  // failed write stops the series (every earlier output whole): series_error() says why once. The
  // writer's outputs so far, for the exit line.
  void set_series(const SeriesPlan& plan);
  // Why the series stopped, once (empty: it goes on, or it was told).
  std::string take_series_error();
  // Stops the run and waits until the series' outputs begun are written (at the end: the last
  // one is written behind the steps).
  void finish_series();
  const SeriesWriter* series() const { return m_series ? &*m_series : nullptr; }
  // Playback: `s` (as many bodies as now) in place of the state, as a step would publish it, and
  // the run's clock at `time`; no step runs. A CPU run in flight is cancelled first.
  void show(const BodyState& s, double time);
  // The same on the device: `write` fills a mapping's next positions and velocities (as many
  // bodies as now) on the device. GPU solvers only.
  void show_on_device(const std::function<void(Bodies&)>& write, double time);
  // The newest published state and the run's settings (a CPU run in flight is not in it).
  // `block`: the block the viewer asked for.
  Snapshot snapshot(int block);
  // Builds the solver (throws the factory's exceptions, keeping the old one) and moves the state
  // to where it runs (a CPU run in flight is cancelled first: the state is the one before it).
  void set_solver(const std::string& name, int block, int gpus = 1);
  // Throws InputError (keeping the old one) when the integrator refuses the parameters; a CPU run
  // in flight is cancelled first. The diagnostics' history starts again from the next reading.
  void set_integrator(Integrator integrator);
  // Time runs backwards (every step uses -dt) while set. Throws InputError, changing nothing, for
  // euler with damping < 1 (not reversible); a CPU run in flight is cancelled first.
  void set_time_reversed(bool reversed);
  bool time_reversed() const;
  // The run's parameters.
  const SimParams& params() const { return m_sim->params(); }
  // Checked against the integrator now (throws InputError); a CPU run in flight finishes with the
  // old ones, the next takes these.
  void set_params(const SimParams& params);
  // Diagnostics every `frames` frames of steps (0: off).
  void set_diagnostics_every(int frames) { m_diag_every = frames; }
  // GPU solvers: `steps` steps of the frame's mapping (map(steps) of buffers()), committed to the
  // buffers; phases timed with CUDA events read at the next call, so the CPU never waits for the
  // solver here (last_sim_ms() is one frame behind).
  void step_mapped(int steps, gfx::Mapping& m);
  // CPU solvers: starts `steps` steps on a worker thread when none is in flight, and waits a few
  // milliseconds for them; a run that has ended is published to the buffers.
  void step_host(int steps);
  // CPU solvers: starts the next `steps` steps now when none is in flight, without waiting, so
  // that they run while the frame draws the state just published.
  void start_next_host(int steps);
  // Paused: publishes a CPU run that has ended and starts none; collects the GPU's readings.
  void idle();
  // Times `name` at each block size through a Simulation holding a copy of the current state.
  std::vector<ui::SweepPoint> sweep_blocks(const std::string& name, const std::vector<int>& blocks);

  const Solver& solver() const { return m_sim->solver(); }
  // What the collision stage has done since the reset, as published (GPU: waits).
  CollisionTotals collision_totals() { return m_sim->collision_totals(); }
  // The cells of the tree a tree code built for the published state, down to `max_level` (none
  // for exact solvers, and none while a CPU run in flight rebuilds it).
  void tree_boxes(int max_level, std::vector<Aabb>& out);
  Integrator integrator() const { return m_sim ? m_sim->integrator() : m_pending_integrator; }
  const gfx::BodyBuffers& buffers() const { return *m_buffers; }
  gfx::BodyBuffers& buffers() { return *m_buffers; }
  int count() const { return m_buffers->count(); }
  // The newest solver time and the steps it covered; negative when there is none to report: no
  // run ended this frame, before the first reading, and for the first steps of a new solver or
  // state (start-up, cuda-fast's autotuning).
  float last_sim_ms() const { return m_last_ms; }
  int last_steps() const { return m_last_steps; }
  // Interactions of the steps last_sim_ms() covered (from the solver).
  double last_interactions() const { return m_last_interactions; }
  // The phases of those steps (and of a diagnostics reading among them); none with last_sim_ms.
  const std::optional<PhaseTimes>& last_phases() const { return m_last_phases; }
  bool timed_with_events() const { return m_sim->solver().on_device(); }
  // A CPU run in flight, and the fraction of it done.
  bool stepping() const { return m_job.active(); }
  // Steps published since the controller was made (every state and solver): the run's pace.
  long long steps_taken() const { return m_steps_taken; }
  float step_progress() const { return m_job.progress(); }
  double step_running_s() const { return m_job.running_s(); }
  // Steps and simulation time since the last reset, the adaptive step's next size and its
  // floor's count, as published.
  long long step_count() const { return m_sim->step_count(); }
  double sim_time() const { return m_sim->time(); }
  double next_dt() const { return m_sim->next_dt(); }
  long long floor_hits() const { return m_sim->floor_hits(); }
  // The first reading after a reset or integrator change (the reference of the drifts), and every
  // reading since (at most k_diag_history, oldest dropped).
  const std::optional<DiagnosticsSample>& diagnostics_start() const { return m_diag_start; }
  const std::vector<DiagnosticsSample>& diagnostics_history() const { return m_diag_history; }
  // A non-finite state found since the last call (CPU: checked after every step; GPU: on the
  // device every k_finite_check_frames frames), once.
  std::optional<Blowup> take_blowup();
  // Per-body quantities (orrery/fields.h) of the published state. quantity_host: on the host,
  // wherever the state is (the device's are copied back); origin from the labels (false when they
  // do not cover the bodies; with stride > 1, bodies 0, stride, ... of the state). quantity_mapped:
  // into the mapping's values buffer, on the device
  // (false when the solver runs on the host or the mapping has no values buffer).
  bool quantity_host(Quantity q, std::vector<float>& out, int stride = 1);
  bool quantity_mapped(Quantity q, gfx::Mapping& m);
  // Changes with every new state (reset, load): what was drawn from the old one is stale.
  std::uint64_t epoch() const { return m_epoch; }
  // The origin labels' names. The labels (quantity_host) are those of the bodies left (merges
  // drop the lighter body's).
  const std::vector<std::string>& origin_names() const { return m_origin_names; }
  // The units of the state's numbers (a file's or the preset's).
  const UnitSystem& units() const { return m_sim->units(); }
  // The run's clock, settings and units as a snapshot records them.
  RunState run_state() { return m_sim->run_state(); }
  bool origin_valid() const {
    return !m_origin_now.empty() && static_cast<int>(m_origin_now.size()) == count();
  }
  // One body's position and velocity and its direct-sum acceleration, and the centre of mass, of
  // the published state.
  using BodyReading = Simulation::BodyReading;
  std::optional<BodyReading> read_body(int index);
  std::optional<Vec3> centre_of_mass();
  // The newest state's density map as p sees it (mass per pixel, into `map`): on the GPU with
  // `device` (made on first use) where the state is there, else on the CPU with `h` as scratch.
  void density_map(const gfx::SpriteParams& p, std::unique_ptr<gfx::DeviceDensityMap>& device,
                   std::vector<float>& h, std::vector<float>& map);
  // An even sample of at most `max` of the newest positions (empty: no state).
  std::vector<Vec4> sample_positions(std::size_t max);
  // The body nearest window pixel (x, y) (origin bottom-left) within radius_px under these sprite
  // parameters: -1 when none.
  int pick(const gfx::SpriteParams& p, float x, float y, float radius_px);

  // The mean body mass.
  float mass_reference() const { return m_mass_ref; }

  static constexpr int k_finite_check_frames = 10;
  // How long a frame waits for a CPU run, and the viewer's default N's step budget on the CPU
  // (App::k_cpu_step_budget_ms), so each frame shows a new step there; a longer run goes on while
  // the frames keep drawing. The run started by start_next_host has had the last frame's drawing
  // to work in. A run that takes a diagnostics reading is waited for that much longer (at most
  // k_cpu_wait_ms more).
  static constexpr double k_cpu_wait_ms = 25.0;
  static constexpr std::size_t k_diag_history = 600;
  static constexpr std::size_t k_max_tree_boxes = 200000;

 private:
  // The series' hook for a run's steps (empty without --save-every): writes output 0 first.
  std::function<void(Simulation&, const Bodies&)> series_hook();
  void shown_at(double time);
  std::optional<SeriesWriter> m_series;
  std::string m_series_error;  // why the series stopped (then no more outputs)
  bool m_series_told = false;
  void collect_phases();
  void collect_probe();
  void start_job(int steps);
  void publish_finished_run(double wait_ms);
  void cancel_job();
  // The CPU path's worker Simulation, seeded from the published run where it is not that run's
  // (a new state, solver, integrator, direction or labels; a cancelled run); new parameters
  // reach it as parameters, keeping what its integrator kept.
  Simulation& worker();
  void record_diagnostics(const Diagnostics& d, long long step, double time);
  void record(const RunResult& r);
  void restart_diagnostics();
  bool diagnostics_due();

  std::unique_ptr<gfx::BodyBuffers> m_buffers;
  std::unique_ptr<Simulation> m_sim;  // made by the first set_solver()
  // Waiting for the first set_solver(), which makes the Simulation.
  Integrator m_pending_integrator;
  std::optional<SimParams> m_pending_params;
  // The CPU path: the worker's Simulation, the module it was made with, and whether it holds the
  // published run (its parameters apart).
  std::unique_ptr<Simulation> m_worker;
  std::string m_solver_name;
  int m_block = 0, m_gpus = 1;
  bool m_worker_current = false;
  std::unique_ptr<FiniteProbe> m_probe;
  CpuJob m_job;
  long long m_steps_taken = 0;
  bool m_phases_pending = false;  // GPU phases recorded, not read yet
  bool m_warming_up = true;       // the next reading belongs to a new solver's first steps
  float m_last_ms = -1.0f;
  int m_last_steps = 0, m_pending_steps = 0;
  double m_last_interactions = 0, m_pending_interactions = 0;
  std::optional<PhaseTimes> m_last_phases;
  int m_frames_since_check = 0;
  long long m_probe_step = 0, m_last_finite_step = 0;
  std::optional<Blowup> m_blowup;
  bool m_blown = false;  // reported already: no further checks until a reset
  int m_diag_every = 10, m_frames_since_diag = 0;
  // The CPU clock of the newest reading, and the readings the run in flight takes: a frame waits
  // for those too, so that a reading does not cost a frame its step.
  double m_reading_ms = 0.0;
  int m_job_readings = 0;
  std::optional<DiagnosticsSample> m_diag_start;
  std::vector<DiagnosticsSample> m_diag_history;
  float m_mass_ref = 1.0f;
  std::uint64_t m_epoch = 0;
  // The labels as loaded, and those of the bodies left (through the Simulation's rows), made
  // again when merges changed the rows (or `force`).
  void refresh_labels(bool force = false);
  std::size_t m_labels_rows = 0;  // the rows' count they were made for
  std::vector<float> m_origin, m_origin_now;
  std::vector<std::uint8_t> m_types_now;
  std::vector<std::uint64_t> m_ids_now;
  std::vector<std::string> m_origin_names;
  // Reads the published state where it is (host or device pointers), outside any mapping.
  template <class F>
  void with_state(F&& f);
};

}  // namespace orrery::app
