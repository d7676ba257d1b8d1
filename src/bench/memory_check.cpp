// orrery-bench's memory check before a run: each N against the GPU's free memory for each GPU
// solver, and against the host's for the state the bench and its CPU solvers hold.
#include <algorithm>
#include <string>

#include "options.h"
#include "orrery/host_memory.h"
#include "orrery/solver.h"

namespace orrery::bench {
namespace {

// Host bytes per body: the initial state (positions, velocities), the output positions, and under
// --compare the reference's state as well.
constexpr double k_host_bytes_per_body = 3.0 * sizeof(Vec4);
constexpr double k_host_compare_bytes_per_body = 6.0 * sizeof(Vec4);

}  // namespace

void check_memory(const Plan& plan) {
  const bool gpu = std::any_of(plan.solvers.begin(), plan.solvers.end(),
                               [](const SolverPlan& s) { return s.info.gpu; });
  const double host_free = host_available_bytes();
  const double host_per_body = plan.compare ? k_host_compare_bytes_per_body : k_host_bytes_per_body;
  for (int whole : plan.ns) {
    // A decomposed run's rank holds its share (a tenth more for the balance by work).
    const int n = plan.ranks > 1 ? static_cast<int>(1.1 * whole / plan.ranks) + 1 : whole;
    const std::string share = std::to_string(whole) +
                              (plan.ranks > 1 ? " (" + std::to_string(n) + " bodies a rank)" : "");
    // GPU runs only happen in timing mode or, under --compare, up to --cpu-max-n.
    const bool gpu_runs = gpu && (!plan.compare || n <= plan.cpu_max_n);
    if (gpu_runs)
      for (const SolverPlan& s : plan.solvers) {
        try {
          check_device_memory(s.info, n);
        } catch (const InputError& e) {
          throw UsageError("--n " + share + ": too large for the GPU's memory: " + e.what());
        }
      }
    // Host state exists only for the runs that happen: CPU ones up to --cpu-max-n (each with its
    // solver's measured peak, the largest counted; --compare's reference is cpu), GPU ones.
    double solver_host = 0;
    if (n <= plan.cpu_max_n) {
      for (const SolverPlan& s : plan.solvers)
        if (!s.info.gpu)
          solver_host = std::max(solver_host, host_bytes_per_body(s.info, plan.params.precision));
      if (plan.compare)
        solver_host =
            std::max(solver_host, host_bytes_per_body(solver_info("cpu"), plan.params.precision));
    }
    const double host_need = (host_per_body + solver_host) * n;
    if ((gpu_runs || n <= plan.cpu_max_n) && host_free > 0 && host_need > host_free)
      throw UsageError("--n " + share + ": needs about " + gib_text(host_need) +
                       " of host memory, only " + gib_text(host_free) + " available");
  }
}

}  // namespace orrery::bench
