// Initial conditions. Each preset is deterministic for a seed, has total mass independent of N (so
// the motion looks the same at any N) and zero total momentum.
#include "orrery/presets.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "orrery/input.h"

namespace orrery {
namespace {

constexpr double k_pi = 3.14159265358979323846;

// A portable uniform generator: mt19937_64 is specified bit for bit; the conversion is ours.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : m_gen(seed) {}
  double uniform() { return static_cast<double>(m_gen() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  double normal() {  // Box-Muller
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * k_pi * u2);
  }
  void unit_vector(double& x, double& y, double& z) {
    do {
      x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
    } while (x * x + y * y + z * z > 1.0 || x * x + y * y + z * z < 1e-6);
    const double l = std::sqrt(x * x + y * y + z * z);
    x /= l, y /= l, z /= l;
  }
  void in_ball(double& x, double& y, double& z) {
    do {
      x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
    } while (x * x + y * y + z * z > 1.0);
  }

 private:
  std::mt19937_64 m_gen;
};

void set(Vec4& v, double x, double y, double z, double w) {
  v = Vec4{static_cast<float>(x), static_cast<float>(y), static_cast<float>(z),
           static_cast<float>(w)};
}

// Shifts velocities by the mass-weighted mean and (unless told not to) positions by the centre of
// mass, in double. Radii are kept.
void centre(BodyState& s, bool positions = true) {
  double m = 0, px = 0, py = 0, pz = 0, cx = 0, cy = 0, cz = 0;
  for (int i = 0; i < s.size(); ++i) {
    const double mi = s.pos[i].w;
    m += mi;
    px += mi * s.vel[i].x, py += mi * s.vel[i].y, pz += mi * s.vel[i].z;
    cx += mi * s.pos[i].x, cy += mi * s.pos[i].y, cz += mi * s.pos[i].z;
  }
  if (m <= 0) return;
  for (int i = 0; i < s.size(); ++i) {
    set(s.vel[i], s.vel[i].x - px / m, s.vel[i].y - py / m, s.vel[i].z - pz / m, s.vel[i].w);
    if (positions)
      set(s.pos[i], s.pos[i].x - cx / m, s.pos[i].y - cy / m, s.pos[i].z - cz / m, s.pos[i].w);
  }
}

// A rotating disk galaxy of `count` bodies starting at `first`: a heavy core body and a thin disk
// on near-circular orbits (softened point-mass core plus the disk mass inside each radius).
void add_disk(BodyState& s, int first, int count, Rng& rng, double core_mass, double disk_mass,
              double radius, double eps) {
  if (count <= 0) return;
  set(s.pos[first], 0, 0, 0, count > 1 ? core_mass : core_mass + disk_mass);
  set(s.vel[first], 0, 0, 0, 0);
  const int stars = count - 1;
  if (stars == 0) return;
  const double m = disk_mass / stars, r_in = 0.12 * radius;
  for (int k = 0; k < stars; ++k) {
    // Surface density falling with radius: r uniform in sqrt space between r_in and radius.
    const double f = rng.uniform();
    const double r = r_in + (radius - r_in) * f * (0.4 + 0.6 * f);
    const double a = rng.uniform(0, 2 * k_pi);
    const double z = 0.02 * radius * rng.normal();
    const double enclosed = core_mass + disk_mass * (r - r_in) / (radius - r_in);
    const double d2 = r * r + eps * eps;
    const double v = std::sqrt(enclosed * r * r / (d2 * std::sqrt(d2)));
    set(s.pos[first + 1 + k], r * std::cos(a), r * std::sin(a), z, m);
    set(s.vel[first + 1 + k], -v * std::sin(a), v * std::cos(a), 0, 0);
  }
}

// One body of a Plummer sphere of scale a and mass `mass` (G = 1) in virial equilibrium, sampled
// from its distribution function as Aarseth, Henon and Wielen (1974) do: the radius from the
// inverse of the cumulative mass fraction M(r) = r^3 / (r^2 + a^2)^(3/2), redrawn above `f_max`
// (so no body starts absurdly far out), the speed q v_esc(r) with q drawn by rejection from g(q)
// = q^2 (1 - q^2)^(7/2), both directions isotropic.
void plummer_body(Rng& rng, double a, double mass, double f_max, double (&x)[3], double (&v)[3]) {
  double f = 0;
  do {
    f = rng.uniform();
  } while (f < 1e-12 || f > f_max);
  const double r = a / std::sqrt(std::pow(f, -2.0 / 3.0) - 1.0);
  double q = 0, g = 0;
  do {
    q = rng.uniform();
    g = 0.1 * rng.uniform();  // max of q^2 (1 - q^2)^3.5 is 0.092
  } while (g > q * q * std::pow(1.0 - q * q, 3.5));
  // v_esc = sqrt(-2 phi) = sqrt(2 M) (r^2 + a^2)^(-1/4)
  const double speed = q * std::sqrt(2.0 * mass) * std::pow(r * r + a * a, -0.25);
  double ux, uy, uz, wx, wy, wz;
  rng.unit_vector(ux, uy, uz);
  rng.unit_vector(wx, wy, wz);
  x[0] = r * ux, x[1] = r * uy, x[2] = r * uz;
  v[0] = speed * wx, v[1] = speed * wy, v[2] = speed * wz;
}

// The plummer preset's sphere: total mass 1, virial radius 5 (a = 5 x 3 pi / 16 = 2.95), so it
// fills the view like the other presets; the crossing time 2 sqrt(2) R_v^(3/2) is 31.6 time
// units. `f_max` 0.999 keeps every body within 44 a; plummer-halo's reaches 100 a.
constexpr double k_plummer_a = 5.0 * 3.0 * k_pi / 16.0;

double one_by_one_mass(Preset p) {
  return p == Preset::plummer || p == Preset::plummer_halo ? 1.0 : 400.0;
}

// One body of such a preset of total mass `total_mass`: its position and velocity.
void draw_body(Preset p, Rng& rng, double total_mass, double (&x)[3], double (&v)[3]) {
  switch (p) {
    case Preset::random:  // the seed's: a cube of random positions and velocities
      // z, y, x: the order GCC drew them in when they were one call's arguments, so the preset's
      // bodies are those it always was (now on every compiler).
      for (int k = 2; k >= 0; --k) x[k] = rng.uniform(-10, 10);
      for (int k = 2; k >= 0; --k) v[k] = rng.uniform(-2, 2);
      return;
    case Preset::shell: {  // NVIDIA's: a thick spherical shell spinning about z
      double ux, uy, uz;
      rng.unit_vector(ux, uy, uz);
      const double r = rng.uniform(10, 16);
      x[0] = ux * r, x[1] = uy * r, x[2] = uz * r;
      // tangential speed about the z axis, a fraction of the circular speed
      const double speed = 0.5 * std::sqrt(total_mass / r);
      v[0] = -speed * uy, v[1] = speed * ux, v[2] = 0;
      return;
    }
    case Preset::plummer_halo:  // the mass fraction inside 100 a: (1 + 1e-4)^(-3/2)
      plummer_body(rng, k_plummer_a, 1.0, std::pow(1.0 + 1e-4, -1.5), x, v);
      return;
    case Preset::plummer:
      plummer_body(rng, k_plummer_a, 1.0, 0.999, x, v);
      return;
    default:
      throw std::logic_error("draw_body: a preset not drawn one by one");
  }
}

// Clustered matter, the tree codes' hard case: 64 Plummer clumps of scale 0.05 (as many as
// there are bodies, when fewer), each in its own equilibrium, their centres and velocities drawn
// as bodies of a Plummer sphere of scale 3; total mass 1.
void add_clumps(BodyState& s, Rng& rng) {
  const int n = s.size(), clumps = std::min(n, 64);
  const double m = 1.0 / n;
  int i = 0;
  for (int c = 0; c < clumps; ++c) {
    const int count = n / clumps + (c < n % clumps ? 1 : 0);
    double cx[3], cv[3];
    plummer_body(rng, 3.0, 1.0, 0.999, cx, cv);
    for (int k = 0; k < count; ++k, ++i) {
      double x[3], v[3];
      plummer_body(rng, 0.05, count * m, 0.999, x, v);
      set(s.pos[i], cx[0] + x[0], cx[1] + x[1], cx[2] + x[2], m);
      set(s.vel[i], cv[0] + v[0], cv[1] + v[1], cv[2] + v[2], 0);
    }
  }
}

// Radii for a volume fraction of 1e-5 of a cube of side `size` (the disks are thin and the
// Plummer core dense: there it is far more), heavy bodies larger as m^(1/3).
void assign_radii(BodyState& s, double size) {
  double mass = 0;
  for (const Vec4& p : s.pos) mass += p.w;
  const double n = s.size(), mean = mass / n;
  const double r0 = size * std::cbrt(1e-5 / (4.0 / 3.0 * k_pi * n));
  for (int i = 0; i < s.size(); ++i)
    s.vel[i].w = static_cast<float>(r0 * std::cbrt(std::max(s.pos[i].w / mean, 0.0)));
}

// A gas of equal balls in the box: a volume fraction of k_box_fraction, on randomly chosen sites of
// a cubic lattice, jittered without overlapping, with Gaussian velocities of 2 radii per unit time
// per axis (so a ball moves about 5% of its radius a step at dt 0.016, at any N).
void add_box_gas(BodyState& s, Rng& rng, double mass) {
  const int n = s.size();
  const double side = k_box_side;
  const double r = std::cbrt(k_box_fraction * side * side * side / (4.0 / 3.0 * k_pi * n));
  int m = 1;
  while (static_cast<long long>(m) * m * m < n) ++m;
  const double a = side / m, jitter = std::max(0.0, 0.45 * (a - 2.0 * r));
  // n distinct sites of m^3 (a partial Fisher-Yates shuffle over the site numbers).
  const long long sites = static_cast<long long>(m) * m * m;
  std::vector<long long> site(static_cast<std::size_t>(sites));
  for (long long k = 0; k < sites; ++k) site[static_cast<std::size_t>(k)] = k;
  for (int i = 0; i < n; ++i) {
    const long long k = i + static_cast<long long>(rng.uniform() * static_cast<double>(sites - i));
    std::swap(site[static_cast<std::size_t>(i)], site[static_cast<std::size_t>(k)]);
    const long long c = site[static_cast<std::size_t>(i)];
    const double x = (c % m + 0.5) * a - side / 2, y = (c / m % m + 0.5) * a - side / 2,
                 z = (c / m / m + 0.5) * a - side / 2;
    set(s.pos[i], x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter),
        z + rng.uniform(-jitter, jitter), mass / n);
    set(s.vel[i], 2 * r * rng.normal(), 2 * r * rng.normal(), 2 * r * rng.normal(), r);
  }
}

// A cold uniform cloud of radius 20 turning slowly about z (rotational energy 5% of |W|), small
// bodies (a volume fraction of 0.3%) with a little random motion (5% of the circular speed at its
// edge): it collapses in about 5 time units (300 steps at dt 0.016) and clumps as bodies merge.
void add_cloud(BodyState& s, Rng& rng, double mass) {
  const int n = s.size();
  constexpr double radius = 20.0;
  const double omega =
      std::sqrt(0.05 * 0.6 * mass * mass / radius / (0.5 * 0.4 * mass * radius * radius));
  const double r = radius * std::cbrt(0.003 / n);
  const double sigma = 0.05 * std::sqrt(mass / radius);
  for (int i = 0; i < n; ++i) {
    double x, y, z;
    rng.in_ball(x, y, z);
    x *= radius, y *= radius, z *= radius;
    set(s.pos[i], x, y, z, mass / n);
    set(s.vel[i], -omega * y + sigma * rng.normal(), omega * x + sigma * rng.normal(),
        sigma * rng.normal(), r);
  }
}

// Rotates bodies [first, first+count) about the x axis by angle, then shifts them.
void place(BodyState& s, int first, int count, double tilt, double ox, double oy, double oz,
           double vx, double vy, double vz) {
  const double c = std::cos(tilt), sn = std::sin(tilt);
  for (int i = first; i < first + count; ++i) {
    Vec4& p = s.pos[i];
    Vec4& v = s.vel[i];
    set(p, p.x + ox, c * p.y - sn * p.z + oy, sn * p.y + c * p.z + oz, p.w);
    set(v, v.x + vx, c * v.y - sn * v.z + vy, sn * v.y + c * v.z + vz, v.w);
  }
}

// Each preset's extent: the side of the cube its bodies fill at the start (the radii's scale).
double preset_extent(Preset p) {
  static const double extent[] = {20, 32, 16, 40, 30, 10, 0, 0, 10, 10};
  return extent[static_cast<int>(p)];
}

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {"random",    "shell",       "expand", "disk",
                                                 "collision", "plummer",     "box",    "accretion",
                                                 "clumps",    "plummer-halo"};
  return names;
}

