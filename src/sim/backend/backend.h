// Private: where a Simulation's arrays live and the element-wise passes over them, chosen once
// (host or CUDA) instead of a host-or-device choice at every call. The backend also owns the
// scratch a step needs (accelerations, potentials) and the diagnostics' reduction scratch.
#pragma once

#include <memory>
#include <optional>

#include "orrery/bodies.h"
#include "orrery/physics.h"
#include "stage_ops.h"

namespace orrery {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual bool on_device() const = 0;

  // Scratch for n bodies, kept and grown: the accelerations of the newest positions and the
  // potentials (also the acceleration quantity's scratch). Their contents are lost when n grows.
  virtual void reserve(int n) = 0;
  virtual Vec4* acc() = 0;
  virtual Vec4* pot() = 0;
  // The adaptive step's: the accelerations of the evaluation before the last, kept by swapping
  // them with acc() before each evaluation (made on first use, as large as acc()).
  virtual Vec4* prev_acc() = 0;
  virtual void swap_acc() = 0;
  // step_rate.h's rate, max_i |a_i - b_i| / (|c_i| + mean |c|) (b may be null); waits.
  virtual double relative_rate(const Vec4* a, const Vec4* b, const Vec4* c, int n) = 0;

  // The integrators' passes: vel += acc h; out = in + vel h (out may be in); acc = 0; the seed's
  // damped Euler from precomputed accelerations.
  virtual void kick(Vec4* vel, const Vec4* acc, int n, float h) = 0;
  virtual void drift(const Vec4* in, Vec4* out, const Vec4* vel, int n, float h) = 0;
  virtual void zero(Vec4* a, int n) = 0;
  virtual void euler(const Vec4* in, Vec4* out, Vec4* vel, const Vec4* acc, int n, float dt,
                     float damping) = 0;

  // The diagnostics' sums (pot may be null), and the all-pairs potential energy where the backend
  // has a pass for it that is cheaper than per-body potentials (the device); else none.
  virtual Sums sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) = 0;
  virtual std::optional<double> pair_potential_energy(const Vec4* pos, int n, float eps) = 0;

  // Per-body quantities into out (n floats on this side).
  virtual void speeds(const Vec4* vel, int n, float* out) = 0;
  virtual void masses(const Vec4* pos, int n, float* out) = 0;
  virtual void magnitudes(const Vec4* acc, int n, float* out) = 0;
  virtual void depths(const Vec4* pot, int n, float* out) = 0;
  virtual void density(const Vec4* pos, int n, float* out) = 0;
  // Body i's direct-sum acceleration in double, and its position and velocity (both wait).
  virtual Vec3 body_acceleration(const Vec4* pos, int n, int i, float softening) = 0;
  virtual void read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v) = 0;
  // The first body with a non-finite position or velocity, or -1 (waits).
  virtual long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n) = 0;

  // A Simulation's own state on this side, held until the next call or the backend goes: the
  // positions to step from, the buffer the first step writes (NaN, so a body a step leaves
  // unwritten cannot pass) and the velocities.
  virtual Bodies hold(const BodyState& s) = 0;
  // A host copy of the newest state of any arrays of this side (waits).
  virtual BodyState fetch(const Bodies& b) = 0;
  // n floats of this side to the host (waits); and float scratch of this side, kept and grown.
  virtual void fetch(const float* src, float* host, int n) = 0;
  virtual float* float_scratch(int n) = 0;
};

std::unique_ptr<Backend> make_host_backend();
// Throws std::runtime_error naming the missing device (always, in a build without CUDA).
std::unique_ptr<Backend> make_cuda_backend();
inline std::unique_ptr<Backend> make_backend(bool device) {
  return device ? make_cuda_backend() : make_host_backend();
}

}  // namespace orrery
