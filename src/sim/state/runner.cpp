// The Runner's loop: every caller's steps go through here.
#include "orrery/runner.h"

#include <chrono>

namespace orrery {
namespace {

RunReading reading(Simulation& sim, const Bodies& b) {
  return RunReading{sim.step_count(), sim.time(), sim.measure(b)};
}

}  // namespace

RunResult Runner::run(Simulation& sim, Bodies& b, const RunPlan& plan) {
  RunResult r;
  PhaseTimer& phases = sim.phases();
  const bool per_step = plan.phases == PhaseCollection::per_step;
  // A reading apart from the steps: its phase goes to diagnostics_ms, not into a step's.
  const auto measure = [&] {
    if (per_step && phases.pending()) phases.take();
    r.readings.push_back(reading(sim, b));
    if (per_step) r.diagnostics_ms = phases.take()[Phase::diagnostics];
  };
  if (plan.measure_start) measure();
  const long long total = static_cast<long long>(plan.warmup) + plan.steps;
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0;
  for (long long k = 0; k < total; ++k) {
    if (plan.cancel && plan.cancel->load()) {
      r.cancelled = true;
      break;
    }
    if (plan.until && sim.time() >= *plan.until) break;
    const bool timed = k >= plan.warmup;
    if (k == plan.warmup) {
      if (phases.pending()) phases.take();  // the warm-up's
      if (plan.wall_clock) {
        if (sim.on_device()) device_synchronize();
        t0 = Clock::now();
      }
    }
    const int n = b.n;  // merges shrink it step by step
    sim.step(1, b);
    r.steps = static_cast<int>(k + 1);
    if (plan.cancel && plan.cancel->load()) {  // a CPU module stopped inside the step
      r.cancelled = true;
      break;
    }
    if (timed) {
      const double inter = sim.interactions_per_step(n);
      r.interactions += inter;
      if (per_step) {
        r.step_phases.push_back(phases.take());
        r.step_interactions.push_back(inter);
      }
    }
    if (plan.finite == FiniteCheck::every_step) {
      const long long bad = sim.first_nonfinite(b);
      if (bad >= 0) {
        r.nonfinite_step = k + 1;
        r.nonfinite_body = bad;
        break;
      }
    }
    if (plan.after_step) plan.after_step(sim, b);
    if (plan.measure_every > 0 && (k + 1) % plan.measure_every == 0) measure();
    if (plan.progress) plan.progress(k + 1, total);
  }
  if (plan.wall_clock && r.steps > plan.warmup) {
    if (sim.on_device()) device_synchronize();
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  if (plan.measure_end && r.finite() && !r.cancelled && r.steps > 0) measure();
  if (plan.phases == PhaseCollection::whole && phases.pending()) r.phases = phases.take();
  if (plan.finite == FiniteCheck::launch && plan.probe && !plan.probe->pending() && r.steps > 0) {
    plan.probe->launch(b.pos, b.vel, b.n);
    r.probe_launched = true;
  }
  return r;
}

}  // namespace orrery
