// Particle sprites into an RGBA16F target with additive blending, then a tone-mapping pass.
#include "particle_renderer.h"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "shader_files.h"

namespace orrery::gfx {

ParticleRenderer::ParticleRenderer()
    : m_particles(make_program(read_shader("particles.vert"), read_shader("particles.frag"),
                               "particles.vert + particles.frag")),
      m_tonemap(make_program(read_shader("fullscreen.vert"), read_shader("tonemap.frag"),
                             "fullscreen.vert + tonemap.frag")),
      m_empty_vao(make_vertex_array()) {
  const GLuint p = m_particles.id(), t = m_tonemap.id();
  m_u_view = glGetUniformLocation(p, "u_view");
  m_u_proj = glGetUniformLocation(p, "u_proj");
  m_u_radius = glGetUniformLocation(p, "u_radius");
  m_u_px = glGetUniformLocation(p, "u_px_per_unit");
  m_u_speed = glGetUniformLocation(p, "u_speed_ref");
  m_u_intensity = glGetUniformLocation(p, "u_intensity");
  m_u_mass = glGetUniformLocation(p, "u_mass_ref");
  m_u_hdr = glGetUniformLocation(t, "u_hdr");
  m_u_exposure = glGetUniformLocation(t, "u_exposure");
  check_gl("setting up the particle renderer");
}

void ParticleRenderer::draw(GLuint vao, int count, const OrbitCamera& camera,
                            const RenderStyle& style, GLuint target, int width, int height) {
  if (width <= 0 || height <= 0) return;  // minimised
  if (m_hdr.width() != width || m_hdr.height() != height)
    m_hdr = RenderTarget(width, height, GL_RGBA16F);

  // Pass 1: sprites, added up in linear HDR.
  glBindFramebuffer(GL_FRAMEBUFFER, m_hdr.framebuffer());
  glViewport(0, 0, width, height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (count > 0) {
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glUseProgram(m_particles.id());
    const glm::mat4 view = camera.view();
    // An off-centre projection: the scene's centre moves right by center_shift_px, into the
    // middle of the space the panel leaves free.
    const glm::mat4 shift = glm::translate(
        glm::mat4(1.0f), glm::vec3(2.0f * style.center_shift_px / static_cast<float>(width), 0, 0));
    const glm::mat4 proj =
        shift * camera.projection(static_cast<float>(width) / static_cast<float>(height));
    glUniformMatrix4fv(m_u_view, 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(m_u_proj, 1, GL_FALSE, glm::value_ptr(proj));
    glUniform1f(m_u_radius, style.radius);
    glUniform1f(m_u_px, 0.5f * static_cast<float>(height) / std::tan(0.5f * camera.fov_y()));
    glUniform1f(m_u_speed, style.speed_ref);
    glUniform1f(m_u_intensity, style.intensity);
    glUniform1f(m_u_mass, style.mass_ref);
    glBindVertexArray(vao);
    glDrawArrays(GL_POINTS, 0, count);
    glDisable(GL_BLEND);
  }

  // Pass 2: tone-map onto the target over the background.
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, width, height);
  glUseProgram(m_tonemap.id());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m_hdr.texture());
  glUniform1i(m_u_hdr, 0);
  glUniform1f(m_u_exposure, style.exposure);
  glBindVertexArray(m_empty_vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
}

}  // namespace orrery::gfx
