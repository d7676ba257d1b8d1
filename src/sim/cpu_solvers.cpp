// The CPU solvers: `cpu`, the single-threaded reference, and `cpu-omp`, the same loops over OpenMP.
#include "cpu_solvers.h"

#include <cmath>
#include <string>

namespace orrery {
namespace {

// One body's fused step: the all-pairs sum (self term included, no branch), then the seed's Euler.
inline void step_body(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, int i, float eps2,
                      const SimParams& p) {
  const Vec3 acc = all_pairs_acceleration(pos_in, n, i, eps2);
  integrate(pos_in[i], pos_out[i], vel[i], acc, p.dt, p.damping);
}

inline void acc_body(const Vec4* pos, Vec4* acc, int n, int i, float eps2) {
  const Vec3 a = all_pairs_acceleration(pos, n, i, eps2);
  acc[i] = Vec4{a.x, a.y, a.z, 0.0f};
}

// The same loops, serial or over OpenMP threads.
template <bool Parallel>
class CpuSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  bool has_fused_step() const override { return true; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    StepControl* control = m_control;
#pragma omp parallel for schedule(static) if (Parallel)
    for (int i = 0; i < n; ++i)
      if (proceed(control)) step_body(pos_in, pos_out, vel, n, i, eps2, p);
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    StepControl* control = m_control;
#pragma omp parallel for schedule(static) if (Parallel)
    for (int i = 0; i < n; ++i)
      if (proceed(control)) acc_body(pos, acc, n, i, eps2);
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    host_potentials(pos, out, n, p.softening, m_control);
  }

 private:
  std::string m_name = Parallel ? "cpu-omp" : "cpu";
};

}  // namespace

void host_potentials(const Vec4* pos, Vec4* out, int n, float softening, StepControl* control) {
  const double eps2 = static_cast<double>(softening) * softening;
#pragma omp parallel for schedule(dynamic, 64)
  for (int i = 0; i < n; ++i) {
    if (!proceed(control)) continue;
    double phi = 0.0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = double(pos[j].x) - pos[i].x, dy = double(pos[j].y) - pos[i].y,
                   dz = double(pos[j].z) - pos[i].z;
      phi -= pos[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
    out[i] = Vec4{0.0f, 0.0f, 0.0f, static_cast<float>(phi)};
  }
}

void Solver::potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) {
  if (on_device())
    device_potentials(pos, out, n, p.softening);
  else
    host_potentials(pos, out, n, p.softening, m_control);
}

std::unique_ptr<Solver> make_cpu_solver(int) { return std::make_unique<CpuSolver<false>>(); }
std::unique_ptr<Solver> make_cpu_omp_solver(int) { return std::make_unique<CpuSolver<true>>(); }

}  // namespace orrery
