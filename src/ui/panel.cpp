// Panel sections: simulation controls, performance readouts and plots, block-size sweep, view,
// keys.
#include "panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "keys.h"

namespace orrery::ui {
namespace {

constexpr float k_content_w = 350.0f;
constexpr int k_max_n =
    1 << 24;  // the viewer's --n range  // the panel auto-resizes to its content: fixed widths

std::string block_name(int block) { return block == 0 ? "auto" : std::to_string(block); }

// A value with an SI prefix: si(1.23e9, " interactions/s") = "1.23 G interactions/s".
std::string si(double v, const char* unit) {
  const char* prefix[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (v >= 1000.0 && k < 5) v /= 1000.0, ++k;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefix[k],
                k > 0 || *unit != ' ' ? unit : unit + 1);
  return buf;
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

void simulation_section(Settings& s, const Catalog& c, std::vector<Action>& actions) {
  const SolverChoice& cur = c.solvers[static_cast<std::size_t>(s.solver)];
  if (ImGui::BeginCombo("solver", cur.name.c_str())) {
    for (int i = 0; i < static_cast<int>(c.solvers.size()); ++i) {
      if (ImGui::Selectable(c.solvers[static_cast<std::size_t>(i)].name.c_str(), i == s.solver) &&
          i != s.solver)
        actions.push_back({ActionKind::set_solver, i});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", c.solvers[static_cast<std::size_t>(i)].description.c_str());
    }
    ImGui::EndCombo();
  }
  ImGui::BeginDisabled(!cur.gpu);
  if (ImGui::BeginCombo("block", cur.gpu ? block_name(s.block).c_str() : "-")) {
    std::vector<int> blocks = cur.block_sizes;
    if (cur.block_auto) blocks.insert(blocks.begin(), 0);
    for (int b : blocks)
      if (ImGui::Selectable(block_name(b).c_str(), b == s.block) && b != s.block)
        actions.push_back({ActionKind::set_block, b});
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  if (!cur.gpu && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("CPU solvers have no block size");

  ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - 60.0f);
  ImGui::InputInt("##n", &s.n_edit, 1024, 16384);
  // Out of range is refused, not clamped: Apply stays off and the field says why.
  const bool n_ok = s.n_edit >= 1 && s.n_edit <= k_max_n;
  ImGui::SameLine();
  ImGui::BeginDisabled(s.n_edit == s.n || !n_ok);
  if (ImGui::Button("Apply")) actions.push_back({ActionKind::apply_n, s.n_edit});
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextUnformatted("N");
  help_marker("Number of bodies; Apply restarts the current preset with the new N.");
  if (!n_ok) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "N must be 1 to 16777216");

  const char* preset = c.presets[static_cast<std::size_t>(s.preset)].c_str();
  if (ImGui::BeginCombo("preset", preset)) {
    for (int i = 0; i < static_cast<int>(c.presets.size()); ++i)
      if (ImGui::Selectable(c.presets[static_cast<std::size_t>(i)].c_str(), i == s.preset))
        actions.push_back({ActionKind::set_preset, i});
    ImGui::EndCombo();
  }
  ImGui::SliderFloat("time step", &s.dt, 0.0005f, 0.05f, "%.4g", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("softening", &s.softening, 0.01f, 2.0f, "%.4g", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("damping", &s.damping, 0.9f, 1.0f, "%.4f");
  ImGui::SliderInt("steps/frame", &s.steps_per_frame, 1, 16);

  if (ImGui::Button(s.paused ? "Resume" : "Pause")) actions.push_back({ActionKind::toggle_pause});
  ImGui::SameLine();
  if (ImGui::Button("Step")) actions.push_back({ActionKind::single_step});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions.push_back({ActionKind::reset});
  ImGui::SameLine();
  bool vsync = s.vsync;
  if (ImGui::Checkbox("vsync", &vsync)) actions.push_back({ActionKind::set_vsync, vsync ? 1 : 0});
}

void performance_section(const Readouts& r) {
  ImGui::Text("%.1f FPS   frame %.2f ms", r.fps, r.frame_ms);
  ImGui::Text("sim %.3f ms/frame%s", r.sim_ms,
              r.sim_ms_from_events ? " (CUDA events)" : " (CPU clock)");
  if (r.draw_ms >= 0.0f && r.splat_ms >= 0.0f) {
    ImGui::Text("draw %.3f ms/frame (splat %.3f)", r.draw_ms, r.splat_ms);
    help_marker(
        "GPU time of drawing: the CUDA splat of the bodies (CUDA events), then tone mapping and "
        "this panel (GL timer).");
  } else if (r.draw_ms >= 0.0f) {
    ImGui::Text("draw %.3f ms/frame (GL timer)", r.draw_ms);
    help_marker("GPU time of drawing the bodies, tone mapping and this panel.");
  }
  ImGui::Text("%s   %s", si(r.interactions_per_s, " interactions/s").c_str(),
              si(r.gflops * 1e9, "FLOP/s").c_str());
  help_marker(
      "N^2 interactions per step, 20 flops each (NVIDIA nbody's convention), over solver time.");
  ImGui::Text("path: %s, %s", r.render_path.c_str(), r.draw_method.c_str());
  help_marker((r.path_note.empty() ? std::string() : r.path_note + "\n\n")
                  .append("cuda-splat: CUDA kernels splat the sprites from the mapped buffers and "
                          "tone-map them; gl-sprites: OpenGL point sprites. D switches.")
                  .c_str());
  ImGui::TextWrapped("GPU: %s", r.gpu_name.c_str());
  ImGui::TextWrapped("GL: %s", r.gl_renderer.c_str());
  ImGui::TextWrapped("%s", r.solver_config.c_str());
  if (!r.frame_ms_history.empty()) {
    float peak = 0.0f;
    for (float v : r.frame_ms_history) peak = std::max(peak, v);
    // Scale to 3x the median so one long frame (start-up, autotuning, a sweep) does not flatten
    // the rest; the peak is still printed.
    std::vector<float> sorted = r.frame_ms_history;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const float top = std::min(peak * 1.15f, 3.0f * sorted[sorted.size() / 2]);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "frame ms (max %.1f)", peak);
    ImGui::PlotLines("##frame_ms", r.frame_ms_history.data(),
                     static_cast<int>(r.frame_ms_history.size()), r.history_head, overlay, 0.0f,
                     std::max(top, 0.05f), ImVec2(k_content_w, 60.0f));
  }
}

void sweep_section(const Settings& s, const Readouts& r, const Catalog& c,
                   std::vector<Action>& actions) {
  const bool gpu = c.solvers[static_cast<std::size_t>(s.solver)].gpu;
  ImGui::BeginDisabled(!gpu);
  if (ImGui::Button("Sweep block sizes")) actions.push_back({ActionKind::sweep_blocks});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        gpu ? "Times the current solver at every block size at this N (scratch buffers)"
            : "Only GPU solvers have block sizes: pick a cuda-* solver");
  if (r.sweep.empty()) return;
  std::vector<float> rate;
  float best = 0.0f;
  for (const SweepPoint& p : r.sweep) {
    rate.push_back(p.ms_per_step > 0.0f ? 1000.0f / p.ms_per_step : 0.0f);
    best = std::max(best, rate.back());
  }
  ImGui::TextUnformatted(r.sweep_label.c_str());
  // Headroom above the tallest bar keeps the caption, drawn at the top, off the bars.
  ImGui::PlotHistogram("##sweep", rate.data(), static_cast<int>(rate.size()), 0,
                       "steps/s by block size", 0.0f, best * 1.3f, ImVec2(k_content_w, 80.0f));
  if (ImGui::BeginTable("sweep", 3, ImGuiTableFlags_SizingStretchSame, ImVec2(k_content_w, 0.0f))) {
    for (std::size_t i = 0; i < r.sweep.size(); ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s%d", rate[i] == best ? "* " : "  ", r.sweep[i].block);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f ms", r.sweep[i].ms_per_step);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f steps/s", rate[i]);
    }
    ImGui::EndTable();
  }
}

void view_section(Settings& s, const Readouts& r, std::vector<Action>& actions) {
  ImGui::BeginDisabled(!r.splat_available);
  bool splat = s.cuda_splat;
  if (ImGui::Checkbox("draw with CUDA (D)", &splat) && splat != s.cuda_splat)
    actions.push_back({ActionKind::toggle_draw});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(r.splat_available
                          ? "A CUDA kernel splats the sprites from the mapped buffers; off: GL "
                            "point sprites. Same picture; the splat is far cheaper on GPUs with "
                            "little raster hardware (H100)."
                          : "The CUDA splat needs the zero-copy interop path.");
  ImGui::SliderFloat("point size", &s.point_radius, 0.02f, 1.0f, "%.3f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("brightness", &s.brightness, 0.05f, 10.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("exposure", &s.exposure, 0.1f, 10.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  if (ImGui::Button("Reset camera")) actions.push_back({ActionKind::reset_camera});
}

// Work in flight and problems to act on, at the top where they are seen (with a Reset button for
// a problem when `actions` is given).
void status_lines(const Readouts& r, std::vector<Action>* actions) {
  if (!r.activity.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", r.activity.c_str());
  if (r.alert.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  ImGui::TextWrapped("%s", r.alert.c_str());
  ImGui::PopStyleColor();
  if (actions && ImGui::Button("Reset##alert")) actions->push_back({ActionKind::reset});
}

}  // namespace

std::string solver_label(const Catalog& c, int solver, int block) {
  const SolverChoice& sc = c.solvers[static_cast<std::size_t>(solver)];
  return sc.gpu ? sc.name + " block " + block_name(block) : sc.name;
}

float draw_panel(Settings& s, const Readouts& r, const Catalog& c, std::vector<Action>& actions) {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Orrery", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return 0.0f;
  }
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
  ImGui::PushItemWidth(k_content_w - 110.0f);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + k_content_w);
  status_lines(r, &actions);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen))
    simulation_section(s, c, actions);
  if (ImGui::CollapsingHeader("Performance", ImGuiTreeNodeFlags_DefaultOpen))
    performance_section(r);
  if (ImGui::CollapsingHeader("Block-size sweep", ImGuiTreeNodeFlags_DefaultOpen))
    sweep_section(s, r, c, actions);
  if (ImGui::CollapsingHeader("View")) view_section(s, r, actions);
  if (ImGui::CollapsingHeader("Keys")) {
    for (const KeyBinding& k : key_bindings()) {
      ImGui::TextUnformatted(k.keys);
      ImGui::SameLine(110.0f);
      ImGui::TextUnformatted(k.what);
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::PopItemWidth();
  ImGui::End();
  return right;
}

void draw_overlay(const Settings& s, const Readouts& r, const Catalog& c) {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  // Fixed size: an auto-resizing window would be clipped on the frame it first appears.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_Always);
  const float lines = 4.0f + (r.activity.empty() ? 0.0f : 1.0f) + (r.alert.empty() ? 0.0f : 3.0f);
  ImGui::SetNextWindowSize(
      ImVec2(250.0f, lines * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.WindowPadding.y),
      ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.45f);
  if (ImGui::Begin("overlay", nullptr, flags)) {
    ImGui::Text("%.1f FPS  %.2f ms", r.fps, r.frame_ms);
    ImGui::TextUnformatted(solver_label(c, s.solver, s.block).c_str());
    ImGui::Text("N %d%s", s.n, s.paused ? "  (paused)" : "");
    ImGui::Text("%s, %s", r.render_path.c_str(), r.draw_method.c_str());
    ImGui::PushTextWrapPos(240.0f);
    status_lines(r, nullptr);
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace orrery::ui
