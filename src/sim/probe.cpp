// Sizing the default N: steps timed at growing powers of two through a System on the solver's side.
#include "orrery/probe.h"

#include <chrono>
#include <memory>

#include "orrery/device.h"
#include "orrery/system.h"

namespace orrery {

SizeProbe probe_size(const std::string& solver, int block, Preset preset, double budget_ms,
                     int first, int last, double max_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto since = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  SizeProbe r;
  for (long long n = first; n <= last && since() < max_seconds; n *= 2) {
    const BodyState s = make_preset(preset, static_cast<int>(n), 1);
    std::unique_ptr<Solver> g = make_solver(solver, block);
    std::shared_ptr<BodyStorage> storage = make_storage_for(*g, s);
    System sys(storage, std::move(g), Integrator::euler, SimParams{});
    sys.advance(1);  // warm-up (and cuda-fast's tuning)
    if (sys.gravity().on_device()) device_synchronize();
    const auto t0 = Clock::now();
    sys.advance(2);
    if (sys.gravity().on_device()) device_synchronize();
    const double ms = 0.5 * std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    r.tried.emplace_back(static_cast<int>(n), ms);
    if (ms > budget_ms) break;
    r.n = static_cast<int>(n);
    r.ms_per_step = ms;
  }
  r.seconds = since();
  return r;
}

}  // namespace orrery
