// Sizing the default N: steps timed at growing powers of two through a System on the solver's side.
#include "orrery/probe.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "orrery/device.h"
#include "orrery/system.h"

namespace orrery {

namespace {

// ms per step of `solver` at n bodies of `preset`, after one warm-up step (cuda-fast tunes then).
double time_step(const std::string& solver, int block, Preset preset, int n) {
  using Clock = std::chrono::steady_clock;
  const BodyState s = make_preset(preset, n, 1);
  std::unique_ptr<Solver> g = make_solver(solver, block);
  std::shared_ptr<BodyStorage> storage = make_storage_for(*g, s);
  System sys(storage, std::move(g), Integrator::euler, SimParams{});
  sys.advance(1);
  if (sys.gravity().on_device()) device_synchronize();
  const auto t0 = Clock::now();
  sys.advance(2);
  if (sys.gravity().on_device()) device_synchronize();
  return 0.5 * std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

SizeProbe probe_size(const std::string& solver, int block, Preset preset, double budget_ms,
                     int first, int last, double max_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto since = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  SizeProbe r;
  const auto measure = [&](int n) {
    const double ms = time_step(solver, block, preset, n);
    r.tried.emplace_back(n, ms);
    return ms;
  };
  const double t0 = measure(first);
  if (t0 > budget_ms) {
    r.seconds = since();
    return r;
  }
  r.n = first, r.ms_per_step = t0;
  // Predicted from the first: all-pairs work grows as N^2, a tree code's about as N^1.15. Then
  // measured, halving while it is over the budget (and time is left to measure).
  const double exponent = solver_info(solver).approximate ? 1.15 : 2.0;
  long long n = first;
  while (n * 2 <= last && t0 * std::pow(static_cast<double>(n * 2) / first, exponent) <= budget_ms)
    n *= 2;
  // Measured: halving while over the budget; once one fits, doubling while its measurement
  // predicts the next fits too (a small N's step is mostly launch latency, so the first guess may
  // fall short).
  bool fits = false;
  while (n > first && since() < max_seconds) {
    const double ms = measure(static_cast<int>(n));
    if (ms <= budget_ms) {
      r.n = static_cast<int>(n), r.ms_per_step = ms;
      fits = true;
      break;
    }
    n /= 2;
  }
  while (fits && n * 2 <= last && r.ms_per_step * std::pow(2.0, exponent) <= budget_ms &&
         since() < max_seconds) {
    n *= 2;
    const double ms = measure(static_cast<int>(n));
    if (ms > budget_ms) break;
    r.n = static_cast<int>(n), r.ms_per_step = ms;
  }
  r.seconds = since();
  return r;
}

}  // namespace orrery
