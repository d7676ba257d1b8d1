// Issue 42: out of memory inside a step aborted the interpreter and the bench (a std::bad_alloc
// thrown inside an OpenMP region). A step that throws now leaves the state as it was before it:
// the positions it read untouched, the velocities it kicked in place restored, the clock and the
// step count at the last whole step. Here a solver that fails on a chosen force evaluation stands
// in for the allocation that failed.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <new>
#include <string>

#include "../src/sim/core/region_errors.h"
#include "orrery/presets.h"
#include "support.h"

namespace orrery::test {
namespace {

// The exact all-pairs forces, and std::bad_alloc on evaluation number `fail_at` (from 1).
class FailingSolver final : public Solver {
 public:
  explicit FailingSolver(int fail_at) : m_fail_at(fail_at), m_inner(make_solver("cpu")) {}
  const std::string& name() const override { return m_inner->name(); }
  bool on_device() const override { return false; }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    if (++m_calls == m_fail_at) throw std::bad_alloc();
    m_inner->accelerations(pos, acc, n, p);
  }
  bool has_double() const override { return true; }
  void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p) override {
    if (++m_calls == m_fail_at) throw std::bad_alloc();
    m_inner->accelerations_double(pos, acc, n, p);
  }

 private:
  int m_fail_at, m_calls = 0;
  std::unique_ptr<Solver> m_inner;
};

void expect_failed_step_changes_nothing(Integrator integrator, bool adaptive, Precision precision) {
  SCOPED_TRACE(std::string(to_string(integrator)) + (adaptive ? " auto" : " fixed") +
               (precision == Precision::double_ ? " double" : " single"));
  SimParams p;
  p.dt = 0.01f;
  p.adaptive = adaptive;
  p.precision = precision;
  const BodyState start = make_preset(Preset::plummer, 97, 4);
  // Two whole steps, then a failure inside the third, after a kick where the integrator kicks
  // before its last evaluation (leapfrog: kick, drift, then forces at the new positions).
  Simulation reference(start, make_solver("cpu"), integrator, p);
  reference.step(2);
  Simulation failing(start, std::make_unique<FailingSolver>(0), integrator, p);
  failing.step(2);
  const BodyState two = failing.state();
  const int fail_at = integrator == Integrator::euler      ? 1
                      : integrator == Integrator::leapfrog ? 2
                      : adaptive                           ? 3
                                                           : 2;
  failing.set_solver(std::make_unique<FailingSolver>(fail_at));
  EXPECT_THROW(failing.step(3), std::bad_alloc);
  EXPECT_EQ(failing.step_count(), 2);
  EXPECT_EQ(failing.time(), reference.time());
  const BodyState after = failing.state();
  ASSERT_EQ(after.size(), two.size());
  for (int i = 0; i < after.size(); ++i) {
    ASSERT_EQ(after.pos[i].x, two.pos[i].x) << i;
    ASSERT_EQ(after.vel[i].x, two.vel[i].x) << i;
    ASSERT_EQ(after.vel[i].z, two.vel[i].z) << i;
  }
  // And the run goes on from there as if the failure had not happened (fixed steps: the adaptive
  // step restarts its estimate, as after any new module).
  if (adaptive) return;
  failing.set_solver(make_solver("cpu"));
  failing.step(1);
  reference.step(1);
  const BodyState a = failing.state(), b = reference.state();
  for (int i = 0; i < a.size(); ++i) ASSERT_EQ(a.pos[i].y, b.pos[i].y) << i;
}

TEST(StepFailures, AStepThatThrowsLeavesTheStateOfTheLastWholeStep) {
  for (Integrator integrator : {Integrator::euler, Integrator::leapfrog, Integrator::yoshida4})
    for (bool adaptive : {false, true})
      for (Precision precision : {Precision::single, Precision::double_})
        expect_failed_step_changes_nothing(integrator, adaptive, precision);
}

// The first exception thrown inside an OpenMP region comes out after it, on the calling thread,
// instead of std::terminate; the rest of the region's work is skipped.
TEST(StepFailures, AnExceptionInsideAParallelRegionIsThrownAfterIt) {
  RegionErrors errors;
  std::atomic<int> ran{0};
#pragma omp parallel for schedule(static, 1) num_threads(4)
  for (int i = 0; i < 100000; ++i)
    errors.run([&] {
      ran.fetch_add(1, std::memory_order_relaxed);
      if (i == 10) throw std::bad_alloc();
    });
  EXPECT_TRUE(errors.failed());
  EXPECT_LT(ran.load(), 100000);
  EXPECT_THROW(errors.rethrow(), std::bad_alloc);
  RegionErrors none;
  none.run([] {});
  EXPECT_NO_THROW(none.rethrow());
}

}  // namespace
}  // namespace orrery::test
