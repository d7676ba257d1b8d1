// Private: the state of a double-precision run (--precision double) and its passes, on the gravity
// module's side (host or CUDA). The Simulation steps these arrays; the float arrays it owns or is
// lent become the run's float view (what the viewer draws and the tools read), rounded from them
// after each call's steps.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "element_passes.h"
#include "orrery/physics.h"
#include "stage_ops.h"

namespace orrery {

class DoubleBackend : public ElementPasses<Vec4d> {
 public:
  // The held state: positions (and the buffer a step writes), velocities (w: the radius, kept),
  // and the accelerations (element_passes.h's acc() and prev_acc()); size() bodies.
  Vec4d* pos() { return m_pos; }
  Vec4d* next() { return m_next; }
  Vec4d* vel() { return m_vel; }
  Vec4d* acc() final { return m_acc; }
  Vec4d* prev_acc() final { return m_prev; }
  void swap_acc() final { std::swap(m_acc, m_prev); }
  int size() const { return m_n; }
  // After a step wrote next(): it holds the newest positions.
  void flip() { std::swap(m_pos, m_next); }

  // Holds n bodies, widened from float arrays of this side, or copied from host doubles.
  virtual void widen(const Vec4* pos, const Vec4* vel, int n) = 0;
  virtual void upload(const Vec4d* pos, const Vec4d* vel, int n) = 0;
  // The float view: pos and vel (n = size() elements of this side) rounded from the held state.
  virtual void narrow(Vec4* pos, Vec4* vel) = 0;
  // Host copies of the held state (waits).
  virtual void download(std::vector<Vec4d>& pos, std::vector<Vec4d>& vel) = 0;

  // The diagnostics of the held state (no potential), and its all-pairs potential energy
  // W = -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), summed in double.
  virtual Sums sums() = 0;
  virtual double potential_energy(double softening) = 0;
  double total_mass(const Vec4d*, const Vec4d*, int) final { return sums().mass; }

 protected:
  Vec4d *m_pos = nullptr, *m_next = nullptr, *m_vel = nullptr, *m_acc = nullptr, *m_prev = nullptr;
  int m_n = 0;
};

std::unique_ptr<DoubleBackend> make_host_double_backend();
// Throws std::runtime_error naming the missing device (always, in a build without CUDA).
std::unique_ptr<DoubleBackend> make_cuda_double_backend();
inline std::unique_ptr<DoubleBackend> make_double_backend(bool device) {
  return device ? make_cuda_double_backend() : make_host_double_backend();
}

// One body's terms of the diagnostics' sums (stage_ops.h's Sums, its potential aside) added to s:
// mass, kinetic, momentum scale, momentum, angular momentum, mass moment. Host and device share it.
constexpr int k_sum_terms = 12;
ORRERY_HD void add_body_sums(const Vec4d& p, const Vec4d& v, double (&s)[k_sum_terms]) {
  const double m = p.w, v2 = v.x * v.x + v.y * v.y + v.z * v.z;
  s[0] += m;
  s[1] += 0.5 * m * v2;
  s[2] += m * sqrt(v2);
  s[3] += m * v.x, s[4] += m * v.y, s[5] += m * v.z;
  s[6] += m * (p.y * v.z - p.z * v.y), s[7] += m * (p.z * v.x - p.x * v.z),
      s[8] += m * (p.x * v.y - p.y * v.x);
  s[9] += m * p.x, s[10] += m * p.y, s[11] += m * p.z;
}

inline Sums sums_of(const double (&s)[k_sum_terms]) {
  Sums r;
  r.mass = s[0], r.kinetic = s[1], r.momentum_scale = s[2];
  for (int k = 0; k < 3; ++k) r.p[k] = s[3 + k], r.l[k] = s[6 + k], r.mr[k] = s[9 + k];
  return r;
}

}  // namespace orrery
