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

// Issue 41: an integrator's scheme owns what it keeps between steps. Driven through passes that
// count evaluations: leapfrog pays one evaluation more on its first step, on the first after a
// reset, and on the first after bodies were added or removed; yoshida4 keeps nothing.
class CountingPasses final : public StepPasses {
 public:
  int evaluations = 0;
  void kick(double) override {}
  void drift(Slot, Slot, double) override {}
  void forces(Slot) override { ++evaluations; }
  bool forces_kept() const override { return kept; }
  void force_euler(double, float) override { ++evaluations; }
  void collide() override {}
  void coast(double, float) override {}
  bool kept = false;  // what the Simulation says from the scheme
};

int evaluations_of(IntegratorScheme& scheme, CountingPasses& passes) {
  passes.evaluations = 0;
  passes.kept = scheme.forces_kept();
  scheme.step(passes, 0.01, SimParams{});
  return passes.evaluations;
}

TEST(Integrators, SchemesOwnWhatTheyKeepAndForgetItWhenBodiesChange) {
  CountingPasses passes;
  const auto leapfrog = make_scheme(Integrator::leapfrog);
  EXPECT_FALSE(leapfrog->forces_kept());
  EXPECT_EQ(evaluations_of(*leapfrog, passes), 2);
  EXPECT_TRUE(leapfrog->forces_kept());
  EXPECT_EQ(evaluations_of(*leapfrog, passes), 1);
  leapfrog->bodies_changed(7);
  EXPECT_FALSE(leapfrog->forces_kept());
  EXPECT_EQ(evaluations_of(*leapfrog, passes), 2);
  leapfrog->forget();
  EXPECT_EQ(evaluations_of(*leapfrog, passes), 2);
  EXPECT_EQ(evaluations_of(*leapfrog, passes), 1);
  // Two Simulations' schemes are two objects: one's state is not the other's.
  const auto other = make_scheme(Integrator::leapfrog);
  EXPECT_FALSE(other->forces_kept());
  const auto yoshida = make_scheme(Integrator::yoshida4);
  EXPECT_EQ(evaluations_of(*yoshida, passes), 3);
  EXPECT_FALSE(yoshida->forces_kept());
}

// Merges remove bodies inside a leapfrog step: the scheme is told, and the run matches, bit for
// bit, one that forgets its forces before every step (what it keeps after a merge are the merged
// bodies' forces, evaluated after the collision stage).
TEST(Integrators, LeapfrogAfterMergesKeepsTheMergedStatesForces) {
  SimParams p;
  p.dt = 0.002f;
  p.softening = 0.05f;
  p.collisions.mode = CollisionMode::merge;
  BodyState s;
  for (int i = 0; i < 6; ++i) {  // three head-on pairs that merge within a few steps
    const float x = 0.02f * (i % 2 == 0 ? -1.0f : 1.0f), y = 3.0f * (i / 2);
    s.pos.push_back(Vec4{x, y, 0.0f, 1.0f});
    s.vel.push_back(Vec4{-x * 10.0f, 0.0f, 0.0f, 0.05f});
  }
  auto kept = make_simulation("cpu", s, p, Integrator::leapfrog);
  auto fresh = make_simulation("cpu", s, p, Integrator::leapfrog);
  for (int k = 0; k < 20; ++k) {
    kept->step(1);
    fresh->step(1);
    fresh->set_solver(make_solver("cpu"));  // a new module: the kept forces are forgotten
  }
  EXPECT_LT(kept->bodies().n, 6);
  const BodyState a = kept->state(), b = fresh->state();
  ASSERT_EQ(a.size(), b.size());
  for (int i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.pos[i].x, b.pos[i].x);
    EXPECT_EQ(a.vel[i].x, b.vel[i].x);
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
