// orrery.Simulation: an orrery::Simulation with the settings it runs (solver, block, GPUs) and the
// last call's measurements, its state in and out as numpy arrays. Every array handed out is a
// copy; every array taken in is checked (shape, dtype, finite values, masses and radii >= 0).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "orrery/series.h"
#include "orrery/simulation.h"
#include "orrery/snapshot.h"
#include "settings.h"

namespace orrery::python {

namespace py = pybind11;

// At the interpreter's exit (threading's atexit, before it joins the threads): a step() or
// integrate() in flight on another thread stops at its next look between steps, with SystemExit
// in that thread (which threading ends quietly), so the interpreter can exit.
void stop_runs();
bool stopping_runs();

// Refuses bodies outside walls of side `box` (> 0), naming the first and `what` gave them.
void check_inside_walls(float box, const BodyState& s, const std::string& what);

// Refuses a state the solver's side cannot hold (names the memory needed).
void check_fits(const SolverInfo& info, long long n, Precision precision);
// The radius= keyword over every body, where given.
void apply_radius(BodyState& s, const Keywords& k);
// The units= keyword (none: N-body units): "henon" rescales a preset's bodies (refused for
// others); velocities in units where G != 1 are divided by sqrt(G) (the engine's G is 1).
UnitsChoice units_keyword(const Keywords& k, BodyState& s, bool preset);

// load_snapshot as Python calls it: the GIL released while it reads (other threads run), and the
// main thread's signals looked at after each chunk (LoadProgress::tick): the first handler that
// raises (Ctrl-C's KeyboardInterrupt) cancels the load, and its exception is raised here.
Snapshot load_interruptibly(const std::string& path, LoadOptions o);

// The state of n bodies from arrays as from_arrays takes them (a double run: their doubles too).
BodyState state_from_arrays(const py::object& pos, const py::object& vel, const py::object& mass,
                            const py::object& radius, bool doubles);

class PySimulation {
 public:
  // The bodies with the settings chosen (python/settings.h); `run` continues a saved run (its
  // time, step count, direction of time and collision totals).
  PySimulation(const BodyState& bodies, const Chosen& chosen, const RunState* run = nullptr);

  static std::unique_ptr<PySimulation> from_preset(int n, const std::string& preset,
                                                   std::uint64_t seed, const Keywords& k);
  static std::unique_ptr<PySimulation> from_arrays(const py::object& pos, const py::object& vel,
                                                   const py::object& mass, const py::object& radius,
                                                   const Keywords& k);
  // An Orrery snapshot (its run settings under the keywords) or TIPSY file, or a scene file.
  static std::unique_ptr<PySimulation> load(const std::string& path, const Keywords& k,
                                            const LoadOptions& o);
  // A GADGET file's particle types (uint8) and IDs (uint64), copies; None when the file had none
  // or merges changed the bodies (they do not follow merges yet).
  py::object types() const;
  py::object ids() const;
  // Every body an ID (0 to N-1) and the collisionless type: presets' and from_arrays' bodies.
  void number_bodies();
  // A file's types and IDs; numbered as above where it brings none (TIPSY, CSV, an older
  // snapshot), so that every Simulation's bodies have IDs.
  void take_labels(std::vector<std::uint8_t> types, std::vector<std::uint64_t> ids);
  // The bodies replaced by these (in the run's precision), with their types and IDs, keeping the
  // clock and settings (add() and remove()). Throws ValueError/TypeError as from_arrays does, and
  // for an ID given twice; the state is unchanged then.
  void replace_bodies(const py::object& pos, const py::object& vel, const py::object& mass,
                      const py::object& radius, const py::object& types, const py::object& ids,
                      const char* what);
  // Orrery's format, TIPSY (.tipsy) or CSV (.csv), by the name.
  void save(const std::string& path);

  // k steps, or steps until time t; the GIL is released while stepping and Ctrl-C stops between
  // steps (KeyboardInterrupt, the state that of the last whole step).
  void step(long long k);
  // progress: None or False (quiet), True (a line on stderr every 2 s) or a callable(time, t,
  // steps) called about every second between runs of steps.
  // save_every: None, K steps (an int), an interval of time (a float), or --save-every's text;
  // pattern: the series' file names (None: snapshot_%03d.hdf5).
  void integrate(double t, bool exact, const py::object& progress = py::none(),
                 const py::object& save_every = py::none(), const py::object& pattern = py::none());

  int n() const { return m_sim->bodies().n; }
  double time() const { return m_sim->time(); }
  long long steps() const { return m_sim->step_count(); }

