// The viewer's default N where none is given: probed on this machine's GPU, or on its CPU.
#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "probe.h"

namespace orrery::app {

// The largest power of two whose step leaves most of a 60 FPS frame (k_step_budget_ms of 16.7)
// to drawing, found in under a second.
std::string App::size_for_gpu(const std::string& note) {
  const SizeProbe probe =
      probe_size(m_opts.solver, m_settings.block, parse_preset(m_opts.preset), k_step_budget_ms,
                 1 << 17, 1 << 14, 1 << 24, 0.8, m_opts.params.precision);
  if (probe.n == 0) return note;
  m_settings.n = m_settings.n_edit = probe.n;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                " (sized to this GPU: the largest power of two whose %s step takes under %.0f ms, "
                "%.2f ms; probed in %.2f s; --n changes it)",
                m_opts.solver.c_str(), k_step_budget_ms, probe.ms_per_step, probe.seconds);
  return buf;
}

// Both CPU solvers are probed (the all-pairs one wins at small N, the tree at large, and where
// they cross depends on the cores and their SIMD), in under a second together; a typed solver
// alone.
std::string App::size_for_cpu(const std::string& note) {
  const Precision precision = m_opts.params.precision;
  const bool single = precision == Precision::single;
  std::vector<std::string> candidates;
  if (m_opts.solver_default) {
    for (const char* name : {"cpu-omp", "cpu-bh"})
      if (catalog_index(name) >= 0 && (single || solver_info(name).doubles))
        candidates.emplace_back(name);
  } else {
    candidates.push_back(m_opts.solver);
  }
  const Preset preset = parse_preset(m_opts.preset);
  SizeProbe best;
  std::string best_name, tried;
  double seconds = 0;
  for (const std::string& name : candidates) {
    const SizeProbe p = probe_size(name, 0, preset, k_cpu_step_budget_ms, 1 << 12, 1 << 8, 1 << 22,
                                   0.9 / static_cast<double>(candidates.size()), precision);
    seconds += p.seconds;
    char buf[80];
    std::snprintf(buf, sizeof buf, "%s%s %d", tried.empty() ? "" : ", ", name.c_str(), p.n);
    tried += buf;
    if (p.n > best.n || (p.n == best.n && p.n > 0 && p.ms_per_step < best.ms_per_step))
      best = p, best_name = name;
  }
  if (best.n == 0) return note;
  m_settings.n = m_settings.n_edit = best.n;
  if (best_name != m_opts.solver) {
    m_opts.solver = best_name;
    m_settings.solver = catalog_index(best_name);
    m_settings.block = default_block_size(best_name);
  }
  char buf[300];
  std::snprintf(buf, sizeof buf,
                " (sized to this CPU: the largest power of two whose step takes under %.0f ms "
                "(%s), with %s at %.2f ms; probed in %.2f s; --n changes it)",
                k_cpu_step_budget_ms, tried.c_str(), best_name.c_str(), best.ms_per_step, seconds);
  return buf;
}

}  // namespace orrery::app
