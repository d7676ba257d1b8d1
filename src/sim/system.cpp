// The System: the step pipeline over host or device storage - gravity module, integrator,
// diagnostics, phase timers, time and step count.
#include "orrery/system.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "orrery/device.h"
#include "stage_ops.h"

namespace orrery {
namespace {

class HostStorage final : public BodyStorage {
 public:
  explicit HostStorage(const BodyState& s)
      : m_pos{s.pos, std::vector<Vec4>(s.pos.size(), Vec4{NAN, NAN, NAN, NAN})}, m_vel(s.vel) {}
  int count() const override { return static_cast<int>(m_vel.size()); }
  bool on_device() const override { return false; }
  void run(int steps, const StepArrays& run) override {
    run(m_pos[m_cur].data(), m_pos[1 - m_cur].data(), m_vel.data());
    if (steps % 2) m_cur = 1 - m_cur;
  }
  void view(const StateView& view) override { view(m_pos[m_cur].data(), m_vel.data()); }
  BodyState download() override { return BodyState{m_pos[m_cur], m_vel}; }
  void set_count(int n) override {
    for (auto& p : m_pos) p.resize(static_cast<std::size_t>(n));
    m_vel.resize(static_cast<std::size_t>(n));
  }

 private:
  std::vector<Vec4> m_pos[2], m_vel;
  int m_cur = 0;
};

class DeviceStorage final : public BodyStorage {
 public:
  explicit DeviceStorage(const BodyState& s) : m_n(s.size()) {
    const std::vector<Vec4> poison(static_cast<std::size_t>(m_n), Vec4{NAN, NAN, NAN, NAN});
    for (DeviceArray& a : m_pos) a = DeviceArray(static_cast<std::size_t>(m_n));
    m_vel = DeviceArray(static_cast<std::size_t>(m_n));
    m_pos[0].upload(s.pos.data(), s.pos.size());
    m_pos[1].upload(poison.data(), poison.size());
    m_vel.upload(s.vel.data(), s.vel.size());
  }
  int count() const override { return m_n; }
  bool on_device() const override { return true; }
  void run(int steps, const StepArrays& run) override {
    run(m_pos[m_cur].data(), m_pos[1 - m_cur].data(), m_vel.data());
    if (steps % 2) m_cur = 1 - m_cur;
  }
  void view(const StateView& view) override { view(m_pos[m_cur].data(), m_vel.data()); }
  BodyState download() override {
    BodyState s{std::vector<Vec4>(static_cast<std::size_t>(m_n)),
                std::vector<Vec4>(static_cast<std::size_t>(m_n))};
    device_synchronize();
    m_pos[m_cur].download(s.pos.data(), s.pos.size());
    m_vel.download(s.vel.data(), s.vel.size());
    return s;
  }
  void set_count(int n) override { m_n = std::min(m_n, n); }

