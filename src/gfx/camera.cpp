// Orbit camera maths with GLM.
#include "camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace orrery::gfx {

// The pitch stops short of the poles, where the view's up vector would flip (88.8 degrees; the
// view rows' elevation stops at 88).
constexpr float k_max_pitch = 1.55f;

void OrbitCamera::frame(const glm::vec3& centre, float radius) {
  if (!(radius > 0.0f) || !std::isfinite(radius)) return;
  m_home_target = centre;
  m_home_distance = fit_distance(radius);
  reset();
}

void OrbitCamera::reset() {
  m_target = m_home_target;
  m_distance = m_home_distance;
  m_yaw = m_home_yaw;
  m_pitch = m_home_pitch;
  m_roll = m_home_roll;
}

void OrbitCamera::set_home(float yaw, float pitch, float roll, float fov_y, float distance) {
  m_home_yaw = yaw;
  m_home_roll = roll;
  m_home_pitch = std::clamp(pitch, -k_max_pitch, k_max_pitch);
  m_fov_y = fov_y;
  if (distance > 0.0f && std::isfinite(distance)) m_home_distance = distance;
  reset();
}

void OrbitCamera::set_home_target(const glm::vec3& target) {
  m_home_target = target;
  reset();
}

void OrbitCamera::set_view(float distance, float yaw, float pitch, float roll, float fov_y) {
  if (distance > 0.0f && std::isfinite(distance)) m_distance = distance;
  m_yaw = yaw;
  m_roll = roll;
  m_pitch = std::clamp(pitch, -k_max_pitch, k_max_pitch);
  m_fov_y = fov_y;
}

void OrbitCamera::orbit(float dx_px, float dy_px) {
  constexpr float k_rad_per_px = 0.005f;
  m_yaw -= dx_px * k_rad_per_px;
  m_pitch = std::clamp(m_pitch + dy_px * k_rad_per_px, -k_max_pitch, k_max_pitch);
}

float OrbitCamera::world_per_pixel(int viewport_height) const {
  return 2.0f * m_distance * std::tan(0.5f * m_fov_y) /
         static_cast<float>(std::max(viewport_height, 1));
}

void OrbitCamera::pan(float dx_px, float dy_px, int viewport_height) {
  const float world_per_px = world_per_pixel(viewport_height);
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  m_target += (-dx_px * right + dy_px * up) * world_per_px;
}

void OrbitCamera::zoom(float wheel_steps) {
  m_distance = std::clamp(m_distance * std::pow(0.9f, wheel_steps), 0.5f, 5000.0f);
}

glm::vec3 OrbitCamera::eye() const {
  const float cp = std::cos(m_pitch);
  return m_target +
         m_distance * glm::vec3(std::sin(m_yaw) * cp, std::sin(m_pitch), std::cos(m_yaw) * cp);
}

glm::mat4 OrbitCamera::view() const {
  // The camera turned counter-clockwise about its line of sight turns the picture clockwise.
  const glm::mat4 look = glm::lookAt(eye(), m_target, glm::vec3(0, 1, 0));
  return m_roll == 0.0f ? look : glm::rotate(glm::mat4(1.0f), -m_roll, glm::vec3(0, 0, 1)) * look;
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  return glm::perspective(m_fov_y, aspect, 0.05f, 20000.0f);
}

}  // namespace orrery::gfx
