// The Python Simulation: its state in and out as numpy arrays, stepping with the GIL released,
// and readings (its files are in py_files.cpp, the setters of its settings in py_settings.cpp).
#include "py_simulation.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "arrays.h"
#include "orrery/device.h"
#include "orrery/host_memory.h"
#include "orrery/presets.h"
#include "orrery/runner.h"

namespace orrery::python {

namespace {

// Host memory a body costs here: the state and the Simulation's scratch (positions twice,
// velocities, accelerations, potentials), a host copy while reading, and the arrays handed out.
// The checked float (T = double: double) copy of an array-like of shape (n, cols) (cols 1: shape
// (n,), or a scalar when `scalar_ok`); n < 0 takes any n >= 1. Throws TypeError for a dtype that
// is not a real number, ValueError for a shape, a non-finite value or (nonneg) a negative one.
template <class T = float>
std::vector<T> checked(const py::object& obj, const char* name, long long n, int cols, bool nonneg,
                       bool scalar_ok = false) {
  const char* as = sizeof(T) == 4 ? " (as float32)" : "";
  if (obj.is_none())
    throw py::type_error(std::string(name) + ": required (an array" +
                         (scalar_ok ? std::string(" or one number)") : std::string(")")));
  py::array a = py::array::ensure(obj);
  if (!a) throw py::type_error(std::string(name) + ": not an array or a sequence of numbers");
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(std::string(name) + ": dtype " + std::string(py::str(a.dtype())) +
                         " is not a real number (use float32 or float64)");
  if (sizeof(T) == 4 && kind == 'f' && a.itemsize() > 4) {  // beyond float32: not finite there
    using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
    const Doubles d = Doubles::ensure(a);
    for (py::ssize_t i = 0; d && i < d.size(); ++i)
      if (std::fabs(d.data()[i]) > std::numeric_limits<float>::max())
        throw py::value_error(std::string(name) + ": element " + std::to_string(i / cols) +
                              " is not finite (as float32)");
  }
  using Floats = py::array_t<T, py::array::c_style | py::array::forcecast>;
  Floats f = Floats::ensure(a);
  if (!f)
    throw py::type_error(std::string(name) + ": cannot be read as " +
                         (sizeof(T) == 4 ? "float32" : "float64"));
  const bool scalar = f.ndim() == 0 && scalar_ok && n >= 0;
  const long long rows = scalar ? n : (f.ndim() >= 1 ? static_cast<long long>(f.shape(0)) : -1);
  const bool shape_ok = scalar || (cols == 1 ? f.ndim() == 1 : f.ndim() == 2 && f.shape(1) == cols);
  if (!shape_ok || rows < 1 || (n >= 0 && rows != n)) {
    std::ostringstream want;
    want << "(" << (n >= 0 ? std::to_string(n) : std::string("N")) << (cols == 1 ? ",)" : ", 3)");
    std::ostringstream got;
    got << "(";
    for (py::ssize_t d = 0; d < f.ndim(); ++d) got << (d ? ", " : "") << f.shape(d);
    got << (f.ndim() == 1 ? ",)" : ")");
    throw py::value_error(std::string(name) + ": shape " + got.str() + ", expected " + want.str() +
                          (rows == 0 ? " with N >= 1" : ""));
  }
  std::vector<T> out(static_cast<std::size_t>(rows) * cols);
  if (scalar)
    std::fill(out.begin(), out.end(), *f.data());
  else
    std::copy(f.data(), f.data() + out.size(), out.begin());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i]))
      throw py::value_error(std::string(name) + ": element " + std::to_string(i / cols) +
                            " is not finite" + as);
    if (nonneg && out[i] < 0)
      throw py::value_error(std::string(name) + ": element " + std::to_string(i / cols) +
                            " is negative");
  }
  return out;
}

py::tuple triple(const Vec3d& v) { return py::make_tuple(v.x, v.y, v.z); }

// radius=: every body's radius (presets and loaded files alike).

}  // namespace

void apply_radius(BodyState& s, const Keywords& k) {
  if (!k.radius) return;
  const float r = as_float(*k.radius, "radius");
  if (r < 0.0f) throw InputError("radius=" + number_text(*k.radius) + ": must be >= 0");
  set_radius(s.vel, r);
}

UnitsChoice units_keyword(const Keywords& k, BodyState& s, bool preset) {
  if (!k.units) return {};
  const UnitsChoice u = parse_units(*k.units, "units");
  if (u.henon && !preset)
    throw InputError(
        "units='henon' rescales a preset's bodies; give arrays in Henon units with "
        "units='nbody'");
  if (u.henon) scale_to_henon(s);
  to_engine_velocities(s, u.units);  // given in the units' own velocities
  return u;
}

