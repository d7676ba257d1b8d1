// The adaptive step (--dt auto): the e = 0.9 Kepler orbit against a fixed step of the same cost,
// a head-on pass, the floor, the refusals, restarts and the options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "../src/sim/io/byte_io.h"
#include "bench_cli_support.h"
#include "integrator_checks.h"
#include "orrery/input.h"
#include "orrery/scene_file.h"
#include "orrery/simulation.h"
#include "precision_checks.h"
#include "snapshot_checks.h"

namespace orrery::test {
namespace {

using ::testing::HasSubstr;

struct OrbitRun {
  double max_drift = 0, end_drift = 0;
  long long steps = 0;
};

// |dE/E| over `orbits` orbits of period 2 pi, sampled every orbit (the adaptive run lands on each).
OrbitRun kepler_run(const BodyState& s, Integrator kind, const SimParams& p, int orbits) {
  Simulation sim(s, make_solver("cpu"), kind, p);
  const double e0 = sim.measure().total();
  OrbitRun r;
  for (int k = 1; k <= orbits; ++k) {
    const double t = 2 * k_pi * k;
    if (p.adaptive) {
      sim.set_stop_time(t);
      while (!sim.at_stop()) sim.step(1000);
    } else {
      sim.step(static_cast<int>(std::llround(t / p.dt)) - static_cast<int>(sim.step_count()));
    }
    r.end_drift = std::fabs(sim.measure().total() - e0) / std::fabs(e0);
    r.max_drift = std::max(r.max_drift, r.end_drift);
  }
  r.steps = sim.step_count();
  return r;
}

// The e = 0.9 orbit (pericentre 0.1, apocentre 1.9) over 100 orbits in double with yoshida4: the
// adaptive step keeps the energy to 1e-6; a fixed step of the same number of steps (the same
// cost: three force evaluations each) does not, and the steps follow the orbit.
TEST(AdaptiveStep, KeplerE09KeepsItsEnergyWhereAFixedStepOfTheSameCostDoesNot) {
  const BodyState s = e09_orbit();
  const SimParams p = e09_adaptive_params();
  const OrbitRun a = kepler_run(s, Integrator::yoshida4, p, 100);
  SimParams f = double_params(static_cast<float>(100 * 2 * k_pi / a.steps));
  f.softening = k_eps;
  const OrbitRun b = kepler_run(s, Integrator::yoshida4, f, 100);
  std::printf(
      "Kepler e = 0.9, 100 orbits, yoshida4, double: adaptive (eta %g) %lld steps, max "
      "|dE/E| %.3e; fixed dt %.4g, same steps: %.3e\n",
      p.eta, a.steps, a.max_drift, f.dt, b.max_drift);
  EXPECT_LT(a.max_drift, 1e-6);
  EXPECT_GT(b.max_drift, 1e-5);
}

TEST(AdaptiveStep, StepsAreShortAtPericentreAndLongAtApocentre) {
  BodyState s = kepler(0.9, 0.0);  // at pericentre
  SimParams p;
  p.dt = 1.0f;
  p.softening = k_eps;
  p.adaptive = true;
  Simulation sim(s, make_solver("cpu"), Integrator::leapfrog, p);
  sim.step(3);
  const double peri = sim.last_dt();
  sim.set_stop_time(k_pi);  // half an orbit: apocentre
  while (!sim.at_stop()) sim.step(100);
  sim.set_stop_time(std::nullopt);
  sim.step(3);
  const double apo = sim.last_dt();
  std::printf("e = 0.9: step at pericentre %.3e, at apocentre %.3e\n", peri, apo);
  // The orbital time scale r / v differs by (1.9 / 0.1) x (4.36 / 0.229) = 360.
  EXPECT_GT(apo, 100 * peri);
  EXPECT_LT(apo, 1000 * peri);
  EXPECT_EQ(sim.floor_hits(), 0);
}

BodyState head_on() {
  BodyState s;
  s.pos = {{-1, 0, 0, 0.5f}, {1, 0, 0, 0.5f}};
  s.vel = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  return s;
}

struct PassRun {
  double drift = 0, x = 0, min_dt = 1e30;
  long long steps = 0, floor_hits = 0;
  bool finite = true;
};

// Two bodies fall from rest at x = -1 and 1 through each other's softened core (at t = 3.14)
// and out to the far side, back at rest at t = 2 pi; run to t = 6.
PassRun head_on_pass(const SimParams& p, Integrator kind) {
  Simulation sim(head_on(), make_solver("cpu"), kind, p);
  const double e0 = sim.measure().total();
  PassRun r;
  if (p.adaptive) sim.set_stop_time(6.0);
  while (sim.time() < 6.0 - 1e-9 && r.steps < 2000000) {
    sim.step(1);
    ++r.steps;
    r.min_dt = std::min(r.min_dt, sim.last_dt());
  }
  const BodyState e = sim.state();
  r.finite = sim.first_nonfinite(sim.bodies()) < 0;
  r.drift = std::fabs(sim.measure().total() - e0) / std::fabs(e0);
  r.x = e.pos[1].x;
  r.floor_hits = sim.floor_hits();
  return r;
}

TEST(AdaptiveStep, HeadOnPassWithSmallSofteningDoesNotBlowUp) {
  for (Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(to_string(precision));
    SimParams p;
    p.softening = 1e-3f;  // the core's potential is 2000 times the pair's energy
    p.precision = precision;
    p.adaptive = true;
    const PassRun a = head_on_pass(p, Integrator::yoshida4);
    std::printf(
        "head-on, eps 1e-3, %s, yoshida4, eta 0.02: %lld steps, smallest %.3e, |dE/E| "
        "%.3e, x %.4f\n",
        to_string(precision), a.steps, a.min_dt, a.drift, a.x);
    EXPECT_TRUE(a.finite);
    EXPECT_LT(a.drift, 0.05);
    EXPECT_NEAR(std::fabs(a.x), 1.0, 0.02);  // near where it started, on the other side
    EXPECT_EQ(a.floor_hits, 0);
    // The core's step bounds the criterion: eta sqrt(eps^3 / M).
    EXPECT_NEAR(a.min_dt, 0.02 * std::sqrt(1e-9), 1e-9);
    // A fixed step of the usual 0.016 flings them apart.
    p.adaptive = false;
    const PassRun f = head_on_pass(p, Integrator::yoshida4);
    EXPECT_GT(std::fabs(f.x), 10.0);
  }
  // leapfrog, second order, needs a smaller eta here.
  SimParams p;
  p.softening = 1e-3f;
  p.adaptive = true;
  p.eta = 0.001f;
  const PassRun l = head_on_pass(p, Integrator::leapfrog);
  std::printf("head-on, eps 1e-3, leapfrog, eta 0.001: %lld steps, |dE/E| %.3e, x %.4f\n", l.steps,
              l.drift, l.x);
  EXPECT_LT(l.drift, 0.05);
  EXPECT_NEAR(std::fabs(l.x), 1.0, 0.02);
}

// At the smallest softening the core no longer bounds the step: the floor (1e-6 of the largest
// step) holds, is counted, and the run goes on.
TEST(AdaptiveStep, TheFloorHoldsAndIsCountedInAPassAtTheSmallestSoftening) {
  SimParams p;
  p.softening = k_min_softening;
  p.adaptive = true;
  p.precision = Precision::double_;
  const PassRun r = head_on_pass(p, Integrator::yoshida4);
  std::printf("head-on, eps 1e-10: %lld steps, smallest %.3e, floor held %lld times\n", r.steps,
              r.min_dt, r.floor_hits);
  EXPECT_GT(r.floor_hits, 0);
  EXPECT_NEAR(r.min_dt, 1e-6 * 0.016, 1e-12);
  EXPECT_LT(r.steps, 2000000);  // it reached t = 6
  EXPECT_TRUE(r.finite);
}

// Each step's size comes from the state before it, so steps back would not retrace the steps
// forward: reversal is refused with a line, both ways round.
TEST(AdaptiveStep, TimeReversalIsRefused) {
  SimParams p;
  p.adaptive = true;
  Simulation sim(make_preset(Preset::plummer, 64, 1), make_solver("cpu"), Integrator::leapfrog, p);
  try {
    sim.set_time_reversed(true);
    FAIL() << "reversed with the adaptive step";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("adaptive step"));
  }
  EXPECT_FALSE(sim.time_reversed());
  p.adaptive = false;
  sim.set_params(p);
  sim.set_time_reversed(true);
  p.adaptive = true;
  EXPECT_THROW(sim.set_params(p), InputError);
  EXPECT_FALSE(sim.params().adaptive);
}

// The options' rules (both programs parse through parse_step_options).
TEST(AdaptiveStep, OptionsParseAndRefuseWithOneLine) {
  using T = std::optional<std::string>;
  SimParams p;
  parse_step_options(T("auto"), T("0.1"), T("0.01"), p);
  EXPECT_TRUE(p.adaptive);
  EXPECT_FLOAT_EQ(p.dt, 0.1f);
  EXPECT_FLOAT_EQ(p.eta, 0.01f);
  parse_step_options(T("0.005"), T(), T(), p);
  EXPECT_FALSE(p.adaptive);
  EXPECT_FLOAT_EQ(p.dt, 0.005f);
  for (const char* bad : {"0", "-0.1", "nan", "", "2", "inf", "1e-50"}) {
    SCOPED_TRACE(bad);
    SimParams q;
    try {
      parse_step_options(T("auto"), T(), T(bad), q);
      FAIL() << "--eta " << bad << " parsed";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("--eta"));
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(parse_step_options(T(), T(), T("0.1"), p), InputError);        // needs --dt auto
  EXPECT_THROW(parse_step_options(T("0.01"), T("0.1"), T(), p), InputError);  // likewise
  EXPECT_THROW(parse_step_options(T("auto"), T("0"), T(), p), InputError);
  EXPECT_THROW(parse_step_options(T("automatic"), T(), T(), p), InputError);
}

TEST(AdaptiveStep, BenchRefusesBadValuesAndReportsTheStep) {
  expect_usage_error({"--dt", "auto", "--eta", "0"}, "--eta");
  expect_usage_error({"--dt", "auto", "--eta", "-1"}, "--eta");
  expect_usage_error({"--dt", "auto", "--eta", "nan"}, "--eta");
  expect_usage_error({"--dt", "auto", "--eta", ""}, "--eta");
  expect_usage_error({"--eta", "0.01"}, "--dt auto");
  expect_usage_error({"--dt-max", "0.1"}, "--dt auto");
  expect_usage_error({"--dt", "sometimes"}, "auto");
  expect_usage_error({"--dt", "auto", "--dt-max", "0"}, "--dt-max");
  const Outcome o =
      run_bench({"--dt", "auto", "--eta", "0.05", "--solver", "cpu", "--preset", "plummer", "--n",
                 "100", "--steps", "5", "--warmup", "0", "--integrator", "leapfrog"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("dt auto (eta 0.05, at most 0.016)"));
  EXPECT_THAT(o.out, HasSubstr("dt auto: t "));
}

TEST(AdaptiveStep, SceneFilesCarryTheAdaptiveStep) {
  const SceneFile s = parse_scene(
      R"({"name": "a", "initial": {"preset": "plummer"}, "dt": "auto", "dt_max": 0.05,
          "eta": 0.01})",
      "a.json");
  EXPECT_TRUE(s.params.adaptive);
  EXPECT_FLOAT_EQ(s.params.dt, 0.05f);
  EXPECT_FLOAT_EQ(s.params.eta, 0.01f);
  const SceneFile again = parse_scene(scene_json(s), "again.json");
  EXPECT_EQ(again.params, s.params);
  const SceneFile fixed = parse_scene(R"({"name": "f", "initial": {"preset": "plummer"}})", "f");
  EXPECT_FALSE(parse_scene(scene_json(fixed), "f2").params.adaptive);
  const std::pair<const char*, const char*> bad[] = {{R"("dt": "later")", "dt"},
                                                     {R"("dt": "auto", "eta": 0)", "eta"},
                                                     {R"("dt": "auto", "eta": "small")", "eta"},
                                                     {R"("eta": 0.01)", "eta"},
                                                     {R"("dt": 0.01, "dt_max": 0.1)", "dt_max"},
                                                     {R"("dt": "auto", "dt_max": -1)", "dt_max"}};
  for (const auto& [text, key] : bad) {
    SCOPED_TRACE(text);
    try {
      parse_scene(std::string(R"({"name": "b", "initial": {"preset": "plummer"}, )") + text + "}",
                  "b.json");
      FAIL() << "parsed";
    } catch (const SnapshotError& e) {
      EXPECT_THAT(e.what(), HasSubstr(key));
    }
  }
}

// An adaptive run saved mid-way (format version 3) and loaded continues with the same steps and
// the same bits as one that never stopped; a version 2 header with the adaptive flag is refused.
TEST(AdaptiveStep, RestartsExactlyFromVersion3) {
  for (Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(to_string(precision));
    BodyState s = make_preset(Preset::plummer, 200, 5);
    SimParams p;
    p.adaptive = true;
    p.eta = 0.03f;
    p.precision = precision;
    Simulation straight(s, make_solver("cpu"), Integrator::leapfrog, p);
    straight.step(30);
    const BodyState want = straight.state();

    Simulation first(s, make_solver("cpu"), Integrator::leapfrog, p);
    first.step(15);
    Snapshot snap;
    snap.bodies = first.state();
    snap.run = first.run_state();
    EXPECT_GT(snap.run.next_dt, 0.0);
    std::vector<std::uint8_t> bytes = encode_snapshot(snap, SnapshotFormat::orrery);
    EXPECT_EQ(bytes[8], 3);  // the version
    const Snapshot back = decode_snapshot(bytes.data(), bytes.size(), "restart");
    ASSERT_TRUE(back.run.params.adaptive);
    EXPECT_EQ(back.run.params.eta, p.eta);
    EXPECT_EQ(back.run.next_dt, snap.run.next_dt);
    Simulation second(back.bodies, make_solver("cpu"), back.run.integrator, back.run.params);
    second.resume(back.run);
    second.step(15);
    EXPECT_EQ(second.time(), straight.time());
    const BodyState got = second.state();
    for (std::size_t i = 0; i < want.pos.size(); ++i) {
      ASSERT_EQ(got.pos[i].x, want.pos[i].x) << i;
      ASSERT_EQ(got.vel[i].y, want.vel[i].y) << i;
    }
    // A next step beyond the largest (a file that lies) is refused.
    Snapshot lie = snap;
    lie.run.next_dt = 1.0;
    const std::vector<std::uint8_t> lying = encode_snapshot(lie, SnapshotFormat::orrery);
    EXPECT_THAT(message_of(lying, "lie.orrery"), HasSubstr("next size"));
    // The flag in a version 2 header is unknown there.
    bytes[8] = 2;
    EXPECT_THAT(message_of(bytes, "lie.orrery"), HasSubstr("unknown flags"));
  }
}

// Euler evaluates once a step, so its adaptive step plans the next step from this step's forces
// and the step before's: a restart carries that earlier evaluation (version 4) or the run forks.
TEST(AdaptiveStep, EulerRestartsExactlyWithItsLastEvaluation) {
  for (Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(to_string(precision));
    const BodyState s = make_preset(Preset::plummer, 203, 7);
    SimParams p;
    p.adaptive = true;
    p.dt = 1.0f;  // large enough that the criterion, not the largest step, sets every step
    p.eta = 0.03f;
    p.precision = precision;
    Simulation straight(s, make_solver("cpu"), Integrator::euler, p);
    straight.step(24);
    Simulation first(s, make_solver("cpu"), Integrator::euler, p);
    first.step(12);
    Snapshot snap;
    snap.bodies = first.state();
    snap.run = first.run_state();
    ASSERT_TRUE(snap.run.has_memory());
    EXPECT_EQ(
        precision == Precision::double_ ? snap.run.last_acc64.size() : snap.run.last_acc.size(),
        203u);
    const std::vector<std::uint8_t> bytes = encode_snapshot(snap, SnapshotFormat::orrery);
    EXPECT_EQ(bytes[8], 4);
    const Snapshot back = decode_snapshot(bytes.data(), bytes.size(), "restart");
    EXPECT_EQ(back.run.last_eval_time, snap.run.last_eval_time);
    const auto resumed = [&](const RunState& run) {
      auto sim =
          std::make_unique<Simulation>(back.bodies, make_solver("cpu"), run.integrator, run.params);
      sim->set_exact_state(back.bodies);
      sim->resume(run);
      sim->step(12);
      return sim;
    };
    const auto second = resumed(back.run);
    EXPECT_EQ(second->time(), straight.time());
    EXPECT_EQ(second->next_dt(), straight.next_dt());
    const BodyState want = straight.state(), got = second->state();
    for (std::size_t i = 0; i < want.pos.size(); ++i) {
      ASSERT_EQ(got.pos[i].x, want.pos[i].x) << i;
      ASSERT_EQ(got.vel[i].z, want.vel[i].z) << i;
    }
    // Without the memory the first step after the restart keeps its plan: the runs part.
    RunState forgot = back.run;
    forgot.last_acc.clear(), forgot.last_acc64.clear();
    EXPECT_NE(resumed(forgot)->time(), straight.time());
    // A non-finite acceleration in the memory is refused, naming it.
    Snapshot lie = snap;
    if (precision == Precision::double_)
      lie.run.last_acc64[5].y = NAN;
    else
      lie.run.last_acc[5].y = NAN;
    const std::vector<std::uint8_t> lying = encode_snapshot(lie, SnapshotFormat::orrery);
    EXPECT_THAT(message_of(lying, "lie.orrery"),
                HasSubstr("memory holds a non-finite acceleration"));
  }
}

// A dt that is not a float (a double run's 0.1) is kept whole: version 4's exact dt beside the
// header's float, which it must round to.
TEST(AdaptiveStep, ADtThatIsNotAFloatIsWrittenExactly) {
  Snapshot snap;
  snap.bodies = make_preset(Preset::plummer, 10, 1);
  snap.run.params.dt = 0.1;
  snap.run.params.precision = Precision::double_;
  std::vector<std::uint8_t> bytes = encode_snapshot(snap, SnapshotFormat::orrery);
  EXPECT_EQ(bytes[8], 4);
  EXPECT_EQ(decode_snapshot(bytes.data(), bytes.size(), "dt").run.params.dt, 0.1);
  snap.run.params.dt = 0.125;  // a float: the oldest version that holds the rest
  EXPECT_EQ(encode_snapshot(snap, SnapshotFormat::orrery)[8], 2);
  snap.run.params.dt = 0.1;
  Simulation sim(snap.bodies, make_solver("cpu"), Integrator::leapfrog, snap.run.params);
  for (int k = 0; k < 10; ++k) sim.step(1);
  EXPECT_EQ(sim.time(), 1.0);  // ten steps of 0.1, however the calls split them
  // An exact dt that does not round to the header's float is refused.
  bytes[208 + 7] ^= 0x40;
  const std::uint64_t sum = bytes::fnv1a64(bytes.data(), bytes.size() - 8);  // resealed
  for (int k = 0; k < 8; ++k)
    bytes[bytes.size() - 8 + k] = static_cast<std::uint8_t>(sum >> (8 * k));
  EXPECT_THAT(message_of(bytes, "lie.orrery"), HasSubstr("exact dt does not round"));
}

}  // namespace
}  // namespace orrery::test
