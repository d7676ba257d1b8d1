// The Simulation: one SimParams, the state, a solver, an integrator and a collider (chosen
// independently, as REBOUND's modules are), the diagnostics, the phase timers, time and step
// count. step() runs on the state it owns or on storage a caller lends for the call (orrery/
// bodies.h); nothing here knows who lent it or calls back to them. The Runner (orrery/runner.h)
// is the one loop around step().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "orrery/bodies.h"
#include "orrery/collisions.h"
#include "orrery/diagnostics.h"
#include "orrery/fields.h"
#include "orrery/integrators.h"
#include "orrery/no_copy.h"
#include "orrery/phases.h"
#include "orrery/presets.h"
#include "orrery/run_state.h"
#include "orrery/solver.h"

namespace orrery {

class Backend;
class DoubleBackend;
template <class V>
class ElementPasses;

// Throws InputError with one line when the run's precision cannot be had with this module and
// these parameters: double needs a module with a double path and no collision stage or walls.
void check_precision(const Solver& solver, const SimParams& p);
// The same rule for callers that check before a module is built: its name and whether it has a
// double path (SolverInfo::doubles).
void check_precision(const std::string& solver, bool has_double, const SimParams& p);

class Simulation : NoCopy {
 public:
  // Throws InputError when the integrator refuses the parameters (damping with a symplectic one),
  // std::runtime_error for a GPU module with no device.
  Simulation(std::unique_ptr<Solver> solver, Integrator integrator, const SimParams& params);
  // The same, holding `state` on the module's side (host or device memory).
  Simulation(const BodyState& state, std::unique_ptr<Solver> solver, Integrator integrator,
             const SimParams& params);
  ~Simulation();

  // The state the Simulation owns: replaced by set_state() (a new run: time and step count go
  // back to 0); bodies() are its arrays (bodies().pos the newest positions), state() a host copy.
  // In double precision the run's state is held in double beside the float arrays, which become
  // its float view (rounded after each call's steps): set_state() takes a state's doubles where
  // it has them, lent arrays are widened on their first step (and after state_changed()), and
  // state() gives the doubles too (exact_state()).
  void set_state(const BodyState& s);
  Bodies& bodies() { return m_own; }
  BodyState state();
  // The same into `into`, its vectors reused where they have the room (a viewer that fetches a
  // large state each frame then touches no fresh pages).
  void state_into(BodyState& into);
  // A host copy of lent arrays of this side (waits for the device).
  BodyState state(const Bodies& b);
  // In double precision: the doubles of a state whose float rounding the caller just lent or
  // loaded (a file's), stepped next instead of widening the floats; nothing in single precision
  // or when `s` has no doubles. And, in double precision, the run's doubles into s.pos64 and
  // s.vel64 (s's floats widened where it holds none yet, as its next step would). Both wait.
  void set_exact_state(const BodyState& s);
  void exact_state(BodyState& s);

  // k steps (k >= 0) of the owned state, or of arrays a caller lends (on the solver's
  // side): b.pos ends holding the newest positions, b.n the bodies left (merges). Counts the steps
  // and the time. Throws std::runtime_error, after the steps that did advance it, where a step
  // would leave the time unchanged (a time so large that the step is below its rounding).
  void step(int k = 1) { step(k, m_own); }
  void step(int k, Bodies& b);

  // Replacements. A new solver must run on the side of the arrays stepped next: the owned
  // state moves with it. set_integrator and set_params throw InputError (keeping the old value)
  // when the integrator refuses the parameters, or time runs backwards where it cannot.
  void set_solver(std::unique_ptr<Solver> solver);
  void set_integrator(Integrator integrator);
  void set_params(const SimParams& params);
  // The one set of rules both setters apply (the parameters' rows, the solver's precision, the
  // integrator's rows, reversal): throws InputError naming the first broken, for callers that
  // must check before they change anything (the viewer, while a worker steps this Simulation).
  void check(Integrator integrator, const SimParams& params, bool reversed) const;
  // Time runs backwards while set: every step uses -dt (the parameters keep dt > 0). Throws
  // InputError for euler with damping < 1, merges and the adaptive step (check_reversible).
  void set_time_reversed(bool reversed);
  bool time_reversed() const { return m_reversed; }
  // The state was replaced or restored from outside (a new or restored lent state): forces kept
  // from the last step no longer belong to it. `clock`: the time and step count it belongs to.
  struct Clock {
    double time = 0;
    long long steps = 0;
  };
  void state_changed();
  void state_changed(const Clock& clock);
  Clock clock() const { return Clock{m_time, m_steps}; }

