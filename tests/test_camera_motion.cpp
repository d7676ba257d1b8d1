// The camera's framing rules, follow words and keyframe paths (orrery/camera_motion.h): the
// spheres against analytic radii, the paths' interpolation through their keys, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "orrery/camera_motion.h"
#include "orrery/input.h"
#include "orrery/scene_file.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

// n equal-mass bodies uniform in a ball of this radius about `c`.
std::vector<Vec4> uniform_ball(int n, float radius, Vec3 c, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Vec4> out;
  while (static_cast<int>(out.size()) < n) {
    const float x = u(rng), y = u(rng), z = u(rng);
    if (x * x + y * y + z * z > 1.0f) continue;
    out.push_back({c.x + radius * x, c.y + radius * y, c.z + radius * z, 1.0f / n});
  }
  return out;
}

TEST(Framing, WordsParseAndPrint) {
  EXPECT_EQ(parse_framing("all", "--frame").kind, Framing::Kind::all);
  EXPECT_EQ(parse_framing("none", "--frame").kind, Framing::Kind::none);
  const Framing m = parse_framing("mass:0.5", "--frame");
  EXPECT_EQ(m.kind, Framing::Kind::mass);
  EXPECT_DOUBLE_EQ(m.fraction, 0.5);
  EXPECT_EQ(to_string(m), "mass:0.5");
  EXPECT_EQ(to_string(parse_framing("bodies:1", "--frame")), "bodies:1");
  EXPECT_EQ(to_string(Framing{}), "bodies:0.95");  // the default: today's framing of a file
  for (const char* bad : {"", "fit", "mass", "mass:", "mass:0", "mass:1.5", "mass:-0.1",
                          "bodies:nan", "mass:0.5x", "ALL"}) {
    try {
      parse_framing(bad, "--frame");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--frame"), std::string::npos) << e.what();
    }
  }
}

TEST(Framing, MassFractionOfAUniformBallIsTheCubeRoot) {
  // The mass inside r of a uniform ball of radius R is (r/R)^3: the sphere holding F of it has
  // r = R F^(1/3), about its centre.
  const float R = 7.0f;
  const std::vector<Vec4> b = uniform_ball(200000, R, {3, -2, 5}, 11);
  for (double f : {0.1, 0.5, 0.9}) {
    const auto s = framing_sphere(b.data(), b.size(), 1, Framing{Framing::Kind::mass, f});
    ASSERT_TRUE(s);
    EXPECT_NEAR(s->radius, R * std::cbrt(f), 0.01 * R) << f;
    EXPECT_NEAR(s->centre[0], 3.0, 0.05);
    EXPECT_NEAR(s->centre[1], -2.0, 0.05);
    EXPECT_NEAR(s->centre[2], 5.0, 0.05);
  }
  const auto all = framing_sphere(b.data(), b.size(), 1, parse_framing("all", "f"));
  ASSERT_TRUE(all);
  EXPECT_GT(all->radius, 0.99 * R);
  EXPECT_LT(all->radius, 1.01 * R);
  // An even sample (every 16th) frames within a percent too.
  const auto sampled = framing_sphere(b.data(), b.size(), 16, Framing{Framing::Kind::mass, 0.5});
  ASSERT_TRUE(sampled);
  EXPECT_NEAR(sampled->radius, R * std::cbrt(0.5), 0.01 * R);
}

TEST(Framing, MassAndCountDifferWhereMassesDo) {
  // A heavy inner ball (radius 1, 90% of the mass) and a light wide one (radius 10, most of the
  // bodies): half the mass lies well inside 1, half the bodies far outside it.
  std::vector<Vec4> b = uniform_ball(10000, 1.0f, {0, 0, 0}, 1);
  for (Vec4& p : b) p.w = 0.9f / 10000;
  for (Vec4 p : uniform_ball(90000, 10.0f, {0, 0, 0}, 2)) {
    p.w = 0.1f / 90000;
    b.push_back(p);
  }
  const auto mass = framing_sphere(b.data(), b.size(), 1, parse_framing("mass:0.5", "f"));
  const auto bodies = framing_sphere(b.data(), b.size(), 1, parse_framing("bodies:0.5", "f"));
  ASSERT_TRUE(mass && bodies);
  EXPECT_LT(mass->radius, 1.0);
  EXPECT_GT(bodies->radius, 5.0);
}

