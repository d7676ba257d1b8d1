// Dear ImGui's context and backends for a GLFW window or a headless context, and mouse input.
#pragma once

#include "orrery/no_copy.h"

struct GLFWwindow;

namespace orrery::ui {

// Camera motion requested this frame; zero while ImGui has the mouse.
struct CameraInput {
  float orbit_dx = 0, orbit_dy = 0;
  float pan_dx = 0, pan_dy = 0;
  float zoom = 0;  // wheel steps
  // A left click that did not drag (a pick), at this position (pixels from the top-left).
  bool click = false;
  float click_x = 0, click_y = 0;
};

// Owns the ImGui context (no imgui.ini written). With a window, the GLFW backend installs its
// callbacks chained after the app's own, so install those first; with none (headless), only the
// OpenGL3 backend runs and the display size comes from begin_frame.
class ImGuiLayer : NoCopy {
 public:
  explicit ImGuiLayer(GLFWwindow* window);
  ~ImGuiLayer();

  // NewFrame for both backends (width, height and dt are used headless only).
  void begin_frame(int width, int height, float dt);
  // ImGui::Render and the OpenGL3 draw into the bound framebuffer.
  void end_frame();
  bool wants_keyboard() const;
  CameraInput camera_input() const;

 private:
  bool m_window = false;
};

}  // namespace orrery::ui
