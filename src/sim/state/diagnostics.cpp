// Diagnostics in double precision on host-side state.
#include "orrery/diagnostics.h"

#include <algorithm>
#include <cmath>

#include "../backend/stage_ops.h"
#include "orrery/device.h"

namespace orrery {
namespace {
Vec3d minus(const Vec3d& a, const Vec3d& b) { return Vec3d{a.x - b.x, a.y - b.y, a.z - b.z}; }
}  // namespace

double Diagnostics::virial() const {
  return potential != 0.0 ? 2.0 * kinetic / std::fabs(potential) : 0.0;
}

Drift drift(const Diagnostics& a, const Diagnostics& b) {
  Drift d;
  const double e0 = a.total();
  d.energy = e0 != 0.0 ? (b.total() - e0) / std::fabs(e0) : b.total() - e0;
  const double pscale = std::max(a.momentum_scale, 1e-300);
  d.momentum = length(minus(b.momentum, a.momentum)) / pscale;
  const double l0 = length(a.angular_momentum);
  d.angular_momentum = length(minus(b.angular_momentum, a.angular_momentum)) / (l0 > 0 ? l0 : 1.0);
  return d;
}

void Sums::add(const Sums& o) {
  mass += o.mass, kinetic += o.kinetic, potential2 += o.potential2;
  momentum_scale += o.momentum_scale;
  for (int k = 0; k < 3; ++k) p[k] += o.p[k], l[k] += o.l[k], mr[k] += o.mr[k];
}

Vec3d total_momentum(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  Vec3d p;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    p.x += double(pos[i].w) * vel[i].x;
    p.y += double(pos[i].w) * vel[i].y;
    p.z += double(pos[i].w) * vel[i].z;
  }
  return p;
}

double momentum_scale(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  double s = 0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    s += double(pos[i].w) * std::sqrt(double(vel[i].x) * vel[i].x + double(vel[i].y) * vel[i].y +
                                      double(vel[i].z) * vel[i].z);
  return s;
}

double kinetic_energy(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  double e = 0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    e += 0.5 * pos[i].w *
         (double(vel[i].x) * vel[i].x + double(vel[i].y) * vel[i].y + double(vel[i].z) * vel[i].z);
  return e;
}

double potential_energy(const std::vector<Vec4>& pos, float softening) {
  const double eps2 = double(softening) * softening;
  double e = 0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    for (std::size_t j = i + 1; j < pos.size(); ++j) {
      const double dx = double(pos[j].x) - pos[i].x, dy = double(pos[j].y) - pos[i].y,
                   dz = double(pos[j].z) - pos[i].z;
      e -= double(pos[i].w) * pos[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
  return e;
}

Vec3d angular_momentum(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  Vec3d l;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    const double m = pos[i].w, x = pos[i].x, y = pos[i].y, z = pos[i].z;
    const double vx = vel[i].x, vy = vel[i].y, vz = vel[i].z;
    l.x += m * (y * vz - z * vy);
    l.y += m * (z * vx - x * vz);
    l.z += m * (x * vy - y * vx);
  }
  return l;
}

Vec3d centre_of_mass(const std::vector<Vec4>& pos) {
  Vec3d c;
  double m = 0;
  for (const Vec4& p : pos) {
    m += p.w;
    c.x += double(p.w) * p.x, c.y += double(p.w) * p.y, c.z += double(p.w) * p.z;
  }
  if (m > 0) c.x /= m, c.y /= m, c.z /= m;
  return c;
}

double virial_ratio(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel, float softening) {
  const double w = potential_energy(pos, softening);
  return w != 0.0 ? 2.0 * kinetic_energy(pos, vel) / std::abs(w) : 0.0;
}

long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n) {
  const auto finite = [](const Vec4& a) {
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z) && std::isfinite(a.w);
  };
  for (int i = 0; i < n; ++i)
    if (!finite(pos[i]) || !finite(vel[i])) return i;
  return -1;
}

double max_relative_error(const std::vector<Vec4>& a, const std::vector<Vec4>& b) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const double dx = double(a[i].x) - b[i].x, dy = double(a[i].y) - b[i].y,
                 dz = double(a[i].z) - b[i].z;
    double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (std::isnan(d)) d = INFINITY;
    err = std::max(err, d);
    scale = std::max(scale, std::sqrt(double(b[i].x) * b[i].x + double(b[i].y) * b[i].y +
                                      double(b[i].z) * b[i].z));
  }
  if (a.size() != b.size()) return INFINITY;
  return scale > 0 ? err / scale : err;
}

std::string nonfinite_parts(const Vec4& p, const Vec4& v) {
  std::string out;
  auto add = [&](bool bad, const char* what) {
    if (bad) out += (out.empty() ? "its " : " and its ") + std::string(what);
  };
  add(!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z), "position");
  add(!std::isfinite(p.w), "mass");
  add(!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z), "velocity");
  add(!std::isfinite(v.w), "radius");
  return out;
}

}  // namespace orrery
