// The GLFW window with its OpenGL 3.3 core context: the interactive path.
#pragma once

#include <string>

#include "orrery/no_copy.h"

struct GLFWwindow;

namespace orrery::gfx {

struct WindowConfig {
  int width = 1280;
  int height = 720;
  bool vsync = true;
  std::string title = "Orrery";
};

// Initialises GLFW, opens a resizable window and makes its context current (GL loaded). Throws
// std::runtime_error with one clear line when there is no display or no GL 3.3 context.
class Window : NoCopy {
 public:
  explicit Window(const WindowConfig& config);
  ~Window();
  Window(Window&& o) noexcept;
  Window& operator=(Window&& o) = delete;

  GLFWwindow* handle() const { return m_window; }
  void framebuffer_size(int& width, int& height) const;
  bool should_close() const;
  void request_close();
  void poll_events();
  void swap_buffers();
  void set_vsync(bool on);
  // Switches between the primary monitor's mode and the saved windowed placement.
  void toggle_fullscreen();
  bool fullscreen() const { return m_fullscreen; }

 private:
  GLFWwindow* m_window = nullptr;
  bool m_fullscreen = false;
  int m_saved_x = 0, m_saved_y = 0, m_saved_w = 0, m_saved_h = 0;
};

}  // namespace orrery::gfx