Preset parse_preset(const std::string& name) {
  const auto& n = preset_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return static_cast<Preset>(i);
  throw std::invalid_argument(
      "unknown preset '" + name +
      "' (choose random, shell, expand, disk, collision, plummer, box, accretion, clumps or "
      "plummer-halo)");
}

const char* to_string(Preset p) { return preset_names()[static_cast<int>(p)].c_str(); }

BodyState make_preset(Preset p, int n, std::uint64_t seed) {
  if (n < 1)
    throw std::invalid_argument("the number of bodies must be >= 1, got " + std::to_string(n));
  BodyState s;
  s.pos.resize(n);
  s.vel.resize(n);
  Rng rng(seed);
  const double total_mass = 400.0, m = total_mass / n;
  switch (p) {
    case Preset::random:
    case Preset::shell:
    case Preset::plummer:
    case Preset::plummer_halo: {
      const double one_by_one = one_by_one_mass(p), mass = one_by_one / n;
      for (int i = 0; i < n; ++i) {
        double x[3], v[3];
        draw_body(p, rng, one_by_one, x, v);
        set(s.pos[i], x[0], x[1], x[2], mass);
        set(s.vel[i], v[0], v[1], v[2], 0);
      }
      break;
    }
    case Preset::expand:  // NVIDIA's: a ball whose velocities point outwards, growing with radius
      for (int i = 0; i < n; ++i) {
        double x, y, z;
        rng.in_ball(x, y, z);
        set(s.pos[i], 8 * x, 8 * y, 8 * z, m);
        set(s.vel[i], 6 * x, 6 * y, 6 * z, 0);
      }
      break;
    case Preset::disk:
      add_disk(s, 0, n, rng, 0.75 * total_mass, 0.25 * total_mass, 20.0, 0.1);
      place(s, 0, n, 0.35, 0, 0, 0, 0, 0, 0);
      break;
    case Preset::collision: {  // two disks on a collision course, the second one tilted
      const int a = (n + 1) / 2, b = n - a;
      add_disk(s, 0, a, rng, 0.375 * total_mass, 0.125 * total_mass, 10.0, 0.1);
      add_disk(s, a, b, rng, 0.375 * total_mass, 0.125 * total_mass, 10.0, 0.1);
      place(s, 0, a, 0.3, -15, -5, 0, 2.2, 0.8, 0);
      place(s, a, b, -0.9, 15, 5, 0, -2.2, -0.8, 0);
      break;
    }
    case Preset::clumps:
      add_clumps(s, rng);
      break;
    case Preset::box:
      add_box_gas(s, rng, total_mass);
      centre(s, false);  // the lattice stays inside the walls
      return s;
    case Preset::accretion:
      add_cloud(s, rng, total_mass);
      centre(s);
      return s;
  }
  centre(s);
  assign_radii(s, preset_extent(p));
  return s;
}