TEST(Framing, NothingToFrame) {
  const std::vector<Vec4> one = {{1, 2, 3, 1}};
  EXPECT_FALSE(framing_sphere(one.data(), 1, 1, Framing{}));  // a point has no radius
  EXPECT_FALSE(framing_sphere(nullptr, 0, 1, Framing{}));
  const std::vector<Vec4> two = {{0, 0, 0, 1}, {2, 0, 0, 1}};
  EXPECT_FALSE(framing_sphere(two.data(), 2, 1, parse_framing("none", "f")));
  // Massless bodies are framed about their middle.
  const std::vector<Vec4> massless = {{0, 0, 0, 0}, {4, 0, 0, 0}};
  const auto s = framing_sphere(massless.data(), 2, 1, parse_framing("all", "f"));
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->centre[0], 2.0);
  EXPECT_DOUBLE_EQ(s->radius, 2.0);
}

TEST(Follow, Words) {
  EXPECT_EQ(parse_follow("none", "--follow").kind, FollowKind::nothing);
  EXPECT_EQ(parse_follow("com", "--follow").kind, FollowKind::centre_of_mass);
  const FollowChoice b = parse_follow("body:17", "--follow");
  EXPECT_EQ(b.kind, FollowKind::picked_body);
  EXPECT_EQ(b.body, 17);
  EXPECT_EQ(to_string(b), "body:17");
  for (const char* bad : {"", "body", "body:", "body:-1", "body:x", "body:1.5", "centre", "COM"})
    EXPECT_THROW(parse_follow(bad, "--follow"), InputError) << bad;
}

const char* k_two_keys =
    R"({"easing": "smooth", "keys": [{"t": 0, "camera_distance": 80, "camera_azimuth": 0},
                                     {"t": 2, "camera_distance": 20, "camera_azimuth": 90}]})";

TEST(CameraPath, PassesThroughItsKeys) {
  for (const char* easing : {"smooth", "linear", "ease"}) {
    const std::string text = R"({"easing": ")" + std::string(easing) + R"(", "keys": [
      {"t": 0, "camera_distance": 80, "camera_elevation": 10},
      {"t": 1.5, "camera_distance": 30, "camera_roll": 20},
      {"t": 4, "camera_distance": 50, "camera_x": 3, "fov": 60}]})";
    const CameraPath p = parse_camera_path(text, "p.json");
    ViewParams start;
    start.camera_azimuth = 15;
    const ViewParams a = camera_at(p, 0.0, start), b = camera_at(p, 1.5, start),
                     c = camera_at(p, 4.0, start);
    EXPECT_FLOAT_EQ(a.camera_distance, 80) << easing;
    EXPECT_FLOAT_EQ(a.camera_elevation, 10);
    EXPECT_FLOAT_EQ(a.camera_azimuth, 15);  // no key gives it: the start's, throughout
    EXPECT_FLOAT_EQ(b.camera_distance, 30);
    EXPECT_FLOAT_EQ(b.camera_elevation, 10);  // carried from the key before
    EXPECT_FLOAT_EQ(b.camera_roll, 20);
    EXPECT_FLOAT_EQ(c.camera_distance, 50);
    EXPECT_FLOAT_EQ(c.camera_x, 3);
    EXPECT_FLOAT_EQ(c.fov, 60);
    EXPECT_FLOAT_EQ(c.camera_azimuth, 15);
    // Before the first key and after the last, the path holds them.
    EXPECT_FLOAT_EQ(camera_at(p, 9.0, start).camera_distance, 50);
    EXPECT_TRUE(p.moves_centre());
  }
}

