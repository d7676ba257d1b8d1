// The parts of a spread module: even cuts, and cuts that follow the measured times.
#include <algorithm>
#include <cmath>

#include "spread_solver.h"

namespace orrery {

std::vector<double> even_cuts(int parts) {
  parts = std::max(1, parts);
  std::vector<double> cuts(static_cast<std::size_t>(parts) + 1);
  for (int k = 0; k <= parts; ++k)
    cuts[static_cast<std::size_t>(k)] = static_cast<double>(k) / parts;
  cuts.back() = 1.0;
  return cuts;
}

std::vector<double> balance_cuts(const std::vector<double>& cuts, const std::vector<double>& ms) {
  const std::size_t parts = ms.size();
  if (parts < 2 || cuts.size() != parts + 1) return cuts;
  double total = 0;
  for (double t : ms) {
    if (!(t > 0) || !std::isfinite(t)) return cuts;
    total += t;
  }
  std::vector<double> out = cuts;
  // The time spent up to x grows linearly within each part; invert it at k/parts of the total
  // for each inner cut.
  std::size_t r = 0;
  double before = 0;  // the time of the parts before r
  for (std::size_t k = 1; k < parts; ++k) {
    const double want = total * static_cast<double>(k) / static_cast<double>(parts);
    while (r + 1 < parts && before + ms[r] < want) before += ms[r++];
    const double x =
        cuts[r] + std::clamp((want - before) / ms[r], 0.0, 1.0) * (cuts[r + 1] - cuts[r]);
    // Halfway: a part's time is not spread evenly over it (a tree's dense core), so a full move
    // would overshoot and swing back and forth.
    out[k] = cuts[k] + 0.5 * (x - cuts[k]);
  }
  for (std::size_t k = 1; k < parts; ++k) out[k] = std::clamp(out[k], out[k - 1], out[parts]);
  return out;
}

}  // namespace orrery