bool drawn_one_by_one(Preset p) {
  return p == Preset::random || p == Preset::shell || p == Preset::plummer ||
         p == Preset::plummer_halo;
}

BodyState make_preset_part(Preset p, long long n, std::uint64_t seed, int part, int parts) {
  if (!drawn_one_by_one(p))
    throw InputError(std::string("preset ") + to_string(p) +
                     ": its bodies are not drawn one by one, so a part cannot be made alone "
                     "(random, shell, plummer and plummer-halo can)");
  if (parts < 1 || part < 0 || part >= parts || n < parts)
    throw InputError("part " + std::to_string(part) + " of " + std::to_string(parts) + " of " +
                     std::to_string(n) + " bodies: each part needs at least one body");
  const long long count = n / parts + (part < n % parts ? 1 : 0);
  if (count > std::numeric_limits<int>::max())
    throw InputError(std::to_string(count) + " bodies in one part: more than one part holds");
  const long long first = n / parts * part + std::min<long long>(part, n % parts);
  BodyState s;
  s.pos.resize(static_cast<std::size_t>(count));
  s.vel.resize(s.pos.size());
  const double total_mass = one_by_one_mass(p), m = total_mass / static_cast<double>(n);
  // The whole is drawn in chunks of k_part_chunk bodies, each from a stream of its own (the seed
  // and the chunk's number mixed by SplitMix64's steps), so a body is the same whatever the parts
  // and the threads: a run on 1 rank and on 4 starts from one state. A part draws the chunks its
  // bodies lie in, and drops the bodies of its neighbours' share (under two chunks' worth).
  constexpr long long k_part_chunk = 65536;
  const long long c0 = first / k_part_chunk, c1 = (first + count - 1) / k_part_chunk;
#pragma omp parallel for schedule(dynamic)
  for (long long c = c0; c <= c1; ++c) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(c + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    Rng rng(z ^ (z >> 31));
    const long long end = std::min((c + 1) * k_part_chunk, first + count);
    for (long long i = c * k_part_chunk; i < end; ++i) {
      double x[3], v[3];
      draw_body(p, rng, total_mass, x, v);
      if (i < first || i >= first + count) continue;
      const std::size_t at = static_cast<std::size_t>(i - first);
      set(s.pos[at], x[0], x[1], x[2], m);
      set(s.vel[at], v[0], v[1], v[2], 0);
    }
  }
  // assign_radii's radius of a body of the mean mass, for the whole n.
  const double r0 =
      preset_extent(p) * std::cbrt(1e-5 / (4.0 / 3.0 * k_pi * static_cast<double>(n)));
  for (Vec4& v : s.vel) v.w = static_cast<float>(r0);
  return s;
}

