// Time integrators over any gravity module that writes accelerations: the seed's damped Euler,
// leapfrog (kick-drift-kick) and Yoshida's fourth-order composition of leapfrog. Host arrays; the
// step pipeline's System will run the same maths on the device.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

enum class Integrator { euler, leapfrog, yoshida4 };

const std::vector<std::string>& integrator_names();
// Throws InputError naming the valid integrators.
Integrator parse_integrator(const std::string& name);
const char* to_string(Integrator i);
// Force evaluations per step: euler 1, leapfrog 2 (the kick at each end; no cache yet),
// yoshida4 3 (drift-kick-drift form).
int force_evaluations(Integrator i);

// Writes the acceleration of every body at positions `pos` into acc[0..n).
using HostGravity = std::function<void(const Vec4* pos, Vec3* acc, int n)>;

// The all-pairs sum of physics.h on the host (OpenMP over bodies): a gravity module for the CPU.
void all_pairs_accelerations(const Vec4* pos, Vec3* acc, int n, float softening);

// One step of size dt (negative runs time backwards) on host arrays, positions and velocities in
// place; `acc` is scratch of n elements. Damping applies to euler only: the others throw
// InputError for damping other than 1 (they are symplectic and time-reversible only without it).
void integrate_host(Integrator kind, Vec4* pos, Vec4* vel, Vec3* acc, int n, float dt,
                    float damping, const HostGravity& gravity);

}  // namespace orrery
