// Issue 41: the viewer's CPU path steps a copy of the run on a worker thread and publishes it. The
// Simulation it reads follows the copy (Simulation::follow), and a copy seeded from the read one
// continues the run bit for bit, as a restart does: the clock, the adaptive step, the collision
// totals and the labels through merges all travel.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "orrery/presets.h"
#include "support.h"

namespace orrery::test {
namespace {

BodyState merging_cloud(int n) {
  BodyState s = make_preset(Preset::accretion, n, 5);
  for (Vec4& v : s.vel) v.w = 0.3f;  // radii large enough that bodies merge within a few steps
  return s;
}

SimParams merging_params(bool adaptive = true) {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.05f;
  p.adaptive = adaptive;
  p.collisions.mode = CollisionMode::merge;
  return p;
}

void expect_same_state(Simulation& a, Simulation& b) {
  const BodyState x = a.state(), y = b.state();
  ASSERT_EQ(x.size(), y.size());
  for (int i = 0; i < x.size(); ++i) {
    ASSERT_EQ(x.pos[i].x, y.pos[i].x) << i;
    ASSERT_EQ(x.pos[i].y, y.pos[i].y) << i;
    ASSERT_EQ(x.vel[i].z, y.vel[i].z) << i;
    ASSERT_EQ(x.pos[i].w, y.pos[i].w) << i;
  }
}

TEST(Follow, TheReadSimulationTakesTheWorkersProgressAndLabels) {
  const BodyState s = merging_cloud(301);
  std::vector<std::uint8_t> types(301);
  std::vector<std::uint64_t> ids(301);
  for (int i = 0; i < 301; ++i) types[i] = static_cast<std::uint8_t>(i % 6), ids[i] = 1000 + i;
  auto shown = make_simulation("cpu", s, merging_params(), Integrator::leapfrog);
  auto worker = make_simulation("cpu", s, merging_params(), Integrator::leapfrog);
  shown->set_labels(types, ids);
  worker->set_labels(types, ids);
  worker->step(40);
  ASSERT_LT(worker->bodies().n, 301) << "the test needs merges";
  shown->follow(*worker);
  EXPECT_EQ(shown->time(), worker->time());
  EXPECT_EQ(shown->step_count(), worker->step_count());
  EXPECT_EQ(shown->next_dt(), worker->next_dt());
  EXPECT_EQ(shown->last_dt(), worker->last_dt());
  EXPECT_EQ(shown->collision_totals().merges, worker->collision_totals().merges);
  EXPECT_GT(shown->collision_totals().merges, 0);
  EXPECT_EQ(shown->rows(), worker->rows());
  EXPECT_EQ(shown->types(), worker->types());
  EXPECT_EQ(shown->ids(), worker->ids());
  // The labels follow the bodies left: each ID still names its own row.
  for (std::size_t k = 0; k < shown->ids().size(); ++k)
    EXPECT_EQ(shown->ids()[k], 1000u + static_cast<std::uint64_t>(shown->rows()[k]));
}

TEST(Follow, ACopySeededFromThePublishedRunContinuesItBitForBit) {
  // (euler with the adaptive step restarts one step short of its rate: issue 42; fixed steps here)
  for (Integrator integrator : {Integrator::euler, Integrator::leapfrog, Integrator::yoshida4}) {
    SCOPED_TRACE(to_string(integrator));
    const SimParams p = merging_params(integrator != Integrator::euler);
    const BodyState s = merging_cloud(257);
    auto straight = make_simulation("cpu", s, p, integrator);
    auto first = make_simulation("cpu", s, p, integrator);
    straight->step(30);
    first->step(15);
    // The read Simulation takes the published state and progress; a new worker is seeded from it.
    auto shown = make_simulation("cpu", first->state(), p, integrator);
    shown->follow(*first);
    auto seeded = make_simulation("cpu", shown->state(), p, integrator);
    seeded->follow(*shown);
    seeded->step(15);
    ASSERT_GT(straight->collision_totals().merges, first->collision_totals().merges)
        << "the test needs merges after the seed";
    EXPECT_EQ(seeded->time(), straight->time());
    EXPECT_EQ(seeded->step_count(), straight->step_count());
    EXPECT_EQ(seeded->collision_totals().merges, straight->collision_totals().merges);
    expect_same_state(*seeded, *straight);
  }
}

}  // namespace
}  // namespace orrery::test
