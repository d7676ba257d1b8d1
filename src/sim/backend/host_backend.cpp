// The host backend: the Simulation's arrays in host memory, the passes as OpenMP loops.
#include <algorithm>
#include <cmath>
#include <vector>

#include "backend.h"
#include "host_passes.h"
#include "orrery/device.h"
#include "orrery/fields.h"

namespace orrery {

Sums host_sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) {
  Sums s;
  for (int i = 0; i < n; ++i) {
    const double m = pos[i].w, x = pos[i].x, y = pos[i].y, z = pos[i].z;
    const double vx = vel[i].x, vy = vel[i].y, vz = vel[i].z;
    const double v2 = vx * vx + vy * vy + vz * vz;
    s.mass += m;
    s.kinetic += 0.5 * m * v2;
    if (pot) s.potential2 += m * pot[i].w;
    s.momentum_scale += m * std::sqrt(v2);
    s.p[0] += m * vx, s.p[1] += m * vy, s.p[2] += m * vz;
    s.l[0] += m * (y * vz - z * vy), s.l[1] += m * (z * vx - x * vz),
        s.l[2] += m * (x * vy - y * vx);
    s.mr[0] += m * x, s.mr[1] += m * y, s.mr[2] += m * z;
  }
  return s;
}

namespace {

class HostBackend final : public HostPasses<Backend, Vec4> {
 public:
  void reserve(int n) override {
    const std::size_t count = static_cast<std::size_t>(n);
    if (m_acc.size() >= count) return;
    m_acc.assign(count, Vec4{0, 0, 0, 0});
    m_pot.assign(count, Vec4{0, 0, 0, 0});
    if (!m_prev.empty()) m_prev.assign(count, Vec4{0, 0, 0, 0});
  }
  Vec4* acc() override { return m_acc.data(); }
  Vec4* pot() override { return m_pot.data(); }
  Vec4* prev_acc() override {
    if (m_prev.size() < m_acc.size()) m_prev.assign(m_acc.size(), Vec4{0, 0, 0, 0});
    return m_prev.data();
  }
  void swap_acc() override {
    prev_acc();
    std::swap(m_acc, m_prev);
  }

  Sums sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) override {
    return host_sums(pos, vel, pot, n);
  }
  std::optional<double> pair_potential_energy(const Vec4*, int, float) override { return {}; }

  void speeds(const Vec4* vel, int n, float* out) override { host_speeds(vel, n, out); }
  void masses(const Vec4* pos, int n, float* out) override { host_masses(pos, n, out); }
  void magnitudes(const Vec4* acc, int n, float* out) override { host_magnitudes(acc, n, out); }
  void depths(const Vec4* pot, int n, float* out) override { host_depths(pot, n, out); }
  void density(const Vec4* pos, int n, float* out) override { host_density(pos, n, out); }
  Vec3 body_acceleration(const Vec4* pos, int n, int i, float softening) override {
    return host_body_acceleration(pos, n, i, softening);
  }
  void read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v) override {
    p = pos[i], v = vel[i];
  }
  void read_positions(const Vec4* pos, int n, int stride, Vec4* out) override {
    for (int i = 0; i < n; i += stride) *out++ = pos[i];
  }
  long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n) override {
    return orrery::first_nonfinite(pos, vel, n);
  }

  Bodies hold(const BodyState& s) override {
    m_pos[0] = s.pos;
    m_pos[1].assign(s.pos.size(), Vec4{NAN, NAN, NAN, NAN});
    m_vel = s.vel;
    return Bodies{m_pos[0].data(), m_pos[1].data(), m_vel.data(), s.size(), false};
  }
  void fetch(const Bodies& b, BodyState& into) override {
    into.pos.assign(b.pos, b.pos + b.n);
    into.vel.assign(b.vel, b.vel + b.n);
  }
  void fetch(const float* src, float* host, int n, int stride) override {
    for (int k = 0; k < n; ++k) host[k] = src[static_cast<std::size_t>(k) * stride];
  }
  float* float_scratch(int n) override {
    if (m_floats.size() < static_cast<std::size_t>(n)) m_floats.resize(static_cast<std::size_t>(n));
    return m_floats.data();
  }

 private:
  std::vector<Vec4> m_acc, m_pot, m_prev, m_pos[2], m_vel;
  std::vector<float> m_floats;
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() { return std::make_unique<HostBackend>(); }

}  // namespace orrery
