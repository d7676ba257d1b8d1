// Loading OpenGL entry points through GLEW for the current context, window or EGL.
#pragma once

#include <string>

namespace orrery::gfx {

// Loads GL for the current context and checks it is 3.3 or newer. Under EGL, Debian's GLX-built
// GLEW returns GLEW_ERROR_NO_GLX_DISPLAY (4) after loading every function: that counts as success.
// Throws std::runtime_error naming what is missing.
void load_gl(bool egl);

// "renderer, GL version" of the current context.
std::string gl_description();

// Whether the current context draws on the CPU (Mesa's llvmpipe, softpipe or swrast, or another
// software rasteriser): then drawing takes CPU time from the CPU solvers.
bool software_renderer();

}  // namespace orrery::gfx
