// The CPU solvers: `cpu`, the single-threaded reference, and `cpu-omp`, the same sums vectorised
// over every core.
#include "cpu_solvers.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../backend/device_passes.h"
#include "orrery/simd.h"
#include "simd_sums.h"

namespace orrery {
namespace {

// One body's fused step: the all-pairs sum (self term included, no branch), then the seed's Euler.
inline void step_body(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int sources, int i, float eps2,
                      const SimParams& p) {
  const Vec3 acc = all_pairs_acceleration(pos_in, sources, i, eps2);
  integrate(pos_in[i], pos_out[i], vel[i], acc, p.dt, p.damping);
}

inline void acc_body(const Vec4* pos, Vec4* acc, int sources, int i, float eps2) {
  const Vec3 a = all_pairs_acceleration(pos, sources, i, eps2);
  acc[i] = Vec4{a.x, a.y, a.z, 0.0f};
}

// `cpu`: the plain loops, one thread: the oracle every other solver is checked against.
class CpuSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return false; }
  bool takes_sources() const override { return true; }
  double interactions(int n) const override { return double(n) * sources(n); }
  bool has_fused_step() const override { return true; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    for (int i = 0; i < n; ++i)
      if (proceed(m_control)) step_body(pos_in, pos_out, vel, sources(n), i, eps2, p);
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    const float eps2 = p.softening * p.softening;
    for (int i = 0; i < n; ++i)
      if (proceed(m_control)) acc_body(pos, acc, sources(n), i, eps2);
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    host_potentials(pos, out, n, p.softening, m_control);
  }
  bool has_double() const override { return true; }
  void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p) override {
    const double eps2 = double(p.softening) * p.softening;
    for (int i = 0; i < n; ++i) {
      if (!proceed(m_control)) continue;
      Vec3d a;
      for (int j = 0; j < sources(n); ++j) body_body(pos[i], pos[j], eps2, a);
      acc[i] = Vec4d{a.x, a.y, a.z, 0.0};
    }
  }

 private:
  std::string m_name = "cpu";
};

// `cpu-omp`: the same sums over every core, vectorised (simd_sums.h): the positions copied to
// arrays, then blocks of bodies spread over the OpenMP threads, each block summing the sources a
// cache-sized tile at a time.
class CpuOmpSolver final : public Solver {
 public:
  const std::string& name() const override { return m_name; }
  std::string config() const override {
    return m_name + " (" + simd_level() + ", " + std::to_string(omp_get_max_threads()) +
           " threads)";
  }
  bool on_device() const override { return false; }
  bool takes_sources() const override { return true; }
  double interactions(int n) const override { return double(n) * sources(n); }
  bool has_fused_step() const override { return true; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    sum(pos_in, n, p, [&](int i, const Vec3& a) {
      integrate(pos_in[i], pos_out[i], vel[i], a, p.dt, p.damping);
    });
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    sum(pos, n, p, [&](int i, const Vec3& a) { acc[i] = Vec4{a.x, a.y, a.z, 0.0f}; });
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    host_potentials(pos, out, n, p.softening, m_control);
  }
  // In double: the positions as arrays, blocks of bodies over the threads, each body's sum
  // vectorised by the compiler (omp simd: the order of its additions is the vector lanes').
  bool has_double() const override { return true; }
  void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p) override {
    const double eps2 = double(p.softening) * p.softening;
    for (std::vector<double>* a : {&m_x, &m_y, &m_z, &m_m}) a->resize(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
      m_x[j] = pos[j].x, m_y[j] = pos[j].y, m_z[j] = pos[j].z, m_m[j] = pos[j].w;
    const double *x = m_x.data(), *y = m_y.data(), *z = m_z.data(), *m = m_m.data();
    const int sources = this->sources(n);
    StepControl* control = m_control;
    const int blocks = (n + k_block - 1) / k_block;
#pragma omp parallel for schedule(dynamic, 1)
    for (int b = 0; b < blocks; ++b) {
      const int first = b * k_block, last = std::min(n, first + k_block);
      if (!proceed(control, last - first)) continue;
      for (int i = first; i < last; ++i) {
        const double xi = x[i], yi = y[i], zi = z[i];
        double ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
        for (int j = 0; j < sources; ++j) {
          const double dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
          const double inv = 1.0 / std::sqrt(eps2 + dx * dx + dy * dy + dz * dz);
          const double s = m[j] * inv * (inv * inv);
          ax += dx * s, ay += dy * s, az += dz * s;
        }
        acc[i] = Vec4d{ax, ay, az, 0.0};
      }
    }
  }

 private:
  std::vector<double> m_x, m_y, m_z, m_m;  // the double path's positions as arrays
  // Bodies a block: the unit of work a thread takes (and of progress and cancelling).
  static constexpr int k_block = 64;

  template <class Use>
  void sum(const Vec4* pos, int n, const SimParams& p, Use use) {
    const float eps2 = p.softening * p.softening;
    m_points.assign(pos, n);
    const int sources = this->sources(n);
    StepControl* control = m_control;
    const int blocks = (n + k_block - 1) / k_block;
#pragma omp parallel
    {
      Vec3 acc[k_block];
#pragma omp for schedule(dynamic, 1)
      for (int b = 0; b < blocks; ++b) {
        const int first = b * k_block, count = std::min(k_block, n - first);
        if (!proceed(control, count)) continue;
        all_pairs_block(m_points, sources, first, count, eps2, acc);
        for (int k = 0; k < count; ++k) use(first + k, acc[k]);
      }
    }
  }

  std::string m_name = "cpu-omp";
  PointArrays m_points;
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

std::unique_ptr<Solver> make_cpu_solver(int) { return std::make_unique<CpuSolver>(); }
std::unique_ptr<Solver> make_cpu_omp_solver(int) { return std::make_unique<CpuOmpSolver>(); }

}  // namespace orrery
