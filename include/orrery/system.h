// The step pipeline: one System owns the step - the body storage, a gravity module, an
// integrator, the diagnostics, the phase timers, the simulation time and the step count. The
// viewer, orrery-bench, the block-size sweep and the tests all step through it.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "orrery/diagnostics.h"
#include "orrery/fields.h"
#include "orrery/integrators.h"
#include "orrery/phases.h"
#include "orrery/presets.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

namespace orrery {

// Runs every step of a call: positions ping-pong a -> b -> a ... (velocities in place); the
// newest positions end in b after an odd number of steps, in a after an even one.
using StepArrays = std::function<void(Vec4* a, Vec4* b, Vec4* vel)>;
// Reads the newest state in place.
using StateView = std::function<void(const Vec4* pos, const Vec4* vel)>;

// Where the bodies live: host arrays, device arrays, or (supplied by gfx/) the viewer's mapped GL
// buffers. Pointers are host pointers when on_device() is false, device pointers otherwise.
class BodyStorage {
 public:
  virtual ~BodyStorage() = default;
  virtual int count() const = 0;
  virtual bool on_device() const = 0;
  // Gives `run` the arrays for `steps` steps (a holds the newest positions), then makes the
  // newest positions current (and, for GL buffers, publishes them to the renderer).
  virtual void run(int steps, const StepArrays& run) = 0;
  // Gives `view` the newest state without changing it.
  virtual void view(const StateView& view) = 0;
  // A host copy of the newest state.
  virtual BodyState download() = 0;
  // Bodies left the simulation (merges): the first n (n <= count()) are kept. Called inside run()
  // after the steps, or between runs.
  virtual void set_count(int n) = 0;
};

// Host vectors (CPU solvers), or device arrays (GPU solvers; throws with no device). The buffer
// the first step writes starts as NaN, so a body a step fails to write cannot pass.
std::unique_ptr<BodyStorage> make_host_storage(const BodyState& s);
std::unique_ptr<BodyStorage> make_device_storage(const BodyState& s);
// The one a gravity module runs on.
std::unique_ptr<BodyStorage> make_storage_for(const Solver& gravity, const BodyState& s);

// Diagnostics of one state, summed in double (GPU state: reductions on the device, no full host
// copy). The potential is softened with the run's eps.
struct Diagnostics {
  double mass = 0, kinetic = 0, potential = 0;
  double energy_offset = 0;  // the energy collisions removed so far (CollisionTotals)
  int bodies = 0;            // bodies in the simulation (merges remove some)
  Vec3d momentum, angular_momentum, centre_of_mass;
  double momentum_scale = 0;  // sum |m v|: what the total momentum is judged against
  double ms = 0;              // what measuring cost (wall clock, waiting for the device)
  // E + the collisions' offset: what is conserved.
  double total() const { return kinetic + potential + energy_offset; }
  double virial() const;  // 2K / |W|; 0 when W is 0
};

// Drift of a later state against an initial one: (E - E0)/|E0|, |P - P0| / momentum scale,
// |L - L0| / |L0| (absolute |L - L0| when L0 is 0).
struct Drift {
  double energy = 0, momentum = 0, angular_momentum = 0;
};
Drift drift(const Diagnostics& start, const Diagnostics& now);

// Called after each step of a run with the step's 1-based index and the newest positions; returning
// false stops the run there.
using AfterStep = std::function<bool(int step, const Vec4* pos, const Vec4* vel)>;

class System {
 public:
  // Throws InputError when the integrator refuses the parameters (damping with a symplectic one).
  // The storage may be null for a System used through step_arrays() alone.
  System(std::shared_ptr<BodyStorage> storage, std::unique_ptr<Solver> gravity,
         Integrator integrator, const SimParams& params);
  ~System();
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  // Replacements. The storage's state starts a new run: time and step count go back to 0. A new
  // gravity module must run on the storage's side (the caller moves the state first).
  void set_storage(std::shared_ptr<BodyStorage> storage);
  void set_gravity(std::unique_ptr<Solver> gravity);
  // Throw InputError (and keep the old value) when the integrator refuses the parameters.
  void set_integrator(Integrator integrator);
  void set_params(const SimParams& params);
  // Time runs backwards while set: every step uses -dt (the parameters keep dt > 0).
  void set_time_reversed(bool reversed);
  bool time_reversed() const { return m_reversed; }