std::vector<float> origin_labels(const Preset* p, const BodyState& s) {
  const int n = s.size();
  std::vector<float> labels(static_cast<std::size_t>(n), 0.0f);
  if (p && *p == Preset::collision) {  // the two galaxies, as make_preset lays them out
    for (int i = (n + 1) / 2; i < n; ++i) labels[static_cast<std::size_t>(i)] = 1.0f;
    return labels;
  }
  double cx = 0, cy = 0, cz = 0;  // the mean position
#pragma omp parallel for reduction(+ : cx, cy, cz) schedule(static)
  for (int i = 0; i < n; ++i) {
    const Vec4& q = s.pos[static_cast<std::size_t>(i)];
    cx += q.x, cy += q.y, cz += q.z;
  }
  const double c[3] = {cx / std::max(n, 1), cy / std::max(n, 1), cz / std::max(n, 1)};
  const bool flat = p && *p == Preset::disk;  // a disk's quadrants; else octants
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const Vec4& q = s.pos[static_cast<std::size_t>(i)];
    int k = (q.x >= c[0] ? 1 : 0) + (q.y >= c[1] ? 2 : 0);
    if (!flat) k += q.z >= c[2] ? 4 : 0;
    labels[static_cast<std::size_t>(i)] = static_cast<float>(k);
  }
  return labels;
}

