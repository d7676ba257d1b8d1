// Unit systems: the named units --units reads, their descriptions and the factors between two.
#include "orrery/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "orrery/input.h"

namespace orrery {
namespace {

struct Named {
  const char* name;
  double cgs;
};
const Named k_lengths[] = {{"cm", 1.0},
                           {"m", 1e2},
                           {"km", 1e5},
                           {"au", 1.495978707e13},
                           {"ly", 9.4607304725808e17},
                           {"pc", k_kpc_cm * 1e-3},
                           {"kpc", k_kpc_cm},
                           {"Mpc", k_kpc_cm * 1e3}};
const Named k_masses[] = {
    {"g", 1.0}, {"kg", 1e3}, {"Mearth", 5.9722e27}, {"Mjup", 1.89813e30}, {"Msun", k_msun_g}};
const double k_year_s = 3.15576e7;  // a Julian year
const Named k_times[] = {{"s", 1.0},
                         {"yr", k_year_s},
                         {"kyr", k_year_s * 1e3},
                         {"Myr", k_year_s * 1e6},
                         {"Gyr", k_year_s * 1e9}};
const Named k_velocities[] = {{"cm/s", 1.0},
                              {"m/s", 1e2},
                              {"km/s", 1e5},
                              {"au/yr", 1.495978707e13 / k_year_s},
                              {"pc/Myr", k_kpc_cm * 1e-3 / (k_year_s * 1e6)}};

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

template <std::size_t N>
std::string names_of(const Named (&table)[N]) {
  std::string out;
  for (const Named& n : table) out += (out.empty() ? "" : ", ") + std::string(n.name);
  return out;
}

// "1e10 Msun" or "Msun": the number (1 where none) times the named unit's size.
template <std::size_t N>
double quantity(const std::string& part, const Named (&table)[N], const char* kind,
                const std::string& what) {
  const std::string p = trim(part);
  const std::size_t space = p.find_last_of(" \t");
  const std::string unit = space == std::string::npos ? p : trim(p.substr(space + 1));
  const std::string number = space == std::string::npos ? "" : trim(p.substr(0, space));
  for (const Named& n : table)
    if (unit == n.name) {
      double k = 1.0;
      if (!number.empty()) k = parse_number(number, what + " (the " + kind + ")");
      if (!(k > 0))
        throw InputError(what + ": the " + kind + " '" + p + "' is not a number > 0 of a unit");
      return k * n.cgs;
    }
  throw InputError(what + ": '" + p + "' is not a " + kind + " (a number and one of " +
                   names_of(table) + ")");
}

// "1e+10" -> "1e10", "3.086e+18" kept short.
std::string short_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  std::string s = b;
  const std::size_t e = s.find("e+");
  if (e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

// A size in the table's best-fitting unit: "kpc", "1e10 Msun", "3.2 pc".
template <std::size_t N>
std::string size_name(double cgs, const Named (&table)[N]) {
  for (const Named& n : table)
    if (std::fabs(cgs / n.cgs - 1.0) < 1e-6) return n.name;
  const Named* best = &table[0];  // the largest unit not above it
  for (const Named& n : table)
    if (cgs >= n.cgs * 0.999 && n.cgs >= best->cgs) best = &n;
  const double k = cgs / best->cgs;
  if (std::fabs(k - 1.0) < 1e-6) return best->name;
  return short_number(k) + " " + best->name;
}

}  // namespace

double UnitSystem::engine_scale() const { return std::sqrt(g); }

double UnitSystem::time_s() const { return physical() ? length_cm / velocity_cm_s : 0.0; }

double UnitSystem::g_cgs() const {
  return physical() ? g * length_cm * velocity_cm_s * velocity_cm_s / mass_g : 0.0;
}

bool UnitSystem::operator==(const UnitSystem& o) const {
  const Cosmology &a = cosmology, &b = o.cosmology;
  return length_cm == o.length_cm && mass_g == o.mass_g && velocity_cm_s == o.velocity_cm_s &&
         g == o.g && a.cosmological == b.cosmological && a.comoving == b.comoving &&
         a.hubble == b.hubble && a.omega0 == b.omega0 && a.omega_lambda == b.omega_lambda &&
         a.scale_factor == b.scale_factor;
}

UnitSystem nbody_units() { return UnitSystem{}; }

UnitSystem gadget_units(const Cosmology& c) {
  const double h = c.cosmological && c.hubble > 0 ? c.hubble : 1.0;
  UnitSystem u;
  u.length_cm = k_kpc_cm / h, u.mass_g = 1e10 * k_msun_g / h, u.velocity_cm_s = 1e5;
  u.g = k_gadget_g;
  u.cosmology = c;
  return u;
}

UnitSystem units_from_cgs(double length_cm, double mass_g, double velocity_cm_s,
                          const std::string& what, double g_cgs) {
  for (const auto& [v, name] : {std::pair{length_cm, "length"}, std::pair{mass_g, "mass"},
                                std::pair{velocity_cm_s, "velocity"}})
    if (!(v > 0) || !std::isfinite(v))
      throw InputError(what + ": the " + name + " unit is not a finite number > 0");
  UnitSystem u;
  u.length_cm = length_cm, u.mass_g = mass_g, u.velocity_cm_s = velocity_cm_s;
  u.g = g_cgs * mass_g / (length_cm * velocity_cm_s * velocity_cm_s);
  if (!(u.g > 0) || !std::isfinite(u.g))
    throw InputError(what + ": G in these units is not a finite number > 0");
  return u;
}

UnitsChoice parse_units(const std::string& text, const std::string& what) {
  const std::string t = trim(text);
  UnitsChoice c;
  if (t == "nbody") return c;
  if (t == "henon") {
    c.henon = true;
    return c;
  }
  if (t == "gadget") {
    c.units = gadget_units();
    return c;
  }
  if (t.empty())
    throw InputError(what + ": empty (nbody, henon, gadget, or 'LENGTH, MASS[, VELOCITY]')");
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t k = 0; k <= t.size(); ++k)
    if (k == t.size() || t[k] == ',') parts.push_back(t.substr(from, k - from)), from = k + 1;
  if (parts.size() < 2 || parts.size() > 3)
    throw InputError(what + " '" + t +
                     "': nbody, henon, gadget, or 'LENGTH, MASS[, VELOCITY]' such as '1 pc, 1 "
                     "Msun' or '1 kpc, 1e10 Msun, 1 km/s'");
  const double l = quantity(parts[0], k_lengths, "length", what);
  const double m = quantity(parts[1], k_masses, "mass", what);
  // With no velocity, the one that makes G = 1: sqrt(G M / L).
  const double v = parts.size() == 3 ? quantity(parts[2], k_velocities, "velocity", what)
                                     : std::sqrt(k_g_cgs * m / l);
  c.units = units_from_cgs(l, m, v, what);
  if (parts.size() == 2) c.units.g = 1.0;  // exactly, not to rounding
  return c;
}

std::string length_name(const UnitSystem& u) {
  return u.physical() ? size_name(u.length_cm, k_lengths) : "";
}
std::string mass_name(const UnitSystem& u) {
  return u.physical() ? size_name(u.mass_g, k_masses) : "";
}
std::string velocity_name(const UnitSystem& u) {
  return u.physical() ? size_name(u.velocity_cm_s, k_velocities) : "";
}
std::string time_name(const UnitSystem& u) {
  return u.physical() ? size_name(u.time_s(), k_times) : "";
}

std::string time_text(const UnitSystem& u, double engine_time) {
  if (!u.physical()) return "";
  const double seconds = engine_time / u.engine_scale() * u.time_s();
  const Named* best = &k_times[0];
  for (const Named& n : k_times)
    if (std::fabs(seconds) >= n.cgs) best = &n;
  return short_number(seconds / best->cgs) + " " + best->name;
}

std::string length_text(const UnitSystem& u, double length) {
  if (!u.physical()) return "";
  const double cm = length * u.length_cm;
  const Named* best = &k_lengths[0];
  for (const Named& n : k_lengths)  // the largest of the astronomer's units not above it
    if (std::fabs(cm) >= n.cgs && n.cgs >= best->cgs && std::string(n.name) != "ly") best = &n;
  return short_number(cm / best->cgs) + " " + best->name;
}

double unit_size(const std::string& text, const std::string& kind, const std::string& what) {
  if (kind == "length") return quantity(text, k_lengths, "length", what);
  if (kind == "mass") return quantity(text, k_masses, "mass", what);
  if (kind == "velocity") return quantity(text, k_velocities, "velocity", what);
  if (kind == "time") return quantity(text, k_times, "time", what);
  throw InputError(what + ": no unit kind '" + kind + "'");
}

std::string describe(const UnitSystem& u) {
  char g[32];
  std::snprintf(g, sizeof g, "%.6g", u.g);
  if (!u.physical())
    return u.g == 1.0 ? "N-body units (G = 1, no physical scale)"
                      : std::string("no physical scale, G = ") + g + " in the file's units";
  std::string s =
      length_name(u) + ", " + mass_name(u) + ", " + velocity_name(u) + " (G = " + g + ")";
  if (u.cosmology.cosmological && u.cosmology.hubble > 0) {
    char h[48];
    std::snprintf(h, sizeof h, ", h = %.4g applied", u.cosmology.hubble);
    s += h;
  }
  return s;
}

std::string cosmology_caveat(const UnitSystem& u) {
  const Cosmology& c = u.cosmology;
  if (!c.cosmological) return "";
  char b[320];
  std::snprintf(b, sizeof b,
                "a cosmological snapshot (h = %.4g, Omega0 = %.4g, OmegaLambda = %.4g%s): Orrery "
                "integrates Newtonian gravity in physical coordinates, without expansion or "
                "periodic boundaries",
                c.hubble, c.omega0, c.omega_lambda,
                c.comoving ? (", comoving, a = " + short_number(c.scale_factor)).c_str() : "");
  return b;
}

void to_engine_velocities(BodyState& s, const UnitSystem& u) {
  const double k = u.engine_scale();
  if (k == 1.0) return;
  if (s.vel64.empty()) {
    for (Vec4& v : s.vel) v.x = float(v.x / k), v.y = float(v.y / k), v.z = float(v.z / k);
    return;
  }
  for (Vec4d& v : s.vel64) v.x /= k, v.y /= k, v.z /= k;
  round_to_floats(s);
}

UnitFactors factors(const UnitSystem& from, const UnitSystem& to) {
  UnitFactors f;
  if (!from.physical() || !to.physical()) return f;
  f.length = from.length_cm / to.length_cm;
  f.mass = from.mass_g / to.mass_g;
  f.velocity = from.velocity_cm_s / to.velocity_cm_s;
  f.time = from.time_s() / to.time_s();
  return f;
}

UnitSystem rebased(const UnitSystem& from, const UnitSystem& to) {
  UnitSystem u = to;
  u.cosmology = from.cosmology;
  if (from.physical() && to.physical())
    u.g = from.g_cgs() * to.mass_g / (to.length_cm * to.velocity_cm_s * to.velocity_cm_s);
  else
    u.g = from.g;
  if (std::fabs(u.g / from.g - 1.0) < 1e-12) u.g = from.g;  // the same units, not G's rounding
  return u;
}

}  // namespace orrery