 private:
  int m_n;
  DeviceArray m_pos[2], m_vel;
  int m_cur = 0;
};

Vec3d vec(const double (&v)[3]) { return Vec3d{v[0], v[1], v[2]}; }

Vec3d centre(const Sums& s) {
  return s.mass > 0 ? Vec3d{s.mr[0] / s.mass, s.mr[1] / s.mass, s.mr[2] / s.mass} : Vec3d{};
}
Vec3d minus(const Vec3d& a, const Vec3d& b) { return Vec3d{a.x - b.x, a.y - b.y, a.z - b.z}; }

}  // namespace

std::unique_ptr<BodyStorage> make_host_storage(const BodyState& s) {
  return std::make_unique<HostStorage>(s);
}

std::unique_ptr<BodyStorage> make_device_storage(const BodyState& s) {
  require_device();
  return std::make_unique<DeviceStorage>(s);
}

std::unique_ptr<BodyStorage> make_storage_for(const Solver& gravity, const BodyState& s) {
  return gravity.on_device() ? make_device_storage(s) : make_host_storage(s);
}

double Diagnostics::virial() const {
  return potential != 0.0 ? 2.0 * kinetic / std::fabs(potential) : 0.0;
}

Drift drift(const Diagnostics& a, const Diagnostics& b) {
  Drift d;
  const double e0 = a.total();
  d.energy = e0 != 0.0 ? (b.total() - e0) / std::fabs(e0) : b.total() - e0;
  const double pscale = std::max(a.momentum_scale, 1e-300);
  d.momentum = length(minus(b.momentum, a.momentum)) / pscale;
  const double l0 = length(a.angular_momentum);
  d.angular_momentum = length(minus(b.angular_momentum, a.angular_momentum)) / (l0 > 0 ? l0 : 1.0);
  return d;
}

void Sums::add(const Sums& o) {
  mass += o.mass, kinetic += o.kinetic, potential2 += o.potential2;
  momentum_scale += o.momentum_scale;
  for (int k = 0; k < 3; ++k) p[k] += o.p[k], l[k] += o.l[k], mr[k] += o.mr[k];
}

Sums host_sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) {
  Sums s;
  for (int i = 0; i < n; ++i) {
    const double m = pos[i].w, x = pos[i].x, y = pos[i].y, z = pos[i].z;
    const double vx = vel[i].x, vy = vel[i].y, vz = vel[i].z;
    const double v2 = vx * vx + vy * vy + vz * vz;
    s.mass += m;
    s.kinetic += 0.5 * m * v2;
    if (pot) s.potential2 += m * pot[i].w;
    s.momentum_scale += m * std::sqrt(v2);
    s.p[0] += m * vx, s.p[1] += m * vy, s.p[2] += m * vz;
    s.l[0] += m * (y * vz - z * vy), s.l[1] += m * (z * vx - x * vz),
        s.l[2] += m * (x * vy - y * vx);
    s.mr[0] += m * x, s.mr[1] += m * y, s.mr[2] += m * z;
  }
  return s;
}

// Scratch owned by the System: the accelerations of the newest positions (kept between leapfrog
// steps), the potentials of the diagnostics, and the device reducer; on the gravity module's side.
struct System::Scratch {
  bool device = false;
  int n = 0;
  std::vector<Vec4> host_acc, host_pot;
  DeviceArray dev_acc, dev_pot;
  std::unique_ptr<DeviceReducer> reducer;
  std::unique_ptr<DeviceFields> fields;  // made on first use (density, one body's acceleration)
  Vec4* acc() { return device ? dev_acc.data() : host_acc.data(); }
  Vec4* pot() { return device ? dev_pot.data() : host_pot.data(); }
};

System::System(std::shared_ptr<BodyStorage> storage, std::unique_ptr<Solver> gravity,
               Integrator integrator, const SimParams& params)
    : m_storage(std::move(storage)),
      m_gravity(std::move(gravity)),
      m_integrator(integrator),
      m_params(params),
      m_scratch(std::make_unique<Scratch>()) {
  check_pair(integrator, params);
  attach_phases(true);
}

System::~System() = default;

void System::check_pair(Integrator integrator, const SimParams& params) const {
  validate(params);
  check_integrator(integrator, params);
}

void System::set_storage(std::shared_ptr<BodyStorage> storage) {
  m_storage = std::move(storage);
  m_time = 0.0;
  m_steps = 0;
  m_acc_valid = false;
  if (m_collider) m_collider->reset_totals();
  m_totals_before = CollisionTotals{};
}

// Gives the gravity module the phase timer, a new one when the module runs on the other side
// (CUDA events or the clock) than the timer, the old one's marks dropped.
void System::attach_phases(bool fresh) {
  if (fresh || m_phases->on_device() != m_gravity->on_device()) {
    if (m_phases && m_phases->pending()) m_phases->take();
    m_phases = std::make_unique<PhaseTimer>(m_gravity->on_device());
  }
  m_gravity->set_phases(m_phases.get());
}

