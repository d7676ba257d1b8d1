// The integrators through the CPU reference module (the same checks run through the CUDA
// modules in tests/gpu/test_gpu_integrators.cpp), and their names.
#include <gtest/gtest.h>

#include "integrator_checks.h"
#include "orrery/input.h"
#include "orrery/integrators.h"

namespace orrery::test {
namespace {

TEST(Integrators, ConvergeAtTheirOrderOnAKeplerOrbit) { check_convergence_orders("cpu"); }

// Issue 21: a merge cannot be undone, so time cannot run backwards while bodies merge (Backspace
// was accepted); bounce and no collisions can.
TEST(Integrators, TimeCannotRunBackwardsWhileBodiesMerge) {
  SimParams p;
  p.collisions.mode = CollisionMode::merge;
  EXPECT_THROW(check_reversible(Integrator::leapfrog, p), InputError);
  p.collisions.mode = CollisionMode::bounce;
  EXPECT_NO_THROW(check_reversible(Integrator::leapfrog, p));
  p.collisions.mode = CollisionMode::off;
  EXPECT_NO_THROW(check_reversible(Integrator::yoshida4, p));
}
TEST(Integrators, LeapfrogKeepsACircularOrbitsRadius) { check_leapfrog_radius("cpu"); }
TEST(Integrators, LeapfrogHasNoSecularEnergyDrift) { check_leapfrog_no_drift("cpu"); }
TEST(Integrators, LeapfrogRetracesItsPathWhenTimeRuns) { check_leapfrog_reversal("cpu"); }
TEST(Integrators, SeedEulerHasABoundedFirstOrderEnergyError) { check_seed_euler_energy("cpu"); }
TEST(Integrators, ConserveAngularMomentumOnTheKeplerOrbit) { check_angular_momentum("cpu"); }
TEST(Integrators, RefuseDamping) { check_refused_damping("cpu"); }

TEST(Integrators, NamesParseAndUnknownOnesAreRefused) {
  for (const std::string& name : integrator_names())
    EXPECT_EQ(to_string(parse_integrator(name)), name);
  EXPECT_THROW(parse_integrator("nope"), InputError);
  EXPECT_EQ(force_evaluations(Integrator::yoshida4), 3);
  EXPECT_NEAR(2 * yoshida_w1() + yoshida_w0(), 1.0, 1e-15);
}

TEST(Integrators, CircularOrbitIsInVirialEquilibrium) {
  const BodyState circ = kepler(0.0, 0.0);
  EXPECT_NEAR(virial_ratio(circ.pos, circ.vel, k_eps), 1.0, 1e-6);
}

}  // namespace
}  // namespace orrery::test
