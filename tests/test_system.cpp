// The System through the CPU modules (the same checks run through the CUDA modules in
// tests/gpu/test_gpu_system.cpp), and its refusals.
#include <gtest/gtest.h>

#include "orrery/input.h"
#include "system_checks.h"

namespace orrery::test {
namespace {

TEST(System, DiagnosticsMatchTheHostsDoubleSums) { check_diagnostics_match_host("cpu-omp", 2000); }
TEST(System, PlummerStaysVirialisedForFiveCrossingTimes) {
  check_plummer_stays_virialised("cpu-omp", 1024);
}
TEST(System, PotentialsMatchTheHostsDoubleSums) {
  for (int n : {2, 7, 1000}) check_potentials_match_host("cpu", n);
}
TEST(System, CountsPhasesForceEvaluationsAndTime) { check_bookkeeping("cpu"); }
TEST(System, LeapfrogsKeptForcesChangeNothing) { check_kept_forces_change_nothing("cpu"); }

TEST(System, RefusesDampingWithSymplecticIntegratorsAndKeepsItsState) {
  const BodyState s = make_preset(Preset::random, 10, 1);
  SimParams damped;
  damped.damping = 0.9f;
  EXPECT_THROW(make_system("cpu", s, Integrator::leapfrog, damped), InputError);
  auto sys = make_system("cpu", s, Integrator::euler, damped);
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

TEST(System, ReversedTimeRunsTheClockBackwards) {
  auto sys =
      make_system("cpu", make_preset(Preset::random, 10, 1), Integrator::leapfrog, SimParams{});
  sys->advance(3);
  sys->set_time_reversed(true);
  sys->advance(3);
  EXPECT_NEAR(sys->time(), 0.0, 1e-12);
  EXPECT_EQ(sys->step_count(), 6);
}

TEST(System, HostStorageStartsItsOutputBufferAsNaN) {
  // A module that left a body unwritten would leave NaN, which the finite checks catch.
  const BodyState s = make_preset(Preset::random, 5, 1);
  auto storage = make_host_storage(s);
  bool saw_nan = false;
  storage->run(1, [&](Vec4*, Vec4* b, Vec4*) { saw_nan = std::isnan(b[0].x); });
  EXPECT_TRUE(saw_nan);
}

}  // namespace
}  // namespace orrery::test
