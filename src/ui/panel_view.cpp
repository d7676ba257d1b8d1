// Panel sections for watching: the colour quantity, palette, scale and range with a colour bar;
// trails; the picked body with follow buttons; the pick marker.
#include "panel_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace orrery::ui {
namespace {

// A combo over `names`; returns the index chosen this frame, or -1.
int choose(const char* label, const std::vector<std::string>& names, int current) {
  int chosen = -1;
  const bool valid = current >= 0 && current < static_cast<int>(names.size());
  if (ImGui::BeginCombo(label, valid ? names[static_cast<std::size_t>(current)].c_str() : "-")) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[static_cast<std::size_t>(i)].c_str(), i == current)) chosen = i;
    ImGui::EndCombo();
  }
  return chosen;
}

ImU32 rgb(const float* c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], 1.0f)); }

// The value at fraction f of the bar.
float bar_value(const LegendReadout& l, float f) {
  if (l.log_scale && l.lo > 0.0f && l.hi > 0.0f) return l.lo * std::pow(l.hi / l.lo, f);
  return l.lo + (l.hi - l.lo) * f;
}

}  // namespace

void legend_bar(const LegendReadout& l, float width) {
  ImGui::Text("%s%s%s%s", l.label.c_str(), l.unit.empty() ? "" : " [", l.unit.c_str(),
              l.unit.empty() ? "" : "]");
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (l.categorical) {
    for (std::size_t k = 0; k < l.categories.size() && 3 * k + 2 < l.colors.size(); ++k) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetTextLineHeight();
      draw->AddRectFilled(p, ImVec2(p.x + h, p.y + h), rgb(&l.colors[3 * k]));
      ImGui::Dummy(ImVec2(h, h));
      ImGui::SameLine();
      ImGui::TextUnformatted(l.categories[k].c_str());
    }
    if (!l.note.empty()) ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.4f, 1.0f), "%s", l.note.c_str());
    return;
  }
  const int entries = static_cast<int>(l.colors.size() / 3);
  if (entries < 2) return;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = 14.0f, seg = width / static_cast<float>(entries - 1);
  for (int k = 0; k + 1 < entries; ++k) {
    const ImU32 a = rgb(&l.colors[3 * k]), b = rgb(&l.colors[3 * (k + 1)]);
    draw->AddRectFilledMultiColor(ImVec2(p.x + seg * k, p.y), ImVec2(p.x + seg * (k + 1), p.y + h),
                                  a, b, b, a);
  }
  ImGui::Dummy(ImVec2(width, h));
  char lo[32], mid[32], hi[32];
  std::snprintf(lo, sizeof lo, "%.3g", static_cast<double>(l.lo));
  std::snprintf(mid, sizeof mid, "%.3g", static_cast<double>(bar_value(l, 0.5f)));
  std::snprintf(hi, sizeof hi, "%.3g", static_cast<double>(l.hi));
  const float x0 = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(lo);
  ImGui::SameLine(x0 + 0.5f * (width - ImGui::CalcTextSize(mid).x));
  ImGui::TextUnformatted(mid);
  ImGui::SameLine(x0 + width - ImGui::CalcTextSize(hi).x);
  ImGui::TextUnformatted(hi);
  ImGui::TextDisabled("%s scale", l.log_scale ? "log" : "linear");
}

void draw_legend_window(const Readouts& r) {
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(screen.x - 10.0f, screen.y - 10.0f), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.45f);
  if (ImGui::Begin("legend", nullptr, flags)) legend_bar(r.legend, 220.0f);
  ImGui::End();
}

void draw_minimal_hud(const Readouts& r) {
  draw_legend_window(r);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  const ImU32 white = IM_COL32(235, 235, 235, 255), shade = IM_COL32(0, 0, 0, 150);
  const auto text = [&](ImVec2 at, const std::string& t) {
    const ImVec2 size = ImGui::CalcTextSize(t.c_str());
    draw->AddRectFilled(ImVec2(at.x - 4, at.y - 2), ImVec2(at.x + size.x + 4, at.y + size.y + 2),
                        shade, 3.0f);
    draw->AddText(at, white, t.c_str());
  };
  if (!r.hud_time.empty()) text(ImVec2(12.0f, 12.0f), r.hud_time);
  if (r.hud_bar_px > 0.0f) {
    const float x0 = 16.0f, y = screen.y - 18.0f, x1 = x0 + r.hud_bar_px;
    const float label_h = ImGui::GetTextLineHeight();
    draw->AddRectFilled(
        ImVec2(x0 - 6, y - label_h - 10),
        ImVec2(std::max(x1, x0 + ImGui::CalcTextSize(r.hud_bar_label.c_str()).x) + 6, y + 8), shade,
        3.0f);
    draw->AddLine(ImVec2(x0, y), ImVec2(x1, y), white, 2.0f);
    draw->AddLine(ImVec2(x0, y - 5), ImVec2(x0, y + 5), white, 2.0f);
    draw->AddLine(ImVec2(x1, y - 5), ImVec2(x1, y + 5), white, 2.0f);
    draw->AddText(ImVec2(x0, y - label_h - 6), white, r.hud_bar_label.c_str());
  }
}

