// The running system: the solver, the body buffers it steps through, its timing, the CPU worker
// that keeps the window alive during long CPU steps, and the check for non-finite states.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu_job.h"
#include "gfx/body_buffers.h"
#include "orrery/device.h"
#include "orrery/presets.h"
#include "orrery/solver.h"
#include "ui/settings.h"

namespace orrery::app {

// Where a state first showed a non-finite position or velocity.
struct Blowup {
  long long step = 0;         // the step after which the check found it
  long long last_finite = 0;  // the last step a check found finite (== step - 1 when exact)
  long long body = -1;
};

class Simulation {
 public:
  explicit Simulation(gfx::DevicePath path);

  // New bodies from a preset; every buffer is re-created (and re-registered with CUDA). A CPU run
  // in flight is cancelled.
  void reset(Preset preset, int n, std::uint64_t seed);
  // Builds the solver (throws the factory's exceptions, keeping the old one) and moves the state
  // to where it runs (a CPU run in flight is cancelled first: the state is the one before it).
  void set_solver(const std::string& name, int block);
  // GPU solvers: runs `steps` steps into the buffers and times them with CUDA events read at the
  // next advance, so the CPU never waits for the solver here: last_sim_ms() is one frame behind.
  // CPU solvers: starts `steps` steps on a worker thread when none is in flight, and waits a few
  // milliseconds for them; whenever a run has ended its state is published (see poll()).
  // A companion (the CUDA splat) runs on the newest published state, in the same mapping.
  void advance(int steps, const SimParams& params, const gfx::Companion* companion = nullptr);
  // Paused: publishes a CPU run that has ended, starts none, and runs the companion.
  void idle(const gfx::Companion* companion = nullptr);
  // Times `name` at each block size on scratch device arrays holding the current state.
  std::vector<ui::SweepPoint> sweep_blocks(const std::string& name, const std::vector<int>& blocks,
                                           const SimParams& params);

  const Solver& solver() const { return *m_solver; }
  const gfx::BodyBuffers& buffers() const { return m_buffers; }
  int count() const { return m_buffers.count(); }
  // The newest solver time and the steps it covered; negative when there is none to report: no
  // run ended this frame, before the first reading, and for the first steps of a new solver or
  // state (start-up, cuda-fast's autotuning).
  float last_sim_ms() const { return m_last_ms; }
  int last_steps() const { return m_last_steps; }
  bool timed_with_events() const { return m_solver && m_solver->on_device(); }
  // A CPU run in flight, and the fraction of it done.
  bool stepping() const { return m_job.active(); }
  float step_progress() const { return m_job.progress(); }
  double step_running_s() const { return m_job.running_s(); }
  // Steps published since the last reset.
  long long step_count() const { return m_steps; }
  // A non-finite state found since the last call (CPU: checked after every step; GPU: on the
  // device every k_finite_check_frames frames), once.
  std::optional<Blowup> take_blowup();
  // The median speed of the initial state: the palette's reference.
  float speed_reference() const { return m_speed_ref; }
  // The mean body mass.
  float mass_reference() const { return m_mass_ref; }

  static constexpr int k_finite_check_frames = 10;
  static constexpr double k_cpu_wait_ms = 15.0;  // how long a frame waits for a CPU run

 private:
  void collect_timer();
  void collect_probe();
  void settle_job(const gfx::Companion* companion, double wait_ms);
  void cancel_job();

  gfx::BodyBuffers m_buffers;
  std::unique_ptr<Solver> m_solver;
  std::unique_ptr<GpuTimer> m_timer;
  std::unique_ptr<FiniteProbe> m_probe;
  CpuJob m_job;
  bool m_timer_pending = false;  // events recorded, not read yet
  bool m_warming_up = true;      // the next reading belongs to a new solver's first steps
  float m_last_ms = -1.0f;
  int m_last_steps = 0, m_pending_steps = 0;
  long long m_steps = 0;
  int m_frames_since_check = 0;
  long long m_probe_step = 0, m_last_finite_step = 0;
  std::optional<Blowup> m_blowup;
  bool m_blown = false;  // reported already: no further checks until a reset
  float m_speed_ref = 1.0f;
  float m_mass_ref = 1.0f;
};

}  // namespace orrery::app
