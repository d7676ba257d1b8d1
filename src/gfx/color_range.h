// The colour bar's range from the data: percentiles of a quantity's values.
#pragma once

#include <vector>

namespace orrery::gfx {

// The [lo_pct, hi_pct] percentiles (0..100) of the finite values (log: of those > 0 only).
// Returns false, leaving lo and hi, when none qualify. hi > lo on success (a constant quantity
// gets a range around its value).
bool percentile_range(std::vector<float> values, float lo_pct, float hi_pct, bool log, float& lo,
                      float& hi);

}  // namespace orrery::gfx
