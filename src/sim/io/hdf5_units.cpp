// What an HDF5 snapshot says of its units and cosmology, for hdf5_snapshot.cpp's reader.
#include "hdf5_units.h"

#include <limits>
#include <optional>
#include <utility>

#include "orrery/input.h"

namespace orrery::hdf5 {

// The file's cosmology: SWIFT's Cosmology group, else GADGET-4's and AREPO's Parameters or
// Header. Without a ComovingIntegrationOn flag, a cosmological constant (or a matter density and
// a redshift) says it, as yt reads GADGET files; a comoving run's Time is the scale factor.
Cosmology cosmology(const Reader& r, double time, double redshift) {
  Cosmology c;
  const double huge = 1e6;
  if (r.has_attr("Cosmology", "Cosmological run")) {
    c.cosmological = c.comoving = r.attr1("Cosmology", "Cosmological run", 0, 0, 1) != 0;
    c.hubble = r.attr1("Cosmology", "h", 0, 0, huge);
    c.omega0 = r.attr1("Cosmology", "Omega_m", 0, 0, huge);
    c.omega_lambda = r.attr1("Cosmology", "Omega_lambda", 0, 0, huge);
    if (c.comoving) c.scale_factor = r.attr1("Cosmology", "Scale-factor", time, 0, huge);
    return c;
  }
  std::optional<bool> comoving;
  for (const char* group : {"Header", "Parameters"}) {  // Parameters' go over Header's
    c.hubble = r.attr1(group, "HubbleParam", c.hubble, 0, huge);
    c.omega0 = r.attr1(group, "Omega0", c.omega0, 0, huge);
    c.omega_lambda = r.attr1(group, "OmegaLambda", c.omega_lambda, 0, huge);
    if (r.has_attr(group, "ComovingIntegrationOn"))
      comoving = r.attr1(group, "ComovingIntegrationOn", 0, 0, 1) != 0;
  }
  c.cosmological = comoving ? *comoving : c.omega_lambda > 0 || (c.omega0 > 0 && redshift > 0);
  c.comoving = c.cosmological;
  if (c.comoving) c.scale_factor = time;
  return c;
}

// The units of the file's numbers, and what told them (`how`): SWIFT's Units group, the GADGET
// names (UnitLength_in_cm, UnitMass_in_g, UnitVelocity_in_cm_per_s) in a Units, Parameters or
// Header group (in cm/h and g/h in a cosmological run, as GADGET writes them), Orrery's G for a
// file of its own with no physical scale, else the options (units_for_file).
UnitSystem file_units(const Reader& r, const LoadOptions& o, const Cosmology& c, std::string& how) {
  const auto checked = [&](double l, double m, double v, const std::string& where, double g_cgs) {
    try {
      UnitSystem u = units_from_cgs(l, m, v, where, g_cgs);
      u.cosmology = c;
      return u;
    } catch (const InputError& e) {
      r.fail(e.what());
    }
  };
  const bool orrery = r.has("Orrery");
  const double orrery_g = r.attr1("Orrery", "G", 1.0, 0.0, std::numeric_limits<double>::max());
  if (orrery && !(orrery_g > 0)) r.fail("Orrery/G: not a number > 0");
  const char* swift[] = {"Unit length in cgs (U_L)", "Unit mass in cgs (U_M)",
                         "Unit time in cgs (U_t)"};
  std::optional<UnitSystem> u;
  if (r.has_attr("Units", swift[0]) || r.has_attr("Units", swift[1]) ||
      r.has_attr("Units", swift[2])) {
    for (const char* name : swift)
      if (!r.has_attr("Units", name)) r.fail(std::string("Units: no '") + name + "'");
    const double l = r.attr("Units", swift[0], 1)[0], m = r.attr("Units", swift[1], 1)[0],
                 t = r.attr("Units", swift[2], 1)[0];
    if (!(t > 0) || !std::isfinite(t))
      r.fail(std::string("Units/") + swift[2] + ": not a number > 0");
    u = checked(l, m, l / t, "Units", k_g_cgs);
    how = "SWIFT's Units group";
  } else {
    const char* names[] = {"UnitLength_in_cm", "UnitMass_in_g", "UnitVelocity_in_cm_per_s"};
    for (const char* group : {"Units", "Parameters", "Header"}) {
      int have = 0;
      for (const char* name : names) have += r.has_attr(group, name);
      if (have == 0) continue;
      if (have < 3)
        for (const char* name : names)
          if (!r.has_attr(group, name))
            r.fail(std::string(group) +
                   ": UnitLength_in_cm, UnitMass_in_g and "
                   "UnitVelocity_in_cm_per_s go together, and " +
                   name + " is missing");
      const double h = c.cosmological && c.hubble > 0 ? c.hubble : 1.0;
      const double l = r.attr(group, names[0], 1)[0], m = r.attr(group, names[1], 1)[0],
                   v = r.attr(group, names[2], 1)[0];
      for (const auto& [x, name] :
           {std::pair{l, names[0]}, std::pair{m, names[1]}, std::pair{v, names[2]}})
        if (!(x > 0)) r.fail(std::string(group) + "/" + name + ": not a number > 0");
      // Orrery's own file says which G its numbers had; another's code used CODATA's.
      u = checked(l / h, m / h, v, group, k_g_cgs);
      if (orrery) u->g = orrery_g;
      how = std::string("the file's ") + group + " group";
      break;
    }
  }
  if (u) {
    refuse_other_units(o, r.name(), "HDF5 with a units group");
    return *u;
  }
  if (orrery) {  // N-body units
    refuse_other_units(o, r.name(), "Orrery's HDF5");
    UnitSystem n;
    n.g = orrery_g;
    n.cosmology = c;
    how = "Orrery's HDF5";
    return n;
  }
  how = o.units ? "no units in the file: --units"
        : o.gadget_g_given
            ? "no units in the file: --gadget-g"
            : "no units in the file: GADGET's assumed, as yt assumes them; --units for others";
  return units_for_file(o, c);
}

// The units of the run an Orrery file was written from (Orrery@unit_*), which its numbers are
// converted back to; `file` where it has none.
UnitSystem run_units(const Reader& r, const UnitSystem& file) {
  if (!r.has_attr("Orrery", "unit_length_cm")) return file;
  const double huge = std::numeric_limits<double>::max();
  UnitSystem u;
  u.length_cm = r.attr1("Orrery", "unit_length_cm", 0, 0, huge);
  u.mass_g = r.attr1("Orrery", "unit_mass_g", 0, 0, huge);
  u.velocity_cm_s = r.attr1("Orrery", "unit_velocity_cm_s", 0, 0, huge);
  u.g = r.attr1("Orrery", "unit_g", 0, 0, huge);
  const bool none = u.length_cm == 0 && u.mass_g == 0 && u.velocity_cm_s == 0;
  if (!(u.g > 0) || (!none && !(u.length_cm > 0 && u.mass_g > 0 && u.velocity_cm_s > 0)) ||
      (!none && !file.physical()))
    r.fail("Orrery/unit_*: the run's units are not numbers > 0 (or the file's are missing)");
  u.cosmology = file.cosmology;
  return u;
}

}  // namespace orrery::hdf5
