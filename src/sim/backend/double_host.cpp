// The double-precision state on the host: std::vector arrays, the passes as OpenMP loops.
#include <cmath>
#include <vector>

#include "double_backend.h"
#include "host_passes.h"

namespace orrery {
namespace {

class HostDoubleBackend final : public HostPasses<DoubleBackend, Vec4d> {
 public:
  void widen(const Vec4* pos, const Vec4* vel, int n) override {
    resize(n);
    for (int i = 0; i < n; ++i) m_pos[i] = to_double(pos[i]), m_vel[i] = to_double(vel[i]);
  }
  void upload(const Vec4d* pos, const Vec4d* vel, int n) override {
    resize(n);
    std::copy(pos, pos + n, m_pos);
    std::copy(vel, vel + n, m_vel);
  }
  void narrow(Vec4* pos, Vec4* vel) override {
    for (int i = 0; i < m_n; ++i) pos[i] = to_float(m_pos[i]), vel[i] = to_float(m_vel[i]);
  }
  void download(std::vector<Vec4d>& pos, std::vector<Vec4d>& vel) override {
    pos.assign(m_pos, m_pos + m_n);
    vel.assign(m_vel, m_vel + m_n);
  }

  Sums sums() override {
    double s[k_sum_terms] = {};
    for (int i = 0; i < m_n; ++i) add_body_sums(m_pos[i], m_vel[i], s);
    return sums_of(s);
  }
  double potential_energy(double softening) override {
    const double eps2 = softening * softening;
    const int n = m_n;
    const Vec4d* p = m_pos;
    double w = 0.0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : w)
    for (int i = 0; i < n; ++i) {
      double phi = 0.0;
      for (int j = i + 1; j < n; ++j) {
        const double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
        phi += p[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
      }
      w -= p[i].w * phi;
    }
    return w;
  }

 private:
  void resize(int n) {
    const std::size_t count = static_cast<std::size_t>(n);
    for (std::vector<Vec4d>* a : {&m_a, &m_b, &m_v, &m_f, &m_g})
      a->assign(count, Vec4d{0, 0, 0, 0});
    m_pos = m_a.data(), m_next = m_b.data(), m_vel = m_v.data(), m_acc = m_f.data();
    m_prev = m_g.data();
    m_n = n;
  }
  std::vector<Vec4d> m_a, m_b, m_v, m_f, m_g;
};

}  // namespace

std::unique_ptr<DoubleBackend> make_host_double_backend() {
  return std::make_unique<HostDoubleBackend>();
}

}  // namespace orrery
