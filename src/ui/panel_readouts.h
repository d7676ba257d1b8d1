// The panel's readout sections (performance, diagnostics, phases, the block-size sweep) and the
// small widgets every section uses.
#pragma once

#include <string>
#include <vector>

#include "settings.h"

namespace orrery::ui {

constexpr float k_content_w = 350.0f;  // the panel's content width

// A value with an SI prefix: si(1.23e9, " interactions/s") = "1.23 G interactions/s".
std::string si(double v, const char* unit);
// A "(?)" after the last item, with `text` as its tooltip.
void help_marker(const char* text);

void performance_section(const Readouts& r);
// The adaptive step's size now, its floor's count and its history.
void step_readout(const StepReadout& r);
void diagnostics_section(Settings& s, const Readouts& r);
void phases_section(const Readouts& r);
void sweep_section(const Settings& s, const Readouts& r, const Catalog& c,
                   std::vector<Action>& actions);

}  // namespace orrery::ui
