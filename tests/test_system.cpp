// The Simulation through the CPU modules (the same checks run through the CUDA modules in
// tests/gpu/test_gpu_system.cpp), and its refusals.
#include <gtest/gtest.h>

#include "orrery/input.h"
#include "system_checks.h"

namespace orrery::test {
namespace {

TEST(Simulation, DiagnosticsMatchTheHostsDoubleSums) { check_diagnostics_match_host("cpu-omp", 2000); }
TEST(Simulation, PlummerStaysVirialisedForFiveCrossingTimes) {
  check_plummer_stays_virialised("cpu-omp", 1024);
}
TEST(Simulation, PotentialsMatchTheHostsDoubleSums) {
  for (int n : {2, 7, 1000}) check_potentials_match_host("cpu", n);
}
TEST(Simulation, CountsPhasesForceEvaluationsAndTime) { check_bookkeeping("cpu"); }
TEST(Simulation, LeapfrogsKeptForcesChangeNothing) { check_kept_forces_change_nothing("cpu"); }

TEST(Simulation, RefusesDampingWithSymplecticIntegratorsAndKeepsItsState) {
  const BodyState s = make_preset(Preset::random, 10, 1);
  SimParams damped;
  damped.damping = 0.9f;
  EXPECT_THROW(make_simulation("cpu", s, Integrator::leapfrog, damped), InputError);
  auto sys = make_simulation("cpu", s, Integrator::euler, damped);
  EXPECT_THROW(sys->set_integrator(Integrator::yoshida4), InputError);
  EXPECT_EQ(sys->integrator(), Integrator::euler);
  sys->set_params(SimParams{});
  sys->set_integrator(Integrator::leapfrog);
  EXPECT_THROW(sys->set_params(damped), InputError);
  EXPECT_EQ(sys->params().damping, 1.0f);
  SimParams bad;
  bad.dt = -1.0f;
  EXPECT_THROW(sys->set_params(bad), InputError);
}

TEST(Simulation, ReversedTimeRunsTheClockBackwards) {
  auto sys =
      make_simulation("cpu", make_preset(Preset::random, 10, 1), Integrator::leapfrog, SimParams{});
  sys->step(3);
  sys->set_time_reversed(true);
  sys->step(3);
  EXPECT_NEAR(sys->time(), 0.0, 1e-12);
  EXPECT_EQ(sys->step_count(), 6);
}

TEST(Simulation, OwnedStateStartsItsOutputBufferAsNaN) {
  // A module that left a body unwritten would leave NaN, which the finite checks catch.
  Simulation sim(make_preset(Preset::random, 5, 1), make_solver("cpu"), Integrator::euler,
                 SimParams{});
  EXPECT_TRUE(std::isnan(sim.bodies().next[0].x));
  EXPECT_FALSE(std::isnan(sim.bodies().pos[0].x));
}

}  // namespace
}  // namespace orrery::test
