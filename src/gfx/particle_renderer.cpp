// Particle sprites into an HDR image (GL point sprites or the CUDA splat), then tone-mapping.
#include "particle_renderer.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <optional>
#include <stdexcept>

#include "bloom.h"
#include "orrery/no_copy.h"
#include "shader_files.h"
#include "splat.h"
#include "trails_picking.h"

namespace orrery::gfx {

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
  p.color = style.color;
  p.intensity = style.intensity;
  p.mass_ref = style.mass_ref;
  p.spheres = style.spheres ? 1 : 0;
  p.sphere_intensity = style.sphere_intensity;
  p.bloom = style.bloom;
  return p;
}

namespace {

// The colour uniforms of shaders/colormap.glsl, in set_color_uniforms' order.
constexpr const char* k_color_uniforms[] = {"u_source",  "u_label",  "u_glow",
                                            "u_palette", "u_origin", "u_log",
                                            "u_lo",      "u_hi",     "u_palettes"};
// The texture unit the palettes' table is bound to while the colour shaders draw (trails' ring
// buffer texture takes unit 0).
constexpr GLint k_palette_unit = 3;

// A vertex shader with shaders/colormap.glsl inserted after its #version line, and before it the
// numbers of orrery::ValueSource, so the shaders' numbers are the engine's.
std::string with_colormap(const std::string& name) {
  std::string src = read_shader(name);
  const std::size_t eol = src.find('\n');
  if (eol == std::string::npos) throw std::runtime_error("shader " + name + " has one line only");
  const std::string defines = "#define ORRERY_SOURCE_VELOCITY " +
                              std::to_string(static_cast<int>(ValueSource::velocity)) +
                              "\n#define ORRERY_SOURCE_POSITION_W " +
                              std::to_string(static_cast<int>(ValueSource::position_w)) + "\n";
  return src.substr(0, eol + 1) + defines + read_shader("colormap.glsl") + src.substr(eol + 1);
}

}  // namespace

ParticleRenderer::ParticleRenderer()
    : m_particles(make_program(with_colormap("particles.vert"), read_shader("particles.frag"),
                               "particles.vert + particles.frag")),
      m_trails(make_program(with_colormap("trails.vert"), read_shader("trails.frag"),
                            "trails.vert + trails.frag")),
      m_tonemap(make_program(read_shader("fullscreen.vert"), read_shader("tonemap.frag"),
                             "fullscreen.vert + tonemap.frag")),
      m_bloom_down(make_program(read_shader("fullscreen.vert"), read_shader("bloom_down.frag"),
                                "fullscreen.vert + bloom_down.frag")),
      m_bloom_blur(make_program(read_shader("fullscreen.vert"), read_shader("bloom_blur.frag"),
                                "fullscreen.vert + bloom_blur.frag")),
      m_empty_vao(make_vertex_array()),
      m_palettes(make_texture()) {
  // Every palette a row of k_palette_entries RGB texels, interpolated linearly as the CPU's.
  glBindTexture(GL_TEXTURE_2D, m_palettes.id());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB32F, k_palette_entries, k_palette_count, 0, GL_RGB, GL_FLOAT,
               k_palette_host);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  const GLuint p = m_particles.id(), t = m_tonemap.id();
  m_u_view = glGetUniformLocation(p, "u_view");
  m_u_proj = glGetUniformLocation(p, "u_proj");
  m_u_radius = glGetUniformLocation(p, "u_radius");
  m_u_px = glGetUniformLocation(p, "u_px_per_unit");
  int u = 0;
  for (const char* name : k_color_uniforms) m_particle_color[u++] = glGetUniformLocation(p, name);
  m_u_intensity = glGetUniformLocation(p, "u_intensity");
  m_u_mass = glGetUniformLocation(p, "u_mass_ref");
  m_u_spheres = glGetUniformLocation(p, "u_spheres");
  m_u_sphere_intensity = glGetUniformLocation(p, "u_sphere_intensity");
  const GLuint tr = m_trails.id();
  for (const char* name : k_color_uniforms) m_trail_color.push_back(glGetUniformLocation(tr, name));
  m_u_trail_ring = glGetUniformLocation(tr, "u_ring");
  m_u_trail_m = glGetUniformLocation(tr, "u_m");
  m_u_trail_k = glGetUniformLocation(tr, "u_k");
  m_u_trail_head = glGetUniformLocation(tr, "u_head");
  m_u_trail_view = glGetUniformLocation(tr, "u_view");
  m_u_trail_proj = glGetUniformLocation(tr, "u_proj");
  m_u_trail_intensity = glGetUniformLocation(tr, "u_intensity");
  m_u_hdr = glGetUniformLocation(t, "u_hdr");
  m_u_exposure = glGetUniformLocation(t, "u_exposure");
  m_u_bloom = glGetUniformLocation(t, "u_bloom");
  m_u_bloom_strength = glGetUniformLocation(t, "u_bloom_strength");
  m_u_down_hdr = glGetUniformLocation(m_bloom_down.id(), "u_hdr");
  m_u_down_threshold = glGetUniformLocation(m_bloom_down.id(), "u_threshold");
  m_u_blur_small = glGetUniformLocation(m_bloom_blur.id(), "u_small");
  m_u_blur_dir = glGetUniformLocation(m_bloom_blur.id(), "u_dir");
  check_gl("setting up the particle renderer");
}