  // float32 arrays, float64 in a double run.
  py::array positions();
  py::array velocities();
  py::array masses();
  py::array radii();
  void set_precision(const std::string& text);
  double next_dt() const { return m_sim->next_dt(); }
  long long floor_hits() const { return m_sim->floor_hits(); }
  // dt: a fixed step; none: the adaptive step ('auto'). dt_max and eta need the adaptive step.
  void set_dt(std::optional<double> dt);
  // dt_max and eta: a step row, refused without the adaptive step.
  void set_adaptive_param(const char* keyword, const ParamRow& row, double v);
  void set_positions(const py::object& a);
  void set_velocities(const py::object& a);
  void set_masses(const py::object& a);
  void set_radii(const py::object& a);
  py::array_t<float> accelerations();
  py::array_t<float> potentials();
  py::dict diagnostics();
  py::dict phases() const;
  double interactions_per_second() const;

  // Settings.
  const std::string& solver() const { return m_solver; }
  void set_solver(const std::string& name);
  int block() const { return m_sim->solver().block_size(); }
  void set_block(int block);
  int gpus() const { return m_gpus; }
  void set_gpus(int gpus);
  std::string integrator() const { return to_string(m_sim->integrator()); }
  void set_integrator(const std::string& name);
  const SimParams& params() const { return m_sim->params(); }
  // A parameter row's value, checked by the rules every setter shares.
  // keyword: what a refusal calls the value (the row's name where null).
  void set_param(const ParamRow& row, double v, const char* keyword = nullptr);
  // The walls' side; none: no walls.
  std::optional<float> box() const;
  void set_box(const std::optional<double>& v);
  void set_gravity(bool on);
  std::string collisions() const { return to_string(m_sim->params().collisions.mode); }
  void set_collisions(const std::string& mode);
  bool time_reversed() const { return m_sim->time_reversed(); }
  void set_time_reversed(bool r);
  std::string config() const { return m_sim->solver().config(); }
  std::string repr() const;
  // The run as a snapshot records it (for show() and save()).
  Snapshot snapshot();
  // Replaces the state and the settings with a snapshot's (show() brings the viewer's back).
  void restore(const Snapshot& s);
  // The units of the state's numbers (sim.units; docs/python.md).
  const UnitSystem& units() const { return m_sim->units(); }
  // What a load read of a file besides its bodies (sim.file_info): none for a preset or arrays.
  struct FileInfo {
    std::string path, format, note;
    double time = 0, redshift = 0, box_size = 0;
    long long counts[6] = {};  // bodies of each GADGET particle type (all type 1 in none)
  };
  const std::optional<FileInfo>& file_info() const { return m_file; }
  // What guard.h's bindings hold through every call.
  std::recursive_mutex& lock() { return m_lock; }

 private:
  void rebuild_solver(const std::string& name, int block, int gpus);
  // New arrays into the state, keeping the clock and the collision totals.
  void replace_state(const BodyState& s);
  // Column `first` on (0-2: x, y, z; 3: w, cols of them) of the positions (which 0) or velocities
  // (1) from `a`, in the run's precision (a double run keeps the doubles given).
  void set_columns(int which, int first, int cols, const char* name, const py::object& a,
                   bool nonneg);
  bool doubles() const;
  py::array state_column(bool velocities, bool w);
  // k steps, or fewer where the time reaches `until`.
  // Where integrate() tells its progress (py_stepping.cpp).
  class Progress {
   public:
    Progress(const py::object& how, double target);
    void report(PySimulation& sim);  // between runs, the GIL held

   private:
    py::object m_call;  // none: print
    double m_target;
    std::chrono::steady_clock::time_point m_start, m_last;
  };
  void integrate_to(double t, bool exact, const py::object& progress);
  void run_steps(long long k, std::optional<double> until = std::nullopt,
                 Progress* progress = nullptr);
  void check_finite();

  std::recursive_mutex m_lock;
  std::unique_ptr<Simulation> m_sim;
  std::optional<FileInfo> m_file;
  std::string m_solver;
  int m_block_asked = 0, m_gpus = 1;
  // The last step() or integrate(): steps, wall seconds, interactions, phase times.
  long long m_last_steps = 0;
  SeriesWriter* m_series = nullptr;  // an integrate() call's series, written after each step
  double m_last_seconds = 0, m_last_interactions = 0;
  PhaseTimes m_last_phases;
};

}  // namespace orrery::python