void System::set_gravity(std::unique_ptr<Solver> gravity) {
  m_gravity = std::move(gravity);
  m_acc_valid = false;
  attach_phases(false);
}

void System::set_integrator(Integrator integrator) {
  check_pair(integrator, m_params);
  m_integrator = integrator;
  m_acc_valid = false;
}

void System::set_params(const SimParams& params) {
  check_pair(m_integrator, params);
  if (params.softening != m_params.softening || params.gravity != m_params.gravity)
    m_acc_valid = false;
  m_params = params;
}

void System::set_time_reversed(bool reversed) { m_reversed = reversed; }

void System::state_changed() { m_acc_valid = false; }

void System::ensure_scratch(int n) {
  Scratch& s = *m_scratch;
  const bool device = m_gravity->on_device();
  if (s.device == device && s.n >= n) return;
  s = Scratch{};
  s.device = device;
  s.n = n;
  if (device) {
    s.dev_acc = DeviceArray(static_cast<std::size_t>(n));
    s.dev_pot = DeviceArray(static_cast<std::size_t>(n));
    s.reducer = std::make_unique<DeviceReducer>();
  } else {
    s.host_acc.assign(static_cast<std::size_t>(n), Vec4{0, 0, 0, 0});
    s.host_pot.assign(static_cast<std::size_t>(n), Vec4{0, 0, 0, 0});
  }
  m_acc_valid = false;
}

void System::forces(const Vec4* pos, int n) {
  m_phases->begin(Phase::force);
  m_gravity->accelerations(pos, m_scratch->acc(), n, m_params);
  ++m_last_evals;
}

Collider& System::collider() {
  const bool dev = m_gravity->on_device();
  if (!m_collider || m_collider->on_device() != dev) {
    if (m_collider) m_totals_before.add(m_collider->totals());  // this run's, across the change
    m_collider = dev ? make_device_collider() : make_host_collider();
  }
  m_collider->set_phases(m_phases.get());
  return *m_collider;
}

// The collision stage on the newest positions (after the drift), in place; n shrinks with merges.
void System::collide(Vec4* pos, Vec4* vel, int& n) {
  const CollisionParams& c = m_params.collisions;
  if (c.mode == CollisionMode::off && c.box == 0.0f) return;
  n = collider().resolve(pos, vel, n, c, m_params.gravity ? m_params.softening : 0.0f);
}

// One step, in -> out (out != in), velocities in place; n shrinks with merges.
void System::step_once(const Vec4* in, Vec4* out, Vec4* vel, int& n) {
  const bool dev = m_gravity->on_device();
  auto kick = dev ? device_kick : host_kick;
  auto drift = dev ? device_drift : host_drift;
  Vec4* acc = m_scratch->acc();
  const float dt = m_reversed ? -m_params.dt : m_params.dt;
  m_last_evals = 0;
  if (!m_params.gravity) {  // no forces: every integrator is the drift (euler damps as well)
    m_phases->begin(Phase::integrate);
    if (m_integrator == Integrator::euler && m_params.damping < 1.0f) {
      (dev ? device_zero : host_zero)(acc, n);
      (dev ? device_euler : host_euler)(in, out, vel, acc, n, dt, m_params.damping);
    } else {
      drift(in, out, vel, n, dt);
    }
    collide(out, vel, n);
    m_acc_valid = false;
    return;
  }
  switch (m_integrator) {
    case Integrator::euler:  // the seed's fused launch
      m_phases->begin(Phase::force_integrate);
      if (m_reversed) {
        SimParams back = m_params;
        back.dt = dt;
        m_gravity->step(in, out, vel, n, back);
      } else {
        m_gravity->step(in, out, vel, n, m_params);
      }
      m_last_evals = 1;
      m_acc_valid = false;
      collide(out, vel, n);
      return;
    case Integrator::leapfrog:  // kick dt/2, drift dt, (collisions), kick dt/2
      if (!m_acc_valid) forces(in, n);
      m_phases->begin(Phase::integrate);
      kick(vel, acc, n, 0.5f * dt);
      drift(in, out, vel, n, dt);
      collide(out, vel, n);
      forces(out, n);
      m_phases->begin(Phase::integrate);
      kick(vel, acc, n, 0.5f * dt);
      m_acc_valid = true;  // the forces of `out`, the next step's first kick
      return;
    case Integrator::yoshida4: {  // drift-kick-drift leapfrogs of w1 dt, w0 dt, w1 dt
      const double w1 = yoshida_w1(), w0 = yoshida_w0();
      const float d1 = static_cast<float>(0.5 * w1 * dt),
                  d2 = static_cast<float>(0.5 * (w0 + w1) * dt);
      m_phases->begin(Phase::integrate);
      drift(in, out, vel, n, d1);
      forces(out, n);
      m_phases->begin(Phase::integrate);
      kick(vel, acc, n, static_cast<float>(w1 * dt));
      drift(out, out, vel, n, d2);
      forces(out, n);
      m_phases->begin(Phase::integrate);
      kick(vel, acc, n, static_cast<float>(w0 * dt));
      drift(out, out, vel, n, d2);
      forces(out, n);
      m_phases->begin(Phase::integrate);
      kick(vel, acc, n, static_cast<float>(w1 * dt));
      drift(out, out, vel, n, d1);
      m_acc_valid = false;
      collide(out, vel, n);
      return;
    }
  }
}

