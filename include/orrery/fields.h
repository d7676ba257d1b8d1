// Per-body quantities to colour by (speed, acceleration, local density, mass, potential depth,
// origin), the grid that counts neighbours for the density, percentile ranges, and one body's
// direct-sum acceleration: host and device versions of the same maths.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

// A colour quantity's number: its row in quantity_table(). Nothing outside the table, the passes
// that compute a quantity (Simulation::quantity) and the tests names one by number.
enum class Quantity { speed, acceleration, density, mass, potential, origin };

// Where the sprite reads a quantity's value: its velocity's length, its position's w (the mass),
// or a value stored per body (computed by a pass, or kept as a label). The shaders get these
// numbers from this enum (gfx's renderer defines them), never a quantity's.
enum class ValueSource { velocity, position_w, stored };

struct QuantityInfo {
  Quantity id;
  const char* name;         // --color, the C key's cycle, the panel, Python
  const char* description;  // with its symbol, for the legend: "speed |v|"
  const char* unit;         // in code units (G = 1): "length/time"; "" for a label
  ValueSource source;
  bool label;   // a category (origin): its own colours, no range, no palette
  bool glow;    // heavy bodies glow warm whatever their value (off where colour is the point)
  bool forces;  // its pass evaluates the forces (acceleration, potential)
  const char* palette;  // the palette it starts with (gfx::k_palette_names)
  bool log_scale;       // and its scale
};

const std::vector<QuantityInfo>& quantity_table();
const QuantityInfo& quantity_info(Quantity q);
const std::vector<std::string>& quantity_names();
// Throws InputError naming the valid quantities.
Quantity parse_quantity(const std::string& name);
const char* to_string(Quantity q);
// A quantity with its symbol: "speed |v|", "potential depth -phi", ...
inline const char* quantity_description(Quantity q) { return quantity_info(q).description; }
// The unit in code units (G = 1): "length/time", ...; "" for origin (a label, not a number).
inline const char* quantity_unit(Quantity q) { return quantity_info(q).unit; }
// Whether the values are stored per body (computed from the state) rather than read by the
// sprite from the position (mass) or velocity (speed).
inline bool quantity_stored(Quantity q) { return quantity_info(q).source == ValueSource::stored; }

// The density grid: cubic cells of side `cell` from `origin`, hashed into a table of `mask + 1`
// counters (a power of two at least four times the bodies). A body's density is the bodies counted
// in its cell and the 26 around it, divided by their volume (27 cell^3): bodies per unit volume.
struct DensityGrid {
  float origin[3] = {0, 0, 0};
  float inv_cell = 1.0f;
  float per_volume = 1.0f;  // 1 / (27 cell^3)
  unsigned mask = 0;
};
// The grid for n bodies whose positions sum to `sum` and their squares to `sum_sq` per axis: a
// cell holds 8 bodies where they are spread evenly over the box of +-2 standard deviations about
// the mean (a few far bodies do not stretch it as they would a bounding box).
DensityGrid density_grid(const double sum[3], const double sum_sq[3], int n);

ORRERY_HD int density_cell(float x, float origin, float inv_cell) {
  return static_cast<int>(floorf((x - origin) * inv_cell));
}
ORRERY_HD unsigned density_slot(int cx, int cy, int cz, unsigned mask) {
  // The cell's coordinates mixed, then the avalanche of MurmurHash3's finaliser: neighbouring cells
  // land far apart in the table.
  unsigned h = static_cast<unsigned>(cx) * 0x8da6b343u + static_cast<unsigned>(cy) * 0xd8163841u +
               static_cast<unsigned>(cz) * 0xcb1ab31fu;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h & mask;
}

// The bodies counted in cell (cx, cy, cz) and the 26 around it.
ORRERY_HD unsigned density_count(const unsigned* table, int cx, int cy, int cz, unsigned mask) {
  unsigned count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        count += table[density_slot(cx + dx, cy + dy, cz + dz, mask)];
  return count;
}

// out[i] = the quantity of body i (speed, mass and density from the state alone; the others are
// the Simulation's: Simulation::quantity()), on host arrays (the device's are private to sim/).
void host_speeds(const Vec4* vel, int n, float* out);
void host_masses(const Vec4* pos, int n, float* out);
void host_density(const Vec4* pos, int n, float* out);
// |acc.xyz| and -pot.w.
void host_magnitudes(const Vec4* acc, int n, float* out);
void host_depths(const Vec4* pot, int n, float* out);

// The acceleration of body i from every body, summed directly in double (softening eps), from
// host arrays.
Vec3 host_body_acceleration(const Vec4* pos, int n, int i, float softening);

}  // namespace orrery
