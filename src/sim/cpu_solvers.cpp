// The CPU solvers: `cpu`, the single-threaded reference, and `cpu-omp`, the same loop over OpenMP.
#include "cpu_solvers.h"

#include <string>

namespace orrery {
namespace {

// One body's step: the all-pairs sum (self term included, no branch), then the integration.
inline void step_body(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, int i, float eps2,
                      const SimParams& p) {
  const Vec3 acc = all_pairs_acceleration(pos_in, n, i, eps2);
  integrate(pos_in[i], pos_out[i], vel[i], acc, p.dt, p.damping);
}

// Whether body i may go ahead under the control (if any): counts it as done, unless cancelled.
inline bool proceed(StepControl* control) {
  if (!control) return true;
  if (control->cancel.load(std::memory_order_relaxed)) return false;
  control->bodies_done.fetch_add(1, std::memory_order_relaxed);
  return true;
}

class CpuSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    StepControl* control = m_control;
    for (int i = 0; i < n; ++i)
      if (proceed(control)) step_body(pos_in, pos_out, vel, n, i, eps2, p);
  }

 private:
  std::string m_name = "cpu";
};

class CpuOmpSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    StepControl* control = m_control;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i)
      if (proceed(control)) step_body(pos_in, pos_out, vel, n, i, eps2, p);
  }

 private:
  std::string m_name = "cpu-omp";
};

}  // namespace

std::unique_ptr<Solver> make_cpu_solver() { return std::make_unique<CpuSolver>(); }
std::unique_ptr<Solver> make_cpu_omp_solver() { return std::make_unique<CpuOmpSolver>(); }

}  // namespace orrery
