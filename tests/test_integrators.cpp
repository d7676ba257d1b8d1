// The integrators through the CPU reference module (the same checks run through the CUDA
// modules in tests/gpu/test_gpu_integrators.cpp), and their names.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "integrator_checks.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "support.h"

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

// The registry: each row is its number, makes its own scheme, and its stated cost is what a step
// costs once the state has settled.
TEST(Integrators, EachRecordMakesItsSchemeAndCostsWhatItSays) {
  std::set<std::string> names;
  for (std::size_t k = 0; k < integrator_table().size(); ++k) {
    const IntegratorInfo& info = integrator_table()[k];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(static_cast<std::size_t>(info.id), k);
    EXPECT_TRUE(names.insert(info.name).second);
    EXPECT_EQ(make_scheme(info.id)->kind(), info.id);
    EXPECT_STRNE(info.description, "");
    SimParams p;
    p.dt = 0.001f;
    auto sim = make_simulation("cpu", kepler(0.5, 0.0), p, info.id);
    sim->step(3);
    EXPECT_EQ(sim->last_evaluations(), info.force_evaluations);
  }
}

// What an integrator refuses comes from its record: an integrator-owned row it does not take,
// away from its default, is refused naming both; one it takes is accepted, and breaks reversal.
TEST(Integrators, TheRulesComeFromTheRecords) {
  for (const IntegratorInfo& info : integrator_table())
    for (const ParamRow& row : param_rows()) {
      if (row.owner != ParamOwner::integrator || row.form != ParamForm::plain) continue;
      SCOPED_TRACE(std::string(info.name) + " " + row.name);
      SimParams p;
      check_integrator(info.id, p);
      check_reversible(info.id, p);
      row.set(p, 0.5f * (row.lo + row.hi));
      if (info.takes_param(row.name)) {
        check_integrator(info.id, p);
        EXPECT_THROW(check_reversible(info.id, p), InputError);
      } else {
        try {
          check_integrator(info.id, p);
          ADD_FAILURE() << "accepted";
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find(std::string(info.name) + " takes no " + row.name),
                    std::string::npos)
              << e.what();
        }
      }
    }
}

// With gravity off a step is the integrator's coast: a drift, damped where the record takes
// damping (euler), at the velocity it had otherwise.
TEST(Integrators, WithGravityOffEachCoasts) {
  BodyState s;
  s.pos = {Vec4{0, 0, 0, 1}, Vec4{10, 0, 0, 1}};
  s.vel = {Vec4{1, 0, 0, 0}, Vec4{0, -2, 0, 0}};
  for (const IntegratorInfo& info : integrator_table()) {
    SCOPED_TRACE(info.name);
    SimParams p;
    p.gravity = false;
    p.dt = 0.25f;
    const bool damps = info.takes_param("damping");
    if (damps) p.damping = 0.5f;
    auto sim = make_simulation("cpu", s, p, info.id);
    sim->step(1);
    const BodyState out = sim->state();
    const float v = damps ? 0.5f : 1.0f;
    EXPECT_FLOAT_EQ(out.vel[0].x, v);
    EXPECT_FLOAT_EQ(out.pos[0].x, 0.25f * v);
    EXPECT_FLOAT_EQ(out.pos[1].y, -0.5f * v);
  }
}

TEST(Integrators, CircularOrbitIsInVirialEquilibrium) {
  const BodyState circ = kepler(0.0, 0.0);
  EXPECT_NEAR(virial_ratio(circ.pos, circ.vel, k_eps), 1.0, 1e-6);
}

}  // namespace
}  // namespace orrery::test
