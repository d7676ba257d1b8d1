// Sizing the default N: steps timed at growing powers of two through a Simulation on the solver's
// side.
#include "probe.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "orrery/runner.h"

namespace orrery {

namespace {

// ms per step of `solver` at n bodies of `preset`, after one warm-up step (cuda-fast tunes then).
double time_step(const std::string& solver, int block, Preset preset, int n, Precision precision) {
  SimParams p;
  p.precision = precision;
  Simulation sim(make_preset(preset, n, 1), make_solver(solver, block), Integrator::euler, p);
  RunPlan plan;
  plan.warmup = 1;
  plan.steps = 2;
  plan.wall_clock = true;
  return 0.5 * Runner::run(sim, plan).wall_ms;
}

}  // namespace

SizeProbe probe_size(const std::string& solver, int block, Preset preset, double budget_ms,
                     int start, int floor, int last, double max_seconds, Precision precision) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const auto since = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  SizeProbe r;
  const auto measure = [&](long long n) {
    const double ms = time_step(solver, block, preset, static_cast<int>(n), precision);
    r.tried.emplace_back(static_cast<int>(n), ms);
    return ms;
  };
  // All-pairs work grows as N^2, a tree code's about as N^1.15: a size that fits doubles while
  // its measurement predicts the next fits too; one that does not halves until one fits.
  const double growth = std::pow(2.0, solver_info(solver).approximate ? 1.15 : 2.0);
  long long n = start;
  double ms = measure(n);
  if (ms <= budget_ms) {
    r.n = static_cast<int>(n), r.ms_per_step = ms;
    while (n * 2 <= last && r.ms_per_step * growth <= budget_ms && since() < max_seconds) {
      ms = measure(n * 2);
      if (ms > budget_ms) break;
      n *= 2;
      r.n = static_cast<int>(n), r.ms_per_step = ms;
    }
  } else {
    while (n / 2 >= floor && since() < max_seconds) {
      n /= 2;
      ms = measure(n);
      if (ms <= budget_ms) {
        r.n = static_cast<int>(n), r.ms_per_step = ms;
        break;
      }
    }
  }
  r.seconds = since();
  return r;
}

}  // namespace orrery
