// The collision stage's totals, rows and box check (the colliders are in collide_host.cpp and
// collide_device.cu; the stage's settings and their options in core/params.cpp).
#include "orrery/collisions.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "orrery/input.h"

namespace orrery {

void CollisionTotals::add(const CollisionTotals& o) {
  energy_offset += o.energy_offset;
  wall_impulse.x += o.wall_impulse.x, wall_impulse.y += o.wall_impulse.y;
  wall_impulse.z += o.wall_impulse.z;
  contacts += o.contacts, merges += o.merges, wall_hits += o.wall_hits, truncated += o.truncated;
}

void Collider::keep_rows(const unsigned char* flags, int n, unsigned char keep) {
  if (!m_rows) return;
  std::vector<int>& rows = *m_rows;
  // Rows kept for another state (the caller replaced it without marking) are not touched.
  if (static_cast<int>(rows.size()) != n) return;
  int out = 0;
  for (int i = 0; i < n; ++i)
    if (flags[i] == keep) rows[static_cast<std::size_t>(out++)] = rows[static_cast<std::size_t>(i)];
  rows.resize(static_cast<std::size_t>(out));
}

void set_radius(std::vector<Vec4>& vel, float r) {
  for (Vec4& v : vel) v.w = r;
}

void check_box_fits(float box, const std::vector<Vec4>& vel) {
  if (!(box > 0.0f)) return;
  float largest = 0.0f;
  for (const Vec4& v : vel) largest = std::max(largest, v.w);
  if (box < 2.0f * largest) {
    const auto g = [](float v) {
      std::ostringstream s;
      s << v;  // %g: 1e-45 stays 1e-45
      return s.str();
    };
    throw InputError("--box " + g(box) + ": smaller than the bodies (the largest radius, " +
                     g(largest) + ", needs a box of at least " + g(2.0f * largest) + ")");
  }
}

}  // namespace orrery
