// The ImGui control panel and the small overlay shown when the panel is hidden.
#pragma once

#include <vector>

#include "settings.h"

namespace orrery::ui {

// Builds the panel for this frame. Continuous values (time step, softening, damping, steps per
// frame, view) are edited in `s` directly; switches that rebuild something are appended to
// `actions` for the app to apply and announce.
// Returns the panel's right edge in pixels (0 when it is collapsed), so the scene can be centred
// in the space beside it.
float draw_panel(Settings& s, const Readouts& r, const Catalog& c, std::vector<Action>& actions);

// FPS, solver and block size in a corner.
void draw_overlay(const Settings& s, const Readouts& r, const Catalog& c);

// "cuda-static block 128", "cuda-fast block auto" or "cpu-omp".
// "cuda-fast block auto", with " on 2 GPUs" where it runs on several.
std::string solver_label(const Catalog& c, int solver, int block, int gpus = 1);
// The GPUs solver `solver` runs on: the asked count for one that spreads (0: all), else 1.
int gpus_in_use(const Catalog& c, int solver, int asked);

}  // namespace orrery::ui