void check_fits(const SolverInfo& info, long long n, Precision precision) {
  check_host_memory(n, host_bytes_per_body(info, precision));
  check_device_memory(info, n);
}

// Bodies given outside the walls would be pushed onto them by the first step: refused, naming the
// first (its centre must lie inside the box, a radius from each wall).
void check_inside_walls(float box, const BodyState& s, const std::string& what) {
  if (!(box > 0.0f)) return;
  const float half = 0.5f * box;
  for (int i = 0; i < s.size(); ++i) {
    const Vec4& p = s.pos[static_cast<std::size_t>(i)];
    const float r = s.vel[static_cast<std::size_t>(i)].w;
    if (std::fabs(p.x) <= half - r && std::fabs(p.y) <= half - r && std::fabs(p.z) <= half - r)
      continue;
    throw InputError(what + ": body " + std::to_string(i) + " at (" + number_text(p.x) + ", " +
                     number_text(p.y) + ", " + number_text(p.z) + ") with radius " +
                     number_text(r) + " is outside the walls (box=" + number_text(box) +
                     ": each coordinate within " + number_text(half) + " less the radius)");
  }
}

PySimulation::PySimulation(const BodyState& bodies, const Chosen& c, const RunState* run) {
  if (bodies.size() < 1) throw InputError("a simulation needs at least one body");
  check_box_fits(c.run.params.collisions.box, bodies.vel);
  check_fits(solver_info(c.run.solver), bodies.size(), c.run.params.precision);
  m_sim = std::make_unique<Simulation>(bodies, make_solver(c.run.solver, c.run.block, c.gpus),
                                       c.run.integrator, c.run.params);
  if (run) m_sim->resume(*run);
  m_solver = c.run.solver;
  m_block_asked = c.run.block;
  m_gpus = c.gpus;
}

std::unique_ptr<PySimulation> PySimulation::from_preset(int n, const std::string& preset,
                                                        std::uint64_t seed, const Keywords& k) {
  if (n < 1) throw InputError("n=" + std::to_string(n) + ": must be at least 1");
  Preset p{};
  try {
    p = parse_preset(preset);
  } catch (const std::invalid_argument& e) {
    throw InputError("preset=" + preset + ": " + e.what());
  }
  const Chosen c = choose(RunSettings{}, p, k, n);
  check_fits(solver_info(c.run.solver), n, c.run.params.precision);
  BodyState s = make_preset(p, n, seed);
  apply_radius(s, k);
  const UnitsChoice u = units_keyword(k, s, true);
  auto sim = std::make_unique<PySimulation>(s, c);
  sim->m_sim->set_units(u.units);
  sim->number_bodies();
  return sim;
}

namespace {

// The GADGET type of bodies that are neither gas nor stars: what presets, from_arrays and add()
// give theirs.
constexpr std::uint8_t k_collisionless_type = 1;

// An array of n whole numbers that T holds (IDs: uint64; types: 0 to 5). Throws TypeError for
// another dtype, ValueError for a shape or a value out of range.
template <class T>
std::vector<T> as_vector(const py::object& obj, const char* name, long long n) {
  py::array a = py::array::ensure(obj);
  if (!a || (a.dtype().kind() != 'i' && a.dtype().kind() != 'u'))
    throw py::type_error(std::string(name) + ": must be an array of whole numbers");
  using Longs = py::array_t<long long, py::array::c_style | py::array::forcecast>;
  using Unsigned = py::array_t<unsigned long long, py::array::c_style | py::array::forcecast>;
  if (a.ndim() != 1 || a.shape(0) != n)
    throw py::value_error(std::string(name) + ": must have shape (" + std::to_string(n) + ",)");
  std::vector<T> out(static_cast<std::size_t>(n));
  const bool is_signed = a.dtype().kind() == 'i';
  const Longs l = is_signed ? Longs::ensure(a) : Longs();
  const Unsigned u = is_signed ? Unsigned() : Unsigned::ensure(a);
  const unsigned long long top = sizeof(T) == 1 ? 5 : std::numeric_limits<T>::max();
  for (long long i = 0; i < n; ++i) {
    const long long v = is_signed ? l.data()[i] : 0;
    if (is_signed && v < 0)
      throw py::value_error(std::string(name) + ": element " + std::to_string(i) + " is negative");
    const unsigned long long w = is_signed ? static_cast<unsigned long long>(v) : u.data()[i];
    if (w > top)
      throw py::value_error(std::string(name) + ": element " + std::to_string(i) + " is above " +
                            std::to_string(top));
    out[static_cast<std::size_t>(i)] = static_cast<T>(w);
  }
  return out;
}

}  // namespace

