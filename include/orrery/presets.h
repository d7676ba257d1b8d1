// Initial conditions: deterministic presets for a given seed, each with zero total momentum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

enum class Preset { random, shell, expand, disk, collision, plummer };

struct BodyState {
  std::vector<Vec4> pos;  // w = mass
  std::vector<Vec4> vel;  // w unused (0)
  int size() const { return static_cast<int>(pos.size()); }
};

const std::vector<std::string>& preset_names();
// Throws std::invalid_argument naming the valid presets.
Preset parse_preset(const std::string& name);
const char* to_string(Preset p);

// Builds n >= 1 bodies. Throws std::invalid_argument for n < 1.
BodyState make_preset(Preset p, int n, std::uint64_t seed);

// The analytic two-body test: two bodies of mass 1/2 (G M = 1) on a relative orbit of semi-major
// axis 1 and eccentricity e in [0, 1), at true anomaly f, centre of mass at rest at the origin;
// the period is 2 pi.
BodyState kepler_pair(double e, double f);

}  // namespace orrery
