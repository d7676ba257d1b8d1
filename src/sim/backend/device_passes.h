// Private, CUDA builds only: the device passes behind the CUDA backend - the per-body quantities,
// the diagnostics' reductions and the fields that need scratch. Device arrays, the default stream.
#pragma once

#include <cstddef>
#include <memory>

#include "orrery/no_copy.h"
#include "orrery/physics.h"
#include "stage_ops.h"

namespace orrery {

// Each body's softened potential on the device, out[i] = (0, 0, 0, phi_i), in float per pair (one
// body per thread, tiles of bodies in shared memory); throws without a device.
void device_potentials(const Vec4* pos, Vec4* out, int n, float softening);

void device_speeds(const Vec4* vel, int n, float* out);
void device_masses(const Vec4* pos, int n, float* out);
void device_magnitudes(const Vec4* acc, int n, float* out);
void device_depths(const Vec4* pot, int n, float* out);
// Body i's position and velocity (waits).
void device_read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v);
// Every stride-th of n positions to the host, in one strided copy (waits).
void device_read_positions(const Vec4* pos, int n, int stride, Vec4* out);

// Device reductions with a fixed grid, partial sums per block summed on the host in a fixed order
// (the same state gives the same bits); scratch allocated once and grown.
class DeviceReducer : NoCopy {
 public:
  DeviceReducer();
  ~DeviceReducer();
  // pot may be null: then potential2 stays 0.
  Sums sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n);
  // The all-pairs potential energy W = -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), each pair once.
  double pair_potential_energy(const Vec4* pos, int n, float softening);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// The device passes that need scratch memory (kept and grown): the density grid's table and the
// sums. Device arrays, the default stream; body_acceleration() waits for its result.
class DeviceFields : NoCopy {
 public:
  DeviceFields();
  ~DeviceFields();
  void density(const Vec4* pos, int n, float* out);
  Vec3 body_acceleration(const Vec4* pos, int n, int i, float softening);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace orrery
