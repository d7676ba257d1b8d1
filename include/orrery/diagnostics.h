// Diagnostics: the readings of a Simulation (Diagnostics, Drift) and the direct host-side sums the
// tests check them against (momentum, energy, centre of mass, error norms).
#pragma once

#include <cmath>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

inline double length(const Vec3d& v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

Vec3d total_momentum(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
// Diagnostics of one state, summed in double (GPU state: reductions on the device, no full host
// copy). The potential is softened with the run's eps.
struct Diagnostics {
  double mass = 0, kinetic = 0, potential = 0;
  double energy_offset = 0;  // the energy collisions removed so far (CollisionTotals)
  int bodies = 0;            // bodies in the simulation (merges remove some)
  Vec3d momentum, angular_momentum, centre_of_mass;
  double momentum_scale = 0;  // sum |m v|: what the total momentum is judged against
  double ms = 0;              // what measuring cost (wall clock, waiting for the device)
  // E + the collisions' offset: what is conserved.
  double total() const { return kinetic + potential + energy_offset; }
  double virial() const;  // 2K / |W|; 0 when W is 0
};

// Drift of a later state against an initial one: (E - E0)/|E0|, |P - P0| / momentum scale,
// |L - L0| / |L0| (absolute |L - L0| when L0 is 0).
struct Drift {
  double energy = 0, momentum = 0, angular_momentum = 0;
};
Drift drift(const Diagnostics& start, const Diagnostics& now);

// Sum of |m v| over bodies: the scale to judge the total momentum against.
double momentum_scale(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
double kinetic_energy(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
// Softened potential energy, -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), in double precision.
double potential_energy(const std::vector<Vec4>& pos, float softening);
// Total angular momentum sum m r x v about the origin, and the centre of mass, in double.
Vec3d angular_momentum(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
Vec3d centre_of_mass(const std::vector<Vec4>& pos);
// 2K / |W| with W softened by `softening` (1 in virial equilibrium); 0 when W is 0.
double virial_ratio(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel, float softening);
// max_i |a_i - b_i| / max_i |b_i| over xyz: the position error relative to the system's extent.
double max_relative_error(const std::vector<Vec4>& a, const std::vector<Vec4>& b);

}  // namespace orrery
