// The camera: framing the bodies, the view's rows (where it starts, what the panel shows and
// moves), and its motion on its own - orbiting, a keyframe path, and keeping the bodies framed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/trigonometric.hpp>

#include "app.h"

namespace orrery::app {
namespace {

// At most this many bodies frame the view: an even sample frames as well as all of them (a
// 16M-body file's whole sort took a quarter of a second of its load).
constexpr std::size_t k_frame_sample = 1 << 20;
// Keeping the frame: a smaller sample, refitted every k_keep_frames frames, and the camera eases
// to it with this time constant (seconds), so that the picture does not jitter.
constexpr std::size_t k_keep_sample = 1 << 14;
constexpr long long k_keep_frames = 5;
constexpr double k_keep_seconds = 0.25;
// A stalled frame moves a path or an orbit on by no more than this (seconds).
constexpr double k_max_step_s = 0.1;

glm::vec3 centre_of(const Sphere& s) {
  return {static_cast<float>(s.centre[0]), static_cast<float>(s.centre[1]),
          static_cast<float>(s.centre[2])};
}

// The rule K and --keep-frame fit by: --frame's, or the default where it is none.
Framing refit_rule(const Framing& f) { return f.kind == Framing::Kind::none ? Framing{} : f; }

}  // namespace

void App::frame_bodies(bool size_sprites) {
  const std::vector<Vec4> sample = m_run->sample_positions(k_frame_sample);
  const std::optional<Sphere> s = framing_sphere(sample.data(), sample.size(), 1, m_opts.frame);
  camera_from(m_opts.view, {});  // the field of view the framing uses
  if (s) {
    m_camera.frame(centre_of(*s), static_cast<float>(s->radius));
    // Sprites in proportion (0.2 for a preset's extent of about 20), unless --point-radius was
    // given.
    if (size_sprites && !m_opts.point_radius_given)
      m_settings.point_radius =
          std::clamp(0.01f * static_cast<float>(s->radius), k_min_point_radius, k_max_point_radius);
  }
  camera_from(m_opts.view, m_opts.view_given);
}

void App::frame_now() {
  const Framing f = refit_rule(m_opts.frame);
  const std::vector<Vec4> sample = m_run->sample_positions(k_frame_sample);
  const std::optional<Sphere> s = framing_sphere(sample.data(), sample.size(), 1, f);
  if (!s) {
    say("frame: no bodies to frame");
    return;
  }
  m_camera.set_target(centre_of(*s));
  m_camera.set_view(m_camera.fit_distance(static_cast<float>(s->radius)), m_camera.yaw(),
                    m_camera.pitch(), m_camera.roll(), m_camera.fov_y());
  char line[96];
  std::snprintf(line, sizeof line, "frame %s: radius %.4g, distance %.4g", to_string(f).c_str(),
                s->radius, static_cast<double>(m_camera.distance()));
  say(line);
}

void App::camera_from(const ViewParams& v, const std::set<std::string>& given) {
  const auto has = [&](const char* name) { return given.count(name) > 0; };
  glm::vec3 target = m_camera.home_target();
  if (has("camera_x")) target.x = v.camera_x;
  if (has("camera_y")) target.y = v.camera_y;
  if (has("camera_z")) target.z = v.camera_z;
  m_camera.set_home_target(target);
  m_camera.set_home(glm::radians(v.camera_azimuth), glm::radians(v.camera_elevation),
                    glm::radians(v.camera_roll), glm::radians(v.fov),
                    has("camera_distance") ? v.camera_distance : 0.0f);
  if (has("orbit")) m_settings.view.orbit = v.orbit;
}

ViewParams App::camera_view() const {
  // Degrees to 1e-4 (a scene says 20, not the 19.999998 of a float's trip through radians).
  const auto degrees = [](float rad) { return std::round(glm::degrees(rad) * 1e4f) / 1e4f; };
  ViewParams v;
  v.camera_distance = m_camera.distance();
  v.camera_azimuth = std::remainder(degrees(m_camera.yaw()), 360.0f);  // orbiting winds it on
  v.camera_elevation = degrees(m_camera.pitch());
  v.camera_roll = std::remainder(degrees(m_camera.roll()), 360.0f);
  v.fov = degrees(m_camera.fov_y());
  const glm::vec3& t = m_camera.target();
  v.camera_x = t.x, v.camera_y = t.y, v.camera_z = t.z;
  v.orbit = m_settings.view.orbit;  // not the camera's: its turning
  return v;
}

std::string App::view_options() const {
  const ViewParams v = camera_view();
  std::string s;
  for (const ParamRow& row : view_rows()) {
    char value[32];
    std::snprintf(value, sizeof value, "%.6g", static_cast<double>(row.get(v)));
    s += (s.empty() ? "" : " ") + row.option() + " " + value;
  }
  return s;
}

void App::keep_view_valid(const ViewParams& shown) {
  const ViewParams& v = m_settings.view;
  bool moved = false;
  for (const ParamRow& row : view_rows()) moved |= row.get(v) != row.get(shown);
  if (!moved) return;
  try {
    validate(v);
  } catch (const std::exception& e) {
    say(std::string("orrery: refused: ") + e.what());
    m_settings.view.orbit = shown.orbit;
    return;
  }
  apply_view(v);
}

void App::apply_view(const ViewParams& v) {
  m_camera.set_view(v.camera_distance, glm::radians(v.camera_azimuth),
                    glm::radians(v.camera_elevation), glm::radians(v.camera_roll),
                    glm::radians(v.fov));
  m_camera.set_target({v.camera_x, v.camera_y, v.camera_z});
}

void App::start_camera_motion() {
  m_settings.keep_frame = m_opts.keep_frame;
  m_settings.follow = m_opts.follow.kind;
  if (m_opts.follow.kind == ui::Follow::picked_body) {
    if (m_opts.follow.body >= m_run->count())
      throw InputError("--follow body:" + std::to_string(m_opts.follow.body) + ": there are " +
                       std::to_string(m_run->count()) + " bodies (indices 0 to " +
                       std::to_string(m_run->count() - 1) + ")");
    m_settings.picked = static_cast<int>(m_opts.follow.body);
  }
  restart_path();
}

void App::take_scene_camera(const SceneFile& sc) {
  if (!sc.frame.empty()) {
    m_opts.frame = parse_framing(sc.frame, "frame");
    frame_bodies(false);
  }
  if (!sc.view_given.empty()) camera_from(sc.view, sc.view_given);
  if (!sc.follow.empty()) {
    const FollowChoice f = parse_follow(sc.follow, "follow");
    const bool there = f.kind != ui::Follow::picked_body || f.body < m_run->count();
    m_settings.follow = there ? f.kind : ui::Follow::nothing;
    if (f.kind == ui::Follow::picked_body && there) m_settings.picked = static_cast<int>(f.body);
    if (!there) say("scene: follow " + sc.follow + ": no such body here; following nothing");
  }
  m_settings.keep_frame = sc.keep_frame;
  m_drive.goal.reset();
  if (!sc.camera_path.empty()) {
    m_opts.camera_path = sc.camera_path;
    restart_path();
  }
}

void App::restart_path() {
  m_drive.clock = 0.0;
  m_drive.path_start = camera_view();
  m_drive.path_playing = !m_opts.camera_path.empty();
}

// Before following: the camera turns, flies its path, or eases to the bodies' frame, by the
// path's clock (a recording's or a headless run's frames at --record-fps, else the wall clock).
void App::drive_camera(long long index) {
  const bool fixed_rate = m_capture.recorder || m_opts.headless;
  const double dt = fixed_rate ? 1.0 / m_opts.record_fps
                               : std::min(k_max_step_s, m_shown.stats.last_frame_ms() * 1e-3);
  const CameraPath& path = m_opts.camera_path;
  if (!path.empty()) {
    char line[96];
    std::snprintf(line, sizeof line, "camera path %.1f of %.1f s%s", m_drive.clock, path.duration(),
                  path.loop              ? " (looping)"
                  : m_drive.path_playing ? ""
                                         : ", done");
    m_shown.readouts.camera_path = line;
  }
  if (index == 0) return;  // the first frame shows where it starts
  // On the frame grid at a fixed rate, so that frame k of a recording is exactly at k / fps.
  m_drive.clock = fixed_rate
                      ? std::round((m_drive.clock + dt) * m_opts.record_fps) / m_opts.record_fps
                      : m_drive.clock + dt;
  if (m_settings.view.orbit != 0.0f)
    m_camera.turn(
        static_cast<float>(glm::radians(static_cast<double>(m_settings.view.orbit)) * dt));
  if (m_settings.keep_frame) {
    if (!m_drive.goal || index % k_keep_frames == 0) {
      const std::vector<Vec4> sample = m_run->sample_positions(k_keep_sample);
      if (auto s = framing_sphere(sample.data(), sample.size(), 1, refit_rule(m_opts.frame)))
        m_drive.goal = s;
    }
    if (m_drive.goal) {
      const float a = static_cast<float>(1.0 - std::exp(-dt / k_keep_seconds));
      const Sphere& g = *m_drive.goal;
      const bool own_centre = m_settings.follow == ui::Follow::nothing &&
                              !(m_drive.path_playing && m_opts.camera_path.moves_centre());
      if (own_centre)
        m_camera.set_target(m_camera.target() + a * (centre_of(g) - m_camera.target()));
      const float want = m_camera.fit_distance(static_cast<float>(g.radius));
      const float d = std::exp(std::log(m_camera.distance()) +
                               a * (std::log(want) - std::log(m_camera.distance())));
      m_camera.set_view(d, m_camera.yaw(), m_camera.pitch(), m_camera.roll(), m_camera.fov_y());
    }
  }
  if (!m_drive.path_playing) return;
  // The rows some key gives; the others stay with the mouse, the framing and the following (the
  // point looked at among them, as it stands).
  const ViewParams keyed = camera_at(path, m_drive.clock, m_drive.path_start);
  ViewParams v = camera_view();
  for (const ParamRow& row : view_rows())
    if (path.gives(row.name)) row.set(v, row.get(keyed));
  apply_view(v);
  if (!path.loop && m_drive.clock >= path.duration()) {
    m_drive.path_playing = false;
    say("camera path: done at its last key (t = " + param_value_text(path.duration()) + " s)");
  }
}

}  // namespace orrery::app
