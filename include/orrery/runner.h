// The Runner: the one loop around Simulation::step. Warm-up steps, the timed steps, finite checks,
// the diagnostics cadence, phase collection, cancellation and progress, for every caller: the
// bench, the size probe, the block sweep, the viewer (its GPU path inside the frame's mapping, its
// CPU path on a worker thread) and the Python module.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "orrery/device.h"
#include "orrery/simulation.h"

namespace orrery {

enum class FiniteCheck {
  none,
  every_step,  // after each step, waiting for the answer; the run stops at the first bad step
  launch,      // once after the last step through the plan's FiniteProbe, not waiting (the caller
               // polls it: the viewer's frame never waits for the device)
};

enum class PhaseCollection {
  per_step,  // taken after each timed step (and apart from each reading)
  whole,     // taken once after the timed steps (readings among them included)
  left,      // not taken: the caller takes them later (a frame late on the GPU)
};

struct RunPlan {
  int warmup = 0;  // steps before the timed ones, their phases dropped (cuda-fast tunes then)
  int steps = 1;   // the timed steps
  FiniteCheck finite = FiniteCheck::none;
  FiniteProbe* probe = nullptr;  // FiniteCheck::launch: the probe to launch (skipped while busy)
  bool measure_start = false;    // a reading before the first step
  int measure_every = 0;         // a reading after every K-th step (warm-ups counted); 0: none
  bool measure_end = false;      // a reading after the last step, when the state stayed finite
  PhaseCollection phases = PhaseCollection::whole;
  bool wall_clock = false;  // time the timed steps on the host clock, waiting for the device
  const std::atomic<bool>* cancel = nullptr;  // checked between steps
  std::optional<double> until;                // the run ends once the Simulation's time reaches it
  // After each step (done counts warm-ups; total = warmup + steps).
  std::function<void(long long done, long long total)> progress;
  // After each step whose state passed the finite check, outside the timed steps' phases: a
  // series' output (orrery/series.h). What it throws ends the run.
  std::function<void(Simulation& sim, const Bodies& b)> after_step;
};

struct RunReading {
  long long step = 0;  // the Simulation's step count when taken
  double time = 0;
  Diagnostics d;
};

struct RunResult {
  int steps = 0;  // steps done, warm-ups counted
  bool cancelled = false;
  long long nonfinite_step = 0;  // the 1-based step of this run that left a non-finite value
  long long nonfinite_body = -1;
  bool probe_launched = false;  // FiniteCheck::launch: a check is in flight on the newest state
  std::vector<RunReading> readings;
  // PhaseCollection::per_step: each timed step's phases and interactions (the solver's
  // count at the bodies it started with); whole: the timed steps' phases together.
  std::vector<PhaseTimes> step_phases;
  std::vector<double> step_interactions;
  PhaseTimes phases;
  double interactions = 0;  // over the timed steps
  double diagnostics_ms = 0;  // per_step: the last reading's diagnostics phase
  double wall_ms = 0;         // wall_clock: the timed steps
  bool finite() const { return nonfinite_step == 0; }
};

class Runner {
 public:
  // Runs the plan on the arrays (the Simulation's own, or lent ones on the module's side).
  static RunResult run(Simulation& sim, Bodies& b, const RunPlan& plan);
  static RunResult run(Simulation& sim, const RunPlan& plan) { return run(sim, sim.bodies(), plan); }
};

}  // namespace orrery
