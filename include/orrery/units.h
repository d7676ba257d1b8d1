// The units a state's numbers are in, carried with the state from the file (or the preset) to
// every file written: one length, mass and velocity in cgs, G in those units, and the cosmology a
// file says it came from. The engine always integrates with G = 1: it holds a state's velocities
// divided by sqrt(G) and its times multiplied by sqrt(G), and the UnitSystem is how they are
// given back in the file's own units (docs/formats.md, "Units").
#pragma once

#include <string>

#include "orrery/bodies.h"

namespace orrery {

// What an expanding-universe run's snapshot says of itself. Orrery integrates Newtonian gravity
// in physical coordinates without expansion or periodic boundaries: these are kept and written
// back, never applied.
struct Cosmology {
  bool cosmological = false;  // the file comes from a run with a cosmology (OmegaLambda or a flag)
  bool comoving = false;      // its coordinates are comoving and its Time the scale factor
  double hubble = 0;          // h, HubbleParam (0: not given)
  double omega0 = 0, omega_lambda = 0;
  double scale_factor = 1;  // a (GADGET's Time in a comoving run)
};

struct UnitSystem {
  // One unit of the state's length, mass and velocity in cm, g and cm/s (h already applied: a
  // GADGET file's kpc/h is 3.085678e21 / h cm). All 0: N-body units with no physical scale.
  double length_cm = 0, mass_g = 0, velocity_cm_s = 0;
  // G in those units, as the file's code used it (GADGET-2: 43007.1, from its G = 6.672e-8).
  double g = 1;
  Cosmology cosmology;

  bool physical() const { return length_cm > 0; }
  // A state velocity is the engine's times this; a state time the engine's divided by it.
  double engine_scale() const;
  // One unit of the state's time in seconds (length / velocity; 0 without a physical scale).
  double time_s() const;
  // G in cgs as the state's code had it: g L V^2 / M (0 without a physical scale).
  double g_cgs() const;
  bool operator==(const UnitSystem& o) const;
  bool operator!=(const UnitSystem& o) const { return !(*this == o); }
};

constexpr double k_g_cgs = 6.6743e-8;        // G in cm^3 g^-1 s^-2 (CODATA 2018)
constexpr double k_kpc_cm = 3.085678e21;     // GADGET's kpc
constexpr double k_msun_g = 1.989e33;        // GADGET's solar mass
constexpr double k_gadget_g_cgs = 6.672e-8;  // GADGET-2's G (its allvars.h)
constexpr double k_gadget_g = 43007.1;       // G in GADGET's kpc, 1e10 Msun and km/s

// N-body units: G = 1, no physical scale.
UnitSystem nbody_units();
// GADGET's: kpc, 1e10 Msun and km/s (each / h where h > 0 and the run is cosmological), with
// G = 43007.1.
UnitSystem gadget_units(const Cosmology& c = {});
// Units from cgs sizes, G from `g_cgs` (a file's code's G; CODATA's by default). Throws
// InputError naming `what` for a size that is not a finite number > 0.
UnitSystem units_from_cgs(double length_cm, double mass_g, double velocity_cm_s,
                          const std::string& what, double g_cgs = k_g_cgs);

// What --units (and Python's units=) asks for.
struct UnitsChoice {
  UnitSystem units;
  bool henon = false;  // rescale a preset to Henon's standard units (G = M = 1, E = -1/4)
};
// "nbody", "henon", "gadget", or "LENGTH, MASS[, VELOCITY]", each an optional number and a unit
// name: "1 pc, 1 Msun" (the velocity then makes G = 1), "1 kpc, 1e10 Msun, 1 km/s". Lengths: cm,
// m, km, au, ly, pc, kpc, Mpc; masses: g, kg, Mearth, Mjup, Msun; velocities: cm/s, m/s, km/s,
// au/yr, pc/Myr. Throws InputError naming `what` ("--units") and the part that is wrong.
UnitsChoice parse_units(const std::string& text, const std::string& what);
// One unit of a kind ("length", "mass", "velocity" or "time") in cgs, from its name with an
// optional number ("kpc", "1e10 Msun", "km/s", "Myr"; times: s, yr, kyr, Myr, Gyr). Throws
// InputError naming `what` and the names of that kind.
double unit_size(const std::string& text, const std::string& kind, const std::string& what);
// The units named for people: "N-body units (G = 1)", "kpc, 1e10 Msun, km/s (G = 43007.1)".
std::string describe(const UnitSystem& u);
// The short names of one unit of length, mass, velocity and time ("kpc", "1e10 Msun", "km/s",
// "0.978 Gyr"), "" without a physical scale: for the panel's labels.
std::string length_name(const UnitSystem& u);
std::string velocity_name(const UnitSystem& u);
std::string mass_name(const UnitSystem& u);
std::string time_name(const UnitSystem& u);

// An engine time (G = 1) as a time in the units' best-fitting named unit ("12.3 Myr"); "" without
// a physical scale.
std::string time_text(const UnitSystem& u, double engine_time);

// A length of the state's (engine lengths are the state's) in its best-fitting named unit
// ("10 kpc", "500 pc"); "" without a physical scale.
std::string length_text(const UnitSystem& u, double length);

// For a state from a cosmological run: the line that says what Orrery does with it (Newtonian
// gravity in physical coordinates, no expansion, no periodic boundaries); "" for any other.
std::string cosmology_caveat(const UnitSystem& u);

// Velocities given in u's own velocity unit into the engine's G = 1 units (divided by sqrt(G)):
// a double state's own values, its floats rounded again from them.
void to_engine_velocities(BodyState& s, const UnitSystem& u);

// The factors that take a state's numbers from `from` into `to` (both physical): a length, a
// mass and a velocity (a state velocity, not the engine's) are multiplied by them, a time too.
struct UnitFactors {
  double length = 1, mass = 1, velocity = 1, time = 1;
};
UnitFactors factors(const UnitSystem& from, const UnitSystem& to);
// `u` in the same cgs sizes, with G as it is in them (G in cgs kept).
UnitSystem rebased(const UnitSystem& from, const UnitSystem& to);

}  // namespace orrery
