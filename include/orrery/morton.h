// 63-bit Morton keys' bit spreading, shared by the tree codes and the density maps (host and
// device).
#pragma once

#include <cstdint>

#include "orrery/physics.h"

namespace orrery {

// Spreads the low 21 bits of v to every third bit: one coordinate's share of a 63-bit Morton key.
ORRERY_HD std::uint64_t morton_spread21(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// A coordinate's cell in [0, 2^21) of a cube from `lo`, `scale` cells a unit, on the host (a
// non-finite or lower one: cell 0; the state is lost anyway and the finite checks report it, but
// the key must stay defined).
inline std::uint64_t morton_cell21(double x, double lo, double scale) {
  const double t = (x - lo) * scale;
  if (!(t >= 0.0)) return 0;
  return static_cast<std::uint64_t>(t < 2097151.0 ? t : 2097151.0);
}

// The 63-bit key of a point in that cube: x's bit highest of each three.
inline std::uint64_t morton_key63(double x, double y, double z, const double lo[3], double scale) {
  return morton_spread21(morton_cell21(x, lo[0], scale)) << 2 |
         morton_spread21(morton_cell21(y, lo[1], scale)) << 1 |
         morton_spread21(morton_cell21(z, lo[2], scale));
}

}  // namespace orrery
