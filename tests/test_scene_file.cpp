// Scene files: every shipped scene parses, a scene written reads back the same, its bodies are the
// preset's scaled as asked (or the snapshot's), and bad scenes are refused naming the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "orrery/scene_file.h"
#include "support.h"

namespace orrery::test {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, "s.json");
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SceneFile, EveryShippedSceneParses) {
  int count = 0;
  for (const char* n : {"random", "shell", "expand", "disk", "collision", "plummer", "box",
                        "accretion", "galaxy-merger-1m", "clumps", "plummer-halo"}) {
    const std::string path = std::string(ORRERY_SOURCE_DIR) + "/assets/scenes/" + n + ".json";
    SCOPED_TRACE(path);
    const SceneFile s = load_scene(path);
    EXPECT_FALSE(s.name.empty());
    EXPECT_FALSE(s.description.empty());
    EXPECT_TRUE(s.snapshot.empty());
    ++count;
  }
  EXPECT_EQ(count, 11);
  const SceneFile big =
      load_scene(std::string(ORRERY_SOURCE_DIR) + "/assets/scenes/galaxy-merger-1m.json");
  EXPECT_EQ(big.n, 1048576);
  EXPECT_EQ(big.solver, "cuda-bh");
  EXPECT_EQ(big.integrator, Integrator::leapfrog);
  // A preset's settings come with it: box has no gravity and bounces in walls.
  const SceneFile box = load_scene(std::string(ORRERY_SOURCE_DIR) + "/assets/scenes/box.json");
  EXPECT_FALSE(box.params.gravity);
  EXPECT_EQ(box.params.collisions.mode, CollisionMode::bounce);
  EXPECT_EQ(box.params.collisions.box, 20.0f);
}

TEST(SceneFile, WrittenScenesReadBackTheSame) {
  SceneFile s;
  s.name = "t";
  s.description = "d";
  s.preset = Preset::plummer;
  s.n = 777;
  s.seed = 18446744073709551615ull;
  s.scale = 2.5f;
  s.velocity_scale = 0.5f;
  s.radius = 0.25f;
  s.solver = "cpu-bh";
  s.block = 0;
  s.integrator = Integrator::yoshida4;
  s.params.dt = 0.004f, s.params.softening = 0.05f, s.params.theta = 0.7f;
  s.params.collisions = CollisionParams{CollisionMode::bounce, 0.5f, 30.0f};
  s.steps_per_frame = 3;
  const SceneFile t = parse_scene(scene_json(s), "x");
  EXPECT_EQ(scene_json(t), scene_json(s));
  EXPECT_EQ(t.seed, s.seed);
  EXPECT_EQ(t.n, 777);
  EXPECT_EQ(t.params.dt, 0.004f);
  EXPECT_EQ(t.params.collisions.restitution, 0.5f);
  EXPECT_EQ(*t.radius, 0.25f);
  EXPECT_EQ(t.steps_per_frame, 3);
}

TEST(SceneFile, BodiesAreThePresetsScaledOrTheSnapshots) {
  SceneFile s = parse_scene(
      R"({"initial": {"preset": "disk", "n": 100, "seed": 4, "scale": 2, "velocity_scale": 3}})",
      "x");
  const BodyState b = scene_bodies(s, s.n), p = make_preset(Preset::disk, 100, 4);
  ASSERT_EQ(b.size(), 100);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(b.pos[i].x, 2.0f * p.pos[i].x);
    EXPECT_EQ(b.pos[i].w, p.pos[i].w);
    EXPECT_EQ(b.vel[i].y, 3.0f * p.vel[i].y);
    EXPECT_EQ(b.vel[i].w, 2.0f * p.vel[i].w);
  }
  EXPECT_EQ(scene_bodies(parse_scene(R"({"initial": {"preset": "box"}})", "x"), 64).size(), 64);
  // A snapshot scene: the path is relative to the scene's folder.
  char dir[] = "/tmp/orrery-scene-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  Snapshot snap;
  snap.bodies = make_preset(Preset::random, 33, 2);
  save_snapshot(std::string(dir) + "/start.orrery", snap);
  const std::string scene = std::string(dir) + "/s.json";
  std::FILE* f = std::fopen(scene.c_str(), "w");
  std::fputs(R"({"initial": {"snapshot": "start.orrery"}, "integrator": "leapfrog"})", f);
  std::fclose(f);
  const SceneFile t = load_scene(scene);
  EXPECT_EQ(scene_bodies(t, 5).size(), 33);
  EXPECT_EQ(t.integrator, Integrator::leapfrog);
  std::remove((std::string(dir) + "/start.orrery").c_str());
  std::remove(scene.c_str());
  ::rmdir(dir);
}

