// The parameter table (orrery/param_table.h): every row's bounds are what validation, both command
// lines, scene files and HDF5 files hold a value to, and a row is all it takes for a value to
// travel through them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "bench_cli_support.h"
#include "orrery/input.h"
#include "orrery/param_table.h"
#include "orrery/scene_file.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using test::expect_usage_error;
using test::Outcome;
using test::run_bench;

// A value inside the row's bounds and away from its default.
float other_value(const ParamRow& r) {
  const float d = r.default_value();
  const float top = std::isfinite(r.hi) && r.hi < 1e30f ? r.hi : 2.0f * (d > 0 ? d : 1.0f);
  const float v = 0.5f * (std::max(r.lo, 0.0f) + top);
  return v == d ? 0.75f * v : v;
}

TEST(ParamTable, NamesAreUniqueAndFound) {
  std::set<std::string> names;
  for (const ParamRow& r : param_rows()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(find_param(r.name), &r);
    EXPECT_EQ(&param_row(r.name), &r);
    EXPECT_STRNE(r.help, "") << r.name;
  }
  EXPECT_EQ(find_param("no-such"), nullptr);
  EXPECT_THROW(param_row("no-such"), std::logic_error);
}

TEST(ParamTable, EveryDefaultPassesAndEveryBoundHolds) {
  validate(SimParams{});
  for (const ParamRow& r : param_rows()) {
    SCOPED_TRACE(r.name);
    check_param(r, r.default_value());
    check_param(r, other_value(r));
    if (!r.lo_open) check_param(r, r.lo);
    // Just outside each bound, and values that are not finite, are refused with the row's label.
    const float below = r.lo_open ? r.lo : std::nextafter(r.lo, -1e30f);
    for (float bad :
         {below, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
      try {
        check_param(r, bad);
        ADD_FAILURE() << "accepted " << bad;
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(r.label), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(r.rule), std::string::npos) << e.what();
      }
    }
    if (r.hi < std::numeric_limits<float>::max()) {
      EXPECT_THROW(check_param(r, std::nextafter(r.hi, 1e30f)), InputError);
    }
    // validate() holds the whole set to the same row.
    SimParams p;
    r.set(p, below);
    EXPECT_THROW(validate(p), InputError);
    r.set(p, other_value(r));
    validate(p);
  }
}

TEST(ParamTable, TypedTextNamesTheOptionAndKeepsTheRule) {
  const ParamRow& r = param_row("softening");
  EXPECT_EQ(parse_param_text(r, "0.25", "--softening"), 0.25f);
  try {
    parse_param_text(r, "1e-20", "--softening");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--softening '1e-20': invalid softening", 0), 0u)
        << e.what();
  }
  EXPECT_THROW(parse_param_text(r, "abc", "--softening"), InputError);
}

TEST(ParamTable, ValuesApplyByNameAndAnUnknownNameIsAMistake) {
  SimParams p;
  ParamValues v;
  for (const ParamRow& r : param_rows()) v[r.name] = other_value(r);
  apply_params(v, p);
  for (const ParamRow& r : param_rows()) EXPECT_EQ(r.get(p), other_value(r)) << r.name;
  EXPECT_THROW(apply_params(ParamValues{{"no-such", 1.0f}}, p), std::logic_error);
}

TEST(ParamTable, HelpSaysTheBoundsAndTheDefault) {
  EXPECT_EQ(param_help(param_row("softening")), "softening length eps, >= 1e-10 (default 0.1)");
  EXPECT_EQ(param_help(param_row("damping")),
            "velocity damping per step (euler only), in [0, 1] (default 1)");
  EXPECT_EQ(param_help(param_row("eta")).find("in (0, 1] (default 0.02)") != std::string::npos,
            true);
}

