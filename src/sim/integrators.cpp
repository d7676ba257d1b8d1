// The integrators on host arrays: Euler (the seed's), leapfrog KDK, Yoshida's 4th-order
// composition.
#include "orrery/integrators.h"

#include <cmath>

#include "cpu_solvers.h"
#include "orrery/input.h"

namespace orrery {
namespace {

void kick(Vec4* vel, const Vec3* acc, int n, float h) {
  for (int i = 0; i < n; ++i) {
    vel[i].x += acc[i].x * h;
    vel[i].y += acc[i].y * h;
    vel[i].z += acc[i].z * h;
  }
}

void drift(Vec4* pos, const Vec4* vel, int n, float h) {
  for (int i = 0; i < n; ++i) {
    pos[i].x += vel[i].x * h;
    pos[i].y += vel[i].y * h;
    pos[i].z += vel[i].z * h;
  }
}

// Yoshida (1990): w1 = 1 / (2 - 2^(1/3)), w0 = -2^(1/3) w1, leapfrog substeps w1, w0, w1; here in
// drift-kick-drift form: drifts c = w1/2, (w0+w1)/2, (w0+w1)/2, w1/2 and kicks w1, w0, w1.
const double k_cbrt2 = std::cbrt(2.0);
const double k_w1 = 1.0 / (2.0 - k_cbrt2);
const double k_w0 = -k_cbrt2 * k_w1;

}  // namespace

const std::vector<std::string>& integrator_names() {
  static const std::vector<std::string> names = {"euler", "leapfrog", "yoshida4"};
  return names;
}

Integrator parse_integrator(const std::string& name) {
  const auto& n = integrator_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<Integrator>(i);
  throw InputError("unknown integrator '" + name + "' (choose euler, leapfrog or yoshida4)");
}

const char* to_string(Integrator i) { return integrator_names()[static_cast<int>(i)].c_str(); }

int force_evaluations(Integrator i) {
  switch (i) {
    case Integrator::euler:
      return 1;
    case Integrator::leapfrog:
      return 2;
    case Integrator::yoshida4:
      return 3;
  }
  return 1;
}

void all_pairs_accelerations(const Vec4* pos, Vec3* acc, int n, float softening) {
  const float eps2 = softening * softening;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) acc[i] = all_pairs_acceleration(pos, n, i, eps2);
}

void integrate_host(Integrator kind, Vec4* pos, Vec4* vel, Vec3* acc, int n, float dt,
                    float damping, const HostGravity& gravity) {
  if (kind != Integrator::euler && damping != 1.0f)
    throw InputError(std::string(to_string(kind)) +
                     " takes no damping (it is symplectic and time-reversible only without it); "
                     "use --damping 1 or --integrator euler");
  switch (kind) {
    case Integrator::euler:  // v <- damping (v + a dt); x <- x + v dt
      gravity(pos, acc, n);
      for (int i = 0; i < n; ++i) integrate(pos[i], pos[i], vel[i], acc[i], dt, damping);
      return;
    case Integrator::leapfrog:  // kick dt/2, drift dt, kick dt/2
      gravity(pos, acc, n);
      kick(vel, acc, n, 0.5f * dt);
      drift(pos, vel, n, dt);
      gravity(pos, acc, n);
      kick(vel, acc, n, 0.5f * dt);
      return;
    case Integrator::yoshida4: {
      const float c1 = static_cast<float>(0.5 * k_w1 * dt);
      const float c2 = static_cast<float>(0.5 * (k_w0 + k_w1) * dt);
      drift(pos, vel, n, c1);
      gravity(pos, acc, n);
      kick(vel, acc, n, static_cast<float>(k_w1 * dt));
      drift(pos, vel, n, c2);
      gravity(pos, acc, n);
      kick(vel, acc, n, static_cast<float>(k_w0 * dt));
      drift(pos, vel, n, c2);
      gravity(pos, acc, n);
      kick(vel, acc, n, static_cast<float>(k_w1 * dt));
      drift(pos, vel, n, c1);
      return;
    }
  }
}

}  // namespace orrery
