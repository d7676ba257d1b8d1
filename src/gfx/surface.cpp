// The two surfaces: a GLFW window, and an EGL context with an offscreen render target.
#include "surface.h"

#include <GL/glew.h>

#include "egl_context.h"
#include "window.h"

namespace orrery::gfx {
namespace {

class WindowSurface final : public Surface {
 public:
  explicit WindowSurface(const SurfaceConfig& c)
      : m_window(WindowConfig{c.width, c.height, c.vsync, c.title}) {}
  std::string description() const override { return "window"; }
  GLFWwindow* window() const override { return m_window.handle(); }
  void poll_events() override { m_window.poll_events(); }
  bool should_close() const override { return m_window.should_close(); }
  void size(int& w, int& h) const override { m_window.framebuffer_size(w, h); }
  GLuint framebuffer() const override { return 0; }
  void present() override { m_window.swap_buffers(); }
  void set_vsync(bool on) override { m_window.set_vsync(on); }
  bool toggle_fullscreen() override {
    m_window.toggle_fullscreen();
    return true;
  }
  bool fullscreen() const override { return m_window.fullscreen(); }

 private:
  Window m_window;
};

// The context first, the target second: the target goes before the context.
class HeadlessSurface final : public Surface {
 public:
  explicit HeadlessSurface(const SurfaceConfig& c) {
    require_offscreen_size(c.width, c.height);  // one clear line, before the target is made
    m_target = RenderTarget(c.width, c.height, GL_RGBA8);
  }
  std::string description() const override { return "headless context: " + m_context.description(); }
  void size(int& w, int& h) const override { w = m_target.width(), h = m_target.height(); }
  GLuint framebuffer() const override { return m_target.framebuffer(); }
  GLuint direct_texture() const override { return m_target.texture(); }
  void present() override { glFlush(); }

 private:
  EglContext m_context;
  RenderTarget m_target;
};

}  // namespace

std::unique_ptr<Surface> make_window_surface(const SurfaceConfig& c) {
  return std::make_unique<WindowSurface>(c);
}

std::unique_ptr<Surface> make_headless_surface(const SurfaceConfig& c) {
  return std::make_unique<HeadlessSurface>(c);
}

}  // namespace orrery::gfx
