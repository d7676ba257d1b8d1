// Python's view of a state's units: sim.units, sim.file_info, and the arrays in named units
// (positions_in("kpc"), velocities_in("km/s"), masses_in("Msun"), time_in("Myr")).
#include "py_units.h"

#include <pybind11/stl.h>

#include "guard.h"
#include "values.h"

namespace orrery::python {
namespace {

py::dict cosmology_dict(const Cosmology& c) {
  py::dict d;
  d["cosmological"] = c.cosmological;
  d["comoving"] = c.comoving;
  d["hubble"] = c.hubble;
  d["omega0"] = c.omega0;
  d["omega_lambda"] = c.omega_lambda;
  d["scale_factor"] = c.scale_factor;
  return d;
}

py::dict units_dict(const UnitSystem& u) {
  py::dict d;
  d["name"] = describe(u);
  d["physical"] = u.physical();
  const auto or_none = [&](double v) {
    return u.physical() ? py::object(py::float_(v)) : py::none();
  };
  d["length_cm"] = or_none(u.length_cm);
  d["mass_g"] = or_none(u.mass_g);
  d["velocity_cm_s"] = or_none(u.velocity_cm_s);
  d["time_s"] = or_none(u.time_s());
  d["G"] = u.g;
  // sim.velocities (G = 1) times this are velocities in the units; sim.time times time_factor
  // the time in them.
  d["velocity_factor"] = u.engine_scale();
  d["time_factor"] = 1.0 / u.engine_scale();
  d["length_unit"] = length_name(u);
  d["mass_unit"] = mass_name(u);
  d["velocity_unit"] = velocity_name(u);
  d["time_unit"] = time_name(u);
  d["cosmology"] = cosmology_dict(u.cosmology);
  return d;
}

// How many of `unit` one of the state's `kind` is (the state's velocities: with G's factor).
double factor(const PySimulation& s, const std::string& kind, const std::string& unit,
              const char* method) {
  const UnitSystem& u = s.units();
  const std::string what = std::string(method) + "('" + unit + "')";
  if (!u.physical())
    throw InputError(what + ": the state is in " + describe(u) +
                     "; give its units when making it (units='1 kpc, 1e10 Msun' or a file's)");
  const double size = unit_size(unit, kind, what);
  if (kind == "length") return u.length_cm / size;
  if (kind == "mass") return u.mass_g / size;
  if (kind == "velocity") return u.engine_scale() * u.velocity_cm_s / size;
  return u.time_s() / u.engine_scale() / size;
}

py::array scaled(py::array a, double k) {
  py::module_ np = py::module_::import("numpy");
  return np.attr("multiply")(np.attr("asarray")(a, "float64"), k);
}

}  // namespace

void bind_units(py::class_<PySimulation>& sim) {
  sim.def_property_readonly(
         "units", guarded([](PySimulation& s) { return units_dict(s.units()); }),
         R"(The units of the state's numbers, a dict: name; physical (False: N-body units with no
physical scale); length_cm, mass_g, velocity_cm_s, time_s (one unit in cgs, None without a scale);
G in those units; velocity_factor and time_factor (the engine runs with G = 1: sim.velocities
times velocity_factor are velocities in these units, sim.time times time_factor their time);
length_unit, mass_unit, velocity_unit, time_unit (short names, '' without a scale); cosmology (a
dict: cosmological, comoving, hubble, omega0, omega_lambda, scale_factor).)")
      .def_property_readonly(
          "file_info", guarded([](PySimulation& s) -> py::object {
            const auto& f = s.file_info();
            if (!f) return py::none();
            py::dict d;
            d["path"] = f->path;
            d["format"] = f->format;
            d["note"] = f->note;
            d["time"] = f->time;
            d["redshift"] = f->redshift;
            d["box_size"] = f->box_size;
            py::dict counts;
            for (int t = 0; t < 6; ++t) counts[py::str(particle_type_names()[t])] = f->counts[t];
            d["counts"] = counts;
            d["units"] = units_dict(s.units());
            return d;
          }),
          R"(What a load read besides the bodies (None for a preset or arrays): path, format, note
(how its units were taken), time and redshift as the file's header has them, box_size (its
periodic box in the state's length unit, 0: none), counts (bodies of each particle type), units.)")
      .def("positions_in", guarded([](PySimulation& s, const std::string& unit) {
             return scaled(s.positions(), factor(s, "length", unit, "positions_in"));
           }),
           py::arg("unit"),
           "Positions in a named length unit ('kpc', 'pc', 'au', '1e3 km', ...), (N, 3) float64. "
           "ValueError for a state with no physical scale or an unknown unit.")
      .def("velocities_in", guarded([](PySimulation& s, const std::string& unit) {
             return scaled(s.velocities(), factor(s, "velocity", unit, "velocities_in"));
           }),
           py::arg("unit"),
           "Velocities in a named unit ('km/s', 'm/s', 'pc/Myr', 'au/yr'), float64.")
      .def("masses_in", guarded([](PySimulation& s, const std::string& unit) {
             return scaled(s.masses(), factor(s, "mass", unit, "masses_in"));
           }),
           py::arg("unit"), "Masses in a named unit ('Msun', '1e10 Msun', 'kg', ...), float64.")
      .def("time_in", guarded([](PySimulation& s, const std::string& unit) {
             return s.time() * factor(s, "time", unit, "time_in");
           }),
           py::arg("unit"), "The simulation time in a named unit ('Myr', 'Gyr', 'yr', 's').");
}

}  // namespace orrery::python