  // `steps` steps of the storage's state; counts them. `before` and `after` (when set) read the
  // state before the first step and after the last, inside the storage's run (for GL buffers:
  // inside the frame's mapping, so device work on the state needs no second map).
  void advance(int steps, const StateView& before = {}, const StateView& after = {});
  // The steps on arrays the caller holds (the viewer's CPU worker): a holds the newest positions.
  // Returns the steps done (fewer when after_each stopped the run, or a control cancelled it);
  // n becomes the bodies left (merges move the survivors to the front). Counts nothing: account()
  // does, once the state is kept.
  int step_arrays(Vec4* a, Vec4* b, Vec4* vel, int& n, int steps, const AfterStep& after_each = {});
  void account(int steps);
  // The state was replaced or restored from outside (a cancelled run put it back): accelerations
  // kept from the last step no longer belong to it.
  void state_changed();

  // The run as a snapshot records it: time, steps, the gravity module's name, the integrator,
  // the parameters, the direction of time and the collision totals (block 0: the caller knows the
  // block it asked for). Waits for the device.
  RunState run_state();
  // Continues a saved run on the storage's state (after set_storage()): its time, step count,
  // direction of time and collision totals. The solver, integrator and parameters are the
  // caller's to set.
  void resume(const RunState& r);

  // What the collision stage has done since the state was set (waits for the device).
  CollisionTotals collision_totals();
  // The touching pairs of the newest state, through the collision stage's grid (no step).
  std::vector<Contact> contacts();
  // The collision stage on the gravity module's side (made on first use; replaced, its totals
  // kept, when the module moves to the other side).
  Collider& collider();

  // Diagnostics of the storage's newest state (timed as the `diagnostics` phase).
  Diagnostics measure();
  // The same on arrays the caller holds.
  Diagnostics measure_arrays(const Vec4* pos, const Vec4* vel, int n);

  // out[i] = quantity q of body i at (pos, vel), arrays on the gravity module's side: speed, mass
  // and density from the state; the acceleration from the module (the last step's own where it
  // kept them for these positions, else one more evaluation, not timed as a step); the potential
  // depth from the module's potentials(). Origin is not the System's: std::logic_error.
  void quantity(Quantity q, const Vec4* pos, const Vec4* vel, int n, float* out);
  // Body i's acceleration from every body at the parameters' softening, summed directly in double
  // (whatever the gravity module), and the bodies' centre of mass (the diagnostics' sums); arrays
  // on the gravity module's side. Both wait for the device.
  Vec3 body_acceleration(const Vec4* pos, int n, int i);
  Vec3d centre_of_mass(const Vec4* pos, const Vec4* vel, int n);

  BodyStorage& storage() { return *m_storage; }
  const std::shared_ptr<BodyStorage>& storage_ptr() const { return m_storage; }
  Solver& gravity() { return *m_gravity; }
  const Solver& gravity() const { return *m_gravity; }
  Integrator integrator() const { return m_integrator; }
  const SimParams& params() const { return m_params; }
  double time() const { return m_time; }
  long long step_count() const { return m_steps; }
  PhaseTimer& phases() { return *m_phases; }
  // Force evaluations of the last step (leapfrog reuses the previous step's last one), and the
  // body-body interactions they did, from the gravity module.
  int last_evaluations() const { return m_last_evals; }
  double interactions_per_step(int n) const;

 private:
  struct Scratch;
  void step_once(const Vec4* in, Vec4* out, Vec4* vel, int& n);
  void forces(const Vec4* pos, int n);
  void collide(Vec4* pos, Vec4* vel, int& n);
  void ensure_scratch(int n);
  void check_pair(Integrator integrator, const SimParams& params) const;
  void attach_phases(bool fresh);

  std::shared_ptr<BodyStorage> m_storage;
  std::unique_ptr<Solver> m_gravity;
  Integrator m_integrator;
  SimParams m_params;
  std::unique_ptr<PhaseTimer> m_phases;
  std::unique_ptr<Scratch> m_scratch;
  std::unique_ptr<Collider> m_collider;  // made on the gravity module's side when first needed
  CollisionTotals m_totals_before;       // a replaced collider's totals of this run
  double m_time = 0.0;
  long long m_steps = 0;
  bool m_reversed = false;
  bool m_acc_valid = false;  // the accelerations array holds those of the newest positions
  int m_last_evals = 0;
};

}  // namespace orrery