BodyState state_from_arrays(const py::object& pos, const py::object& vel, const py::object& mass,
                            const py::object& radius, bool doubles) {
  const std::vector<float> x = checked(pos, "pos", -1, 3, false);
  const long long n = static_cast<long long>(x.size() / 3);
  if (n > std::numeric_limits<int>::max())
    throw InputError("pos: " + std::to_string(n) + " bodies, more than 2^31 - 1");
  const std::vector<float> v =
      vel.is_none() ? std::vector<float>(x.size(), 0.0f) : checked(vel, "vel", n, 3, false);
  const std::vector<float> m = checked(mass, "mass", n, 1, true, true);
  const std::vector<float> r = radius.is_none() ? std::vector<float>(static_cast<std::size_t>(n))
                                                : checked(radius, "radius", n, 1, true, true);
  BodyState s;
  s.pos.resize(static_cast<std::size_t>(n));
  s.vel.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < s.pos.size(); ++i) {
    s.pos[i] = Vec4{x[3 * i], x[3 * i + 1], x[3 * i + 2], m[i]};
    s.vel[i] = Vec4{v[3 * i], v[3 * i + 1], v[3 * i + 2], r[i]};
  }
  if (doubles) {  // the arrays' own values, as given
    const std::vector<double> xd = checked<double>(pos, "pos", n, 3, false);
    const std::vector<double> vd = vel.is_none() ? std::vector<double>(xd.size(), 0.0)
                                                 : checked<double>(vel, "vel", n, 3, false);
    const std::vector<double> md = checked<double>(mass, "mass", n, 1, true, true);
    const std::vector<double> rd = radius.is_none()
                                       ? std::vector<double>(static_cast<std::size_t>(n))
                                       : checked<double>(radius, "radius", n, 1, true, true);
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
      s.pos64.push_back(Vec4d{xd[3 * i], xd[3 * i + 1], xd[3 * i + 2], md[i]});
      s.vel64.push_back(Vec4d{vd[3 * i], vd[3 * i + 1], vd[3 * i + 2], rd[i]});
    }
    round_to_floats(s);
  }
  return s;
}

std::unique_ptr<PySimulation> PySimulation::from_arrays(const py::object& pos,
                                                        const py::object& vel,
                                                        const py::object& mass,
                                                        const py::object& radius,
                                                        const Keywords& k) {
  const long long rows = py::hasattr(pos, "__len__") ? static_cast<long long>(py::len(pos)) : 0;
  const Chosen c = choose(RunSettings{}, std::nullopt, k, rows);
  BodyState s =
      state_from_arrays(pos, vel, mass, radius, c.run.params.precision == Precision::double_);
  check_inside_walls(c.run.params.collisions.box, s, "from_arrays");
  const UnitsChoice u = units_keyword(k, s, false);
  auto sim = std::make_unique<PySimulation>(s, c);
  sim->m_sim->set_units(u.units);
  sim->number_bodies();
  return sim;
}

void PySimulation::number_bodies() {
  const auto n = static_cast<std::size_t>(m_sim->bodies().n);
  std::vector<std::uint64_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = i;
  m_sim->set_labels(std::vector<std::uint8_t>(n, k_collisionless_type), std::move(ids));
}

void PySimulation::take_labels(std::vector<std::uint8_t> types, std::vector<std::uint64_t> ids) {
  if (ids.empty())
    number_bodies();
  else
    m_sim->set_labels(std::move(types), std::move(ids));
}

void PySimulation::replace_bodies(const py::object& pos, const py::object& vel,
                                  const py::object& mass, const py::object& radius,
                                  const py::object& types, const py::object& ids,
                                  const char* what) {
  BodyState s = state_from_arrays(pos, vel, mass, radius, doubles());
  if (s.size() < 1) throw InputError(std::string(what) + ": a simulation needs at least one body");
  const auto n = static_cast<long long>(s.size());
  Snapshot snap = snapshot();
  snap.types = as_vector<std::uint8_t>(types, "types", n);
  snap.ids = as_vector<std::uint64_t>(ids, "ids", n);
  std::vector<std::uint64_t> sorted = snap.ids;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end())
    throw InputError(std::string(what) + ": ID " + std::to_string(*twice) + " is given twice");
  check_box_fits(snap.run.params.collisions.box, s.vel);
  check_inside_walls(snap.run.params.collisions.box, s, what);
  snap.bodies = std::move(s);
  snap.run.last_acc.clear(), snap.run.last_acc64.clear();  // forces of the bodies before
  restore(snap);
}

namespace {
template <class T>
py::object array_or_none(const std::vector<T>& v) {
  if (v.empty()) return py::none();
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return std::move(a);
}
}  // namespace

py::object PySimulation::types() const { return array_or_none(m_sim->types()); }
py::object PySimulation::ids() const { return array_or_none(m_sim->ids()); }

