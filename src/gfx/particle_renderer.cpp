// Particle sprites into an HDR image (GL point sprites or the CUDA splat), then tone-mapping.
#include "particle_renderer.h"

#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <stdexcept>

#include "shader_files.h"
#include "splat.h"

namespace orrery::gfx {
namespace {

// The shader source with `#define name` after its #version line.
std::string with_define(const std::string& src, const char* name) {
  const std::size_t eol = src.find('\n');
  if (eol == std::string::npos) throw std::runtime_error("a shader without a #version line");
  return src.substr(0, eol + 1) + "#define " + name + "\n" + src.substr(eol + 1);
}

GLint uniform(GLuint program, const char* name) { return glGetUniformLocation(program, name); }

}  // namespace

SpriteParams sprite_params(const OrbitCamera& camera, const RenderStyle& style, int width,
                           int height) {
  SpriteParams p;
  p.width = width;
  p.height = height;
  const glm::mat4 view = camera.view();
  // An off-centre projection: the scene's centre moves right by center_shift_px, into the middle
  // of the space the panel leaves free.
  const glm::mat4 shift = glm::translate(
      glm::mat4(1.0f), glm::vec3(2.0f * style.center_shift_px / static_cast<float>(width), 0, 0));
  const glm::mat4 proj =
      shift * camera.projection(static_cast<float>(width) / static_cast<float>(height));
  std::memcpy(p.view, glm::value_ptr(view), sizeof p.view);
  std::memcpy(p.proj, glm::value_ptr(proj), sizeof p.proj);
  p.radius = style.radius;
  p.px_per_unit = 0.5f * static_cast<float>(height) / std::tan(0.5f * camera.fov_y());
  p.speed_ref = style.speed_ref;
  p.intensity = style.intensity;
  p.mass_ref = style.mass_ref;
  return p;
}

ParticleRenderer::ParticleRenderer()
    : m_particles(make_program(read_shader("particles.vert"), read_shader("particles.frag"),
                               "particles.vert + particles.frag")),
      m_tonemap(make_program(read_shader("fullscreen.vert"), read_shader("tonemap.frag"),
                             "fullscreen.vert + tonemap.frag")),
      m_tonemap_buffer(make_program(read_shader("fullscreen.vert"),
                                    with_define(read_shader("tonemap.frag"), "HDR_FROM_BUFFER"),
                                    "fullscreen.vert + tonemap.frag (HDR_FROM_BUFFER)")),
      m_empty_vao(make_vertex_array()) {
  check_gl("setting up the particle renderer");
}

ParticleRenderer::~ParticleRenderer() = default;

GLuint ParticleRenderer::draw_hdr(GLuint vao, int count, const SpriteParams& p) {
  if (m_hdr.width() != p.width || m_hdr.height() != p.height)
    m_hdr = RenderTarget(p.width, p.height, GL_RGBA16F);
  glBindFramebuffer(GL_FRAMEBUFFER, m_hdr.framebuffer());
  glViewport(0, 0, p.width, p.height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (count > 0) {
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    const GLuint prog = m_particles.id();
    glUseProgram(prog);
    glUniformMatrix4fv(uniform(prog, "u_view"), 1, GL_FALSE, p.view);
    glUniformMatrix4fv(uniform(prog, "u_proj"), 1, GL_FALSE, p.proj);
    glUniform1f(uniform(prog, "u_radius"), p.radius);
    glUniform1f(uniform(prog, "u_px_per_unit"), p.px_per_unit);
    glUniform1f(uniform(prog, "u_speed_ref"), p.speed_ref);
    glUniform1f(uniform(prog, "u_intensity"), p.intensity);
    glUniform1f(uniform(prog, "u_mass_ref"), p.mass_ref);
    glBindVertexArray(vao);
    glDrawArrays(GL_POINTS, 0, count);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
  }
  return m_hdr.framebuffer();
}

void ParticleRenderer::draw(GLuint vao, int count, const SpriteParams& p, float exposure,
                            GLuint target) {
  if (p.width <= 0 || p.height <= 0) return;  // minimised
  draw_hdr(vao, count, p);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m_hdr.texture());
  tonemap(m_tonemap.id(), exposure, target, p.width, p.height);
  glBindTexture(GL_TEXTURE_2D, 0);
}

CudaGlBuffers& ParticleRenderer::splat_image(int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("ParticleRenderer::splat_image: an empty image");
  if (m_splat_w != width || m_splat_h != height) {
    m_splat_reg = CudaGlBuffers();  // unregister before the buffer goes
    m_splat_buffer = make_buffer();
    glBindBuffer(GL_TEXTURE_BUFFER, m_splat_buffer.id());
    glBufferData(GL_TEXTURE_BUFFER, 4 * sizeof(float) * static_cast<GLsizeiptr>(width) * height,
                 nullptr, GL_DYNAMIC_COPY);
    m_splat_texture = make_texture();
    glBindTexture(GL_TEXTURE_BUFFER, m_splat_texture.id());
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, m_splat_buffer.id());
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    check_gl("creating the splat image");
    m_splat_w = 0;  // until the registration below succeeds
    m_splat_reg = CudaGlBuffers({m_splat_buffer.id()});
    m_splat_w = width;
    m_splat_h = height;
  }
  return m_splat_reg;
}

void ParticleRenderer::splat(const Vec4* pos, const Vec4* vel, int count, const SpriteParams& p) {
  if (p.width != m_splat_w || p.height != m_splat_h || !m_splat_reg.mapped())
    throw std::logic_error("ParticleRenderer::splat: splat_image() of this size is not mapped");
  if (!m_splat_timer) m_splat_timer = std::make_unique<GpuTimer>();
  if (m_splat_timer_pending) m_splat_ms = m_splat_timer->elapsed_ms();  // last frame's splat
  m_splat_timer->start();
  splat_device(pos, vel, count, p, static_cast<float*>(m_splat_reg.pointer(0)));
  m_splat_timer->stop();
  m_splat_timer_pending = true;
}

void ParticleRenderer::draw_splatted(float exposure, GLuint target, int width, int height) {
  if (width <= 0 || height <= 0) return;
  if (width != m_splat_w || height != m_splat_h)
    throw std::logic_error("ParticleRenderer::draw_splatted: no splat of this size");
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, m_splat_texture.id());
  glUseProgram(m_tonemap_buffer.id());
  glUniform1i(uniform(m_tonemap_buffer.id(), "u_width"), width);
  tonemap(m_tonemap_buffer.id(), exposure, target, width, height);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
}

void ParticleRenderer::tonemap(GLuint program, float exposure, GLuint target, int width,
                               int height) {
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, width, height);
  glUseProgram(program);
  glUniform1i(uniform(program, "u_hdr"), 0);
  glUniform1f(uniform(program, "u_exposure"), exposure);
  glBindVertexArray(m_empty_vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace orrery::gfx