  // Each body's row in the state as it was last set or marked: merges drop rows with their
  // bodies, so per-body labels a caller keeps (a file's particle types and IDs, a preset's
  // origins) follow them: label_now[k] = label_then[rows()[k]]. Kept from the first mark_rows()
  // on (on the device that reads n flags back after each step that merged); set_state() marks
  // them again. A caller that replaces lent arrays marks them itself.
  void mark_rows(int n);
  const std::vector<int>& rows() const { return m_rows; }
  // Labels of the state as set, for the bodies left; empty when `then` is, or when the rows
  // belong to another state (one that `then` does not cover).
  template <class T>
  std::vector<T> follow_rows(const std::vector<T>& then) const {
    std::vector<T> now;
    if (then.empty()) return now;
    // Merges only drop rows: as many rows as labels means none was dropped, and each row is its
    // own.
    if (m_rows.size() == then.size()) return then;
    now.reserve(m_rows.size());
    for (int r : m_rows) {
      if (r < 0 || static_cast<std::size_t>(r) >= then.size()) return {};
      now.push_back(then[static_cast<std::size_t>(r)]);
    }
    return now;
  }
  // A file's particle types and IDs (both or neither, one a body) for the state just set or
  // lent: marks the rows, and types() and ids() give them for the bodies left (empty: none, or
  // the state was replaced by one of another size). Empty vectors drop them. set_state() keeps them
  // for a state of the same bodies (their current order), drops them for another size. Throws
  // std::invalid_argument for sizes that do not match.
  void set_labels(std::vector<std::uint8_t> types, std::vector<std::uint64_t> ids);
  std::vector<std::uint8_t> types() const;
  std::vector<std::uint64_t> ids() const;
  // The units of the state's numbers (RunState::units): set with the state by whoever made it (a
  // file, a preset); resume() and follow() carry them.
  void set_units(const UnitSystem& u) { m_units = u; }
  const UnitSystem& units() const { return m_units; }

  // The run as a snapshot records it (block 0: the caller knows the block it asked for); waits.
  RunState run_state();
  // Continues a saved run on the current state: its time, step count, direction of time and
  // collision totals, and its units. The solver, integrator and parameters are the caller's to
  // set.
  void resume(const RunState& r);

  // Takes another Simulation's progress through the same run: its clock, direction of time, the
  // adaptive step's next size and floor count, the last step's size and evaluations, the
  // collision totals, and the rows with the labels they carry. Not the state, the solver, the
  // integrator or the parameters. The viewer steps a copy on a worker thread: the Simulation it
  // reads follows the copy when a run is published, and the copy follows it when seeded.
  void follow(Simulation& other);

  // What the collision stage has done since the state was set (waits for the device).
  CollisionTotals collision_totals();
  // The touching pairs of the given (or owned) state, through the collision stage's grid.
  std::vector<Contact> contacts(const Bodies& b);
  std::vector<Contact> contacts() { return contacts(m_own); }

  // Diagnostics of the given (or owned) state, timed as the `diagnostics` phase.
  Diagnostics measure(const Bodies& b);
  Diagnostics measure() { return measure(m_own); }
  // The first body with a non-finite position or velocity, or -1 (waits).
  long long first_nonfinite(const Bodies& b);

