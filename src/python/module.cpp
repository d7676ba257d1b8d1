// The compiled part of the `orrery` Python module (orrery._orrery): Simulation, load, solvers and
// devices. The pure-Python part (python/orrery/__init__.py) adds show() and render(), which run the
// viewer on a copy of the state.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <cmath>
#include <limits>

#include "guard.h"
#include "orrery/device.h"
#include "orrery/formats.h"
#include "orrery/host_threads.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/param_table.h"
#include "orrery/presets.h"
#include "orrery/solver.h"
#include "orrery/version.h"
#ifdef ORRERY_PYTHON_RANKS
#include "py_ranks.h"
#endif
#include "py_series.h"
#include "py_simulation.h"
#include "py_units.h"
#include "values.h"

namespace py = pybind11;
using namespace orrery;
using orrery::python::guarded;
using orrery::python::Keywords;
using orrery::python::PySimulation;

namespace {

// Every settings keyword, for the message that refuses an unknown one.
std::string settings_names() {
  std::string s = "solver, block, gpus, integrator, precision, dt_max";
  for (const ParamRow& r : param_rows()) s += std::string(", ") + r.name;
  return s + ", collisions, radius, box, gravity";
}

// The parameter table as Python sees it: a dict a row.
py::list parameter_list() {
  py::list out;
  std::vector<const ParamRow*> rows;
  for (const auto* table : {&param_rows(), &view_rows()})
    for (const ParamRow& r : *table) rows.push_back(&r);
  for (const ParamRow* row : rows) {
    const ParamRow& r = *row;
    py::dict d;
    d["name"] = r.name;
    d["owner"] = to_string(r.owner);
    d["unit"] = r.unit;
    d["help"] = r.help;
    d["default"] = r.default_value();
    d["min"] = r.lo;
    d["min_excluded"] = r.lo_open;
    d["max"] = r.hi;
    // The step's rows have the dt grammar; the view's are render()'s and show()'s, not the run's.
    d["keyword"] = r.form != ParamForm::step && r.form != ParamForm::view;
    out.append(d);
  }
  return out;
}

// Simulation's docstring: its settings, the parameter rows' from the table.
std::string class_doc() {
  std::string rows;
  for (const ParamRow& r : param_rows()) {
    if (r.form == ParamForm::step) continue;
    const std::string name = r.name;
    rows += "  " + name + std::string(name.size() < 13 ? 13 - name.size() : 1, ' ') +
            param_help(r) + "\n";
  }
  return R"(An N-body simulation: bodies, a solver, an integrator and the run's settings.

Simulation(n=None, preset="plummer", seed=1, **settings) makes n bodies of a preset
(orrery.presets()); n defaults to 16384 with a CUDA device and 2048 without. Settings, all
optional:
  solver       a name of orrery.solvers() (default: the first that runs here of cuda-fast,
               cuda-static, cuda-dynamic, cpu-omp)
  block        threads per block of a GPU solver (default: the solver's; cuda-fast autotunes)
  gpus         GPUs to spread a solver over (default: every visible one where it spreads)
  integrator   a name of orrery.integrators() (default euler)
  precision    "single" (default) or "double" (the state and sums in double; float64 arrays)
  dt           time step (0.016), or "auto": the adaptive step, with dt_max (its largest step,
               0.016) and eta (its accuracy, 0.02)
)" + rows + R"(  collisions   "off", "bounce", "merge" (default: the preset's)
  radius       every body's radius, box (the side of reflecting walls), gravity (True/False)
Each is checked as the command lines check it: a bad one raises ValueError with the reason;
orrery.parameters() lists the numeric ones with their units and bounds.

Units are G = 1. Every array property returns a new numpy array (a copy): it does not change
when the simulation steps, and changing it changes nothing until assigned back.)";
}

// A block size and a GPU count as the keywords and the properties take them (the GPU count at
// least one, as the programs' --gpus).
int block_value(const py::handle& v) {
  return static_cast<int>(python::as_integer(v, "block", 0, 1 << 20));
}
int gpus_value(const py::handle& v) {
  return static_cast<int>(python::as_integer(v, "gpus", 1, 1 << 10));
}

// The settings keywords every constructor takes, from **kwargs; an unknown one is a TypeError, as
// Python's own calls have it.
Keywords keywords(const py::kwargs& kw) {
  Keywords k;
  for (const auto& item : kw) {
    const std::string key = py::str(item.first);
    const py::handle v = item.second;
    if (v.is_none()) continue;  // None: not given
    auto number = [&] { return python::as_number(v, key); };
    auto text = [&] { return python::as_text(v, key); };
    if (key == "solver")
      k.solver = text();
    else if (key == "integrator")
      k.integrator = text();
    else if (key == "collisions")
      k.collisions = text();
    else if (key == "precision")
      k.precision = text();
    else if (key == "block")
      k.block = block_value(v);
    else if (key == "gpus")
      k.gpus = gpus_value(v);
    else if (key == "dt" && py::isinstance<py::str>(v)) {
      if (text() != "auto")
        throw InputError("dt='" + text() +
                         "': expected a number > 0 or 'auto' (the adaptive step)");
      k.dt_auto = true;
    } else if (key == "dt")
      k.dt = number();
    else if (key == "dt_max")
      k.dt_max = number();
    else if (key == "eta")
      k.eta = number();
    else if (const ParamRow* row = find_param(key);
             row && row->form != ParamForm::step && row->form != ParamForm::view)
      k.params[key] = number();
    else if (key == "box")
      k.box = number();
    else if (key == "radius")
      k.radius = number();
    else if (key == "gravity") {
      k.gravity = python::as_bool(v, key);
    } else if (key == "units") {
      k.units = text();
    } else {
      throw py::type_error("unexpected keyword argument '" + key +
                           "' (settings: " + settings_names() + ")");
    }
  }
  return k;
}

py::list solver_list() {
  py::list out;
  for (const SolverInfo& s : all_solvers()) {
    py::dict d;
    d["name"] = s.name;
    d["gpu"] = s.gpu;
    d["block_sizes"] = s.block_sizes;
    d["default_block"] = s.default_block;
    d["approximate"] = s.approximate;
    d["spreads"] = s.spreads;
    d["description"] = s.description;
    const bool here = !s.gpu || device_present();
    d["available"] = here;
    d["why_not"] = here ? py::object(py::none()) : py::object(py::str(device_info().reason));
    out.append(d);
  }
  return out;
}

py::list device_list() {
  py::list out;
  for (int i = 0; i < device_count(); ++i) {
    const DeviceInfo d = device_info_of(i);
    py::dict r;
    r["index"] = i;
    r["name"] = d.name;
    r["sm_count"] = d.sm_count;
    r["clock_mhz"] = d.clock_mhz;
    r["compute_capability"] = py::make_tuple(d.cc_major, d.cc_minor);
    r["memory_bytes"] = d.total_mem;
    out.append(r);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_orrery, m) {
  m.doc() = "Orrery's engine: gravitational N-body solvers on the GPU and the CPU.";
  guard_threads_across_fork();  // a forked child (multiprocessing's 'fork') steps instead of
                                // hanging

  py::class_<PySimulation> sim(m, "Simulation", class_doc().c_str());  // pybind11 copies docstrings
  sim.def(py::init([](const py::object& n, const py::object& preset, const py::object& seed,
                      const py::kwargs& kw) {
            const int bodies = n.is_none()
                                   ? python::default_bodies()
                                   : static_cast<int>(python::as_integer(n, "n", 1, 2147483647));
            return PySimulation::from_preset(bodies, python::as_text(preset, "preset"),
                                             python::as_seed(seed, "seed"), keywords(kw));
          }),
          py::arg("n") = py::none(), py::arg("preset") = "plummer", py::arg("seed") = 1)
      .def_static(
          "from_arrays",
          [](const py::object& pos, const py::object& vel, const py::object& mass,
             const py::object& radius, const py::kwargs& kw) {
            return PySimulation::from_arrays(pos, vel, mass, radius, keywords(kw));
          },
          py::arg("pos"), py::arg("vel"), py::arg("mass"), py::arg("radius") = py::none(),
          R"(A simulation of the given bodies: pos and vel of shape (N, 3), mass of shape (N,) or one
number for all, radius likewise (default 0). Any real dtype is taken and stored as float32; vel
may be None (at rest). Raises TypeError for a dtype that is not a real number and ValueError for
a wrong shape, a value that is not finite as float32, or a negative mass or radius. Settings as
for Simulation().)")
      .def(
          "step", guarded([](PySimulation& s, const py::object& k) {
            s.step(python::as_integer(k, "step: k", 0, std::numeric_limits<long long>::max()));
          }),
          py::arg("k") = 1,
          R"(Takes k steps of dt (k >= 0). The GIL is released while stepping; Ctrl-C stops the call
between two steps with KeyboardInterrupt, leaving the state of the last whole step. Raises
RuntimeError when the state became non-finite (checked once, after the steps).)")
      .def("integrate",
           guarded([](PySimulation& s, const py::object& t, const py::object& exact,
                      const py::object& progress, const py::object& save_every,
                      const py::object& pattern) {
             s.integrate(python::as_number(t, "t"), python::as_bool(exact, "exact"), progress,
                         save_every, pattern);
           }),
           py::arg("t"), py::arg("exact") = true, py::arg("progress") = py::none(),
           py::arg("save_every") = py::none(), py::arg("pattern") = py::none(),
           R"(Steps until the time is t. The steps are of dt while a whole one fits; then, with
exact=True (the default), one shorter step of the remaining time, so that time equals t up to
the rounding of that step's length to float32 (about 6e-8 of it); dt itself is kept. With
exact=False the last step is a whole one, ending at the first multiple of dt at or past t. A
remainder below 1e-6 dt counts as none. Time runs backwards while time_reversed is set: t must
then lie before the current time. With dt='auto' the adaptive steps run until the time reaches
t, the last one shortened to land on it (exact=True) or whole (exact=False). Ctrl-C as for
step(). progress=True prints a line on stderr every 2 s of a long call; a callable is called
about every second as progress(time, t, steps), between runs of steps (its exception ends the
call, the state that of the last whole step). save_every writes a snapshot series: the state
now, then every K steps (an int) or at the step nearest each multiple of an interval of time (a
float), one file an output named by pattern (one %d, %Nd or %0Nd; default snapshot_%03d.hdf5,
GADGET-4's names) in the format its extension asks for. A series overwrites no file (ValueError
before any step); a failed write ends the call with OSError, the outputs before it whole.)")
      .def("save", guarded([](PySimulation& s, const py::object& path) {
             s.save(py::module_::import("os").attr("fspath")(path).cast<std::string>());
           }),
           py::arg("path"),
           R"(Writes the state in the format the name's extension asks for: .orrery (or no
extension) Orrery's snapshot format, which keeps the run (solver, integrator, settings, time,
steps) so that orrery.load(path) continues it bit for bit; .tipsy TIPSY; .hdf5 or .h5
GADGET-4-style HDF5; .csv CSV (x,y,z,vx,vy,vz,mass,radius). Any other extension raises ValueError
with the list, and nothing is written. Orrery's format and HDF5 keep a file's particle types and
IDs. `path`: a str or os.PathLike. The file is written beside the target and renamed over it: a
failed write (OSError) leaves the old file as it was.)")
      .def_property_readonly("n", guarded(&PySimulation::n),
                             "Bodies in the simulation (merges lower it).")
      .def_property_readonly("time", guarded(&PySimulation::time), "Simulation time.")
      .def_property_readonly("steps", guarded(&PySimulation::steps), "Steps taken.")
      .def_property("positions", guarded(&PySimulation::positions),
                    guarded(&PySimulation::set_positions),
                    "Positions, (N, 3) float32: a copy. Assigning checks shape, dtype and "
                    "finiteness and keeps the time and step count.")
      .def_property("velocities", guarded(&PySimulation::velocities),
                    guarded(&PySimulation::set_velocities),
                    "Velocities, (N, 3) float32: a copy. Assigning as for positions.")
      .def_property("masses", guarded(&PySimulation::masses), guarded(&PySimulation::set_masses),
                    "Masses, (N,) float32: a copy. Assigning refuses negative or non-finite "
                    "values; one number sets all.")
      .def_property("radii", guarded(&PySimulation::radii), guarded(&PySimulation::set_radii),
                    "Radii (the collision stage's), (N,) float32: a copy. Assigning as for "
                    "masses; walls must stay at least twice the largest radius.")
      .def("accelerations", guarded(&PySimulation::accelerations),
           "Each body's acceleration from the solver at the current positions, (N, 3) float32 "
           "(the last step's own where it kept them; else one more force pass, not a step).")
      .def("potentials", guarded(&PySimulation::potentials),
           "Each body's softened potential phi_i = -sum_j m_j / sqrt(r_ij^2 + eps^2) from the "
           "solver, (N,) float32 (tree codes: from the tree).")
      .def("diagnostics", guarded(&PySimulation::diagnostics),
           R"(The state's conserved quantities, summed in double (on the device for GPU solvers):
a dict of kinetic, potential and energy (kinetic + potential + collision_energy, the energy the
collisions removed), mass, bodies, momentum, angular_momentum and centre_of_mass (3-tuples about
the origin), virial_ratio (2K/|W|), time and steps.)")
      .def("phases", guarded(&PySimulation::phases),
           "Milliseconds a step spent in each phase (force, integrate, walk, contacts, ...) over "
           "the last step() or integrate() call, a mean per step; phases it did not run are left "
           "out.")
      .def_property_readonly("interactions_per_second",
                             guarded(&PySimulation::interactions_per_second),
                             "Body-body interactions per second of the last step() or "
                             "integrate() call (all-pairs: N^2 a force pass), by the wall clock.")
      .def_property("solver", guarded(&PySimulation::solver),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_solver(python::as_text(v, "solver"));
                    }),
                    "The solver's name; assigning switches to another (its default block), the "
                    "state moving to its side.")
      .def_property(
          "block", guarded(&PySimulation::block),
          guarded([](PySimulation& s, const py::object& v) { s.set_block(block_value(v)); }),
          "Threads per block of a GPU solver (0 for CPU solvers).")
      .def_property(
          "gpus", guarded(&PySimulation::gpus),
          guarded([](PySimulation& s, const py::object& v) { s.set_gpus(gpus_value(v)); }),
          "GPUs the solver is spread over (1: one GPU or the CPU).")
      .def_property("integrator", guarded(&PySimulation::integrator),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_integrator(python::as_text(v, "integrator"));
                    }),
                    "\"euler\", \"leapfrog\" or \"yoshida4\".")
      .def_property(
          "precision", guarded([](const PySimulation& s) {
            return std::string(to_string(s.params().precision));
          }),
          guarded([](PySimulation& s, const py::object& v) {
            s.set_precision(python::as_text(v, "precision"));
          }),
          "\"single\" or \"double\": a double run keeps its state and sums in double "
          "(cpu, cpu-omp, cuda-static, cuda-dynamic, cuda-fast; no collisions), and its arrays "
          "are float64.")
      .def_property(
          "dt", guarded([](const PySimulation& s) -> py::object {
            if (s.params().adaptive) return py::str("auto");
            return py::float_(s.params().dt);
          }),
          guarded([](PySimulation& s, const py::object& v) {
            if (py::isinstance<py::str>(v)) {
              const std::string text = v.cast<std::string>();
              if (text != "auto")
                throw InputError("dt='" + text + "': expected a number > 0 or 'auto'");
              s.set_dt(std::nullopt);
            } else {
              s.set_dt(python::as_number(v, "dt"));
            }
          }),
          "Time step; 'auto': the adaptive step (each step's size from how fast the forces "
          "change; dt_max and eta set it).")
      .def_property("dt_max", guarded([](const PySimulation& s) -> std::optional<double> {
                      if (!s.params().adaptive) return std::nullopt;
                      return s.params().dt;
                    }),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_adaptive_param("dt_max", param_row("dt"),
                                           python::as_number(v, "dt_max"));
                    }),
                    "The adaptive step's largest step (None with a fixed dt).")
      .def_property("eta", guarded([](const PySimulation& s) { return s.params().eta; }),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_adaptive_param("eta", param_row("eta"), python::as_number(v, "eta"));
                    }),
                    "The adaptive step's accuracy in (0, 1]: smaller, smaller steps (0.02).")
      .def_property_readonly("next_dt", guarded(&PySimulation::next_dt),
                             "The size of the next step (dt with a fixed step).")
      .def_property_readonly("floor_hits", guarded(&PySimulation::floor_hits),
                             "Steps where the adaptive step's floor (1e-6 dt_max) held.")
      .def_property("box", guarded(&PySimulation::box),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_box(v.is_none() ? std::optional<double>()
                                            : std::optional<double>(python::as_number(v, "box")));
                    }),
                    "Side of the cube of reflecting walls centred at the origin; None: no walls.")
      .def_property("gravity", guarded([](const PySimulation& s) { return s.params().gravity; }),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_gravity(python::as_bool(v, "gravity"));
                    }),
                    "Whether gravity acts.")
      .def_property("collisions", guarded(&PySimulation::collisions),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_collisions(python::as_text(v, "collisions"));
                    }),
                    "\"off\", \"bounce\" or \"merge\".")
      .def_property("time_reversed", guarded(&PySimulation::time_reversed),
                    guarded([](PySimulation& s, const py::object& v) {
                      s.set_time_reversed(python::as_bool(v, "time_reversed"));
                    }),
                    "Time runs backwards while set (leapfrog and yoshida4 retrace their past).")
      .def_property_readonly("types", guarded(&PySimulation::types),
                             "The bodies' particle types (GADGET's: 0 gas, 1 halo, 2 disk, 3 "
                             "bulge, 4 stars, 5 boundary), (N,) uint8, a read-only copy: a "
                             "file's, else 1 (collisionless). A merge keeps the heavier body's.")
      .def_property_readonly("ids", guarded(&PySimulation::ids),
                             "The bodies' IDs, (N,) uint64, a read-only copy: a file's, else "
                             "numbered 0 to N-1 (from_arrays(ids=...) and add(ids=...) give "
                             "others). A merge keeps the heavier body's.")
      .def_property_readonly("config", guarded(&PySimulation::config),
                             "The solver's configuration in use (cuda-fast: its tuned tiles).")
      .def("__repr__",
           [](const py::object& self) {
             // An object __init__ never made still has a repr (tracebacks show it).
             return orrery::python::made(self) ? guarded(&PySimulation::repr)(self)
                                               : std::string("<orrery.Simulation: never made>");
           })
      .def_static(
          "_made", [](const py::object& o) { return orrery::python::made(o); },
          "Whether __init__ made this object (the Python layer refuses a second __init__).")
      .def("_replace_bodies",
           guarded([](PySimulation& s, const py::object& pos, const py::object& vel,
                      const py::object& mass, const py::object& radius, const py::object& types,
                      const py::object& ids, const std::string& what) {
             s.replace_bodies(pos, vel, mass, radius, types, ids, what.c_str());
           }))
      .def("_snapshot_to", guarded([](PySimulation& s, const std::string& path) {
             save_snapshot(path, s.snapshot());
           }))
      .def("_restore_from", guarded([](PySimulation& s, const std::string& path) {
             s.restore(python::load_interruptibly(path, LoadOptions{}));
           }));

  // A property for each parameter row but the step's (dt, dt_max and eta have their grammar).
  for (const ParamRow& row : param_rows()) {
    if (row.form == ParamForm::step) continue;
    const ParamRow* r = &row;
    std::string doc = param_help(row) + ".";
    doc[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(doc[0])));
    if (*row.detail) doc += std::string(" ") + row.detail;
    sim.def_property(row.name, guarded([r](const PySimulation& s) { return r->get(s.params()); }),
                     guarded([r](PySimulation& s, const py::object& v) {
                       s.set_param(*r, python::as_number(v, r->name));
                     }),
                     doc.c_str());
  }

  python::bind_units(sim);
  python::bind_series(m);