TEST(SceneFile, BadScenesNameTheKey) {
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "speed": 3})"),
              HasSubstr("s.json: speed: unknown key"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "colour": 1}})"),
              HasSubstr("initial.colour: unknown key"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "galaxy"}})"), HasSubstr("initial.preset"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "n": 0}})"),
              HasSubstr("initial.n: 0 is out of range"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "n": 1.5}})"),
              HasSubstr("initial.n: must be a whole number"));
  // Issue 21: 64.0 is a whole number; 1e300 is out of range, not "not whole".
  EXPECT_EQ(parse_scene(R"({"initial": {"preset": "disk", "n": 64.0}})", "s.json").n, 64);
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "n": 1e300}})"),
              HasSubstr("initial.n: out of range"));
  // Issue 21: a key given twice in one object is refused, not "last wins".
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "n": 64, "n": 128}})"),
              HasSubstr("s.json: n: given twice in one object"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "dt": 0.1, "dt": 0.2})"),
              HasSubstr("dt: given twice"));
  // The same key in two objects is fine.
  EXPECT_NO_THROW(parse_scene(
      R"({"initial": {"preset": "disk", "scale": 1}, "name": "scale", "description": "n"})",
      "s.json"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "n": 99999999999}})"),
              HasSubstr("initial.n"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "seed": -1}})"),
              HasSubstr("initial.seed"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "scale": 0}})"),
              HasSubstr("initial.scale"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "dt": "fast"})"),
              HasSubstr("dt: must be a number"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "dt": -1})"), HasSubstr("dt"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "damping": 2})"), HasSubstr("damping"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "restitution": 1.5})"),
              HasSubstr("restitution"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "solver": "warp"})"),
              HasSubstr("unknown solver 'warp'"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "integrator": "rk4"})"),
              HasSubstr("integrator"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "collisions": "stick"})"),
              HasSubstr("collisions"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "gravity": "yes"})"),
              HasSubstr("gravity: must be true or false"));
  EXPECT_THAT(
      error_of(R"({"initial": {"preset": "disk"}, "integrator": "leapfrog", "damping": 0.5})"),
      HasSubstr("damping"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk", "snapshot": "x.orrery"}})"),
              HasSubstr("both"));
  EXPECT_THAT(error_of(R"({"initial": {"snapshot": "x.orrery", "n": 5}})"),
              HasSubstr("only for a preset"));
  EXPECT_THAT(error_of(R"({"dt": 0.01})"), HasSubstr("initial: missing"));
  EXPECT_THAT(error_of(R"([1, 2])"), HasSubstr("must be an object"));
  EXPECT_THAT(error_of(R"({"initial": )"), HasSubstr("s.json: not JSON"));
  EXPECT_THAT(error_of(""), HasSubstr("not JSON"));
  // Found by the fuzzer: a number beyond double's range.
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "dt": 1e999})"), HasSubstr("not JSON"));
}

}  // namespace
}  // namespace orrery::test

