// Snapshot series (orrery/series.h): --save-every's grammar, the pattern's, when outputs are due by
// steps and by time, exact restarts from any output, and the refusals: a file in the way up front
// or during the run, a folder that cannot be written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "orrery/runner.h"
#include "orrery/series.h"
#include "support.h"

namespace orrery::test {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

SeriesPlan plan(const std::string& every, const std::string& pattern) {
  return parse_series(every, pattern, "--save-every", "--series");
}

TEST(Series, TheGrammarTakesStepsOrATime) {
  EXPECT_EQ(plan("5", "a_%d.orrery").every_steps, 5);
  EXPECT_EQ(plan("steps=7", "a_%d.orrery").every_steps, 7);
  EXPECT_EQ(plan("time=0.25", "a_%d.orrery").every_time, 0.25);
  EXPECT_EQ(plan("time=0.25", "a_%d.orrery").every_steps, 0);
  for (const char* bad : {"0", "-3", "1.5", "", "steps=", "five", "time=0", "time=-1", "time=nan",
                          "time=", "time=1e400"})
    EXPECT_THAT(error_of([&] { plan(bad, "a_%d.orrery"); }), HasSubstr("--save-every")) << bad;
}

TEST(Series, ThePatternHasOneNumberAndAWrittenExtension) {
  EXPECT_EQ(series_file(plan("1", "snap_%03d.hdf5"), 7), "snap_007.hdf5");
  EXPECT_EQ(series_file(plan("1", "run/%d.orrery"), 12), "run/12.orrery");
  EXPECT_EQ(series_file(plan("1", "p%%_%4d.tipsy"), 3), "p%_   3.tipsy");
  EXPECT_THAT(error_of([] { plan("1", "snap.hdf5"); }), HasSubstr("no %d"));
  EXPECT_THAT(error_of([] { plan("1", "%d_%d.hdf5"); }), HasSubstr("more than one %d"));
  EXPECT_THAT(error_of([] { plan("1", "%s.hdf5"); }), HasSubstr("must start %d"));
  EXPECT_THAT(error_of([] { plan("1", "%123d.hdf5"); }), HasSubstr("must start %d"));
  EXPECT_THAT(error_of([] { plan("1", "snap_%d.out"); }), HasSubstr("'.out'"));
  EXPECT_THAT(error_of([] { plan("1", ""); }), HasSubstr("--series: empty"));
}

// A leapfrog run of `steps` steps with a series written through the Runner.
struct SeriesRun {
  TempDir dir;
  std::unique_ptr<Simulation> sim;
  SeriesRun(const std::string& every, int steps, float dt = 0.01f) {
    SimParams p;
    p.dt = dt;
    sim = make_simulation("cpu", make_preset(Preset::plummer, 40, 5), p, Integrator::leapfrog);
    SeriesWriter w(plan(every, dir.path + "/out_%02d.orrery"));
    w.start(*sim, sim->bodies());
    RunPlan rp;
    rp.steps = steps;
    rp.after_step = [&](Simulation& s, const Bodies& b) { w.after_step(s, b); };
    Runner::run(*sim, rp);
    w.finish();  // the last output is written behind the steps
    written = w.written();
  }
  Snapshot output(int k) { return load_snapshot(dir.path + "/out_" + two(k) + ".orrery"); }
  static std::string two(int k) { return (k < 10 ? "0" : "") + std::to_string(k); }
  int written = 0;
};

TEST(Series, EveryKStepsFromTheStart) {
  SeriesRun r("3", 10);
  EXPECT_EQ(r.written, 4);  // steps 0, 3, 6, 9
  EXPECT_EQ(r.dir.entries(), 4);
  for (int k = 0; k < 4; ++k) {
    const Snapshot s = r.output(k);
    EXPECT_EQ(s.run.steps, 3 * k);
    EXPECT_NEAR(s.run.time, 3 * k * double(0.01f), 1e-12);
    EXPECT_EQ(s.bodies.size(), 40);
  }
}

TEST(Series, ByTimeTheStepNearestEachMultiple) {
  // dt 0.01f is a little under 0.01: the 5th step ends just short of 0.05 and is still the
  // nearest, so the outputs are steps 0, 5, 10, 15 and 20.
  SeriesRun r("time=0.05", 20);
  ASSERT_EQ(r.written, 5);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(r.output(k).run.steps, 5 * k);
  // An interval shorter than a step writes once a step, never twice at one time.
  SeriesRun fine("time=0.004", 6);
  EXPECT_EQ(fine.written, 7);
  for (int k = 1; k < 7; ++k) EXPECT_GT(fine.output(k).run.time, fine.output(k - 1).run.time);
}

TEST(Series, EveryOutputRestartsBitForBit) {
  SeriesRun r("4", 12);
  const Snapshot from = r.output(1), last = r.output(3);
  std::unique_ptr<Simulation> again =
      make_simulation("cpu", from.bodies, from.run.params, from.run.integrator);
  again->resume(from.run);
  again->step(8);
  const BodyState a = again->state(), b = last.bodies;
  ASSERT_EQ(a.size(), b.size());
  for (int i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.pos[i].x, b.pos[i].x);
    EXPECT_EQ(a.vel[i].z, b.vel[i].z);
  }
  EXPECT_EQ(again->time(), last.run.time);
}

