// Orbit camera maths with GLM.
#include "camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace orrery::gfx {

void OrbitCamera::frame(const glm::vec3& centre, float radius) {
  if (!(radius > 0.0f) || !std::isfinite(radius)) return;
  m_home_target = centre;
  m_home_distance = radius / std::sin(0.5f * m_fov_y);
  reset();
}

void OrbitCamera::reset() {
  m_target = m_home_target;
  m_distance = m_home_distance;
  m_yaw = 0.0f;
  m_pitch = 0.0f;
}

void OrbitCamera::orbit(float dx_px, float dy_px) {
  constexpr float k_rad_per_px = 0.005f;
  m_yaw -= dx_px * k_rad_per_px;
  m_pitch = std::clamp(m_pitch + dy_px * k_rad_per_px, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx_px, float dy_px, int viewport_height) {
  const float world_per_px = 2.0f * m_distance * std::tan(0.5f * m_fov_y) /
                             static_cast<float>(std::max(viewport_height, 1));
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

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), m_target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  return glm::perspective(m_fov_y, aspect, 0.05f, 20000.0f);
}

}  // namespace orrery::gfx
