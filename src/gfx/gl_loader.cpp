// GLEW initialisation that tolerates the EGL case, and a description of the current context.
#include "gl_loader.h"

#include <GL/glew.h>

#include <cctype>
#include <stdexcept>

namespace orrery::gfx {
namespace {

std::string gl_string(GLenum what) {
  const GLubyte* s = glGetString(what);
  return s ? reinterpret_cast<const char*>(s) : "?";
}

}  // namespace

void load_gl(bool egl) {
  glewExperimental = GL_TRUE;  // core profiles: load every entry point, not only advertised ones
  const GLenum r = glewInit();
  // GLEW_ERROR_NO_GLX_DISPLAY (4): GLX-built GLEW under EGL; everything is loaded by then.
  if (r != GLEW_OK && !(egl && r == 4))
    throw std::runtime_error(std::string("cannot load OpenGL through GLEW: ") +
                             reinterpret_cast<const char*>(glewGetErrorString(r)));
  while (glGetError() != GL_NO_ERROR) {
  }  // glewInit's glGetString(GL_EXTENSIONS) is an error in core profiles
  if (!glGenVertexArrays || !glMapBufferRange || !glGetStringi)
    throw std::runtime_error(
        "OpenGL entry points for 3.3 core are missing (context: " + gl_description() + ")");
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor < 33)
    throw std::runtime_error("OpenGL 3.3 is needed, the context has " + std::to_string(major) +
                             "." + std::to_string(minor) + " (" + gl_description() + ")");
}

std::string gl_description() {
  return gl_string(GL_RENDERER) + ", OpenGL " + gl_string(GL_VERSION);
}

bool software_renderer() {
  std::string r = gl_string(GL_RENDERER);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "software"})
    if (r.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace orrery::gfx
