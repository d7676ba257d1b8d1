// ImGui set-up and per-frame calls in the order of imgui's example_glfw_opengl3.
#include "imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <stdexcept>

namespace orrery::ui {
namespace {

void apply_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 6.0f;
  s.FrameRounding = 4.0f;
  s.GrabRounding = 4.0f;
  s.WindowBorderSize = 0.0f;
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.06f, 0.07f, 0.10f, 0.86f);
  s.Colors[ImGuiCol_PlotHistogram] = ImVec4(0.35f, 0.65f, 1.00f, 1.00f);
  s.Colors[ImGuiCol_PlotLines] = ImVec4(1.00f, 0.70f, 0.30f, 1.00f);
}

}  // namespace

ImGuiLayer::ImGuiLayer(GLFWwindow* window) : m_window(window != nullptr) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory
  apply_style();
  if (window && !ImGui_ImplGlfw_InitForOpenGL(window, true)) {
    ImGui::DestroyContext();
    throw std::runtime_error("cannot initialise ImGui's GLFW backend");
  }
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    if (window) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    throw std::runtime_error("cannot initialise ImGui's OpenGL3 backend");
  }
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  if (m_window) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::begin_frame(int width, int height, float dt) {
  ImGui_ImplOpenGL3_NewFrame();
  if (m_window) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
    io.DeltaTime = dt > 0.0f ? dt : 1.0f / 60.0f;
  }
  ImGui::NewFrame();
}

void ImGuiLayer::end_frame() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ImGuiLayer::wants_keyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

CameraInput ImGuiLayer::camera_input() const {
  CameraInput in;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return in;
  if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    in.orbit_dx = io.MouseDelta.x;
    in.orbit_dy = io.MouseDelta.y;
  } else if (ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
             ImGui::IsMouseDown(ImGuiMouseButton_Middle)) {
    in.pan_dx = io.MouseDelta.x;
    in.pan_dy = io.MouseDelta.y;
  }
  in.zoom = io.MouseWheel;
  const float mx = io.MousePos.x - io.MouseClickedPos[0].x,
              my = io.MousePos.y - io.MouseClickedPos[0].y;
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16.0f &&
      mx * mx + my * my < 16.0f) {  // not a drag (also one that ended within a frame)
    in.click = true;
    in.click_x = io.MousePos.x * io.DisplayFramebufferScale.x;
    in.click_y = io.MousePos.y * io.DisplayFramebufferScale.y;
  }
  return in;
}

}  // namespace orrery::ui
