// Issue 42: the clock could stop. At a time of ~1e17 a step of 0.01 leaves `time + dt == time`:
// integrate() with the adaptive step never returned, and a fixed step took millions of steps that
// left the time unchanged and then returned as if it had landed. A step that cannot advance the
// clock is now refused with one line, after the steps that did advance it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "orrery/presets.h"
#include "support.h"

namespace orrery::test {
namespace {

void expect_refused_at(double t0, bool adaptive, Precision precision) {
  SCOPED_TRACE(std::string(adaptive ? "adaptive" : "fixed") +
               (precision == Precision::double_ ? " double" : " single"));
  SimParams p;
  p.dt = 0.01f;
  p.adaptive = adaptive;
  p.precision = precision;
  auto sim = make_simulation("cpu", make_preset(Preset::plummer, 64, 3), p, Integrator::leapfrog);
  RunState r;
  r.time = t0;
  sim->resume(r);
  const BodyState before = sim->state();
  try {
    sim->step(5);
    FAIL() << "a step below the time's rounding was taken";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the clock cannot advance"), std::string::npos) << what;
    EXPECT_NE(what.find("1e+17"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "one line";
  }
  EXPECT_EQ(sim->time(), t0);
  EXPECT_EQ(sim->step_count(), 0);
  const BodyState after = sim->state();
  for (int i = 0; i < before.size(); ++i) ASSERT_EQ(after.pos[i].x, before.pos[i].x);
}

TEST(Clock, AStepThatCannotAdvanceTheTimeIsRefusedAndChangesNothing) {
  for (bool adaptive : {false, true})
    for (Precision precision : {Precision::single, Precision::double_})
      expect_refused_at(1e17, adaptive, precision);
}

// Below the limit the clock moves, however large the time.
TEST(Clock, ALargeTimeThatStillMovesSteps) {
  SimParams p;
  p.dt = 0.01f;
  auto sim = make_simulation("cpu", make_preset(Preset::plummer, 64, 3), p, Integrator::leapfrog);
  RunState r;
  r.time = 1e12;
  sim->resume(r);
  sim->step(3);
  EXPECT_EQ(sim->step_count(), 3);
  EXPECT_GT(sim->time(), 1e12);
}

}  // namespace
}  // namespace orrery::test