TEST(CameraPath, Interpolates) {
  const CameraPath p = parse_camera_path(k_two_keys, "p.json");
  const ViewParams mid = camera_at(p, 1.0, ViewParams{});
  // Two keys at rest: the middle is the mean, the distance's in log space (the geometric mean).
  EXPECT_NEAR(mid.camera_distance, 40.0, 1e-4);
  EXPECT_NEAR(mid.camera_azimuth, 45.0, 1e-4);
  EXPECT_FALSE(p.moves_centre());
  // Smooth and ease start at rest: a quarter of the way in time is less than a quarter of the
  // angle; linear is exactly a quarter.
  EXPECT_LT(camera_at(p, 0.5, ViewParams{}).camera_azimuth, 22.5f);
  CameraPath linear = p;
  linear.easing = Easing::linear;
  EXPECT_NEAR(camera_at(linear, 0.5, ViewParams{}).camera_azimuth, 22.5, 1e-4);
  // Monotone between two keys, for each easing.
  for (Easing e : {Easing::smooth, Easing::linear, Easing::ease}) {
    CameraPath q = p;
    q.easing = e;
    float last = -1;
    for (int i = 0; i <= 100; ++i) {
      const float az = camera_at(q, 0.02 * i, ViewParams{}).camera_azimuth;
      EXPECT_GE(az, last) << to_string(e) << " at " << i;
      last = az;
    }
  }
}

TEST(CameraPath, SmoothKeepsItsSpeedThroughAMiddleKey) {
  // Catmull-Rom through 0, 90, 180 at t = 0, 1, 2: the middle key is passed at speed (the angle's
  // rate there is the neighbours' slope, 90 a second), where ease stops at it.
  const CameraPath p = parse_camera_path(
      R"({"keys": [{"t": 0, "camera_azimuth": 0}, {"t": 1, "camera_azimuth": 90},
                   {"t": 2, "camera_azimuth": 180}]})",
      "p.json");
  const double h = 1e-3;
  const double rate = (camera_at(p, 1 + h, ViewParams{}).camera_azimuth -
                       camera_at(p, 1 - h, ViewParams{}).camera_azimuth) /
                      (2 * h);
  EXPECT_NEAR(rate, 90.0, 1.0);
  CameraPath e = p;
  e.easing = Easing::ease;
  const double stopped = (camera_at(e, 1 + h, ViewParams{}).camera_azimuth -
                          camera_at(e, 1 - h, ViewParams{}).camera_azimuth) /
                         (2 * h);
  EXPECT_NEAR(stopped, 0.0, 1.0);
}

TEST(CameraPath, Loops) {
  CameraPath p = parse_camera_path(
      R"({"loop": true, "easing": "linear", "keys": [{"t": 0, "camera_azimuth": 0},
                                                     {"t": 2, "camera_azimuth": 90}]})",
      "p.json");
  EXPECT_TRUE(p.loop);
  EXPECT_NEAR(camera_at(p, 2.5, ViewParams{}).camera_azimuth, 22.5, 1e-4);
  p.loop = false;
  EXPECT_FLOAT_EQ(camera_at(p, 2.5, ViewParams{}).camera_azimuth, 90);
}

TEST(CameraPath, JsonRoundTrip) {
  const CameraPath p = parse_camera_path(
      R"({"easing": "ease", "loop": true, "keys": [{"t": 0, "camera_distance": 10},
          {"t": 3.25, "camera_y": -2.5, "camera_roll": 30}]})",
      "p.json");
  const CameraPath q = parse_camera_path(camera_path_json(p), "again");
  EXPECT_EQ(q.easing, Easing::ease);
  EXPECT_TRUE(q.loop);
  ASSERT_EQ(q.keys.size(), 2u);
  EXPECT_DOUBLE_EQ(q.keys[1].t, 3.25);
  EXPECT_EQ(q.keys[1].given, (std::set<std::string>{"camera_roll", "camera_y"}));
  EXPECT_FLOAT_EQ(q.keys[1].view.camera_y, -2.5f);
}

