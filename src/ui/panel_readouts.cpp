// The panel's readout sections: performance (FPS, interactions, the path), diagnostics (energy,
// momentum and their drift plots), the phases of a step, and the block-size sweep.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "panel_readouts.h"

namespace orrery::ui {

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

namespace {

// A live plot of one drift with its newest value in the caption.
void drift_plot(const char* id, const char* label, const std::vector<float>& v, double now) {
  if (v.empty()) return;
  float lo = v.front(), hi = v.front();
  for (float x : v) lo = std::min(lo, x), hi = std::max(hi, x);
  const float pad = std::max(0.1f * (hi - lo), 1e-12f + 1e-6f * std::abs(hi));
  char caption[96];
  std::snprintf(caption, sizeof caption, "%s %+.3e", label, now);
  ImGui::PlotLines(id, v.data(), static_cast<int>(v.size()), 0, caption, lo - pad, hi + pad,
                   ImVec2(k_content_w, 44.0f));
}

}  // namespace

void performance_section(const Readouts& r) {
  ImGui::Text("%.1f FPS   frame %.2f ms", r.fps, r.frame_ms);
  ImGui::Text("sim %.3f ms/frame%s", r.sim_ms,
              r.sim_ms_from_events ? " (CUDA events)" : " (CPU clock)");
  if (!r.sim_ms_from_events)
    help_marker(
        "Wall time of the frame's steps on the worker thread. They run while the frame draws "
        "the state before them, so on a machine with few cores both times include sharing them.");
  if (r.draw_ms >= 0.0f && r.splat_ms >= 0.0f) {
    ImGui::Text("draw %.3f ms/frame (splat %.3f)", r.draw_ms, r.splat_ms);
    help_marker(
        "Time of drawing: the splat of the bodies (CUDA events for the CUDA splat, the CPU clock "
        "for the CPU splat), then the rest of the frame's GL work and this panel (GL timer).");
  } else if (r.draw_ms >= 0.0f) {
    ImGui::Text("draw %.3f ms/frame (GL timer)", r.draw_ms);
    help_marker("GPU time of drawing the bodies, tone mapping and this panel.");
  }
  if (r.tree_code) {  // body-cell interactions cost more flops than body-body ones: no FLOP/s
    ImGui::Text("%s", si(r.interactions_per_s, " interactions/s").c_str());
    help_marker(
        "The tree walk's real interactions (body-body and body-cell) per second of solver time.");
  } else {
    ImGui::Text("%s   %s", si(r.interactions_per_s, " interactions/s").c_str(),
                si(r.gflops * 1e9, "FLOP/s").c_str());
    help_marker(
        "Interactions per step from the solver (all-pairs: N^2 per force pass), 20 flops "
        "each (NVIDIA nbody's convention), over solver time.");
  }
  ImGui::Text("path: %s, %s", r.render_path.c_str(), r.draw_method.c_str());
  help_marker((r.path_note.empty() ? std::string() : r.path_note + "\n\n")
                  .append("cuda-splat: CUDA kernels splat the sprites from the mapped buffers and "
                          "tone-map them; gl-sprites: OpenGL point sprites. D switches.")
                  .c_str());
  ImGui::TextWrapped("GPU: %s", r.gpu_name.c_str());
  if (!r.gpu_memory.empty()) {
    ImGui::Text("GPU memory: %s", r.gpu_memory.c_str());
    help_marker(
        "Device memory in use by every process (cudaMemGetInfo), refreshed every second. "
        "N is refused before allocating when the solver's need exceeds what is free.");
  }
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

void step_readout(const StepReadout& r) {
  ImGui::Text("step now %.4g", r.dt);
  if (r.floor_hits > 0) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.3f, 1.0f), "floor reached %lld times", r.floor_hits);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "The criterion asked for less than a millionth of the largest step: the floor held, "
          "so those steps do not follow the dynamics. A larger softening or eta avoids it.");
  }
  if (r.history.size() < 2) return;
  const auto [lo, hi] = std::minmax_element(r.history.begin(), r.history.end());
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "log10 step: %.2f to %.2f", *lo, *hi);
  ImGui::PlotLines("##dt", r.history.data(), static_cast<int>(r.history.size()), 0, overlay,
                   *lo - 0.1f, *hi + 0.1f, ImVec2(k_content_w, 50.0f));
}