ParticleRenderer::~ParticleRenderer() = default;

void ParticleRenderer::set_color_uniforms(const ColorMap& c, const GLint* u) {
  glUniform1i(u[0], c.source);
  glUniform1i(u[1], c.label);
  glUniform1i(u[2], c.glow);
  glUniform1i(u[3], c.palette);
  glActiveTexture(GL_TEXTURE0 + k_palette_unit);
  glBindTexture(GL_TEXTURE_2D, m_palettes.id());
  glUniform1i(u[8], k_palette_unit);
  glActiveTexture(GL_TEXTURE0);
  glUniform3fv(u[4], k_origin_colours, k_origin_host);
  glUniform1i(u[5], c.log_scale);
  glUniform1f(u[6], c.lo);
  glUniform1f(u[7], c.hi);
}

void ParticleRenderer::draw_trails(const TrailDraw& t, const SpriteParams& p) {
  if (t.texture == 0 || t.filled < 2 || t.m <= 0) return;
  glUseProgram(m_trails.id());
  set_color_uniforms(p.color, m_trail_color.data());
  glUniformMatrix4fv(m_u_trail_view, 1, GL_FALSE, p.view);
  glUniformMatrix4fv(m_u_trail_proj, 1, GL_FALSE, p.proj);
  glUniform1i(m_u_trail_m, t.m);
  glUniform1i(m_u_trail_k, t.k);
  glUniform1i(m_u_trail_head, t.head);
  glUniform1f(m_u_trail_intensity, t.intensity);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, t.texture);
  glUniform1i(m_u_trail_ring, 0);
  glBindVertexArray(m_empty_vao.id());
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(2L * (t.filled - 1) * t.m));
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
}

