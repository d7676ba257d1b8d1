// Move-only owners of OpenGL objects (buffers, vertex arrays, textures, framebuffers, programs).
#pragma once

#include <GL/glew.h>

#include <string>

#include "orrery/no_copy.h"

namespace orrery::gfx {

// One GL object name and the stateless functor that deletes it. Deleting needs the context that
// made the object to be current, which holds here: the App destroys GL objects before the context.
template <class Deleter>
class GlHandle : NoCopy {
 public:
  GlHandle() = default;
  explicit GlHandle(GLuint id) : m_id(id) {}
  ~GlHandle() { reset(); }
  GlHandle(GlHandle&& o) noexcept : m_id(o.m_id) { o.m_id = 0; }
  GlHandle& operator=(GlHandle&& o) noexcept {
    if (this != &o) {
      reset();
      m_id = o.m_id;
      o.m_id = 0;
    }
    return *this;
  }

  GLuint id() const { return m_id; }
  explicit operator bool() const { return m_id != 0; }
  void reset() {
    if (m_id != 0) Deleter{}(m_id);
    m_id = 0;
  }

 private:
  GLuint m_id = 0;
};

struct BufferDeleter {
  void operator()(GLuint id) const { glDeleteBuffers(1, &id); }
};
struct VertexArrayDeleter {
  void operator()(GLuint id) const { glDeleteVertexArrays(1, &id); }
};
struct TextureDeleter {
  void operator()(GLuint id) const { glDeleteTextures(1, &id); }
};
struct FramebufferDeleter {
  void operator()(GLuint id) const { glDeleteFramebuffers(1, &id); }
};
struct ProgramDeleter {
  void operator()(GLuint id) const { glDeleteProgram(id); }
};

struct QueryDeleter {
  void operator()(GLuint id) const { glDeleteQueries(1, &id); }
};

using GlBuffer = GlHandle<BufferDeleter>;
using GlVertexArray = GlHandle<VertexArrayDeleter>;
using GlTexture = GlHandle<TextureDeleter>;
using GlFramebuffer = GlHandle<FramebufferDeleter>;
using GlProgram = GlHandle<ProgramDeleter>;
using GlQuery = GlHandle<QueryDeleter>;

GlBuffer make_buffer();
GlVertexArray make_vertex_array();
GlTexture make_texture();
GlFramebuffer make_framebuffer();

// Compiles and links a program; throws std::runtime_error with the driver's log, naming `label`.
GlProgram make_program(const std::string& vertex_src, const std::string& fragment_src,
                       const std::string& label);

// A colour texture of the given internal format with a framebuffer around it (no depth).
class RenderTarget {
 public:
  RenderTarget() = default;
  RenderTarget(int width, int height, GLenum internal_format);
  GLuint framebuffer() const { return m_fbo.id(); }
  GLuint texture() const { return m_tex.id(); }
  int width() const { return m_width; }
  int height() const { return m_height; }

 private:
  GlTexture m_tex;
  GlFramebuffer m_fbo;
  int m_width = 0, m_height = 0;
};

// Throws orrery::InputError, before any frame runs, when this GL cannot hold a width x height
// offscreen image: beyond its size limits (GL_MAX_TEXTURE_SIZE, GL_MAX_RENDERBUFFER_SIZE,
// GL_MAX_VIEWPORT_DIMS) or too large to allocate as the renderer's RGBA16F target; the message
// names the largest size this GL allows (of the same shape, when memory is the limit).
void require_offscreen_size(int width, int height);

// Times GL work on the GPU with GL_TIME_ELAPSED queries. A ring of queries is read a few frames
// later, when the result is long available, so timing never stalls the pipeline.
class GlGpuTimer {
 public:
  void begin();
  void end();
  // The newest result read, in ms; negative before the first one.
  float last_ms() const { return m_last_ms; }

 private:
  static constexpr int k_ring = 4;
  GlQuery m_query[k_ring];
  bool m_issued[k_ring] = {};
  int m_next = 0;
  float m_last_ms = -1.0f;
};

// Throws std::runtime_error naming `where` when glGetError reports an error (drains the queue).
void check_gl(const char* where);

}  // namespace orrery::gfx