#ifdef ORRERY_PYTHON_RANKS
  python::bind_ranks(m, &keywords);
#endif
  m.def(
      "_load",
      [](const std::string& path, std::optional<std::vector<int>> types,
         std::optional<double> gadget_g, std::optional<std::string> units, const py::kwargs& kw) {
        return PySimulation::load(path, keywords(kw), python::load_options(types, gadget_g, units));
      },
      py::arg("path"), py::arg("types") = py::none(), py::arg("gadget_g") = py::none(),
      py::arg("units") = py::none());
  m.def("_stop_runs", &python::stop_runs,
        "Stops the steps in flight on other threads at their next look (the interpreter exits).");
  m.def(
      "_version", [] { return std::pair(version_pep440(), version_description()); },
      "Orrery's version: (PEP 440, with the git description), as orrery.__version__ has it.");
  m.def("solvers", &solver_list,
        R"(Every solver of this build: a list of dicts with name, gpu, block_sizes, default_block,
approximate (a tree code), spreads (over several GPUs), description, available (here) and why_not
(the reason when not available, else None).)");
  m.def("devices", &device_list,
        "The CUDA devices visible: a list of dicts with index, name, sm_count, clock_mhz, "
        "compute_capability and memory_bytes (empty without one).");
  m.def(
      "presets", [] { return preset_names(); }, "The presets' names.");
  m.def(
      "integrators", [] { return integrator_names(); }, "The integrators' names.");
  m.def(
      "formats",
      [] {
        py::list out;
        for (const FormatInfo& f : format_table()) {
          py::dict d;
          d["name"] = f.name;
          d["description"] = f.description;
          d["extensions"] = f.extensions;
          d["read"] = f.looks_like != nullptr;
          d["written"] = f.encode != nullptr;
          d["keeps_run"] = f.keeps_run;
          d["keeps_types_and_ids"] = f.keeps_types;
          d["keeps_doubles"] = f.keeps_doubles;
          out.append(d);
        }
        return out;
      },
      "The file formats, one dict each from the engine's registry: name, description, extensions "
      "(save() picks by them), read (load() tells it by content), written, and what a file keeps "
      "besides the bodies: keeps_run (an exact restart), keeps_types_and_ids, keeps_doubles.");
  m.def("parameters", &parameter_list,
        R"(The run's parameters, one dict a row of the table the engine, both programs and this
module share: name, owner (core, integrator, solver, collider), unit (G = 1 units; "" for a pure
number), help, default, min, min_excluded, max, and keyword (False for dt and eta, which take the
time step's grammar: dt="auto", dt_max, eta, and for the view's rows, owner "view", which render()
and show() take: camera_distance, camera_azimuth, camera_elevation, camera_roll, fov,
camera_x, camera_y, camera_z, orbit).)");
  m.attr("cuda_compiled") = cuda_compiled();
}
