// GLFW window creation, fullscreen toggling and the error callback.
#include "window.h"

#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "gl_loader.h"

namespace orrery::gfx {
namespace {

void on_glfw_error(int code, const char* description) {
  std::fprintf(stderr, "orrery: glfw error 0x%x: %s\n", code, description ? description : "");
}

std::string last_glfw_error() {
  const char* d = nullptr;
  glfwGetError(&d);
  return d ? d : "unknown GLFW error";
}

}  // namespace

Window::Window(const WindowConfig& config) {
  glfwSetErrorCallback(on_glfw_error);
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland))
    throw std::runtime_error(
        "no display to open a window on (DISPLAY is not set); run with --headless to render "
        "offscreen through EGL, or under xvfb-run");
  if (!glfwInit())
    throw std::runtime_error("cannot initialise GLFW (" + last_glfw_error() +
                             "); run with --headless to render offscreen through EGL");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  m_window = glfwCreateWindow(config.width, config.height, config.title.c_str(), nullptr, nullptr);
  if (!m_window) {
    const std::string why = last_glfw_error();
    glfwTerminate();
    throw std::runtime_error("cannot open a " + std::to_string(config.width) + "x" +
                             std::to_string(config.height) + " window with OpenGL 3.3 core (" +
                             why + ")");
  }
  glfwMakeContextCurrent(m_window);
  try {
    load_gl(false);
  } catch (...) {
    glfwDestroyWindow(m_window);
    glfwTerminate();
    throw;
  }
  set_vsync(config.vsync);
}

Window::~Window() {
  if (!m_window) return;
  glfwDestroyWindow(m_window);
  glfwTerminate();
}

Window::Window(Window&& o) noexcept
    : m_window(o.m_window),
      m_fullscreen(o.m_fullscreen),
      m_saved_x(o.m_saved_x),
      m_saved_y(o.m_saved_y),
      m_saved_w(o.m_saved_w),
      m_saved_h(o.m_saved_h) {
  o.m_window = nullptr;
}

void Window::framebuffer_size(int& width, int& height) const {
  glfwGetFramebufferSize(m_window, &width, &height);
}

bool Window::should_close() const { return glfwWindowShouldClose(m_window) != 0; }
void Window::request_close() { glfwSetWindowShouldClose(m_window, GLFW_TRUE); }
void Window::poll_events() { glfwPollEvents(); }
void Window::swap_buffers() { glfwSwapBuffers(m_window); }
void Window::set_vsync(bool on) { glfwSwapInterval(on ? 1 : 0); }

void Window::toggle_fullscreen() {
  if (m_fullscreen) {
    glfwSetWindowMonitor(m_window, nullptr, m_saved_x, m_saved_y, m_saved_w, m_saved_h, 0);
    m_fullscreen = false;
    return;
  }
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (!mode) return;  // no monitor to go fullscreen on (the error callback has said why)
  glfwGetWindowPos(m_window, &m_saved_x, &m_saved_y);
  glfwGetWindowSize(m_window, &m_saved_w, &m_saved_h);
  glfwSetWindowMonitor(m_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  m_fullscreen = true;
}

}  // namespace orrery::gfx
