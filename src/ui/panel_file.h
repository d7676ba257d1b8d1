// The panel's section for a loaded simulation file: what it is, its units, time, redshift and
// box, and which particle types to read from it.
#pragma once

#include <vector>

#include "settings.h"

namespace orrery::ui {

void file_section(Settings& s, const Readouts& r, std::vector<Action>& actions);

}  // namespace orrery::ui
