// The running system: the solver, the body buffers it steps through, and its timing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gfx/body_buffers.h"
#include "orrery/device.h"
#include "orrery/presets.h"
#include "orrery/solver.h"
#include "ui/settings.h"

namespace orrery::app {

class Simulation {
 public:
  explicit Simulation(gfx::DevicePath path);

  // New bodies from a preset; every buffer is re-created (and re-registered with CUDA).
  void reset(Preset preset, int n, std::uint64_t seed);
  // Builds the solver (throws the factory's exceptions, keeping the old one) and moves the state
  // to where it runs.
  void set_solver(const std::string& name, int block);
  // Runs `steps` steps into the buffers and times the solver alone. GPU steps are timed with
  // CUDA events that are read at the next advance, so the CPU never waits for the solver here and
  // builds the frame's UI while the GPU computes: last_sim_ms() is then one frame behind.
  // A companion (the CUDA splat) runs on the newest state after the steps, in the same mapping.
  void advance(int steps, const SimParams& params, const gfx::Companion* companion = nullptr);
  // Times `name` at each block size on scratch device arrays holding the current state.
  std::vector<ui::SweepPoint> sweep_blocks(const std::string& name, const std::vector<int>& blocks,
                                           const SimParams& params);

  const Solver& solver() const { return *m_solver; }
  const gfx::BodyBuffers& buffers() const { return m_buffers; }
  gfx::BodyBuffers& buffers() { return m_buffers; }  // for mapping the state (CUDA splat)
  int count() const { return m_buffers.count(); }
  // The newest solver time per frame; negative when there is none to report: before the first
  // reading, and for the first steps of a new solver or state (start-up, cuda-fast's autotuning).
  float last_sim_ms() const { return m_last_ms; }
  bool timed_with_events() const { return m_solver && m_solver->on_device(); }
  // The median speed of the initial state: the palette's reference.
  float speed_reference() const { return m_speed_ref; }
  // The mean body mass.
  float mass_reference() const { return m_mass_ref; }

 private:
  gfx::BodyBuffers m_buffers;
  std::unique_ptr<Solver> m_solver;
  std::unique_ptr<GpuTimer> m_timer;
  void collect_timer();
  bool m_timer_pending = false;  // events recorded, not read yet
  bool m_warming_up = true;      // the next reading belongs to a new solver's first steps
  float m_last_ms = -1.0f;
  float m_speed_ref = 1.0f;
  float m_mass_ref = 1.0f;
};

}  // namespace orrery::app
