// The collision stage's names, options and checks (the colliders are in collide_host.cpp and
// collide_device.cu).
#include "orrery/collisions.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "orrery/input.h"

namespace orrery {

const std::vector<std::string>& collision_mode_names() {
  static const std::vector<std::string> names = {"off", "bounce", "merge"};
  return names;
}

CollisionMode parse_collision_mode(std::string_view name) {
  const auto& n = collision_mode_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<CollisionMode>(i);
  throw InputError("unknown collision mode '" + std::string(name) +
                   "' (choose off, bounce or merge)");
}

const char* to_string(CollisionMode m) {
  return collision_mode_names()[static_cast<std::size_t>(m)].c_str();
}

void validate(const CollisionParams& c) {
  auto fail = [](const char* what, float v, const char* rule) {
    std::ostringstream s;
    s << "invalid " << what << " " << v << ": " << rule;
    throw InputError(s.str());
  };
  if (!std::isfinite(c.restitution) || c.restitution < 0.0f || c.restitution > 1.0f)
    fail("restitution", c.restitution, "must be in [0, 1]");
  if (!std::isfinite(c.box) || c.box < 0.0f)
    fail("box side", c.box, "must be a finite number > 0 (or 0: no walls)");
}

CollisionMode parse_collisions_option(std::string_view text) {
  try {
    return parse_collision_mode(text);
  } catch (const InputError& e) {
    throw InputError(std::string("--collisions: ") + e.what());
  }
}

float parse_restitution_option(std::string_view text) {
  return parse_float_in(text, "--restitution", 0.0f, 1.0f);
}

float parse_box_option(std::string_view text) {
  const float v = parse_float(text, "--box");
  if (!(v > 0.0f)) throw InputError("--box '" + std::string(text) + "': the side must be > 0");
  return v;
}

float parse_radius_option(std::string_view text) {
  const float v = parse_float(text, "--radius");
  if (v < 0.0f) throw InputError("--radius '" + std::string(text) + "': must be >= 0");
  return v;
}

bool parse_gravity_option(std::string_view text) {
  if (text == "on") return true;
  if (text == "off") return false;
  throw InputError("--gravity '" + std::string(text) + "': choose on or off");
}

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