void diagnostics_section(Settings& s, const Readouts& r) {
  ImGui::Checkbox("measure", &s.diagnostics);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120.0f);
  ImGui::BeginDisabled(!s.diagnostics);
  ImGui::SliderInt("every K frames", &s.diag_every, 1, 300, "%d", ImGuiSliderFlags_Logarithmic);
  ImGui::EndDisabled();
  help_marker(
      "Energy (softened with the run's eps), momentum, angular momentum, centre of mass and the "
      "virial ratio, summed in double (GPU solvers: reductions on the device). Drifts are "
      "relative to the first reading after a reset or an integrator change.");
  const DiagnosticsReadout& d = r.diagnostics;
  if (!d.available) {
    ImGui::TextDisabled(s.diagnostics ? "no reading yet (the first comes with the next steps)"
                                      : "off");
    return;
  }
  if (d.time_text.empty())
    ImGui::Text("t %.4g, step %lld", d.time, d.step);
  else
    ImGui::Text("t %.4g (%s), step %lld", d.time, d.time_text.c_str(), d.step);
  if (d.cost_ms >= 0.0)
    ImGui::Text("cost %.3f ms a reading (%s)", d.cost_ms,
                d.cost_from_events ? "CUDA events" : "CPU clock");
  ImGui::Text("E %.6g  (K %.4g, W %.4g)", d.total, d.kinetic, d.potential);
  ImGui::Text("2K/|W| %.4f", d.virial);
  ImGui::Text("P (%.3g, %.3g, %.3g)", d.momentum[0], d.momentum[1], d.momentum[2]);
  ImGui::Text("L (%.3g, %.3g, %.3g)", d.angular_momentum[0], d.angular_momentum[1],
              d.angular_momentum[2]);
  ImGui::Text("centre of mass (%.3g, %.3g, %.3g)%s%s", d.centre_of_mass[0], d.centre_of_mass[1],
              d.centre_of_mass[2], d.length_unit.empty() ? "" : " ", d.length_unit.c_str());
  drift_plot("##dE", "(E-E0)/|E0|", d.energy, d.energy_drift);
  drift_plot("##dP", "|P-P0|/scale", d.momentum_history, d.momentum_drift);
  drift_plot("##dL", "|L-L0|/|L0|", d.angular, d.angular_momentum_drift);
  drift_plot("##virial", "2K/|W|", d.virial_history, d.virial);
}

// A stacked bar per frame: the step's phases, then draw and UI; a legend with each one's mean.
void phases_section(const Readouts& r) {
  if (r.phases.empty()) {
    ImGui::TextDisabled("no frames timed yet");
    return;
  }
  struct Part {
    const char* name;
    float PhaseFrame::*field;
    ImU32 colour;
  };
  const Part parts[] = {
      {"force+integrate", &PhaseFrame::force_integrate, IM_COL32(90, 160, 255, 255)},
      {"force", &PhaseFrame::force, IM_COL32(60, 110, 230, 255)},
      {"tree", &PhaseFrame::tree, IM_COL32(70, 200, 220, 255)},
      {"walk", &PhaseFrame::walk, IM_COL32(40, 130, 170, 255)},
      {"integrate", &PhaseFrame::integrate, IM_COL32(120, 220, 160, 255)},
      {"collisions", &PhaseFrame::collide, IM_COL32(240, 140, 60, 255)},
      {"diagnostics", &PhaseFrame::diagnostics, IM_COL32(250, 200, 80, 255)},
      {"draw", &PhaseFrame::draw, IM_COL32(230, 110, 110, 255)},
      {"UI", &PhaseFrame::ui, IM_COL32(180, 140, 230, 255)},
  };
  std::vector<float> totals;
  constexpr int k_parts = static_cast<int>(sizeof parts / sizeof parts[0]);
  float mean[k_parts] = {};
  for (const PhaseFrame& f : r.phases) {
    float t = 0.0f;
    for (int k = 0; k < k_parts; ++k) {
      t += f.*parts[k].field;
      mean[k] += f.*parts[k].field / static_cast<float>(r.phases.size());
    }
    totals.push_back(t);
  }
  // Scale to 1.5x the median total so one slow frame does not flatten the rest.
  std::vector<float> sorted = totals;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const float top = std::max(1.5f * sorted[sorted.size() / 2], 1e-3f);
  const ImVec2 size(k_content_w, 90.0f);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(30, 30, 38, 255));
  const float w = size.x / static_cast<float>(std::max<std::size_t>(r.phases.size(), 60));
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    float y = p0.y + size.y;
    const float x0 = p0.x + static_cast<float>(i) * w, x1 = x0 + std::max(w - 1.0f, 1.0f);
    for (const Part& part : parts) {
      const float h = std::min(r.phases[i].*part.field / top * size.y, y - p0.y);
      if (h <= 0.0f) continue;
      dl->AddRectFilled(ImVec2(x0, y - h), ImVec2(x1, y), part.colour);
      y -= h;
    }
  }
  char scale[48];
  std::snprintf(scale, sizeof scale, "%.3g ms", top);
  dl->AddText(ImVec2(p0.x + 4.0f, p0.y + 2.0f), IM_COL32(220, 220, 220, 255), scale);
  ImGui::Dummy(size);
  for (int k = 0; k < k_parts; ++k) {
    ImGui::ColorButton(parts[k].name, ImGui::ColorConvertU32ToFloat4(parts[k].colour),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(10.0f, 10.0f));
    ImGui::SameLine();
    ImGui::Text("%-15s %8.3f ms", parts[k].name, mean[k]);
  }
  help_marker(
      r.phases_from_events
          ? "Per frame. Step phases (tree: a tree code's bounds, sort, build and moments; "
            "collisions: the grid, the contact search and their resolution): CUDA events from a "
            "pool; draw: GL timer queries (and CUDA "
            "events for the splat); UI: CPU time building this panel."
          : "Per frame. Step phases: CPU clock; draw: GL timer queries; UI: CPU time building "
            "this panel.");
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

}  // namespace orrery::ui