void color_section(Settings& s, const Readouts& r, const Catalog& c, std::vector<Action>& actions) {
  const int q = choose("colour by (C)", c.quantities, static_cast<int>(s.color_quantity));
  if (q >= 0 && q != static_cast<int>(s.color_quantity))
    actions.push_back({ActionKind::set_color, q});
  ImGui::BeginDisabled(r.legend.categorical);  // origin: labels' own colours, no range
  const int palette = choose("palette", c.palettes, s.palette);
  if (palette >= 0) s.palette = palette;
  const bool log_possible = s.color_auto || s.color_lo > 0.0f;
  ImGui::BeginDisabled(!log_possible);
  if (ImGui::Checkbox("log scale", &s.color_log) && s.color_auto)
    actions.push_back({ActionKind::fit_color});
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Checkbox("auto range", &s.color_auto);
  if (s.color_auto) {
    ImGui::DragFloatRange2("percentiles", &s.color_lo_pct, &s.color_hi_pct, 0.2f, 0.0f, 100.0f,
                           "%.1f", "%.1f", ImGuiSliderFlags_AlwaysClamp);
    if (s.color_hi_pct <= s.color_lo_pct) s.color_hi_pct = s.color_lo_pct + 0.1f;
  } else {
    float range[2] = {s.color_lo, s.color_hi};
    if (ImGui::InputFloat2("range", range, "%.4g") && range[1] > range[0] &&
        (!s.color_log || range[0] > 0.0f)) {
      s.color_lo = range[0];
      s.color_hi = range[1];
    }
  }
  if (ImGui::Button("Fit range")) actions.push_back({ActionKind::fit_color});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The range from the percentiles of the state now (also on every new state "
        "while auto range is on).");
  ImGui::EndDisabled();
  legend_bar(r.legend, 300.0f);
}

void trails_section(Settings& s, const Readouts& r, std::vector<Action>& actions) {
  bool on = s.trail_length > 0;
  if (ImGui::Checkbox("trails (L)", &on)) actions.push_back({ActionKind::toggle_trails});
  ImGui::SliderInt("length", &s.trail_length_on, 2, k_max_trail_length);
  ImGui::InputInt("bodies (0: all)", &s.trail_bodies, 1024, 65536);
  if (s.trail_bodies < 0) s.trail_bodies = 0;
  if (s.trail_bodies > k_max_trail_bodies) s.trail_bodies = k_max_trail_bodies;
  if (ImGui::Button("Apply##trails")) {
    s.trail_length = s.trail_length_on;
    actions.push_back({ActionKind::apply_trails});
  }
  ImGui::SliderFloat("trail brightness", &s.trail_brightness, 0.05f, 10.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::TextDisabled("%s", r.trails.empty() ? "off" : r.trails.c_str());
}

void picked_section(Settings& s, const Readouts& r, std::vector<Action>& actions) {
  const PickReadout& p = r.pick;
  if (!p.valid) {
    ImGui::TextDisabled("click a body to pick it");
  } else {
    ImGui::Text("body %d   mass %.4g", p.index, static_cast<double>(p.mass));
    ImGui::Text("position %.4g %.4g %.4g", static_cast<double>(p.pos[0]),
                static_cast<double>(p.pos[1]), static_cast<double>(p.pos[2]));
    ImGui::Text("velocity %.4g %.4g %.4g  |v| %.4g", static_cast<double>(p.vel[0]),
                static_cast<double>(p.vel[1]), static_cast<double>(p.vel[2]),
                static_cast<double>(p.speed));
    ImGui::Text("accel.   %.4g %.4g %.4g  |a| %.4g", static_cast<double>(p.acc[0]),
                static_cast<double>(p.acc[1]), static_cast<double>(p.acc[2]),
                static_cast<double>(p.acc_mag));
    ImGui::TextDisabled("(acceleration: direct sum over every body)");
  }
  ImGui::BeginDisabled(!p.valid);
  if (ImGui::Button(s.follow == Follow::picked_body ? "Stop following (F)" : "Follow (F)"))
    actions.push_back({ActionKind::follow_picked});
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(s.follow == Follow::centre_of_mass ? "Stop (G)" : "Centre of mass (G)"))
    actions.push_back({ActionKind::follow_centre});
  ImGui::SameLine();
  if (ImGui::Button("Reset view (Home)")) actions.push_back({ActionKind::reset_camera});
}

void draw_pick_marker(const Readouts& r) {
  const PickReadout& p = r.pick;
  if (!p.valid || !p.on_screen) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 c(p.screen_x, p.screen_y);
  draw->AddCircle(c, 11.0f, IM_COL32(0, 0, 0, 200), 32, 4.0f);  // dark under light: seen on any
  draw->AddCircle(c, 11.0f, IM_COL32(255, 255, 255, 240), 32, 1.5f);
  char label[24];
  std::snprintf(label, sizeof label, "#%d", p.index);
  draw->AddText(ImVec2(c.x + 14.0f, c.y - 19.0f), IM_COL32(0, 0, 0, 220), label);
  draw->AddText(ImVec2(c.x + 13.0f, c.y - 20.0f), IM_COL32(255, 255, 255, 240), label);
}

}  // namespace orrery::ui