int System::step_arrays(Vec4* a, Vec4* b, Vec4* vel, int& n, int steps,
                        const AfterStep& after_each) {
  if (n < 1) throw std::invalid_argument("the system has no bodies");
  ensure_scratch(n);
  int done = 0;
  for (int k = 0; k < steps; ++k) {
    Vec4* in = k % 2 ? b : a;
    Vec4* out = k % 2 ? a : b;
    step_once(in, out, vel, n);
    done = k + 1;
    if (after_each) {
      m_phases->end();  // the check is no phase of the step
      if (!after_each(done, out, vel)) break;
    }
  }
  m_phases->end();
  return done;
}

void System::account(int steps) {
  m_steps += steps;
  m_time += static_cast<double>(steps) * (m_reversed ? -m_params.dt : m_params.dt);
}

void System::advance(int steps, const StateView& before, const StateView& after) {
  if (steps < 1) return;
  m_storage->run(steps, [&](Vec4* a, Vec4* b, Vec4* vel) {
    if (before) before(a, vel);
    int n = m_storage->count();
    step_arrays(a, b, vel, n, steps);
    if (n != m_storage->count()) m_storage->set_count(n);
    if (after) after(steps % 2 ? b : a, vel);
  });
  account(steps);
}

void System::quantity(Quantity q, const Vec4* pos, const Vec4* vel, int n, float* out) {
  if (n <= 0) return;
  ensure_scratch(n);
  Scratch& s = *m_scratch;
  const bool dev = s.device;
  switch (q) {
    case Quantity::speed:
      return (dev ? device_speeds : host_speeds)(vel, n, out);
    case Quantity::mass:
      return (dev ? device_masses : host_masses)(pos, n, out);
    case Quantity::density:
      if (!dev) return host_density(pos, n, out);
      if (!s.fields) s.fields = std::make_unique<DeviceFields>();
      return s.fields->density(pos, n, out);
    case Quantity::acceleration:
    case Quantity::potential: {
      // Not a step's work: the module's own phase marks (tree codes) stay out of the step's.
      m_gravity->set_phases(nullptr);
      try {
        if (q == Quantity::potential) {
          m_gravity->potentials(pos, s.pot(), n, m_params);
          (dev ? device_depths : host_depths)(s.pot(), n, out);
        } else if (m_acc_valid || !m_params.gravity) {
          if (!m_params.gravity) (dev ? device_zero : host_zero)(s.pot(), n);
          (dev ? device_magnitudes : host_magnitudes)(m_params.gravity ? s.acc() : s.pot(), n, out);
        } else {
          m_gravity->accelerations(pos, s.pot(), n, m_params);
          (dev ? device_magnitudes : host_magnitudes)(s.pot(), n, out);
        }
      } catch (...) {
        m_gravity->set_phases(m_phases.get());
        throw;
      }
      m_gravity->set_phases(m_phases.get());
      return;
    }
    case Quantity::origin:
      break;
  }
  throw std::logic_error("System::quantity: origin is a label the caller keeps");
}

