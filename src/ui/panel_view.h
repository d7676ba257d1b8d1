// The panel's watching tools: colour by quantity with its legend, trails, the picked body and
// following; and the ring drawn around the picked body.
#pragma once

#include <vector>

#include "settings.h"

namespace orrery::ui {

void color_section(Settings& s, const Readouts& r, const Catalog& c, std::vector<Action>& actions);
void trails_section(Settings& s, const Readouts& r, std::vector<Action>& actions);
void picked_section(Settings& s, const Readouts& r, std::vector<Action>& actions);
// A ring around the picked body where it is drawn (behind every window), and its index.
void draw_pick_marker(const Readouts& r);
// The colour bar in a small window at the bottom right of the screen.
void draw_legend_window(const Readouts& r);
// The minimal HUD: the time label at the top left, the scale bar at the bottom left and the
// colour bar.
void draw_minimal_hud(const Readouts& r);
// The colour bar alone (the overlay shows it when the panel is hidden).
void legend_bar(const LegendReadout& l, float width);

}  // namespace orrery::ui