// A scene file carries every row but the step's grammar, by the row's name, both ways.
TEST(ParamTable, EveryRowTravelsThroughASceneFile) {
  SceneFile s;
  s.name = "rows";
  s.preset = Preset::plummer;
  s.integrator = Integrator::euler;
  for (const ParamRow& r : param_rows())
    if (r.form != ParamForm::step) r.set(s.params, other_value(r));
  const SceneFile back = parse_scene(scene_json(s), "rows.json");
  for (const ParamRow& r : param_rows()) {
    if (r.form != ParamForm::step) {
      EXPECT_EQ(r.get(back.params), other_value(r)) << r.name;
    }
  }
  // A value outside a row's bounds is refused naming the row's key.
  for (const ParamRow& r : param_rows()) {
    if (r.form == ParamForm::step) continue;
    const std::string text = std::string("{\"initial\": {\"preset\": \"plummer\"}, \"") + r.name +
                             "\": " + std::to_string(r.lo - 1.0f) + "}";
    try {
      parse_scene(text, "bad.json");
      ADD_FAILURE() << r.name;
    } catch (const SnapshotError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("bad.json: ") + r.name + ":"),
                std::string::npos)
          << e.what();
    }
  }
}

// The view's rows: their defaults pass, their bounds hold, and a scene carries the ones it gives,
// and only those.
TEST(ParamTable, TheViewRowsHoldTheirBoundsAndTravelThroughASceneFile) {
  validate(ViewParams{});
  SceneFile s;
  s.name = "camera";
  for (const ParamRow& r : view_rows()) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(find_param(r.name), &r);
    EXPECT_EQ(r.form, ParamForm::view);
    check_param(r, r.default_value());
    ViewParams v;
    r.set(v, r.lo_open ? r.lo : std::nextafter(r.lo, -INFINITY));  // -inf below -FLT_MAX
    EXPECT_THROW(validate(v), InputError);
  }
  EXPECT_EQ(param_row("camera_distance").option(), "--camera-distance");
  const SceneFile none = parse_scene(scene_json(s), "none.json");
  EXPECT_TRUE(none.view_given.empty());
  EXPECT_EQ(scene_json(s).find("camera_"), std::string::npos);  // not given: not written
  s.view.camera_distance = 12.5f, s.view.fov = 30.0f;
  s.view_given = {"camera_distance", "fov"};
  const SceneFile back = parse_scene(scene_json(s), "camera.json");
  EXPECT_EQ(back.view_given, s.view_given);
  EXPECT_EQ(back.view.camera_distance, 12.5f);
  EXPECT_EQ(back.view.fov, 30.0f);
  try {
    parse_scene(R"({"initial": {"preset": "plummer"}, "camera_elevation": 90})", "bad.json");
    FAIL();
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: camera_elevation:"), std::string::npos)
        << e.what();
  }
}

// An Orrery snapshot and an HDF5 file keep every row's value for a restart.
TEST(ParamTable, EveryRowTravelsThroughTheRunRecords) {
  Snapshot s;
  s.bodies.pos = {Vec4{0, 0, 0, 1}, Vec4{1, 0, 0, 1}};
  s.bodies.vel = {Vec4{0, 0, 0, 0}, Vec4{0, 1, 0, 0}};
  for (const ParamRow& r : param_rows()) r.set(s.run.params, other_value(r));
  s.run.params.adaptive = true;
  s.run.integrator = Integrator::euler;
  for (SnapshotFormat f : {SnapshotFormat::orrery, SnapshotFormat::hdf5}) {
    std::vector<std::uint8_t> bytes;
    try {
      bytes = encode_snapshot(s, f);
    } catch (const SnapshotError&) {
      continue;  // a build without libhdf5
    }
    const Snapshot back = decode_snapshot(bytes.data(), bytes.size(), "rows");
    for (const ParamRow& r : param_rows())
      EXPECT_EQ(r.get(back.run.params), other_value(r)) << r.name << " format " << int(f);
  }
}

// Both programs take every plain row as an option whose help the row writes.
TEST(ParamTable, TheBenchTakesEveryPlainRow) {
  REQUIRE_BENCH();
  const Outcome help = run_bench({"--help"});
  ASSERT_EQ(help.exit_code, 0);
  for (const ParamRow* r : param_rows(ParamForm::plain)) {
    EXPECT_NE(help.out.find(r->option()), std::string::npos) << r->name;
    EXPECT_NE(help.out.find(r->help), std::string::npos) << r->name;
    expect_usage_error({"--n", "8", "--steps", "1", r->option(), "nan"}, r->option());
  }
}

}  // namespace
}  // namespace orrery
