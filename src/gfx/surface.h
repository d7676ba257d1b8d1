// Where a frame is drawn, behind one interface: a GLFW window (interactive) or an EGL pbuffer
// context with an offscreen render target (headless: GPU servers, scripts), as polyscope puts its
// render engines behind one. The frame loop polls, draws into framebuffer(), and presents.
#pragma once

#include <memory>
#include <string>

#include "gl_objects.h"

struct GLFWwindow;

namespace orrery::gfx {

class Surface {
 public:
  virtual ~Surface() = default;
  // "headless context: EGL device 0 of 1 ..." or "window 1280x720".
  virtual std::string description() const = 0;
  // The GLFW window for input and the UI's backend; null headless.
  virtual GLFWwindow* window() const { return nullptr; }
  virtual void poll_events() {}
  virtual bool should_close() const { return false; }
  // The size and framebuffer a frame draws into (0: the window's default framebuffer).
  virtual void size(int& width, int& height) const = 0;
  virtual GLuint framebuffer() const = 0;
  // A texture the CUDA splat may write directly (headless: the render target's); 0 where the
  // picture goes through a blit.
  virtual GLuint direct_texture() const { return 0; }
  // Shows the frame (swap, or a flush headless).
  virtual void present() = 0;
  virtual void set_vsync(bool) {}
  // False where there is no fullscreen (headless).
  virtual bool toggle_fullscreen() { return false; }
  virtual bool fullscreen() const { return false; }
};

struct SurfaceConfig {
  int width = 1280;
  int height = 720;
  bool vsync = true;
  std::string title = "Orrery";
};

// Each throws std::runtime_error with one clear line when no context can be had (no display, no
// EGL device) and makes its context current with GL loaded.
std::unique_ptr<Surface> make_window_surface(const SurfaceConfig& config);
std::unique_ptr<Surface> make_headless_surface(const SurfaceConfig& config);

}  // namespace orrery::gfx