GLuint ParticleRenderer::draw_hdr(GLuint vao, int count, const SpriteParams& p,
                                  const TrailDraw* trails) {
  if (m_hdr.width() != p.width || m_hdr.height() != p.height)
    m_hdr = RenderTarget(p.width, p.height, GL_RGBA16F);
  glBindFramebuffer(GL_FRAMEBUFFER, m_hdr.framebuffer());
  glViewport(0, 0, p.width, p.height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (count > 0 || trails) {
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    if (trails) draw_trails(*trails, p);
  }
  if (count > 0) {
    glEnable(GL_PROGRAM_POINT_SIZE);
    glUseProgram(m_particles.id());
    glUniformMatrix4fv(m_u_view, 1, GL_FALSE, p.view);
    glUniformMatrix4fv(m_u_proj, 1, GL_FALSE, p.proj);
    glUniform1f(m_u_radius, p.radius);
    glUniform1f(m_u_px, p.px_per_unit);
    set_color_uniforms(p.color, m_particle_color);
    glUniform1f(m_u_intensity, p.intensity);
    glUniform1f(m_u_mass, p.mass_ref);
    glUniform1i(m_u_spheres, p.spheres);
    glUniform1f(m_u_sphere_intensity, p.sphere_intensity);
    glBindVertexArray(vao);
    glDrawArrays(GL_POINTS, 0, count);
    glBindVertexArray(0);
  }
  glDisable(GL_BLEND);
  return m_hdr.framebuffer();
}

void ParticleRenderer::draw(GLuint vao, int count, const SpriteParams& p, float exposure,
                            GLuint target, std::uint64_t state_version, const TrailDraw* trails) {
  if (p.width <= 0 || p.height <= 0) return;  // minimised
  const bool same = state_version != 0 && state_version == m_hdr_version && vao == m_hdr_vao &&
                    !trails && count == m_hdr_count && m_hdr.width() == p.width &&
                    m_hdr.height() == p.height && std::memcmp(&p, &m_hdr_params, sizeof p) == 0;
  if (!same) {
    draw_hdr(vao, count, p, trails);
    m_hdr_version = state_version;
    m_hdr_vao = vao;
    m_hdr_count = count;
    m_hdr_params = p;
  }
  if (p.bloom > 0.0f) bloom_gl(exposure);
  tonemap(exposure, target, p.width, p.height, p.bloom);
}

void ParticleRenderer::bloom_gl(float exposure) {
  const int sw = bloom_size(m_hdr.width()), sh = bloom_size(m_hdr.height());
  if (m_bloom_a.width() != sw || m_bloom_a.height() != sh) {
    m_bloom_a = RenderTarget(sw, sh, GL_RGBA16F);
    m_bloom_b = RenderTarget(sw, sh, GL_RGBA16F);
    for (const RenderTarget* t : {&m_bloom_a, &m_bloom_b}) {  // sampled between texel centres
      glBindTexture(GL_TEXTURE_2D, t->texture());
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  glDisable(GL_BLEND);
  glViewport(0, 0, sw, sh);
  glBindVertexArray(m_empty_vao.id());
  glActiveTexture(GL_TEXTURE0);
  // The light above the threshold into a, blurred along x into b, along y back into a.
  glBindFramebuffer(GL_FRAMEBUFFER, m_bloom_a.framebuffer());
  glUseProgram(m_bloom_down.id());
  glBindTexture(GL_TEXTURE_2D, m_hdr.texture());
  glUniform1i(m_u_down_hdr, 0);
  glUniform1f(m_u_down_threshold, bloom_threshold(exposure));
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glUseProgram(m_bloom_blur.id());
  glUniform1i(m_u_blur_small, 0);
  const std::pair<const RenderTarget*, const RenderTarget*> passes[] = {{&m_bloom_a, &m_bloom_b},
                                                                        {&m_bloom_b, &m_bloom_a}};
  for (int k = 0; k < 2; ++k) {
    glBindFramebuffer(GL_FRAMEBUFFER, passes[k].second->framebuffer());
    glBindTexture(GL_TEXTURE_2D, passes[k].first->texture());
    glUniform2i(m_u_blur_dir, k == 0 ? 1 : 0, k == 0 ? 0 : 1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindVertexArray(0);
  glUseProgram(0);
}

namespace {

// A buffer's first `bytes` mapped for reading while it lives (null when there is nothing to map).
class ReadMapping : NoCopy {
 public:
  ReadMapping(GLuint buffer, GLsizeiptr bytes) : m_buffer(buffer) {
    if (buffer == 0 || bytes <= 0) return;
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    m_data = glMapBufferRange(GL_ARRAY_BUFFER, 0, bytes, GL_MAP_READ_BIT);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!m_data) throw std::runtime_error("cannot map a vertex buffer for the CPU splat");
  }
  ~ReadMapping() {
    if (!m_data) return;
    glBindBuffer(GL_ARRAY_BUFFER, m_buffer);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
  template <class T>
  const T* as() const {
    return static_cast<const T*>(m_data);
  }

 private:
  GLuint m_buffer;
  void* m_data = nullptr;
};

}  // namespace

void ParticleRenderer::draw_cpu(GLuint pos_vbo, GLuint vel_vbo, GLuint values_vbo, int count,
                                const SpriteParams& p, float exposure, GLuint target,
                                std::uint64_t state_version, const CpuTrails* trails) {
  m_cpu_ms = -1.0f;
  if (p.width <= 0 || p.height <= 0) return;  // minimised
  if (m_cpu_picture.width() != p.width || m_cpu_picture.height() != p.height) {
    m_cpu_picture = RenderTarget(p.width, p.height, GL_RGBA8);
    m_cpu_version = 0;
  }
  const bool same = state_version != 0 && state_version == m_cpu_version && !trails &&
                    count == m_cpu_count && exposure == m_cpu_exposure &&
                    std::memcmp(&p, &m_cpu_params, sizeof p) == 0;
  if (!same) {
    if (!m_cpu) m_cpu = std::make_unique<CpuSplat>();
    const auto start = std::chrono::steady_clock::now();
    const auto bytes = static_cast<GLsizeiptr>(sizeof(Vec4)) * count;
    const ReadMapping pos(pos_vbo, bytes), vel(vel_vbo, bytes);
    const ReadMapping values(color_needs_values(p.color) ? values_vbo : 0,
                             static_cast<GLsizeiptr>(sizeof(float)) * count);
    std::optional<ReadMapping> ring;
    TrailRing t;
    if (trails && trails->buffer != 0 && trails->filled >= 2 && trails->m > 0) {
      ring.emplace(trails->buffer, static_cast<GLsizeiptr>(sizeof(Vec4)) * trails->k * trails->m);
      t = TrailRing{const_cast<Vec4*>(ring->as<Vec4>()), trails->m, trails->k, trails->head,
                    trails->filled};
    }
    m_cpu_rgba8.resize(4 * static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height));
    m_cpu->draw(pos.as<Vec4>(), vel.as<Vec4>(), values.as<float>(), count, p, exposure,
                m_cpu_rgba8.data(), ring ? &t : nullptr, trails ? trails->intensity : 0.0f);
    glBindTexture(GL_TEXTURE_2D, m_cpu_picture.texture());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, p.width, p.height, GL_RGBA, GL_UNSIGNED_BYTE,
                    m_cpu_rgba8.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    m_cpu_ms =
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
    m_cpu_version = state_version;
    m_cpu_count = count;
    m_cpu_exposure = exposure;
    m_cpu_params = p;
  }
  show_picture(m_cpu_picture.framebuffer(), target, p.width, p.height);
}

void ParticleRenderer::draw_rgba(const std::uint8_t* rgba8, int width, int height, GLuint target) {
  if (width <= 0 || height <= 0) return;
  if (m_rgba_picture.width() != width || m_rgba_picture.height() != height)
    m_rgba_picture = RenderTarget(width, height, GL_RGBA8);
  glBindTexture(GL_TEXTURE_2D, m_rgba_picture.texture());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba8);
  glBindTexture(GL_TEXTURE_2D, 0);
  show_picture(m_rgba_picture.framebuffer(), target, width, height);
}

CudaGlBuffers& ParticleRenderer::splat_image(int width, int height, GLuint direct_texture) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("ParticleRenderer::splat_image: an empty image");
  if (m_splat_w != width || m_splat_h != height || m_splat_direct != direct_texture) {
    m_splat_reg = CudaGlBuffers();  // unregister before the texture goes
    m_splat_w = m_splat_h = 0;      // until the registration below succeeds
    const std::size_t pixels = static_cast<std::size_t>(width) * height;
    m_splat_hdr.resize(pixels * 4);  // RGBA float
    m_splat_rgba8.resize(pixels * 4);
    m_splat_picture = direct_texture ? RenderTarget() : RenderTarget(width, height, GL_RGBA8);
    m_splat_reg =
        CudaGlBuffers::texture(direct_texture ? direct_texture : m_splat_picture.texture());
    m_splat_direct = direct_texture;
    m_splat_w = width;
    m_splat_h = height;
  }
  return m_splat_reg;
}

void ParticleRenderer::splat(const Vec4* pos, const Vec4* vel, const float* values, int count,
                             const SpriteParams& p, float exposure, const TrailRing* trails,
                             float trail_intensity) {
  if (p.width != m_splat_w || p.height != m_splat_h || !m_splat_reg.mapped())
    throw std::logic_error("ParticleRenderer::splat: splat_image() of this size is not mapped");
  if (!m_splat_timer) m_splat_timer = std::make_unique<GpuTimer>();
  if (m_splat_timer_pending) m_splat_ms = m_splat_timer->elapsed_ms();  // last frame's splat
  float* hdr = m_splat_hdr.data();
  std::uint8_t* bytes = m_splat_rgba8.data();
  m_splat_timer->start();
  splat_device(pos, vel, count, p, hdr, values);
  if (trails) trail_splat_device(*trails, p, trail_intensity, hdr);
  if (p.bloom > 0.0f) {
    m_bloom_scratch.enlarge(6 * static_cast<std::size_t>(bloom_size(p.width)) *
                            static_cast<std::size_t>(bloom_size(p.height)));
    bloom_device(hdr, p.width, p.height, exposure, p.bloom, m_bloom_scratch.data());
  }
  tonemap_device(hdr, p.width, p.height, exposure, bytes);
  m_splat_reg.copy_rgba8_to_texture(bytes, p.width, p.height);
  m_splat_timer->stop();
  m_splat_timer_pending = true;
}

void ParticleRenderer::draw_splatted(GLuint target, int width, int height) {
  if (width <= 0 || height <= 0) return;
  if (width != m_splat_w || height != m_splat_h)
    throw std::logic_error("ParticleRenderer::draw_splatted: no splat of this size");
  show_picture(m_splat_direct ? 0 : m_splat_picture.framebuffer(), target, width, height);
}

void ParticleRenderer::show_picture(GLuint picture, GLuint target, int width, int height) {
  if (picture != 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, picture);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, width, height);
}

void ParticleRenderer::tonemap(float exposure, GLuint target, int width, int height, float bloom) {
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, width, height);
  glUseProgram(m_tonemap.id());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, bloom > 0.0f ? m_bloom_a.texture() : 0);
  glUniform1i(m_u_bloom, 1);
  glUniform1f(m_u_bloom_strength, bloom);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m_hdr.texture());
  glUniform1i(m_u_hdr, 0);
  glUniform1f(m_u_exposure, exposure);
  glBindVertexArray(m_empty_vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glUseProgram(0);
}

}  // namespace orrery::gfx
