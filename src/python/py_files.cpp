// The Python Simulation's files: made from a snapshot or a scene (load), written (save), and
// restored in place; the load interruptible by Ctrl-C.
#include <new>

#include "orrery/device.h"
#include "orrery/formats.h"
#include "orrery/scene_file.h"
#include "py_series.h"
#include "py_simulation.h"

namespace orrery::python {

LoadOptions load_options(const std::optional<std::vector<int>>& types,
                         std::optional<double> gadget_g, const std::optional<std::string>& units) {
  LoadOptions o;
  if (types) o.types = *types;
  if (gadget_g) {
    if (!(*gadget_g > 0) || !std::isfinite(*gadget_g))
      throw InputError("gadget_g=" + number_text(*gadget_g) + ": must be a finite number > 0");
    o.gadget_g = *gadget_g;
    o.gadget_g_given = true;
    o.gadget_g_option = "gadget_g=" + number_text(*gadget_g);
  }
  if (units) take_units_text(o, *units, "units", "gadget_g");
  return o;
}

Snapshot load_interruptibly(const std::string& path, LoadOptions o) {
  LoadProgress progress;
  std::unique_ptr<py::error_already_set> raised;
  progress.tick = [&](const LoadProgress&) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      raised = std::make_unique<py::error_already_set>();
      progress.cancel = true;
    }
  };
  o.progress = &progress;
  try {
    Snapshot s;
    {
      py::gil_scoped_release nogil;
      s = load_snapshot(path, o);
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // one that came while decoding
    return s;
  } catch (const LoadCancelled&) {
    if (raised) throw std::move(*raised);
    throw;
  }
}

std::unique_ptr<PySimulation> PySimulation::load(const std::string& path, const Keywords& k,
                                                 const LoadOptions& o) {
  const std::string ext = path.size() >= 5 ? path.substr(path.size() - 5) : "";
  std::unique_ptr<PySimulation> sim;
  Snapshot s;
  if (ext == ".json" || ext == ".JSON") {
    const SceneFile sc = load_scene(path);
    const int n = sc.n > 0 ? sc.n : default_bodies();
    const Chosen c = choose(settings_of(sc), std::nullopt, k, sc.snapshot.empty() ? n : 0);
    if (sc.snapshot.empty()) check_fits(solver_info(c.run.solver), n, c.run.params.precision);
    s = scene_snapshot(sc, n, o);
    apply_radius(s.bodies, k);
    sim = std::make_unique<PySimulation>(s.bodies, c);
    sim->m_sim->set_units(s.run.units);  // its file's, where it names one
  } else {
    s = load_interruptibly(path, o);
    apply_radius(s.bodies, k);
    const Chosen c = choose(s.run_recorded ? settings_of(s.run) : RunSettings{}, std::nullopt, k,
                            s.bodies.size());
    check_inside_walls(c.run.params.collisions.box, s.bodies, path);
    sim = std::make_unique<PySimulation>(s.bodies, c, &s.run);  // TIPSY: its time alone
    FileInfo info;
    info.path = path, info.format = format_info(s.format).name, info.note = s.units_note;
    info.time = s.file_time, info.redshift = s.redshift, info.box_size = s.box_size;
    if (s.types.empty())
      info.counts[1] = s.bodies.size();
    else
      for (std::uint8_t t : s.types) ++info.counts[t % 6];
    sim->m_file = info;
  }
  sim->take_labels(std::move(s.types), std::move(s.ids));
  return sim;
}

Snapshot PySimulation::snapshot() { return snapshot_of(*m_sim, m_sim->bodies(), m_block_asked); }

void PySimulation::save(const std::string& path) {
  if (path.empty()) throw InputError("path: empty");
  const Snapshot s = snapshot();
  const long long bad = first_nonfinite(s.bodies.pos.data(), s.bodies.vel.data(), s.bodies.size());
  if (bad >= 0)
    throw InputError(path + ": not saved: body " + std::to_string(bad) +
                     " is not finite (a file --load would refuse)");
  const SnapshotFormat format = format_for_writing(path).id;  // a bad name: ValueError
  try {
    save_snapshot(path, s, format);
  } catch (const std::bad_alloc&) {  // was OSError: std::bad_alloc
    PyErr_SetString(
        PyExc_MemoryError,
        (path + ": not saved: out of host memory while encoding the file (the old file, "
                "if any, is as it was)")
            .c_str());
    throw py::error_already_set();
  } catch (const std::exception& e) {  // the place, the disk: an OSError in Python
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  }
}

void PySimulation::restore(const Snapshot& s) {
  const Chosen c = choose(settings_of(s.run), std::nullopt, Keywords{});
  auto fresh = std::make_unique<PySimulation>(s.bodies, c, &s.run);
  fresh->take_labels(s.types, s.ids);
  std::swap(m_sim, fresh->m_sim);
  m_solver = fresh->m_solver;
  m_block_asked = fresh->m_block_asked;
  m_gpus = fresh->m_gpus;
}

}  // namespace orrery::python