bool PySimulation::doubles() const { return m_sim->params().precision == Precision::double_; }

// A column of the state in its own precision: xyz (w false) or w of its positions or velocities.
py::array PySimulation::state_column(bool velocities, bool w) {
  const BodyState s = m_sim->state();
  const auto pick = [&](const auto& pos, const auto& vel) {
    const auto& v = velocities ? vel : pos;
    return w ? py::array(column_w(v)) : py::array(column3(v));
  };
  return doubles() ? pick(s.pos64, s.vel64) : pick(s.pos, s.vel);
}
py::array PySimulation::positions() { return state_column(false, false); }
py::array PySimulation::velocities() { return state_column(true, false); }
py::array PySimulation::masses() { return state_column(false, true); }
py::array PySimulation::radii() { return state_column(true, true); }

void PySimulation::replace_state(const BodyState& s) {
  RunState run = m_sim->run_state();
  run.last_acc.clear(), run.last_acc64.clear();  // forces of the bodies before the edit
  m_sim->set_state(s);
  m_sim->resume(run);
}

// The state with column `c` (0-2: x, y, z; 3: w) of `which` (0: positions, 1: velocities) from
// `values` (cols per body), in the run's precision: a double run keeps the doubles given.
void PySimulation::set_columns(int which, int first, int cols, const char* name,
                               const py::object& a, bool nonneg) {
  BodyState s = m_sim->state();
  const auto put = [&](auto& bodies, const auto& x) {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      for (int c = 0; c < cols; ++c) {
        auto& b = bodies[i];
        auto& field = first + c == 0 ? b.x : first + c == 1 ? b.y : first + c == 2 ? b.z : b.w;
        field = x[cols * i + c];
      }
  };
  const bool scalar_ok = cols == 1;
  if (doubles()) {
    put(which == 0 ? s.pos64 : s.vel64, checked<double>(a, name, n(), cols, nonneg, scalar_ok));
    round_to_floats(s);
  } else {
    put(which == 0 ? s.pos : s.vel, checked<float>(a, name, n(), cols, nonneg, scalar_ok));
  }
  if (which == 1 && first == 3) check_box_fits(m_sim->params().collisions.box, s.vel);
  check_inside_walls(m_sim->params().collisions.box, s, name);
  replace_state(s);
}

void PySimulation::set_positions(const py::object& a) {
  set_columns(0, 0, 3, "positions", a, false);
}
void PySimulation::set_velocities(const py::object& a) {
  set_columns(1, 0, 3, "velocities", a, false);
}
void PySimulation::set_masses(const py::object& a) { set_columns(0, 3, 1, "masses", a, true); }
void PySimulation::set_radii(const py::object& a) { set_columns(1, 3, 1, "radii", a, true); }

py::array_t<float> PySimulation::accelerations() {
  return column3(m_sim->field_to_host(Simulation::Field::acceleration, m_sim->bodies()));
}

py::array_t<float> PySimulation::potentials() {
  return column_w(m_sim->field_to_host(Simulation::Field::potential, m_sim->bodies()));
}

py::dict PySimulation::diagnostics() {
  const Diagnostics d = m_sim->measure();
  py::dict r;
  r["kinetic"] = d.kinetic;
  r["potential"] = d.potential;
  r["energy"] = d.total();
  r["collision_energy"] = d.energy_offset;
  r["mass"] = d.mass;
  r["bodies"] = d.bodies;
  r["momentum"] = triple(d.momentum);
  r["angular_momentum"] = triple(d.angular_momentum);
  r["centre_of_mass"] = triple(d.centre_of_mass);
  r["virial_ratio"] = d.virial();
  r["time"] = m_sim->time();
  r["steps"] = m_sim->step_count();
  return r;
}

py::dict PySimulation::phases() const {
  py::dict r;
  const double per = m_last_steps > 0 ? 1.0 / static_cast<double>(m_last_steps) : 0.0;
  for (int p = 0; p < k_phase_count; ++p)
    if (m_last_phases.ms[p] > 0) r[phase_name(static_cast<Phase>(p))] = m_last_phases.ms[p] * per;
  return r;
}

double PySimulation::interactions_per_second() const {
  return m_last_seconds > 0 ? m_last_interactions / m_last_seconds : 0.0;
}

std::string PySimulation::repr() const {
  std::ostringstream s;
  s << "<orrery.Simulation n=" << m_sim->bodies().n << " solver=" << m_solver
    << " integrator=" << to_string(m_sim->integrator()) << " dt=";
  if (m_sim->params().adaptive)
    s << "auto";
  else
    s << m_sim->params().dt;
  s << " time=" << m_sim->time() << " steps=" << m_sim->step_count() << ">";
  return s.str();
}

}  // namespace orrery::python
