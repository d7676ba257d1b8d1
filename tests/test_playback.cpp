// Playing a series back (orrery/playback.h): listing outputs from globs, folders and lists
// (natural order, GADGET-2 sets as one output, bad input in one line), the reader (read ahead,
// budget, gaps for damaged files, vanished files and times out of order), matching bodies by ID,
// and the Hermite motion between outputs against a simulated orbit.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gadget_writer.h"
#include "orrery/playback.h"
#include "orrery/presets.h"
#include "orrery/series.h"
#include "orrery/simulation.h"
#include "support.h"

namespace orrery {
namespace {

using test::TempDir;

// A small state at time t, with IDs 100.. (types 1) unless `ids` is false.
Snapshot small(double t, int n = 5, bool ids = true) {
  Snapshot s;
  s.bodies = make_preset(Preset::plummer, n, 3);
  s.run.time = t;
  if (ids) {
    s.types.assign(static_cast<std::size_t>(n), 1);
    for (int i = 0; i < n; ++i) s.ids.push_back(100 + static_cast<std::uint64_t>(i));
  }
  return s;
}

std::vector<std::string> labels(const std::vector<PlaybackOutput>& v) {
  std::vector<std::string> out;
  for (const PlaybackOutput& o : v) out.push_back(o.label);
  return out;
}

std::string error_of(const std::vector<std::string>& args) {
  try {
    list_series(args);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PlaybackList, GlobsFoldersAndListsInNaturalOrder) {
  TempDir d;
  for (int k : {10, 2, 9, 0})
    save_snapshot(d.path + "/snap_" + std::to_string(k) + ".orrery", small(k));
  std::ofstream(d.path + "/notes.txt") << "not a snapshot\n";
  const std::vector<std::string> want = {"snap_0.orrery", "snap_2.orrery", "snap_9.orrery",
                                         "snap_10.orrery"};
  EXPECT_EQ(labels(list_series({d.path + "/snap_*.orrery"})), want);
  EXPECT_EQ(labels(list_series({d.path})), want);  // the folder: notes.txt is no snapshot
  EXPECT_EQ(labels(list_series({d.path + "/snap_9.orrery", d.path + "/snap_0.orrery"})),
            (std::vector<std::string>{"snap_0.orrery", "snap_9.orrery"}));
  EXPECT_TRUE(names_series({d.path + "/snap_*.orrery"}));
  EXPECT_TRUE(names_series({d.path}));
  EXPECT_FALSE(names_series({d.path + "/snap_9.orrery"}));
}

TEST(PlaybackList, BadArgumentsAreOneLineEach) {
  TempDir d;
  save_snapshot(d.path + "/a_1.orrery", small(1));
  save_snapshot(d.path + "/a_2.tipsy", small(2));
  std::ofstream(d.path + "/a_3.txt") << "text\n";
  std::string e = error_of({d.path + "/none_*.hdf5"});
  EXPECT_NE(e.find("no file matches"), std::string::npos) << e;
  e = error_of({d.path + "/a_*.orrery", d.path + "/a_2.tipsy"});
  EXPECT_NE(e.find("a series is in one format"), std::string::npos) << e;
  e = error_of({d.path + "/a_*"});
  EXPECT_NE(e.find("a_3.txt: not a snapshot"), std::string::npos) << e;
  e = error_of({d.path + "/a_1.orrery", d.path + "//a_1.orrery"});
  EXPECT_NE(e.find("named twice"), std::string::npos) << e;
  e = error_of({d.path + "/gone.orrery"});
  EXPECT_NE(e.find("no such file"), std::string::npos) << e;
  TempDir empty;
  e = error_of({empty.path});
  EXPECT_NE(e.find("no snapshot file in this folder"), std::string::npos) << e;
  for (const std::string& m : {error_of({d.path + "/none_*.hdf5"}), error_of({empty.path})})
    EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(PlaybackList, AGadget2SetIsOneOutput) {
  TempDir d;
  for (int k : {1, 0}) {
    test::Spec a, b;
    a.npart = b.npart = {0, 2, 0, 0, 0, 0};
    a.mass_table = b.mass_table = {0, 1, 0, 0, 0, 0};
    a.num_files = b.num_files = 2;
    a.total = b.total = {0, 4, 0, 0, 0, 0};
    a.time = b.time = 0.5 * k;
    for (int i = 0; i < 2; ++i) {
      a.pos.insert(a.pos.end(), {1.0 * i, 0, 0}), a.vel.insert(a.vel.end(), {0, 1, 0});
      b.pos.insert(b.pos.end(), {-1.0 * i, 0, 0}), b.vel.insert(b.vel.end(), {0, -1, 0});
      a.ids.push_back(1 + i), b.ids.push_back(3 + i);
    }
    const std::string base = d.path + "/snapshot_00" + std::to_string(k);
    test::write(base + ".0", test::gadget_file(a));
    test::write(base + ".1", test::gadget_file(b));
  }
  const std::vector<PlaybackOutput> out = list_series({d.path + "/snapshot_*"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].label, "snapshot_000.0-1");
  EXPECT_EQ(out[1].path, d.path + "/snapshot_001");
  LoadOptions g1;
  g1.gadget_g = 1.0, g1.gadget_g_given = true;
  SeriesReader r(out, g1, 1 << 20);
  const PlaybackSlot s = r.wait(1);
  ASSERT_TRUE(s.frame) << s.gap;
  EXPECT_EQ(s.frame->bodies.size(), 4);
  EXPECT_DOUBLE_EQ(s.frame->time, 0.5);
  EXPECT_EQ(s.frame->ids, (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

TEST(SeriesReader, ReadsAheadWithinItsBudgetAndDropsWhatIsBehind) {
  TempDir d;
  const int n = 1000, outputs = 12;
  for (int k = 0; k < outputs; ++k)
    save_snapshot(d.path + "/s_" + std::to_string(k) + ".orrery", small(0.25 * k, n));
  const std::size_t frame = static_cast<std::size_t>(n) * (32 + 1 + 8);
  SeriesReader r(list_series({d.path + "/s_*.orrery"}), {}, 4 * frame);
  ASSERT_EQ(r.size(), outputs);
  r.aim(0, 1);
  ASSERT_TRUE(r.wait(0).frame);
  // Read-ahead fills the budget (4 frames) and stops there.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (r.held_bytes() < 4 * frame && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(r.held_bytes(), 4 * frame);
  EXPECT_TRUE(r.slot(3).frame);
  EXPECT_FALSE(r.slot(5).done());
  // Play moves on: what is behind goes first.
  r.aim(8, 1);
  const PlaybackSlot at = r.wait(8);
  ASSERT_TRUE(at.frame);
  EXPECT_DOUBLE_EQ(at.frame->time, 2.0);
  EXPECT_LE(r.held_bytes(), 4 * frame);
  EXPECT_FALSE(r.slot(0).frame);
  EXPECT_EQ(*r.time(0), 0.0);  // times stay known
  // Backwards: the output before is read next.
  r.aim(8, -1);
  EXPECT_TRUE(r.wait(7).frame);
}

TEST(SeriesReader, DamagedVanishedAndOutOfOrderOutputsAreGaps) {
  TempDir d;
  for (int k = 0; k < 6; ++k) {
    const double t = k == 3 ? 0.5 : k == 4 ? 2.0 : k;  // output 3 goes back in time, 4 repeats 2
    save_snapshot(d.path + "/s_" + std::to_string(k) + ".orrery", small(t));
  }
  std::vector<PlaybackOutput> listed = list_series({d.path + "/s_*.orrery"});
  std::ofstream(d.path + "/s_1.orrery", std::ios::trunc) << "damaged";  // after listing
  std::remove((d.path + "/s_5.orrery").c_str());                        // vanished
  SeriesReader r(std::move(listed), {}, 1 << 20);
  for (int k = 0; k < 6; ++k) r.wait(k);
  EXPECT_TRUE(r.slot(0).frame);
  EXPECT_NE(r.slot(1).gap.find("s_1.orrery"), std::string::npos) << r.slot(1).gap;
  EXPECT_TRUE(r.slot(2).frame);
  EXPECT_NE(r.slot(3).gap.find("out of order"), std::string::npos) << r.slot(3).gap;
  EXPECT_NE(r.slot(4).gap.find("out of order"), std::string::npos) << r.slot(4).gap;
  EXPECT_NE(r.slot(5).gap.find("s_5.orrery"), std::string::npos) << r.slot(5).gap;
  for (int k : {1, 3, 4, 5}) EXPECT_EQ(r.slot(k).gap.find('\n'), std::string::npos);
}

PlaybackFrame frame(const Snapshot& s, int index) {
  PlaybackFrame f;
  f.index = index, f.time = s.run.time, f.bodies = s.bodies, f.ids = s.ids, f.types = s.types;
  return f;
}

TEST(MatchBodies, ByIdThroughAShuffleAndByIndexWithoutIds) {
  PlaybackFrame a = frame(small(0, 50), 0), b = a;
  std::vector<int> order(50);
  for (int i = 0; i < 50; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(4));
  for (int j = 0; j < 50; ++j) b.ids[j] = a.ids[order[j]], b.bodies.pos[j] = a.bodies.pos[order[j]];
  b.ids.pop_back(), b.bodies.pos.pop_back(), b.bodies.vel.pop_back();  // one merged away
  const std::vector<int> m = match_bodies(a, b);
  for (int i = 0; i < 50; ++i) {
    if (i == order[49]) {
      EXPECT_EQ(m[i], -1);
      continue;
    }
    ASSERT_GE(m[i], 0);
    EXPECT_EQ(b.ids[m[i]], a.ids[i]);
  }
  PlaybackFrame c = frame(small(0, 50, false), 0), e = frame(small(1, 50, false), 1);
  EXPECT_TRUE(match_bodies(c, e).empty());                       // each body is itself
  EXPECT_TRUE(match_bodies(a, frame(small(1, 50), 1)).empty());  // the same IDs in the same order
  e.bodies.pos.pop_back(), e.bodies.vel.pop_back();
  EXPECT_THROW(match_bodies(c, e), InputError);  // counts differ, no IDs
  EXPECT_THROW(match_bodies(a, e), InputError);  // IDs on one side
  b.ids[3] = b.ids[4];
  EXPECT_THROW(match_bodies(a, b), InputError);  // an ID twice
}

TEST(MatchBodies, TheReaderPutsOutputsInIdOrderSoTheSameRowIsTheSameBody) {
  // A GADGET-like series: the same bodies, listed in another order in each output.
  TempDir d;
  const int n = 40;
  Snapshot s0 = small(0, n), s1 = small(1, n);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(9));
  Snapshot shuffled = s1;
  for (int j = 0; j < n; ++j) {
    shuffled.ids[j] = s1.ids[order[j]], shuffled.types[j] = order[j] % 3 ? 1 : 4;
    shuffled.bodies.pos[j] = s1.bodies.pos[order[j]],
    shuffled.bodies.vel[j] = s1.bodies.vel[order[j]];
  }
  save_snapshot(d.path + "/o_0.orrery", s0);
  save_snapshot(d.path + "/o_1.orrery", shuffled);
  SeriesReader r(list_series({d.path + "/o_*.orrery"}), {}, 1 << 20);
  const auto a = r.wait(0).frame, b = r.wait(1).frame;
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->ids, b->ids);
  for (int i = 0; i < n; ++i) {  // row i of output 1 is the body with ID 100 + i, its own values
    EXPECT_EQ(b->ids[i], 100u + i);
    EXPECT_EQ(b->bodies.pos[i].x, s1.bodies.pos[i].x);
    EXPECT_EQ(b->types[i], i % 3 ? 1 : 4);
  }
  EXPECT_TRUE(match_bodies(*a, *b).empty());
  // The labels' key: the same labels give the same key, other types another.
  EXPECT_NE(a->labels_key, b->labels_key);
  PlaybackFrame c = *b;
  put_in_id_order(c);
  EXPECT_EQ(c.labels_key, b->labels_key);
  c.types[7] ^= 1;
  put_in_id_order(c);
  EXPECT_NE(c.labels_key, b->labels_key);
}

TEST(Hermite, ExactForConstantAccelerationAndAtTheEnds) {
  // x(t) = x0 + v0 t + g t^2 / 2, outputs at t = 1 and t = 3, bodies listed in another order in b.
  PlaybackFrame a, b;
  a.time = 1.0, b.time = 3.0;
  const int n = 7;
  for (int i = 0; i < n; ++i) {
    const double x0 = 0.1 * i, v0 = 0.5 - 0.2 * i, g = -0.3 + 0.05 * i;
    auto x = [&](double t) { return x0 + v0 * t + 0.5 * g * t * t; };
    auto v = [&](double t) { return v0 + g * t; };
    a.bodies.pos.push_back(Vec4{float(x(1)), float(2 * x(1)), 0, 1});
    a.bodies.vel.push_back(Vec4{float(v(1)), float(2 * v(1)), 0, 0});
    b.bodies.pos.insert(b.bodies.pos.begin(), Vec4{float(x(3)), float(2 * x(3)), 0, 1});
    b.bodies.vel.insert(b.bodies.vel.begin(), Vec4{float(v(3)), float(2 * v(3)), 0, 0});
    a.ids.push_back(i), b.ids.insert(b.ids.begin(), i);
  }
  const std::vector<int> m = match_bodies(a, b);
  BodyState out;
  for (double t : {1.0, 1.7, 2.5, 3.0}) {
    hermite_between(a, b, m, t, out);
    for (int i = 0; i < n; ++i) {
      const double x0 = 0.1 * i, v0 = 0.5 - 0.2 * i, g = -0.3 + 0.05 * i;
      EXPECT_NEAR(out.pos[i].x, x0 + v0 * t + 0.5 * g * t * t, 2e-6) << t;
      EXPECT_NEAR(out.pos[i].y, 2 * (x0 + v0 * t + 0.5 * g * t * t), 4e-6) << t;
      EXPECT_NEAR(out.vel[i].x, v0 + g * t, 4e-6) << t;
    }
  }
}

TEST(Hermite, FollowsASimulatedOrbitBetweenOutputs) {
  // A Kepler orbit (e = 0.5) written every 40 steps of leapfrog; between outputs the curve stays
  // within 2e-4 of the simulated positions (the orbit's size is 1), where straight lines between
  // outputs stray 100 times further.
  TempDir d;
  SimParams p;
  p.dt = 0.002;
  p.softening = 1e-5f;
  Simulation sim(kepler_pair(0.5, 0.0), make_solver("cpu"), Integrator::leapfrog, p);
  SeriesPlan plan = parse_series("40", d.path + "/k_%03d.orrery", "--save-every", "--series");
  SeriesWriter w(plan);
  w.start(sim, sim.bodies());
  std::vector<BodyState> truth;
  for (int k = 0; k < 400; ++k) {
    sim.step(1);
    w.after_step(sim, sim.bodies());
    if (k % 40 == 19) truth.push_back(sim.state());  // halfway between two outputs
  }
  w.finish();
  SeriesReader r(list_series({d.path + "/k_*.orrery"}), {}, 1 << 24);
  ASSERT_EQ(r.size(), 11);
  double worst = 0, worst_line = 0;
  for (int k = 0; k + 1 < r.size(); ++k) {
    const auto a = r.wait(k).frame, b = r.wait(k + 1).frame;
    ASSERT_TRUE(a && b);
    BodyState mid;
    hermite_between(*a, *b, match_bodies(*a, *b), 0.5 * (a->time + b->time), mid);
    for (int i = 0; i < 2; ++i) {
      const Vec4 &got = mid.pos[i], &want = truth[k].pos[i];
      worst = std::max(worst, double(std::hypot(got.x - want.x, got.y - want.y)));
      const Vec4 &pa = a->bodies.pos[i], &pb = b->bodies.pos[i];
      worst_line = std::max(worst_line, double(std::hypot(0.5f * (pa.x + pb.x) - want.x,
                                                          0.5f * (pa.y + pb.y) - want.y)));
    }
  }
  EXPECT_LT(worst, 2e-4);
  EXPECT_GT(worst_line, 100 * worst);
}

}  // namespace
}  // namespace orrery