  // out[i] = quantity q of body i (n floats on the module's side): speed, mass and density from
  // the state; the acceleration from the module (the last step's own where it kept them for these
  // positions, else one more evaluation, not timed as a step); the potential depth from the
  // module's potentials(). Origin is not the Simulation's: std::logic_error.
  void quantity(Quantity q, const Bodies& b, float* out);
  // The same into host memory, wherever the state is; with `stride` > 1 only a sample, bodies 0,
  // stride, 2 stride, ... (out holds (n + stride - 1) / stride floats): a colour range's fit
  // needs no more, and 16M bodies' values are 64 MB to copy.
  void quantity_to_host(Quantity q, const Bodies& b, float* out, int stride = 1);
  // Every body's acceleration (x, y, z; w 0) or potential (w; x, y, z 0) from the module, as a
  // step sees them (the last step's own accelerations where it kept them for these positions),
  // copied to host memory (waits). Not timed as a step.
  enum class Field { acceleration, potential };
  std::vector<Vec4> field_to_host(Field f, const Bodies& b);
  // Body i's position, velocity and direct-sum acceleration (in double, at the run's softening,
  // whatever the solver), and the bodies' centre of mass. Both wait for the device.
  struct BodyReading {
    Vec4 pos, vel;
    Vec3 acc;
  };
  BodyReading read_body(const Bodies& b, int i);
  Vec3d centre_of_mass(const Bodies& b);
  // An even sample of the positions, at most `max` of them (every body where n <= max).
  std::vector<Vec4> sample_positions(const Bodies& b, std::size_t max);

  Solver& solver() { return *m_solver; }
  const Solver& solver() const { return *m_solver; }
  bool on_device() const;
  Integrator integrator() const { return m_integrator; }
  const SimParams& params() const { return m_params; }
  double time() const { return m_time; }
  long long step_count() const { return m_steps; }
  PhaseTimer& phases() { return *m_phases; }
  // The adaptive step (SimParams::adaptive; docs/physics.md): each step's size comes from the
  // state. After a step the next one is eta |t2 - t1| / rate, where rate = max_i |a_i(t2) -
  // a_i(t1)| / (|a_i(t2)| + mean_k |a_k(t2)|) over the step's last two force evaluations (at t1
  // and t2), at most twice the last step and at most dt; a run's first step (and the first after
  // a new state or new forces) is eta / max_i (|a_i| / (|v_i| + mean |v|)) (eta dt from rest).
  // Never below eta sqrt(eps^3 / M) (M the total mass: no softened force changes faster), and
  // below k_min_dt_fraction dt the floor holds and floor_hits() counts it. Fixed steps: dt.
  double next_dt() const;
  // dt as the run steps by it: a double run's own, a single run's float rounding.
  double fixed_step() const;
  double last_dt() const { return m_last_dt; }  // the last step's size (> 0), 0 before any
  long long floor_hits() const { return m_floor_hits; }
  // While set, an adaptive step ends no later than `t` (the last one shortened to land on it) and
  // step() stops there: at_stop() says it has. Fixed steps ignore it.
  void set_stop_time(std::optional<double> t) { m_stop = t; }
  bool at_stop() const { return m_params.adaptive && m_stop && m_time >= *m_stop; }

  // Force evaluations of the last step (leapfrog reuses the previous step's last one), and the
  // body-body interactions they did, from the solver.
  int last_evaluations() const { return m_last_evals; }
  double interactions_per_step(int n) const;
  // The collision stage on the module's side (made on first use).
  Collider& collider();