std::vector<std::string> origin_names(const Preset* p) {
  if (p && *p == Preset::collision) return {"galaxy 1 (left)", "galaxy 2 (right, tilted)"};
  std::vector<std::string> names;
  const bool flat = p && *p == Preset::disk;
  for (int k = 0; k < (flat ? 4 : 8); ++k)
    names.push_back(std::string(flat ? "quadrant " : "octant ") + (k & 1 ? "+x" : "-x") +
                    (k & 2 ? " +y" : " -y") + (flat ? "" : (k & 4 ? " +z" : " -z")));
  return names;
}

PresetSettings preset_settings(Preset p) {
  PresetSettings s;
  if (p == Preset::box) {
    s.gravity = false;
    s.collisions = CollisionParams{CollisionMode::bounce, 1.0f, k_box_side};
  } else if (p == Preset::accretion) {
    s.collisions = CollisionParams{CollisionMode::merge, 1.0f, 0.0f};
  }
  return s;
}

BodyState kepler_pair(double e, double f) {
  if (!(e >= 0.0 && e < 1.0)) throw std::invalid_argument("kepler_pair: e must be in [0, 1)");
  const double p = 1.0 - e * e, r = p / (1.0 + e * std::cos(f)), h = std::sqrt(1.0 / p);
  const double vr = h * e * std::sin(f), vt = h * (1.0 + e * std::cos(f));
  const double x = r * std::cos(f), y = r * std::sin(f);
  const double vx = vr * std::cos(f) - vt * std::sin(f), vy = vr * std::sin(f) + vt * std::cos(f);
  BodyState s;
  s.pos = {{float(-x / 2), float(-y / 2), 0, 0.5f}, {float(x / 2), float(y / 2), 0, 0.5f}};
  s.vel = {{float(-vx / 2), float(-vy / 2), 0, 0}, {float(vx / 2), float(vy / 2), 0, 0}};
  return s;
}

}  // namespace orrery

