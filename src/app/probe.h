// Sizing the default N to the machine: the largest power of two whose step fits a time budget.
#pragma once

#include <string>
#include <vector>

#include "orrery/params.h"
#include "orrery/presets.h"

namespace orrery {

struct SizeProbe {
  int n = 0;               // the largest N found within the budget (0: not even the first)
  double ms_per_step = 0;  // its measured step
  double seconds = 0;      // what probing took
  std::vector<std::pair<int, double>> tried;  // (N, ms per step) in order
};

// Times steps of `solver` (block 0: its default) on `preset`'s bodies at N = start, then doubles
// (up to `last`) while the measured step predicts the next fits `budget_ms` - from how the
// solver's work grows with N - or halves (down to `floor`) until one fits, stopping once
// `max_seconds` have gone by. Each measurement follows one warm-up step (cuda-fast tunes itself
// then). n = 0 when none fits. Waits for the device.
// Steps run in `precision`.
SizeProbe probe_size(const std::string& solver, int block, Preset preset, double budget_ms,
                     int start, int floor, int last, double max_seconds,
                     Precision precision = Precision::single);

}  // namespace orrery