TEST(Series, NoFileIsOverwritten) {
  TempDir dir;
  const std::string pattern = dir.path + "/s_%d.orrery";
  std::ofstream(dir.path + "/s_40.orrery") << "someone's";
  EXPECT_THAT(error_of([&] { SeriesWriter w(plan("1", pattern)); }),
              HasSubstr("s_40.orrery exists already"));
  EXPECT_THAT(error_of([&] { SeriesWriter w(plan("1", dir.path + "/none/s_%d.orrery")); }),
              HasSubstr("cannot write in"));
  // A file that appears in the way during the run ends it there, the outputs before it whole.
  std::unique_ptr<Simulation> sim =
      make_simulation("cpu", make_preset(Preset::disk, 30, 2), SimParams{}, Integrator::euler);
  SeriesWriter w(plan("1", dir.path + "/t_%d.orrery"));
  w.start(*sim, sim->bodies());
  std::ofstream(dir.path + "/t_3.orrery") << "in the way";
  RunPlan rp;
  rp.steps = 10;
  rp.after_step = [&](Simulation& s, const Bodies& b) { w.after_step(s, b); };
  EXPECT_THAT(error_of([&] { Runner::run(*sim, rp); }), HasSubstr("t_3.orrery: exists already"));
  EXPECT_EQ(sim->step_count(), 3);
  EXPECT_EQ(w.written(), 3);
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(load_snapshot(dir.path + "/t_" + std::to_string(k) + ".orrery").run.steps, k);
  EXPECT_EQ(read_file(dir.path + "/t_3.orrery"), "in the way");
}

TEST(Series, AFailedWriteBehindTheStepsStopsTheSeriesAtTheNextOutput) {
  // Outputs are written on a thread of their own: output 2's folder goes away while it is due,
  // and the failure is told at output 3 (or by finish()), the outputs before it whole.
  TempDir dir;
  const std::string folder = dir.path + "/run", moved = dir.path + "/kept";
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  std::unique_ptr<Simulation> sim =
      make_simulation("cpu", make_preset(Preset::disk, 30, 2), SimParams{}, Integrator::euler);
  SeriesWriter w(plan("1", folder + "/t_%d.orrery"));
  w.start(*sim, sim->bodies());
  RunPlan rp;
  rp.steps = 10;
  rp.after_step = [&](Simulation& s, const Bodies& b) {
    if (s.step_count() == 2) {
      w.finish();  // output 1 whole, then its folder moves away before output 2 is due
      ASSERT_EQ(std::rename(folder.c_str(), moved.c_str()), 0);
    }
    w.after_step(s, b);
  };
  EXPECT_THAT(error_of([&] { Runner::run(*sim, rp); }), HasSubstr("t_2.orrery"));
  EXPECT_EQ(sim->step_count(), 3);  // told when output 3 was due
  EXPECT_EQ(w.written(), 2);
  EXPECT_THAT(error_of([&] { w.finish(); }), HasSubstr("t_2.orrery"));  // and again, not lost
  for (int k = 0; k < 2; ++k)
    EXPECT_EQ(load_snapshot(moved + "/t_" + std::to_string(k) + ".orrery").run.steps, k);
  EXPECT_FALSE(std::ifstream(moved + "/t_2.orrery").good());
}

}  // namespace
}  // namespace orrery::test
