// The integrators' names and rules, and their element-wise passes on host arrays.
#include "orrery/integrators.h"

#include <algorithm>
#include <cmath>

#include "orrery/input.h"
#include "stage_ops.h"

namespace orrery {

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

int force_evaluations(Integrator i) { return i == Integrator::yoshida4 ? 3 : 1; }

void check_integrator(Integrator i, const SimParams& p) {
  if (i != Integrator::euler && p.damping != 1.0f)
    throw InputError(std::string(to_string(i)) +
                     " takes no damping (it is symplectic and time-reversible only without it); "
                     "use --damping 1 or --integrator euler");
}

double yoshida_w1() { return 1.0 / (2.0 - std::cbrt(2.0)); }
double yoshida_w0() { return -std::cbrt(2.0) * yoshida_w1(); }

void host_zero(Vec4* a, int n) { std::fill(a, a + n, Vec4{0.0f, 0.0f, 0.0f, 0.0f}); }

void host_kick(Vec4* vel, const Vec4* acc, int n, float h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i) {
    vel[i].x += acc[i].x * h;
    vel[i].y += acc[i].y * h;
    vel[i].z += acc[i].z * h;
  }
}

void host_drift(const Vec4* in, Vec4* out, const Vec4* vel, int n, float h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i)
    out[i] = Vec4{in[i].x + vel[i].x * h, in[i].y + vel[i].y * h, in[i].z + vel[i].z * h, in[i].w};
}

void host_euler(const Vec4* in, Vec4* out, Vec4* vel, const Vec4* acc, int n, float dt,
                float damping) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i)
    integrate(in[i], out[i], vel[i], Vec3{acc[i].x, acc[i].y, acc[i].z}, dt, damping);
}

}  // namespace orrery
