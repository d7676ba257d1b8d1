// Test particles on the CPU modules (tests/test_particle_checks.h): the all-pairs sums over the
// sources alone, the tree with test particles left out of it, and the Simulation's count.
#include "test_particle_checks.h"

namespace orrery {
namespace {

using namespace test;

TEST(TestParticles, AllPairsModulesSumTheSourcesAlone) {
  for (const char* solver : {"cpu", "cpu-omp"}) {
    check_all_pairs_sources(solver, 1001, 137);
    check_all_pairs_sources(solver, 777, 776);
    check_all_pairs_sources(solver, 500, 1);
  }
}

TEST(TestParticles, TheTreeLeavesThemOutAndKeepsItsAccuracy) {
  check_tree_sources("cpu-bh", 20011, 2003);
  check_tree_sources("cpu-bh", 20011, 10005);
  check_tree_sources("cpu-bh", 9001, 8000);
}

TEST(TestParticles, TheSimulationCountsTheSources) {
  for (const char* solver : {"cpu", "cpu-omp", "cpu-bh"}) check_simulation_counts_sources(solver);
}

TEST(TestParticles, EveryBodyMasslessLeavesOneSourceAndNoForce) {
  BodyState s = with_test_particles(100, 0);
  auto sim = make_simulation("cpu-omp", s, SimParams{}, Integrator::leapfrog);
  sim->step(3);
  const BodyState e = sim->state();
  for (int i = 0; i < 100; ++i) {  // straight lines
    const float t = 3 * SimParams{}.dt;
    EXPECT_FLOAT_EQ(e.pos[i].x, s.pos[i].x + s.vel[i].x * t);
  }
  EXPECT_EQ(sim->solver().interactions(100), 100.0);
}

}  // namespace
}  // namespace orrery