namespace orrery::test {
namespace {

// Issue 43: a scene says its bodies' units (--units' grammar), and henon rescales its preset.
TEST(SceneFile, UnitsTravelWithTheScenesBodies) {
  const SceneFile pc = parse_scene(
      R"({"initial": {"preset": "plummer", "n": 300}, "units": "1 pc, 1 Msun"})", "s.json");
  const Snapshot s = scene_snapshot(pc, 300, {});
  EXPECT_TRUE(s.run.units.physical());
  EXPECT_DOUBLE_EQ(s.run.units.length_cm, 3.085678e18);
  EXPECT_THAT(scene_json(pc), HasSubstr("\"units\": \"1 pc, 1 Msun\""));
  const SceneFile henon = parse_scene(
      R"({"initial": {"preset": "plummer", "n": 500, "scale": 3}, "units": "henon"})", "s.json");
  const BodyState b = scene_snapshot(henon, 500, {}).bodies;
  double m = 0;
  for (const Vec4& p : b.pos) m += p.w;
  EXPECT_NEAR(m, 1.0, 1e-6);
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "units": "1 furlong, 1 Msun"})"),
              HasSubstr("s.json: units: units: '1 furlong' is not a length"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "units": 5})"),
              HasSubstr("s.json: units: must be a string"));
  EXPECT_THAT(error_of(R"({"initial": {"snapshot": "x.dat"}, "units": "henon"})"),
              HasSubstr("s.json: units: henon rescales a preset"));
}

// Issue 44: a scene says how it is drawn; its words are checked, the palette by the viewer.
TEST(SceneFile, ItsLookIsCheckedAndWritten) {
  const SceneFile s = parse_scene(
      R"({"initial": {"preset": "disk"}, "color": "origin", "color_scale": "log",
          "hud": "minimal", "palette": "cividis"})",
      "s.json");
  EXPECT_EQ(s.color, "origin");
  EXPECT_EQ(s.color_scale, "log");
  EXPECT_EQ(s.hud, "minimal");
  EXPECT_EQ(s.palette, "cividis");
  const SceneFile t = parse_scene(scene_json(s), "t.json");
  EXPECT_EQ(t.color, "origin");
  EXPECT_EQ(t.hud, "minimal");
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "color": "colour"})"),
              HasSubstr("s.json: color: 'colour' is not one of speed,"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "hud": "some"})"),
              HasSubstr("s.json: hud: 'some' is not one of full, minimal, none"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "color_scale": 2})"),
              HasSubstr("s.json: color_scale: must be a string"));
  EXPECT_THAT(error_of(R"({"initial": {"preset": "disk"}, "palette": ""})"),
              HasSubstr("s.json: palette: empty"));
}

}  // namespace
}  // namespace orrery::test

namespace orrery {
namespace {

// Issue 44: a scene carries the picture's mode, a fixed colour range and trails, and writes them
// back; bad values are refused naming the key.
TEST(SceneFile, CarriesThePicturesModeRangeAndTrails) {
  const SceneFile s = parse_scene(R"({"initial": {"preset": "disk"}, "mode": "density",
      "color_range": [0.5, 4], "trails": 16})",
                                  "look.json");
  EXPECT_EQ(s.mode, "density");
  ASSERT_TRUE(s.color_range);
  EXPECT_FLOAT_EQ(s.color_range->first, 0.5f);
  EXPECT_FLOAT_EQ(s.color_range->second, 4.0f);
  EXPECT_EQ(s.trails, 16);
  const SceneFile back = parse_scene(scene_json(s), "again.json");
  EXPECT_EQ(back.mode, "density");
  EXPECT_EQ(back.color_range, s.color_range);
  EXPECT_EQ(back.trails, 16);
  const SceneFile plain = parse_scene(R"({"initial": {"preset": "disk"}})", "plain.json");
  EXPECT_TRUE(plain.mode.empty());
  EXPECT_FALSE(plain.color_range);
  EXPECT_EQ(plain.trails, -1);
  EXPECT_EQ(scene_json(plain).find("trails"), std::string::npos);
  for (const auto& [bad, want] : std::vector<std::pair<std::string, std::string>>{
           {R"("mode": "heat")", "mode: 'heat' is not one of bodies, density"},
           {R"("color_range": [3, 1])", "color_range: must be [lo, hi] with lo < hi"},
           {R"("color_range": [1])", "color_range: must be [lo, hi]"},
           {R"("color_range": "1,2")", "color_range: must be [lo, hi]"},
           {R"("trails": 1)", "trails: a trail needs at least 2"},
           {R"("trails": 65)", "trails: out of range (0 to 64)"}}) {
    try {
      parse_scene(R"({"initial": {"preset": "disk"}, )" + bad + "}", "look.json");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const SnapshotError& e) {
      EXPECT_NE(std::string(e.what()).find("look.json: " + want), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace orrery
