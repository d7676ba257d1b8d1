// An orbit camera: yaw and pitch about a target at a distance, with pan and zoom.
#pragma once

#include <cmath>
#include <glm/glm.hpp>

namespace orrery::gfx {

class OrbitCamera {
 public:
  // Starts at (0, 0, 50) looking down the -z axis at the origin, as the seed's viewer.
  OrbitCamera() { reset(); }
  // Back to the home view: looking down -z at the home target from the home distance.
  void reset();
  // Makes the home view one that holds a sphere of this centre and radius, and goes there (a
  // loaded file's bodies, whatever their units).
  void frame(const glm::vec3& centre, float radius);
  // The distance at which a sphere of this radius fills the field of view's height.
  float fit_distance(float radius) const { return radius / std::sin(0.5f * m_fov_y); }
  // The home view's angles (radians: yaw about +y, pitch above the x-z plane, roll about the line
  // of sight, counter-clockwise) and field of view, and its distance where one is given (> 0);
  // then goes there.
  void set_home(float yaw, float pitch, float roll, float fov_y, float distance);
  // The home view's point looked at (a framed file's centre, or one given); then goes there.
  void set_home_target(const glm::vec3& target);
  // The view now, as the panel or a path moves it: distance, angles (radians) and field of view.
  void set_view(float distance, float yaw, float pitch, float roll, float fov_y);
  float yaw() const { return m_yaw; }
  float pitch() const { return m_pitch; }
  float roll() const { return m_roll; }
  // Turns about +y by this many radians (orbiting on its own).
  void turn(float radians) { m_yaw += radians; }
  // Mouse deltas in pixels; the viewport height scales pan so the target follows the cursor.
  void orbit(float dx_px, float dy_px);
  void pan(float dx_px, float dy_px, int viewport_height);
  // The world's length a pixel spans at the target, in a viewport this many pixels high.
  float world_per_pixel(int viewport_height) const;
  void zoom(float wheel_steps);
  // Moves the point looked at, keeping the orientation and distance (following a body).
  void set_target(const glm::vec3& target) { m_target = target; }
  const glm::vec3& target() const { return m_target; }
  const glm::vec3& home_target() const { return m_home_target; }

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  float fov_y() const { return m_fov_y; }
  float distance() const { return m_distance; }

 private:
  glm::vec3 m_home_target{0.0f};
  float m_home_distance = 50.0f;
  float m_home_yaw = 0.0f, m_home_pitch = 0.0f, m_home_roll = 0.0f;
  glm::vec3 m_target{0.0f};
  float m_distance = 50.0f;
  float m_yaw = 0.0f;    // radians about +y
  float m_pitch = 0.0f;  // radians, clamped short of the poles
  float m_roll = 0.0f;   // radians about the line of sight
  float m_fov_y = 0.7854f;
};

}  // namespace orrery::gfx