Vec3 System::body_acceleration(const Vec4* pos, int n, int i) {
  ensure_scratch(n);
  Scratch& s = *m_scratch;
  if (!s.device) return host_body_acceleration(pos, n, i, m_params.softening);
  if (!s.fields) s.fields = std::make_unique<DeviceFields>();
  return s.fields->body_acceleration(pos, n, i, m_params.softening);
}

Vec3d System::centre_of_mass(const Vec4* pos, const Vec4* vel, int n) {
  ensure_scratch(n);
  Scratch& s = *m_scratch;
  return centre(s.device ? s.reducer->sums(pos, vel, nullptr, n) : host_sums(pos, vel, nullptr, n));
}

Diagnostics System::measure() {
  Diagnostics d;
  m_storage->view(
      [&](const Vec4* pos, const Vec4* vel) { d = measure_arrays(pos, vel, m_storage->count()); });
  return d;
}

Diagnostics System::measure_arrays(const Vec4* pos, const Vec4* vel, int n) {
  const auto t0 = std::chrono::steady_clock::now();
  ensure_scratch(n);
  m_phases->begin(Phase::diagnostics);
  Sums s;
  if (!m_params.gravity) {  // no potential energy
    s = m_scratch->device ? m_scratch->reducer->sums(pos, vel, nullptr, n)
                          : host_sums(pos, vel, nullptr, n);
  } else if (m_scratch->device && m_gravity->all_pairs()) {
    s = m_scratch->reducer->sums(pos, vel, nullptr, n);
    s.potential2 = 2.0 * m_scratch->reducer->pair_potential_energy(pos, n, m_params.softening);
  } else {
    m_gravity->potentials(pos, m_scratch->pot(), n, m_params);
    s = m_scratch->device ? m_scratch->reducer->sums(pos, vel, m_scratch->pot(), n)
                          : host_sums(pos, vel, m_scratch->pot(), n);
  }
  m_phases->end();
  Diagnostics d;
  d.mass = s.mass;
  d.kinetic = s.kinetic;
  d.potential = 0.5 * s.potential2;
  d.momentum = vec(s.p);
  d.angular_momentum = vec(s.l);
  d.centre_of_mass = centre(s);
  d.momentum_scale = s.momentum_scale;
  d.bodies = n;
  d.energy_offset = collision_totals().energy_offset;
  d.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return d;
}

RunState System::run_state() {
  RunState r;
  r.time = m_time;
  r.steps = m_steps;
  r.solver = m_gravity->name();
  r.integrator = m_integrator;
  r.params = m_params;
  r.time_reversed = m_reversed;
  r.totals = collision_totals();
  return r;
}

void System::resume(const RunState& r) {
  m_time = r.time;
  m_steps = r.steps;
  m_reversed = r.time_reversed;
  if (m_collider) m_collider->reset_totals();
  m_totals_before = r.totals;
}

CollisionTotals System::collision_totals() {
  CollisionTotals t = m_totals_before;
  if (m_collider) t.add(m_collider->totals());
  return t;
}

std::vector<Contact> System::contacts() {
  std::vector<Contact> out;
  m_storage->view([&](const Vec4* pos, const Vec4* vel) {
    out = collider().find_contacts(pos, vel, m_storage->count());
  });
  return out;
}

double System::interactions_per_step(int n) const {
  if (!m_params.gravity) return 0.0;
  const int evals = m_last_evals > 0 ? m_last_evals : force_evaluations(m_integrator);
  return evals * m_gravity->interactions(n);
}

}  // namespace orrery
