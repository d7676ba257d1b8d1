// Panel sections: simulation controls, collisions, view, keys, and the panel and overlay windows
// (the readouts' sections are in panel_readouts.cpp).
#include "panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "keys.h"
#include "orrery/param_table.h"
#include "panel_file.h"
#include "panel_readouts.h"
#include "panel_view.h"

namespace orrery::ui {
namespace {

constexpr long long k_max_n = k_max_bodies;  // the viewer's --n range

std::string block_name(int block) { return block == 0 ? "auto" : std::to_string(block); }

// Whether the run as chosen reads the row: a solver's rows the tree codes only, an integrator's
// those integrators whose record takes it.
bool takes(const ParamRow& row, const Settings& s, const SolverChoice& solver) {
  if (row.owner == ParamOwner::solver) return solver.approximate;
  if (row.owner == ParamOwner::integrator)
    return integrator_info(s.integrator).takes_param(row.name);
  return true;
}

// A parameter row's slider over p (a SimParams, or the view's ViewParams): its range, scale and
// format from the row (Ctrl+click types any value, which the run then checks); greyed, with the
// row's reason, where the run does not read it.
template <class Params>
void param_slider(const ParamRow& row, const char* label, Params& p, bool used) {
  ImGui::BeginDisabled(!used);
  float v = row.get(p);
  if (ImGui::SliderFloat(label, &v, row.panel_lo, row.panel_hi, row.panel_format,
                         row.panel_log ? ImGuiSliderFlags_Logarithmic : 0))
    row.set(p, v);
  ImGui::EndDisabled();
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  if (!used && *row.unused_help) {
    ImGui::SetTooltip("%s", row.unused_help);
  } else {
    std::string tip = row.help;
    if (*row.unit) tip += std::string(" (") + row.unit + ")";
    if (*row.detail) tip += std::string(". ") + row.detail;
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

void simulation_section(Settings& s, const Readouts& r, const Catalog& c,
                        std::vector<Action>& actions) {
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
  if (c.gpu_count > 1) {  // only where there is a choice
    const int used = gpus_in_use(c, s.solver, s.gpus);
    ImGui::BeginDisabled(!cur.spreads);
    if (ImGui::BeginCombo("GPUs", std::to_string(used).c_str())) {
      for (int g = 1; g <= c.gpu_count; ++g)
        if (ImGui::Selectable(std::to_string(g).c_str(), g == used) && g != used)
          actions.push_back({ActionKind::set_gpus, g});
      ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip(cur.spreads ? "GPU 0 keeps the bodies and draws them; every GPU sums the "
                                      "forces on its part of them (NCCL)"
                                    : "this solver runs on one device");
  }

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
      if (ImGui::Selectable(c.presets[static_cast<std::size_t>(i)].c_str(),
                            i == static_cast<int>(s.preset)))
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
    for (const IntegratorInfo& info : integrator_table()) {
      const int i = static_cast<int>(info.id);
      if (ImGui::Selectable(info.name, i == static_cast<int>(s.integrator)) &&
          i != static_cast<int>(s.integrator))
        actions.push_back({ActionKind::set_integrator, i});
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.description);
    }
    ImGui::EndCombo();
  }
  help_marker((std::string(integrator_info(s.integrator).description) + ". I cycles.").c_str());
  bool doubles = s.params.precision == Precision::double_;
  if (ImGui::Checkbox("double precision", &doubles))
    s.params.precision = doubles ? Precision::double_ : Precision::single;
  help_marker(
      "Positions, velocities, masses and the gravity sums in double: energy holds to 1e-10 where "
      "float's rounding stops near 1e-6. cpu, cpu-omp, cuda-static, cuda-dynamic and cuda-fast "
      "have it, without collisions; the picture is the same (drawn from float positions).");
  ImGui::Checkbox("adaptive step", &s.params.adaptive);
  help_marker(
      "Each step's size from how fast the forces change: eta times the time in which a body's "
      "acceleration changes by its own size (plus the mean), at most twice the last step and at "
      "most the largest step below. Close passes get small steps, quiet stretches large ones. "
      "Not time-symmetric: time reversal needs a fixed step.");
  // The step's rows: the time step (the largest, when adaptive), and eta with the adaptive step.
  for (const ParamRow* row : param_rows(ParamForm::step)) {
    const bool is_dt = row->field(s.params).refers_to(&s.params.dt);
    if (!is_dt && !s.params.adaptive) continue;
    param_slider(*row, is_dt ? (s.params.adaptive ? "largest step" : "time step") : row->name,
                 s.params, true);
    if (!is_dt) step_readout(r.step);
  }
  for (const ParamRow* row : param_rows(ParamForm::plain))
    param_slider(*row, row->name, s.params, takes(*row, s, cur));
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
  ImGui::Checkbox("gravity", &s.params.gravity);
  help_marker("Off: no forces, bodies move in straight lines between collisions (a gas).");
  const char* modes[] = {"off", "bounce", "merge"};
  int mode = static_cast<int>(s.params.collisions.mode);
  if (ImGui::Combo("collisions", &mode, modes, 3))
    s.params.collisions.mode = static_cast<CollisionMode>(mode);
  help_marker(
      "Bodies are balls of their radius. bounce: hard-sphere impulses with restitution e, "
      "contacts resolved in parallel rounds of handshakes; merge: touching bodies become one "
      "(mass, momentum and volume kept), each at most once a step.");
  // The collider's rows: they act on bounces, off the walls too.
  for (const ParamRow* row : param_rows(ParamForm::scene))
    param_slider(*row, row->name, s.params,
                 s.params.collisions.mode == CollisionMode::bounce || s.walls);
  ImGui::Checkbox("walls", &s.walls);
  ImGui::SameLine();
  ImGui::BeginDisabled(!s.walls);
  ImGui::SliderFloat("side", &s.box, 1.0f, 200.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
  ImGui::EndDisabled();
  const CollisionReadout& c = r.collisions;
  if (s.params.collisions.mode == CollisionMode::off && !s.walls) return;
  ImGui::Text("bodies %d of %d", c.bodies, s.n);
  ImGui::Text("contacts %.1f a step", c.contacts_per_step);
  ImGui::Text("merges %lld   wall bounces %lld", c.merges, c.wall_hits);
  ImGui::Text("energy removed %.5g", c.energy_offset);
  help_marker(
      "The kinetic energy (and, for merges, the pair's potential) that collisions took out: the "
      "Diagnostics tab's E includes it, so E stays constant.");
}

// A series' playback: play, step, scrub, speed, loop, backwards, smooth or raw, and a live run
// from the output on screen.
void playback_section(Settings& s, std::vector<Action>& actions) {
  PlaybackPanel& p = s.playback;
  if (ImGui::Button(p.playing ? "Pause" : "Play")) p.playing = !p.playing;
  ImGui::SameLine();
  if (ImGui::Button("<")) actions.push_back(Action{ActionKind::play_step_back});
  ImGui::SameLine();
  if (ImGui::Button(">")) actions.push_back(Action{ActionKind::single_step});
  ImGui::SameLine();
  ImGui::Checkbox("backwards", &p.backwards);
  ImGui::SameLine();
  ImGui::Checkbox("loop", &p.loop);
  if (ImGui::SliderFloat("output", &p.position, 0.0f,
                         static_cast<float>(std::max(p.outputs - 1, 0)), "%.2f"))
    p.seek = true;
  ImGui::SliderFloat(p.speed_in_time ? "time/s" : "outputs/s", &p.speed, 0.001f, 1000.0f, "%.3g",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::Checkbox("in time", &p.speed_in_time);
  ImGui::Checkbox("smooth (Hermite between outputs, by ID)", &p.smooth);
  ImGui::Text("t = %.6g   %s%s", p.time, p.label.c_str(), p.waiting ? "   (reading)" : "");
  ImGui::Text("%d outputs, %d skipped; read ahead %.0f of %.0f MB", p.outputs, p.gaps, p.held_mb,
              p.budget_mb);
  if (ImGui::Button("Continue from here")) actions.push_back(Action{ActionKind::continue_run});
}

void view_section(Settings& s, const Readouts& r, std::vector<Action>& actions) {
  // The three ways to draw the same picture; the CUDA splat only on the zero-copy path.
  static const char* const k_draw_names[] = {"GL point sprites", "CUDA splat", "CPU splat"};
  const int current = static_cast<int>(s.draw);
  if (ImGui::BeginCombo("draw (D)", k_draw_names[current])) {
    for (int m = 0; m < 3; ++m) {
      const bool usable = m != static_cast<int>(DrawMethod::cuda_splat) || r.splat_available;
      if (ImGui::Selectable(k_draw_names[m], m == current,
                            usable ? 0 : ImGuiSelectableFlags_Disabled) &&
          m != current)
        actions.push_back({ActionKind::set_draw, m});
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The same picture three ways. GL point sprites: OpenGL rasterises them. CUDA splat: a "
        "kernel splats them from the mapped buffers, far cheaper on GPUs with little raster "
        "hardware (H100); needs the zero-copy path. CPU splat: the CPU's cores splat them, far "
        "cheaper where OpenGL itself runs on the CPU (Mesa's llvmpipe).");
  ImGui::Checkbox("glow (bloom)", &s.bloom);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "A glow around the densest parts of the picture: the light past the tone "
        "map's knee, blurred and added back.");
  ImGui::SameLine();
  bool map = s.density_map;
  if (ImGui::Checkbox("density map (M)", &map) && map != s.density_map)
    actions.push_back({ActionKind::toggle_density_map});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The bodies' smoothed surface density instead of their sprites: each body's mass spread "
        "by a kernel as wide as the distance to its 32nd nearest neighbour, in log scale.");
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
  // The camera, where the mouse leaves it (the view's rows; Ctrl+click types a value).
  for (const ParamRow& row : view_rows()) param_slider(row, row.name, s.view, true);
  if (ImGui::Button("Reset camera")) actions.push_back({ActionKind::reset_camera});
  ImGui::SameLine();
  if (ImGui::Button("Frame (K)")) actions.push_back({ActionKind::frame_bodies});
  ImGui::SameLine();
  bool keep = s.keep_frame;
  if (ImGui::Checkbox("keep framed (Shift+K)", &keep) && keep != s.keep_frame)
    actions.push_back({ActionKind::toggle_keep_frame});
  if (!r.camera_path.empty()) {
    ImGui::TextUnformatted(r.camera_path.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Again")) actions.push_back({ActionKind::restart_path});
  }
}

// Work in flight and problems to act on, at the top where they are seen (with a Reset button for
// a problem when `actions` is given).
void status_lines(const Readouts& r, std::vector<Action>* actions) {
  if (!r.activity.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", r.activity.c_str());
  if (r.loading >= 0.0f && actions) {
    ImGui::ProgressBar(r.loading, ImVec2(k_content_w - 90.0f, 0.0f));
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) actions->push_back({ActionKind::cancel_load});
  }
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

std::string solver_label(const Catalog& c, int solver, int block, int gpus) {
  const SolverChoice& sc = c.solvers[static_cast<std::size_t>(solver)];
  if (!sc.gpu) return sc.name;
  return sc.name + " block " + block_name(block) +
         (gpus > 1 ? " on " + std::to_string(gpus) + " GPUs" : std::string());
}

int gpus_in_use(const Catalog& c, int solver, int asked) {
  if (!c.solvers[static_cast<std::size_t>(solver)].spreads || c.gpu_count < 2) return 1;
  return asked > 0 ? asked : c.gpu_count;
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
  if (s.playback.active && ImGui::CollapsingHeader("Playback", ImGuiTreeNodeFlags_DefaultOpen))
    playback_section(s, actions);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen))
    simulation_section(s, r, c, actions);
  if (r.file.shown) {
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (ImGui::CollapsingHeader("File")) file_section(s, r, actions);
  }
  ImGui::SetNextItemOpen(
      s.params.collisions.mode != CollisionMode::off || s.walls || !s.params.gravity,
      ImGuiCond_Once);
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
    ImGui::TextUnformatted(
        solver_label(c, s.solver, s.block, gpus_in_use(c, s.solver, s.gpus)).c_str());
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
