// Creation helpers for the GL object owners, program linking and the offscreen render target.
#include "gl_objects.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "orrery/input.h"

namespace orrery::gfx {
namespace {

std::string hex(GLenum v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(v));
  return buf;
}

std::string info_log(GLuint id, bool program) {
  GLint len = 0;
  if (program)
    glGetProgramiv(id, GL_INFO_LOG_LENGTH, &len);
  else
    glGetShaderiv(id, GL_INFO_LOG_LENGTH, &len);
  std::vector<char> log(static_cast<std::size_t>(len > 1 ? len : 1), '\0');
  if (program)
    glGetProgramInfoLog(id, len, nullptr, log.data());
  else
    glGetShaderInfoLog(id, len, nullptr, log.data());
  std::string s(log.data());
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Compiles one stage; the caller owns the returned shader name.
GLuint compile(GLenum stage, const std::string& src, const std::string& label) {
  const GLuint sh = glCreateShader(stage);
  const char* text = src.c_str();
  glShaderSource(sh, 1, &text, nullptr);
  glCompileShader(sh);
  GLint ok = GL_FALSE;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = info_log(sh, false);
    glDeleteShader(sh);
    throw std::runtime_error("cannot compile the " +
                             std::string(stage == GL_VERTEX_SHADER ? "vertex" : "fragment") +
                             " shader of " + label + ": " + log);
  }
  return sh;
}

// One new object name from a glGen* function.
GLuint generate(void(GLAPIENTRY* gen)(GLsizei, GLuint*)) {
  GLuint id = 0;
  gen(1, &id);
  return id;
}

}  // namespace

GlBuffer make_buffer() { return GlBuffer(generate(glGenBuffers)); }
GlVertexArray make_vertex_array() { return GlVertexArray(generate(glGenVertexArrays)); }
GlTexture make_texture() { return GlTexture(generate(glGenTextures)); }
GlFramebuffer make_framebuffer() { return GlFramebuffer(generate(glGenFramebuffers)); }

GlProgram make_program(const std::string& vertex_src, const std::string& fragment_src,
                       const std::string& label) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_src, label);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment_src, label);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  GlProgram prog(glCreateProgram());
  glAttachShader(prog.id(), vs);
  glAttachShader(prog.id(), fs);
  glLinkProgram(prog.id());
  glDetachShader(prog.id(), vs);
  glDetachShader(prog.id(), fs);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(prog.id(), GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE)
    throw std::runtime_error("cannot link " + label + ": " + info_log(prog.id(), true));
  return prog;
}

RenderTarget::RenderTarget(int width, int height, GLenum internal_format)
    : m_tex(make_texture()), m_fbo(make_framebuffer()), m_width(width), m_height(height) {
  glBindTexture(GL_TEXTURE_2D, m_tex.id());
  const bool is_float = internal_format == GL_RGBA16F || internal_format == GL_RGBA32F;
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal_format), width, height, 0, GL_RGBA,
               is_float ? GL_FLOAT : GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, m_fbo.id());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_tex.id(), 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("offscreen framebuffer " + std::to_string(width) + "x" +
                             std::to_string(height) + " is incomplete (status " + hex(status) +
                             ")");
  check_gl("creating an offscreen framebuffer");
}

namespace {

// Whether a width x height target of this format can be made (GL errors cleared either way).
bool can_allocate(int width, int height, GLenum format) {
  try {
    RenderTarget probe(width, height, format);
    return true;
  } catch (const std::exception&) {
    while (glGetError() != GL_NO_ERROR) {
    }
    return false;
  }
}

}  // namespace

void require_offscreen_size(int width, int height) {
  GLint tex = 0, rb = 0, viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &rb);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
  const int max_w = std::min({tex, rb, viewport[0]}), max_h = std::min({tex, rb, viewport[1]});
  const std::string asked =
      "--width " + std::to_string(width) + " --height " + std::to_string(height);
  if (width > max_w || height > max_h)
    throw InputError(asked + ": beyond this GL's largest image, " + std::to_string(max_w) + " x " +
                     std::to_string(max_h) + " (GL_MAX_TEXTURE_SIZE " + std::to_string(tex) +
                     ", GL_MAX_RENDERBUFFER_SIZE " + std::to_string(rb) +
                     ", GL_MAX_VIEWPORT_DIMS " + std::to_string(viewport[0]) + " x " +
                     std::to_string(viewport[1]) + ")");
  if (can_allocate(width, height, GL_RGBA16F)) return;
  // Memory, not the limits: find the largest image of the same shape that can be allocated.
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 10; ++k) {
    const double mid = 0.5 * (lo + hi);
    const int w = std::max(1, static_cast<int>(width * mid)),
              h = std::max(1, static_cast<int>(height * mid));
    (can_allocate(w, h, GL_RGBA16F) ? lo : hi) = mid;
  }
  const int w = static_cast<int>(width * lo), h = static_cast<int>(height * lo);
  throw InputError(asked + ": this GL cannot allocate an offscreen image that large (" +
                   std::to_string(static_cast<long long>(width) * height * 8 / (1 << 20)) +
                   " MiB as RGBA16F); the largest of this shape it can is about " +
                   std::to_string(w) + " x " + std::to_string(h));
}

void check_gl(const char* where) {
  GLenum first = GL_NO_ERROR;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
    if (first == GL_NO_ERROR) first = e;
  if (first != GL_NO_ERROR)
    throw std::runtime_error("OpenGL error " + hex(first) + " while " + where);
}

void GlGpuTimer::begin() {
  GlQuery& q = m_query[m_next];
  if (!q) q = GlQuery(generate(glGenQueries));
  if (m_issued[m_next]) {  // issued k_ring frames ago: read it (waits only if still not done)
    GLuint64 ns = 0;
    glGetQueryObjectui64v(q.id(), GL_QUERY_RESULT, &ns);
    m_last_ms = static_cast<float>(static_cast<double>(ns) * 1e-6);
  }
  glBeginQuery(GL_TIME_ELAPSED, q.id());
}

void GlGpuTimer::end() {
  glEndQuery(GL_TIME_ELAPSED);
  m_issued[m_next] = true;
  m_next = (m_next + 1) % k_ring;
}

}  // namespace orrery::gfx
