// Initial conditions: deterministic presets for a given seed, each with zero total momentum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "orrery/bodies.h"
#include "orrery/params.h"

namespace orrery {

// clumps and plummer-halo are the tree codes' hard cases (docs/barnes-hut.md): 64 dense Plummer
// clumps spread over a Plummer sphere, and the plummer preset with its halo reaching 100 scale
// radii instead of 44.
enum class Preset {
  random,
  shell,
  expand,
  disk,
  collision,
  plummer,
  box,
  accretion,
  clumps,
  plummer_halo
};

const std::vector<std::string>& preset_names();
// Throws std::invalid_argument naming the valid presets.
Preset parse_preset(const std::string& name);
const char* to_string(Preset p);

// Builds n >= 1 bodies. Throws std::invalid_argument for n < 1. Every preset gives its bodies
// radii: box and accretion their own; the others a volume fraction of 1e-5 of their extent, a
// heavy body's radius growing as its mass^(1/3) (a galaxy's core is a big ball).
BodyState make_preset(Preset p, int n, std::uint64_t seed);

// Part `part` of `parts` of an n-body preset whose bodies are drawn independently of each other
// (random, shell, plummer, plummer-halo), made alone: n / parts bodies (one more for the first
// n % parts parts), with the masses and radii of the whole. Body i is the same whatever the parts
// (each run of 65,536 bodies is a random stream of its own), so together the parts are one draw of
// the whole preset (not make_preset's draw), and 1 part is all of it. They are not centred:
// the caller subtracts the centre of mass and its velocity over every part. For a run over ranks,
// where no rank can hold the whole. Throws InputError for another preset, n < parts or a part
// out of range.
BodyState make_preset_part(Preset p, long long n, std::uint64_t seed, int part, int parts);
// Whether a preset's bodies are drawn one by one, each alone, so that make_preset_part can make
// a part of it (random, shell, plummer, plummer-halo).
bool drawn_one_by_one(Preset p);

// Origin labels (0, 1, ...) of a state at its start, for colouring by origin: the collision
// preset's two galaxies; a disk's quadrants about the mean position; every other state's octants
// (a loaded state's too: p null). origin_names() names the labels in order.
std::vector<float> origin_labels(const Preset* p, const BodyState& s);
std::vector<std::string> origin_names(const Preset* p);

// What a preset comes with besides its bodies: gravity and the collision stage. box: gravity off,
// elastic bounces inside walls of side k_box_side; accretion: gravity and merges; the others:
// gravity, no collisions, no walls.
struct PresetSettings {
  bool gravity = true;
  CollisionParams collisions;
};
PresetSettings preset_settings(Preset p);
constexpr float k_box_side = 20.0f;
constexpr double k_box_fraction = 0.2;  // the box preset's volume fraction of balls

// Rescales a state to Henon's standard N-body units (G = M = 1, E = -1/4, virial radius
// r_v = -G M^2 / (2 W) = 1, so T = 1/4 and W = -1/2), as NBODY6, AMUSE and REBOUND users expect:
// masses by 1/M, positions and radii by one factor, velocities by another. W is the exact
// unsoftened sum over every pair (in double): at most k_henon_max_bodies bodies. Throws
// InputError for fewer than 2 bodies, bodies at rest, or coinciding bodies.
constexpr std::size_t k_henon_max_bodies = std::size_t(1) << 17;
void scale_to_henon(BodyState& s);

// The analytic two-body test: two bodies of mass 1/2 (G M = 1) on a relative orbit of semi-major
// axis 1 and eccentricity e in [0, 1), at true anomaly f, centre of mass at rest at the origin;
// the period is 2 pi.
BodyState kepler_pair(double e, double f);

}  // namespace orrery
