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

}  // namespace orrery