 private:
  // The passes an integrator steps with, over one step's arrays in the run's precision
  // (PassesOf<Vec4> or PassesOf<Vec4d>), and what the adaptive step measures through them: the
  // rate at the start (forces against velocities) or between the last two evaluations
  // (step_rate.h), the swap before an evaluation, the total mass.
  class Passes : public StepPasses {
   public:
    virtual double rate(bool start) = 0;
    virtual void swap_acc() = 0;
    virtual double total_mass() = 0;
  };
  template <class V>
  class PassesOf;
  void attach_phases(bool fresh);
  // One step, in -> out (out != in), velocities in place, through the passes of the run's
  // precision; n shrinks with merges.
  // Returns false, stepping nothing, when the step would leave the time unchanged (its size below
  // the time's rounding: a time of ~1e17 with dt 0.01); step() then throws, naming both.
  template <class V>
  bool step_once(ElementPasses<V>& ops, const V* in, V* out, V* vel, int& n);
  // A restart's memory into the accelerations, where it is of these n bodies.
  template <class V>
  void recall(ElementPasses<V>& ops, int n);
  [[noreturn]] void throw_clock_stopped(int done) const;
  // The adaptive step: this step's planned size (the first estimated from the forces at the
  // step's input, which it keeps), shortened to land on the stop time, and after the step the
  // next one's; a force evaluation about to run `offset` after the step's start (with the
  // adaptive step: the last evaluation's forces kept, its time noted); the evaluations forgotten
  // (new forces, a new state).
  double begin_step(Passes& passes);
  double until_stop(double planned) const;
  void end_step(Passes& passes, double planned, double h);
  double bounded_step(double h);
  void before_evaluation(Passes& passes, double offset);
  void forget_forces();
  // Whether the backend's float accelerations are the forces of the newest positions (the
  // integrator kept them, in a single-precision run).
  bool float_forces_kept() const;
  bool is_double() const { return m_params.precision == Precision::double_; }
  // The double state of the arrays `b` (widened from them unless held already).
  DoubleBackend& hold_double(const Bodies& b);

  std::unique_ptr<Solver> m_solver;
  std::unique_ptr<Backend> m_backend;  // on the solver's side
  Integrator m_integrator;
  std::unique_ptr<IntegratorScheme> m_scheme;
  SimParams m_params;
  std::unique_ptr<PhaseTimer> m_phases;
  std::unique_ptr<Collider> m_collider;  // made on the module's side when first needed
  CollisionTotals m_totals_before;       // a replaced collider's totals of this run
  Bodies m_own;
  double m_time = 0.0;
  long long m_steps = 0;
  // The fixed step's clock: the time its count began at, the steps since, the signed step, and
  // the time it last set (another time means someone else set it: a new count).
  struct FixedClock {
    double origin = 0.0;
    long long count = 0;
    double step = 0.0, last = 0.0;
  };
  FixedClock m_clock;
  bool m_reversed = false;
  // The velocities before the step in flight (host memory): a step that throws puts them back.
  std::vector<Vec4> m_vel_kept;
  std::vector<Vec4d> m_vel64_kept;
  std::unique_ptr<DoubleBackend> m_double;  // the double state, on the module's side
  bool m_double_held = false;               // m_double holds the state stepped next
  int m_last_evals = 0;
  // The adaptive step: the next step's size (0: to be estimated), the last one's, the floor's
  // count; the times of the last two force evaluations (acc and prev_acc) and how many are known.
  double m_dt_next = 0.0, m_last_dt = 0.0;
  long long m_floor_hits = 0;
  double m_eval_time = 0.0, m_prev_eval_time = 0.0;
  int m_known_evals = 0, m_eval_n = 0;  // m_eval_n: the bodies of the last evaluation
  // A restart's memory (RunState::last_acc), put back into the accelerations at the next step.
  double m_memory_time = 0.0;
  std::vector<Vec4> m_memory;
  std::vector<Vec4d> m_memory64;
  double m_total_mass = -1.0;  // the state's (merges keep it); < 0: not measured yet
  // The solver's sources (Solver::set_sources) at m_sources_n bodies; counted again when N
  // changes, at merges and at state_changed() (-1).
  int m_sources = 0, m_sources_n = -1;
  // Tells the solver its sources before a pass at n bodies, counting them with `count` (a
  // backend's sources()) when not known.
  template <class Count>
  void aim_solver(int n, Count count) {
    if (m_sources_n != n) m_sources = count(), m_sources_n = n;
    m_solver->set_sources(m_sources, n);
  }
  std::optional<double> m_stop;
  std::vector<int> m_rows;
  bool m_keep_rows = false;
  std::vector<std::uint8_t> m_types;  // as set: rows() index them
  std::vector<std::uint64_t> m_ids;
  UnitSystem m_units;
};

}  // namespace orrery
