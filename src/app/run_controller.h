// The run controller: the viewer's hop between the frame and the Simulation. It owns the
// Simulation and the body buffers, steps the arrays the frame lends it (GPU: the frame's mapping)
// or runs CPU steps on a worker thread that publishes a copy, and keeps what the panel shows: the
// non-finite check, the diagnostics every K frames and the per-phase timings.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu_job.h"
#include "gfx/body_buffers.h"
#include "gfx/sprite.h"
#include "orrery/device.h"
#include "orrery/fields.h"
#include "orrery/presets.h"
#include "orrery/runner.h"
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
  void reset(Preset preset, int n, std::uint64_t seed, std::optional<float> radius = {});
  // The origin labels of the state just loaded (load() labels a state by its octants).
  void set_origin(const Preset* preset, const BodyState& s);
  // A file's particle types (the origin labels, named gas, halo, disk, bulge, stars, boundary)
  // and IDs, for the state just loaded: merges keep the heavier body's, and snapshots save them.
  void set_types(const std::vector<std::uint8_t>& types, const std::vector<std::uint64_t>& ids);
  // The same from given bodies; with `run` (a snapshot's), its integrator, parameters, time, step
  // count and collision totals too (the solver stays). Throws InputError (bad parameters) or the
  // memory check's error, keeping the old state.
  void load(const BodyState& s, const RunState* run);
  // The newest published state and the run's settings (a CPU run in flight is not in it: the
  // state and the step count are those before it). `block`: the block the viewer asked for.
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
  // The run's parameters (those waiting for a CPU run in flight, when there are some).
  const SimParams& params() const;
  // Checked against the integrator now (throws InputError); applied from the next run of steps.
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
  // that they run while the frame draws the state just published. The frame calls it once it has
  // read what it needs of that state (values, the tree, the readouts): while a run is in flight
  // the state is the worker's.
  void start_next_host(int steps);
  // Paused: publishes a CPU run that has ended and starts none; collects the GPU's readings.
  void idle();
  // Times `name` at each block size through a Simulation holding a copy of the current state.
  std::vector<ui::SweepPoint> sweep_blocks(const std::string& name, const std::vector<int>& blocks);

  const Solver& solver() const { return m_sim->solver(); }
  // What the collision stage has done since the reset (none while a CPU step runs; GPU: waits).
  std::optional<CollisionTotals> collision_totals();
  // A tree code's cells down to `max_level` (none while a CPU step runs, or for exact solvers).
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
  // Steps and simulation time since the last reset (while a CPU run is in flight: before it).
  long long step_count() const { return m_job.active() ? m_published.steps : m_sim->step_count(); }
  double sim_time() const { return m_job.active() ? m_published.time : m_sim->time(); }
  // The adaptive step's next size and its floor's count (while a CPU run is in flight: before it).
  double next_dt() const { return m_job.active() ? m_published_next_dt : m_sim->next_dt(); }
  long long floor_hits() const {
    return m_job.active() ? m_published_floor_hits : m_sim->floor_hits();
  }
  // The first reading after a reset or integrator change (the reference of the drifts), and every
  // reading since (at most k_diag_history, oldest dropped).
  const std::optional<DiagnosticsSample>& diagnostics_start() const { return m_diag_start; }
  const std::vector<DiagnosticsSample>& diagnostics_history() const { return m_diag_history; }
  // A non-finite state found since the last call (CPU: checked after every step; GPU: on the
  // device every k_finite_check_frames frames), once.
  std::optional<Blowup> take_blowup();
  // Per-body quantities (orrery/fields.h) of the newest state. Not while a CPU run is in flight
  // (returns false). quantity_host: on the host, wherever the state is (the device's are copied
  // back); origin from the labels. quantity_mapped: into the mapping's values buffer, on the
  // device (false when the solver runs on the host or the mapping has no values buffer).
  bool quantity_host(Quantity q, std::vector<float>& out);
  bool quantity_mapped(Quantity q, gfx::Mapping& m);
  // Changes with every new state (reset, load): what was drawn from the old one is stale.
  std::uint64_t epoch() const { return m_epoch; }
  // The origin labels' names. The labels (quantity_host) are those of the bodies left (merges
  // drop the lighter body's); while a CPU run is in flight, those from before it (invalid when it
  // merged bodies).
  const std::vector<std::string>& origin_names() const { return m_origin_names; }
  bool origin_valid() const {
    return !m_origin_now.empty() && static_cast<int>(m_origin_now.size()) == count();
  }
  // One body's position and velocity and its direct-sum acceleration (while a CPU run is in
  // flight: the published body and the last acceleration read, NaN if none), and the centre of
  // mass (none while a CPU run is in flight), of the newest state.
  using BodyReading = Simulation::BodyReading;
  std::optional<BodyReading> read_body(int index);
  std::optional<Vec3> centre_of_mass();
  // The body nearest window pixel (x, y) (origin bottom-left) within radius_px under these sprite
  // parameters: -1 when none (while a CPU run is in flight: among the published positions).
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
  void collect_phases();
  void collect_probe();
  void start_job(int steps);
  void publish_finished_run(double wait_ms);
  void cancel_job();
  void record_diagnostics(const Diagnostics& d, long long step, double time);
  void record(const RunResult& r);
  void restart_diagnostics();
  bool diagnostics_due();
  void apply_pending();

  std::unique_ptr<gfx::BodyBuffers> m_buffers;
  std::unique_ptr<Simulation> m_sim;  // made by the first set_solver()
  // Waiting to be applied: before the Simulation exists, and the panel's parameters while a CPU
  // run is in flight (applied before the next run).
  Integrator m_pending_integrator;
  std::optional<SimParams> m_pending_params;
  // The published state's run, taken as a CPU run starts: the worker owns the Simulation then.
  RunState m_published;
  double m_published_next_dt = 0;
  long long m_published_floor_hits = 0;
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
  // again when no CPU run is in flight and merges changed the rows (or `force`).
  void refresh_labels(bool force = false);
  std::size_t m_labels_rows = 0;  // the rows' count they were made for
  std::vector<float> m_origin, m_origin_now;
  std::vector<std::uint8_t> m_types_now;
  std::vector<std::uint64_t> m_ids_now;
  std::vector<std::string> m_origin_names;
  int m_acc_index = -1;  // read_body's last direct-sum acceleration, refreshed at each run's start
  Vec3 m_acc_last{0, 0, 0};
  std::optional<Vec3> m_published_com;  // the centre of mass of the state the run started from
  // Reads the newest state where it is (host or device pointers), outside any mapping.
  template <class F>
  bool with_state(F&& f);
};

}  // namespace orrery::app
