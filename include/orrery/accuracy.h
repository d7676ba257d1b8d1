// The accuracy of a solver's accelerations against an exact double-precision sum: the
// relative error |a - a_exact| / |a_exact| over every body up to a size, over a random sample of
// targets above it.
#pragma once

#include <cstdint>

#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery {

struct AccuracyStats {
  int targets = 0;  // bodies the error was measured at (those with a non-zero exact acceleration)
  double median = 0, rms = 0, p99 = 0, max = 0;
  double interactions_per_body = 0;  // what the module's pass did (body-body and body-cell)
};

// Runs one acceleration pass of `gravity` on state `s` (on its side: host or device) and compares
// it with the exact sum in double at every body when N <= all_up_to, else at `sample` bodies
// drawn with `seed`.
AccuracyStats measure_accuracy(Solver& gravity, const BodyState& s, const SimParams& p,
                               int all_up_to = 131072, int sample = 8192, std::uint64_t seed = 1);

}  // namespace orrery
