// Percentile ranges for the colour bar.
#include "color_range.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace orrery::gfx {

bool percentile_range(std::vector<float> values, float lo_pct, float hi_pct, bool log, float& lo,
                      float& hi) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [&](float v) { return !std::isfinite(v) || (log && !(v > 0.0f)); }),
               values.end());
  if (values.empty()) return false;
  const auto at = [&](float pct) {
    const double pos = std::clamp(pct, 0.0f, 100.0f) / 100.0 * (values.size() - 1);
    const auto k = static_cast<std::size_t>(std::llround(pos));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
  };
  float a = at(lo_pct), b = at(hi_pct);
  if (!(b > a)) {  // a constant quantity: a range around it
    const float m = std::fabs(a) > 0.0f ? std::fabs(a) : 1.0f;
    a = log ? a * 0.5f : a - 0.5f * m;
    b = log ? b * 2.0f : b + 0.5f * m;
  }
  lo = a;
  hi = b;
  return true;
}

}  // namespace orrery::gfx
