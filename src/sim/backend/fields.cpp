// Per-body quantities on the host: names, the density grid, percentile ranges and one body's
// direct-sum acceleration.
#include "orrery/fields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "orrery/input.h"
#include "orrery/registry.h"

namespace orrery {

const std::vector<QuantityInfo>& quantity_table() {
  using S = ValueSource;
  static const std::vector<QuantityInfo> rows = {
      {Quantity::speed, "speed", "speed |v|", "length/time", S::velocity, false, true, false,
       "classic", false},
      {Quantity::acceleration, "acceleration", "acceleration |a|", "length/time^2", S::stored,
       false, true, true, "viridis", true},
      {Quantity::density, "density", "density (27-cell count)", "bodies/length^3", S::stored, false,
       true, false, "magma", true},
      {Quantity::mass, "mass", "mass m", "mass", S::position_w, false, false, false, "viridis",
       true},
      {Quantity::potential, "potential", "potential depth -phi", "length^2/time^2", S::stored,
       false, true, true, "viridis", false},
      {Quantity::origin, "origin", "origin (part of the preset)", "", S::stored, true, false, false,
       "viridis", false},
  };
  return rows;
}

const QuantityInfo& quantity_info(Quantity q) {
  return row_by_id(quantity_table(), q, "quantity_info");
}

const std::vector<std::string>& quantity_names() {
  static const std::vector<std::string> names = row_names(quantity_table());
  return names;
}

Quantity parse_quantity(const std::string& name) {
  if (const QuantityInfo* q = row_named(quantity_table(), name)) return q->id;
  throw InputError("unknown colour quantity '" + name + "' (choose " + either(quantity_names()) +
                   ")");
}

const char* to_string(Quantity q) { return quantity_info(q).name; }

DensityGrid density_grid(const double sum[3], const double sum_sq[3], int n) {
  double mean[3], sigma[3];
  for (int k = 0; k < 3; ++k) {
    mean[k] = sum[k] / std::max(n, 1);
    sigma[k] = std::sqrt(std::max(sum_sq[k] / std::max(n, 1) - mean[k] * mean[k], 0.0));
  }
  double s[3], largest = 0;
  for (int k = 0; k < 3; ++k) largest = std::max(largest, std::isfinite(sigma[k]) ? sigma[k] : 0);
  if (!(largest > 0)) largest = 1;
  double volume = 1;
  for (int k = 0; k < 3; ++k) {
    s[k] = std::max(std::isfinite(sigma[k]) ? sigma[k] : 0, 1e-3 * largest);
    volume *= 4 * s[k];
  }
  const double cell = std::cbrt(8.0 * volume / std::max(n, 1));
  DensityGrid g;
  for (int k = 0; k < 3; ++k) g.origin[k] = static_cast<float>(mean[k]);
  g.inv_cell = static_cast<float>(1.0 / cell);
  g.per_volume = static_cast<float>(1.0 / (27.0 * cell * cell * cell));
  unsigned size = 1024;
  while (size < 4u * static_cast<unsigned>(std::max(n, 1)) && size < (1u << 30)) size *= 2;
  g.mask = size - 1;
  return g;
}

void host_speeds(const Vec4* vel, int n, float* out) {
  for (int i = 0; i < n; ++i)
    out[i] = std::sqrt(vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);
}

void host_masses(const Vec4* pos, int n, float* out) {
  for (int i = 0; i < n; ++i) out[i] = pos[i].w;
}

void host_magnitudes(const Vec4* acc, int n, float* out) { host_speeds(acc, n, out); }

void host_depths(const Vec4* pot, int n, float* out) {
  for (int i = 0; i < n; ++i) out[i] = -pot[i].w;
}

void host_density(const Vec4* pos, int n, float* out) {
  double sum[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    const double p[3] = {pos[i].x, pos[i].y, pos[i].z};
    for (int k = 0; k < 3; ++k) sum[k] += p[k], sq[k] += p[k] * p[k];
  }
  const DensityGrid g = density_grid(sum, sq, n);
  std::vector<unsigned> table(static_cast<std::size_t>(g.mask) + 1, 0u);
  const auto cell = [&](const Vec4& p, int& cx, int& cy, int& cz) {
    cx = density_cell(p.x, g.origin[0], g.inv_cell);
    cy = density_cell(p.y, g.origin[1], g.inv_cell);
    cz = density_cell(p.z, g.origin[2], g.inv_cell);
  };
  for (int i = 0; i < n; ++i) {
    int cx, cy, cz;
    cell(pos[i], cx, cy, cz);
    ++table[density_slot(cx, cy, cz, g.mask)];
  }
  for (int i = 0; i < n; ++i) {
    int cx, cy, cz;
    cell(pos[i], cx, cy, cz);
    out[i] = static_cast<float>(density_count(table.data(), cx, cy, cz, g.mask)) * g.per_volume;
  }
}

Vec3 host_body_acceleration(const Vec4* pos, int n, int i, float softening) {
  const double eps2 = static_cast<double>(softening) * softening;
  double a[3] = {0, 0, 0};
  for (int j = 0; j < n; ++j) {
    const double r[3] = {static_cast<double>(pos[j].x) - pos[i].x,
                         static_cast<double>(pos[j].y) - pos[i].y,
                         static_cast<double>(pos[j].z) - pos[i].z};
    const double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2;
    const double s = pos[j].w / (d2 * std::sqrt(d2));
    for (int k = 0; k < 3; ++k) a[k] += r[k] * s;
  }
  return {static_cast<float>(a[0]), static_cast<float>(a[1]), static_cast<float>(a[2])};
}

}  // namespace orrery
