// Private: element_passes.h's passes on host arrays as OpenMP loops, one template for both body
// types (each type's arithmetic stays in its own precision).
#pragma once

#include <algorithm>

#include "element_passes.h"
#include "orrery/physics.h"
#include "step_rate.h"

namespace orrery {

template <class V>
void host_kick(V* vel, const V* acc, int n, RealOf<V> h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i) {
    vel[i].x += acc[i].x * h;
    vel[i].y += acc[i].y * h;
    vel[i].z += acc[i].z * h;
  }
}

template <class V>
void host_drift(const V* in, V* out, const V* vel, int n, RealOf<V> h) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i)
    out[i] = V{in[i].x + vel[i].x * h, in[i].y + vel[i].y * h, in[i].z + vel[i].z * h, in[i].w};
}

template <class V>
void host_zero(V* a, int n) {
  std::fill(a, a + n, V{0, 0, 0, 0});
}

template <class V>
void host_euler(const V* in, V* out, V* vel, const V* acc, int n, RealOf<V> dt, RealOf<V> damping) {
#pragma omp parallel for schedule(static) if (n > 4096)
  for (int i = 0; i < n; ++i) integrate(in[i], out[i], vel[i], acc[i], dt, damping);
}

// element_passes.h's passes as these loops, for a host backend Base of body type V.
template <class Base, class V>
class HostPasses : public Base {
 public:
  using Real = RealOf<V>;
  bool on_device() const final { return false; }
  double relative_rate(const V* a, const V* b, const V* c, int n) final {
    return host_relative_rate(a, b, c, n);
  }
  int sources(const V* pos, int n) final {
    int k = n;
    while (k > 1 && pos[k - 1].w == 0) --k;
    return k;
  }
  void kick(V* vel, const V* acc, int n, Real h) final { host_kick(vel, acc, n, h); }
  void drift(const V* in, V* out, const V* vel, int n, Real h) final {
    host_drift(in, out, vel, n, h);
  }
  void zero(V* a, int n) final { host_zero(a, n); }
  void euler(const V* in, V* out, V* vel, const V* acc, int n, Real dt, Real damping) final {
    host_euler(in, out, vel, acc, n, dt, damping);
  }
};

}  // namespace orrery
