// Private: where a Simulation's arrays live and the element-wise passes over them, chosen once
// (host or CUDA) instead of a host-or-device choice at every call. The backend also owns the
// scratch a step needs (accelerations, potentials) and the diagnostics' reduction scratch.
#pragma once

#include <memory>
#include <optional>

#include "element_passes.h"
#include "orrery/bodies.h"
#include "orrery/physics.h"
#include "stage_ops.h"

namespace orrery {

class Backend : public ElementPasses<Vec4> {
 public:
  // Scratch for n bodies, kept and grown: the accelerations of the newest positions (acc(),
  // prev_acc(): element_passes.h) and the potentials (also the acceleration quantity's scratch).
  // Their contents are lost when n grows.
  virtual void reserve(int n) = 0;
  virtual Vec4* pot() = 0;

  // The diagnostics' sums (pot may be null), and the all-pairs potential energy where the backend
  // has a pass for it that is cheaper than per-body potentials (the device); else none.
  virtual Sums sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) = 0;
  virtual std::optional<double> pair_potential_energy(const Vec4* pos, int n, float eps) = 0;
  double total_mass(const Vec4* pos, const Vec4* vel, int n) final {
    return sums(pos, vel, nullptr, n).mass;
  }

  // Per-body quantities into out (n floats on this side).
  virtual void speeds(const Vec4* vel, int n, float* out) = 0;
  virtual void masses(const Vec4* pos, int n, float* out) = 0;
  virtual void magnitudes(const Vec4* acc, int n, float* out) = 0;
  virtual void depths(const Vec4* pot, int n, float* out) = 0;
  virtual void density(const Vec4* pos, int n, float* out) = 0;
  // Body i's direct-sum acceleration in double, and its position and velocity (both wait).
  virtual Vec3 body_acceleration(const Vec4* pos, int n, int i, float softening) = 0;
  virtual void read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v) = 0;
  // Every stride-th of n positions, (n + stride - 1) / stride of them, to the host (waits).
  virtual void read_positions(const Vec4* pos, int n, int stride, Vec4* out) = 0;
  // The first body with a non-finite position or velocity, or -1 (waits).
  virtual long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n) = 0;

  // A Simulation's own state on this side, held until the next call or the backend goes: the
  // positions to step from, the buffer the first step writes (NaN, so a body a step leaves
  // unwritten cannot pass) and the velocities.
  virtual Bodies hold(const BodyState& s) = 0;
  // A host copy of the newest state of any arrays of this side (waits), into `into`: its
  // vectors are reused where they have the room, so a large state fetched each frame costs no
  // fresh pages.
  virtual void fetch(const Bodies& b, BodyState& into) = 0;
  BodyState fetch(const Bodies& b) {
    BodyState s;
    fetch(b, s);
    return s;
  }
  // n floats of this side to the host (waits), every `stride`th from src (host[k] = src[k *
  // stride]); and float scratch of this side, kept and grown.
  virtual void fetch(const float* src, float* host, int n, int stride = 1) = 0;
  virtual float* float_scratch(int n) = 0;
};

std::unique_ptr<Backend> make_host_backend();
// Throws std::runtime_error naming the missing device (always, in a build without CUDA).
std::unique_ptr<Backend> make_cuda_backend();
inline std::unique_ptr<Backend> make_backend(bool device) {
  return device ? make_cuda_backend() : make_host_backend();
}

}  // namespace orrery