namespace orrery {

namespace {
// -sum_{i<j} m_i m_j / r_ij, unsoftened, in double; -inf where two bodies coincide.
double newtonian_potential(const std::vector<Vec4>& pos) {
  const long n = static_cast<long>(pos.size());
  double w = 0;
#pragma omp parallel for reduction(+ : w) schedule(dynamic, 64)
  for (long i = 0; i < n; ++i) {
    const Vec4& a = pos[static_cast<std::size_t>(i)];
    double wi = 0;
    for (long j = i + 1; j < n; ++j) {
      const Vec4& b = pos[static_cast<std::size_t>(j)];
      const double dx = double(b.x) - a.x, dy = double(b.y) - a.y, dz = double(b.z) - a.z;
      wi -= double(b.w) / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    w += wi * a.w;
  }
  return w;
}
}  // namespace

void scale_to_henon(BodyState& s) {
  const std::size_t n = s.pos.size();
  if (n < 2) throw InputError("Henon units: needs at least 2 bodies (it scales their energy)");
  if (n > k_henon_max_bodies)
    throw InputError("Henon units: " + std::to_string(n) +
                     " bodies; the exact potential energy it scales by is summed over every "
                     "pair, for at most " +
                     std::to_string(k_henon_max_bodies) + " bodies");
  double m = 0, t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec4 &p = s.pos[i], &v = s.vel[i];
    m += p.w;
    t += 0.5 * p.w * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  }
  const double w = newtonian_potential(s.pos);
  if (!(m > 0) || !(w < 0) || !std::isfinite(w))
    throw InputError(
        "Henon units: the bodies have no finite potential energy (two coincide, "
        "or no mass)");
  if (!(t > 0))
    throw InputError(
        "Henon units: the bodies are at rest; Henon's units scale a system's "
        "kinetic energy to 1/4, which needs one");
  // Masses to M = 1; positions so that W = -1/2 (virial radius 1); velocities so that T = 1/4:
  // E = -1/4.
  const double wm = w / (m * m), tm = t / m;
  const double a = -2.0 * wm, b = std::sqrt(0.25 / tm);
  for (std::size_t i = 0; i < n; ++i) {
    Vec4 &p = s.pos[i], &v = s.vel[i];
    p = Vec4{float(p.x * a), float(p.y * a), float(p.z * a), float(p.w / m)};
    v = Vec4{float(v.x * b), float(v.y * b), float(v.z * b), float(v.w * a)};
  }
}

}  // namespace orrery