// Each bad path: one SnapshotError naming the file and the key.
TEST(CameraPath, RefusesBadPaths) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "not JSON"},
      {"[]", "(top)"},
      {R"({"keys": []})", "keys: must be a non-empty array"},
      {R"({"easing": "smooth"})", "keys: missing"},
      {R"({"keys": [{"camera_distance": 5}]})", "keys[0].t: missing"},
      {R"({"keys": [{"t": -1}]})", "keys[0].t: must be >= 0"},
      {R"({"keys": [{"t": 1}, {"t": 1}]})", "keys[1].t: 1 repeats"},
      {R"({"keys": [{"t": 2}, {"t": 1}]})", "keys[1].t: 1 comes before"},
      {R"({"keys": [{"t": 1e999}]})", "not JSON"},
      {R"({"keys": [{"t": "1"}]})", "keys[0].t: must be a number"},
      {R"({"keys": [{"t": 0, "camera_distance": 0}]})", "keys[0].camera_distance"},
      {R"({"keys": [{"t": 0, "camera_elevation": 95}]})", "keys[0].camera_elevation"},
      {R"({"keys": [{"t": 0, "fov": 1}]})", "keys[0].fov"},
      {R"({"keys": [{"t": 0, "orbit": 5}]})", "keys[0].orbit: a path turns the camera itself"},
      {R"({"keys": [{"t": 0, "zoom": 5}]})", "keys[0].zoom: unknown key"},
      {R"({"keys": [{"t": 0}], "speed": 2})", "speed: unknown key"},
      {R"({"keys": [{"t": 0}], "easing": "bouncy"})", "easing: 'bouncy'"},
      {R"({"keys": [{"t": 0}], "loop": 1})", "loop: must be true or false"},
      {R"({"keys": [{"t": 0, "t": 1}]})", "t: given twice"},
  };
  for (const auto& [text, want] : cases) {
    try {
      parse_camera_path(text, "p.json");
      ADD_FAILURE() << "accepted " << text;
    } catch (const SnapshotError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("p.json: ", 0), 0u) << what;
      EXPECT_NE(what.find(want), std::string::npos) << text << " -> " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_THROW(load_camera_path("/nonexistent/path.json"), InputError);
}

TEST(CameraPath, ScenesCarryTheCameraMotion) {
  const std::string text = R"({"initial": {"preset": "plummer", "n": 100}, "frame": "mass:0.9",
      "follow": "com", "keep_frame": true, "camera_roll": 15, "orbit": 12,
      "camera_path": {"easing": "linear", "keys": [{"t": 0, "camera_distance": 30},
                                                  {"t": 5, "camera_distance": 10}]}})";
  const SceneFile s = parse_scene(text, "s.json");
  EXPECT_EQ(s.frame, "mass:0.9");
  EXPECT_EQ(s.follow, "com");
  EXPECT_TRUE(s.keep_frame);
  EXPECT_FLOAT_EQ(s.view.camera_roll, 15);
  EXPECT_FLOAT_EQ(s.view.orbit, 12);
  ASSERT_EQ(s.camera_path.keys.size(), 2u);
  const SceneFile again = parse_scene(scene_json(s), "again.json");
  EXPECT_EQ(again.frame, "mass:0.9");
  EXPECT_EQ(again.follow, "com");
  EXPECT_TRUE(again.keep_frame);
  EXPECT_EQ(again.camera_path.easing, Easing::linear);
  ASSERT_EQ(again.camera_path.keys.size(), 2u);
  EXPECT_DOUBLE_EQ(again.camera_path.keys[1].t, 5.0);
  EXPECT_TRUE(again.view_given.count("orbit"));
  for (const auto& [bad, want] : std::vector<std::pair<std::string, std::string>>{
           {R"("frame": "half")", "s.json: frame: "},
           {R"("follow": "body:-3")", "s.json: follow: "},
           {R"("keep_frame": "yes")", "s.json: keep_frame: must be true or false"},
           {R"("camera_path": {"keys": [{"t": 1}, {"t": 0}]})",
            "s.json: camera_path: keys[1].t: 0 comes before"},
           {R"("camera_roll": 400)", "s.json: camera_roll: "}}) {
    const std::string scene = R"({"initial": {"preset": "plummer"}, )" + bad + "}";
    try {
      parse_scene(scene, "s.json");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const SnapshotError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace orrery
