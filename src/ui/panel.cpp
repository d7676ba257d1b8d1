// Panel sections: simulation controls, performance readouts and plots, block-size sweep, view,
// keys.
#include "panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "keys.h"
#include "panel_view.h"

namespace orrery::ui {
namespace {

constexpr float k_content_w = 350.0f;
constexpr long long k_max_n = k_max_bodies;  // the viewer's --n range

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
  if (!n_ok) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "N must be 1 to 134217728");

  const char* preset = c.presets[static_cast<std::size_t>(s.preset)].c_str();
  if (ImGui::BeginCombo("preset", preset)) {
    for (int i = 0; i < static_cast<int>(c.presets.size()); ++i)
      if (ImGui::Selectable(c.presets[static_cast<std::size_t>(i)].c_str(), i == s.preset))
        actions.push_back({ActionKind::set_preset, i});
    ImGui::EndCombo();
  }
  if (ImGui::BeginCombo("scene", "load a scene...")) {
    for (int i = 0; i < static_cast<int>(c.scenes.size()); ++i)
      if (ImGui::Selectable(c.scenes[static_cast<std::size_t>(i)].c_str(), false))
        actions.push_back({ActionKind::load_scene, i});
    if (c.scenes.empty()) ImGui::TextDisabled("no scene files found (assets/scenes)");
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Save scene")) actions.push_back({ActionKind::save_scene});
  const char* integrator = c.integrators[static_cast<std::size_t>(s.integrator)].c_str();
  if (ImGui::BeginCombo("integrator", integrator)) {
    for (int i = 0; i < static_cast<int>(c.integrators.size()); ++i)
      if (ImGui::Selectable(c.integrators[static_cast<std::size_t>(i)].c_str(),
                            i == s.integrator) &&
          i != s.integrator)
        actions.push_back({ActionKind::set_integrator, i});
    ImGui::EndCombo();
  }
  help_marker(
      "euler: the seed's damped semi-implicit Euler, fused with the force pass (fastest, first "
      "order). leapfrog: kick-drift-kick, second order, time-reversible, one force pass a step. "
      "yoshida4: fourth order, three force passes a step. The last two take no damping. I cycles.");
  ImGui::SliderFloat("time step", &s.dt, 0.0005f, 0.05f, "%.4g", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("softening", &s.softening, 0.01f, 2.0f, "%.4g", ImGuiSliderFlags_Logarithmic);
  // Damping belongs to euler: the symplectic integrators take none.
  const bool damped = s.integrator == 0;
  ImGui::BeginDisabled(!damped);
  ImGui::SliderFloat("damping", &s.damping, 0.9f, 1.0f, "%.4f");
  ImGui::EndDisabled();
  if (!damped && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "only euler takes damping: leapfrog and yoshida4 are symplectic and "
        "time-reversible only without it");
  ImGui::BeginDisabled(!cur.approximate);
  ImGui::SliderFloat("theta", &s.theta, 0.1f, 1.5f, "%.2f");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(cur.approximate
                          ? "Opening angle of the tree: a cell is used whole when the body is "
                            "farther than l/theta + s from its centre of mass. Smaller is more "
                            "accurate and slower (0 opens every cell: Ctrl+click to type it)."
                          : "Only the tree codes (cpu-bh) have an opening angle.");
  ImGui::SliderInt("steps/frame", &s.steps_per_frame, 1, 16);

  if (ImGui::Button(s.paused ? "Resume" : "Pause")) actions.push_back({ActionKind::toggle_pause});
  ImGui::SameLine();
  if (ImGui::Button("Step")) actions.push_back({ActionKind::single_step});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) actions.push_back({ActionKind::reset});
  ImGui::SameLine();
  bool vsync = s.vsync;
  if (ImGui::Checkbox("vsync", &vsync)) actions.push_back({ActionKind::set_vsync, vsync ? 1 : 0});
  if (ImGui::Button(s.time_reversed ? "Time: backwards" : "Time: forwards"))
    actions.push_back({ActionKind::reverse_time});
  help_marker(
      "Backspace. Every step uses -dt: leapfrog and yoshida4 retrace their past to float "
      "accuracy; euler with damping below 1 is refused (not reversible).");
}

void collisions_section(Settings& s, const Readouts& r) {
  ImGui::Checkbox("gravity", &s.gravity);
  help_marker("Off: no forces, bodies move in straight lines between collisions (a gas).");
  const char* modes[] = {"off", "bounce", "merge"};
  ImGui::Combo("collisions", &s.collisions, modes, 3);
  help_marker(
      "Bodies are balls of their radius. bounce: hard-sphere impulses with restitution e, "
      "contacts resolved in parallel rounds of handshakes; merge: touching bodies become one "
      "(mass, momentum and volume kept), each at most once a step.");
  ImGui::BeginDisabled(s.collisions != 1 && !s.walls);
  ImGui::SliderFloat("restitution", &s.restitution, 0.0f, 1.0f, "%.2f");
  ImGui::EndDisabled();
  ImGui::Checkbox("walls", &s.walls);
  ImGui::SameLine();
  ImGui::BeginDisabled(!s.walls);
  ImGui::SliderFloat("side", &s.box, 1.0f, 200.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
  ImGui::EndDisabled();
  const CollisionReadout& c = r.collisions;
  if (s.collisions == 0 && !s.walls) return;
  ImGui::Text("bodies %d of %d", c.bodies, s.n);
  ImGui::Text("contacts %.1f a step", c.contacts_per_step);
  ImGui::Text("merges %lld   wall bounces %lld", c.merges, c.wall_hits);
  ImGui::Text("energy removed %.5g", c.energy_offset);
  help_marker(
      "The kinetic energy (and, for merges, the pair's potential) that collisions took out: the "
      "Diagnostics tab's E includes it, so E stays constant.");
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
  if (r.tree_code) {  // body-cell interactions cost more flops than body-body ones: no FLOP/s
    ImGui::Text("%s", si(r.interactions_per_s, " interactions/s").c_str());
    help_marker(
        "The tree walk's real interactions (body-body and body-cell) per second of solver time.");
  } else {
    ImGui::Text("%s   %s", si(r.interactions_per_s, " interactions/s").c_str(),
                si(r.gflops * 1e9, "FLOP/s").c_str());
    help_marker(
        "Interactions per step from the gravity module (all-pairs: N^2 per force pass), 20 flops "
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
  ImGui::Text("t %.4g, step %lld", d.time, d.step);
  if (d.cost_ms >= 0.0)
    ImGui::Text("cost %.3f ms a reading (%s)", d.cost_ms,
                d.cost_from_events ? "CUDA events" : "CPU clock");
  ImGui::Text("E %.6g  (K %.4g, W %.4g)", d.total, d.kinetic, d.potential);
  ImGui::Text("2K/|W| %.4f", d.virial);
  ImGui::Text("P (%.3g, %.3g, %.3g)", d.momentum[0], d.momentum[1], d.momentum[2]);
  ImGui::Text("L (%.3g, %.3g, %.3g)", d.angular_momentum[0], d.angular_momentum[1],
              d.angular_momentum[2]);
  ImGui::Text("centre of mass (%.3g, %.3g, %.3g)", d.centre_of_mass[0], d.centre_of_mass[1],
              d.centre_of_mass[2]);
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
  ImGui::BeginDisabled(!r.tree_code);
  bool tree = s.tree_overlay;
  if (ImGui::Checkbox("tree cells (T)", &tree) && tree != s.tree_overlay)
    actions.push_back({ActionKind::toggle_tree});
  ImGui::SameLine();
  ImGui::SetNextItemWidth(100.0f);
  ImGui::SliderInt("depth", &s.tree_depth, 0, 8);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(r.tree_code ? "The tree's cells down to this octree level (0: the root); "
                                    "%d drawn"
                                  : "Only the tree codes (cpu-bh, cuda-bh) have cells to draw.",
                      r.tree_boxes);
  if (ImGui::Button("Reset camera")) actions.push_back({ActionKind::reset_camera});
}

// Work in flight and problems to act on, at the top where they are seen (with a Reset button for
// a problem when `actions` is given).
void status_lines(const Readouts& r, std::vector<Action>* actions) {
  if (!r.activity.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", r.activity.c_str());
  if (!r.file_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, r.file_note_error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                                                           : ImVec4(0.6f, 0.9f, 0.6f, 1.0f));
    ImGui::TextWrapped("%s", r.file_note.c_str());
    ImGui::PopStyleColor();
  }
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
  draw_pick_marker(r);
  draw_legend_window(r);
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
  ImGui::SetNextItemOpen(s.collisions != 0 || s.walls || !s.gravity, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Collisions")) collisions_section(s, r);
  // Measurements in tabs, so the panel stays within a 720-pixel window.
  if (ImGui::CollapsingHeader("Measurements", ImGuiTreeNodeFlags_DefaultOpen) &&
      ImGui::BeginTabBar("measurements")) {
    if (ImGui::BeginTabItem("Performance")) {
      performance_section(r);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Phases")) {
      phases_section(r);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Diagnostics")) {
      diagnostics_section(s, r);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Sweep")) {
      sweep_section(s, r, c, actions);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  if (ImGui::CollapsingHeader("Colour")) color_section(s, r, c, actions);
  ImGui::SetNextItemOpen(s.trail_length > 0, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Trails")) trails_section(s, r, actions);
  if (r.pick.valid) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Picked body")) picked_section(s, r, actions);
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
  draw_pick_marker(r);
  draw_legend_window(r);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  // Fixed size: an auto-resizing window would be clipped on the frame it first appears.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_Always);
  const float lines = 4.0f + (r.activity.empty() ? 0.0f : 1.0f) + (r.alert.empty() ? 0.0f : 3.0f) +
                      (r.file_note.empty() ? 0.0f : 2.0f);
  ImGui::SetNextWindowSize(
      ImVec2(250.0f, lines * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.WindowPadding.y),
      ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.45f);
  if (ImGui::Begin("overlay", nullptr, flags)) {
    ImGui::Text("%.1f FPS  %.2f ms", r.fps, r.frame_ms);
    ImGui::TextUnformatted(solver_label(c, s.solver, s.block).c_str());
    if (r.collisions.bodies > 0 && r.collisions.bodies != s.n)
      ImGui::Text("N %d of %d%s", r.collisions.bodies, s.n, s.paused ? "  (paused)" : "");
    else
      ImGui::Text("N %d%s", s.n, s.paused ? "  (paused)" : "");
    ImGui::Text("%s, %s", r.render_path.c_str(), r.draw_method.c_str());
    ImGui::PushTextWrapPos(240.0f);
    status_lines(r, nullptr);
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace orrery::ui
