// Private: the integrators' element-wise passes over one precision's arrays (V = Vec4 or Vec4d).
// The float backend (backend.h) and the double state (double_backend.h) both give these, so the
// Simulation's step is written once, templated on the body type; host_passes.h and
// element_kernels.cuh hold the one loop or kernel of each pass for both types.
#pragma once

#include <algorithm>

#include "orrery/gpu_buffer.h"
#include "orrery/physics.h"

namespace orrery {

template <class V>
class ElementPasses {
 public:
  using Real = RealOf<V>;
  virtual ~ElementPasses() = default;
  virtual bool on_device() const = 0;

  // The accelerations of the newest evaluation, and (the adaptive step's) those of the one
  // before, swapped before each evaluation so both are kept.
  virtual V* acc() = 0;
  virtual V* prev_acc() = 0;
  virtual void swap_acc() = 0;
  // step_rate.h's rate, max_i |a_i - b_i| / (|c_i| + mean |c|) (b may be null); waits.
  virtual double relative_rate(const V* a, const V* b, const V* c, int n) = 0;
  // The total mass of n bodies (waits).
  virtual double total_mass(const V* pos, const V* vel, int n) = 0;
  // One past the last of n bodies with a mass (Solver::set_sources), at least 1 (waits).
  virtual int sources(const V* pos, int n) = 0;

  // vel += acc h; out = in + vel h (out may be in); a = 0; the seed's damped Euler in -> out from
  // precomputed accelerations (physics.h's integrate()).
  virtual void kick(V* vel, const V* acc, int n, Real h) = 0;
  virtual void drift(const V* in, V* out, const V* vel, int n, Real h) = 0;
  virtual void zero(V* a, int n) = 0;
  virtual void euler(const V* in, V* out, V* vel, const V* acc, int n, Real dt, Real damping) = 0;

  // n elements of this side to the host and back (wait).
  void to_host(const V* src, V* host, int n) {
    if (on_device())
      gpu_memory::download(host, src, sizeof(V) * static_cast<std::size_t>(n));
    else
      std::copy(src, src + n, host);
  }
  void from_host(const V* host, V* dst, int n) {
    if (on_device())
      gpu_memory::upload(dst, host, sizeof(V) * static_cast<std::size_t>(n));
    else
      std::copy(host, host + n, dst);
  }
};

}  // namespace orrery
