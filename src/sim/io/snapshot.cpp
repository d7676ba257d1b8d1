// Orrery's snapshot format (a 256-byte header, the position and velocity arrays, the particle
// types and IDs where the bodies have them, the parameter rows the header has no place for, the
// units, an FNV-1a checksum). The formats' registry and dispatch are in formats.cpp; what every
// reader shares is in reading.cpp.
#include "orrery/snapshot.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

#include "byte_io.h"
#include "orrery/param_table.h"
#include "orrery/solver.h"
#include "orrery/version.h"
#include "orrery_format.h"
#include "tipsy.h"

namespace orrery {
namespace {

constexpr char k_magic[8] = {'O', 'R', 'R', 'E', 'R', 'Y', 'S', 'N'};
constexpr std::uint32_t k_order_mark = 0x01020304u;
// k_flag_labels: each body's particle type (n bytes) and ID (n u64) follow the velocities.
// k_flag_double (version 2): the run is in double precision and the bodies are stored as f64.
// k_flag_adaptive (version 3): the run takes the adaptive step; eta and the next step's size
// follow the collision totals.
// k_flag_memory (version 4): the adaptive step's memory (RunState::last_acc): the time of the
// evaluation follows the next step's size, and its accelerations (in the bodies' precision) the
// labels.
// k_flag_wide_dt (version 4): dt is not a float (a double run's 0.1): its f64 follows at 208.
// k_flag_units (version 5): the run's units (RunState::units) are not N-body units: a block of
// k_units_bytes before the checksum (length, mass and velocity in cgs, G, the cosmology's flags
// and its h, Omega0, OmegaLambda and scale factor).
// k_flag_rows (version 6): parameter rows (orrery/param_table.h) that the fixed header does not
// hold, before the units: a row's name (k_row_name_bytes, zero-padded) and its value (f64) each,
// then their count (u32), so a reader sizes the block from the end.
constexpr std::uint32_t k_flag_reversed = 1u, k_flag_gravity = 2u, k_flag_labels = 4u,
                        k_flag_double = 8u, k_flag_adaptive = 16u, k_flag_memory = 32u,
                        k_flag_wide_dt = 64u, k_flag_units = 128u, k_flag_rows = 256u;
constexpr std::size_t k_row_name_bytes = 32, k_row_bytes = k_row_name_bytes + 8;
constexpr std::uint32_t k_max_rows = 1024;
constexpr std::size_t k_units_bytes = 72;
constexpr std::uint32_t k_cosmological = 1u, k_comoving = 2u;
constexpr std::size_t k_wide_dt_at = 208;
constexpr std::size_t k_writer_at = 216, k_writer_chars = 40;  // the writer's version, zero-padded
constexpr std::size_t k_solver_field = 32;
// The parameter rows (orrery/param_table.h) the header keeps as float32, in their order.
constexpr const char* k_header_rows[] = {"dt", "softening", "damping", "theta"};

// The run's parameter rows the fixed header has no place for (eta and restitution have theirs):
// they go in the rows block. Today every row has a place, so files stay version 5 or below.
std::vector<const ParamRow*> rows_block_rows() {
  std::vector<const ParamRow*> out;
  for (const ParamRow& row : param_rows()) {
    bool held = row.name == std::string_view("eta") || row.name == std::string_view("restitution");
    for (const char* h : k_header_rows) held |= row.name == std::string_view(h);
    if (!held) out.push_back(&row);
  }
  return out;
}

void encode_orrery(const Snapshot& s, bytes::Writer& w) {
  const RunState& r = s.run;
  if (r.solver.size() > k_snapshot_solver_chars)
    throw SnapshotError("solver name '" + r.solver + "' is longer than the format's " +
                        std::to_string(k_snapshot_solver_chars) + " characters");
  const bool doubles = r.params.precision == Precision::double_ || !s.bodies.pos64.empty();
  const bool exact =
      s.bodies.pos64.size() == s.bodies.pos.size() && s.bodies.vel64.size() == s.bodies.vel.size();
  w.raw(k_magic, sizeof k_magic);
  const bool adaptive = r.params.adaptive;
  const bool memory =
      adaptive && (doubles ? r.last_acc64.size() : r.last_acc.size()) == s.bodies.pos.size();
  const bool wide_dt = static_cast<double>(static_cast<float>(r.params.dt)) != r.params.dt;
  const bool units = r.units != nbody_units();
  const std::vector<const ParamRow*> extra = rows_block_rows();
  w.u32(!extra.empty()      ? 6u
        : units             ? 5u
        : memory || wide_dt ? 4u
        : adaptive          ? 3u
        : doubles           ? 2u
                            : 1u);
  w.u32(k_order_mark);
  w.u32(static_cast<std::uint32_t>(k_snapshot_header_bytes));
  const bool labels = !s.types.empty();
  if (labels && (s.types.size() != s.bodies.pos.size() || s.ids.size() != s.types.size()))
    throw std::logic_error("encode_snapshot: types and IDs do not match the bodies");
  w.u32((r.time_reversed ? k_flag_reversed : 0u) | (r.params.gravity ? k_flag_gravity : 0u) |
        (labels ? k_flag_labels : 0u) | (doubles ? k_flag_double : 0u) |
        (adaptive ? k_flag_adaptive : 0u) | (memory ? k_flag_memory : 0u) |
        (wide_dt ? k_flag_wide_dt : 0u) | (units ? k_flag_units : 0u) |
        (!extra.empty() ? k_flag_rows : 0u));
  w.u64(static_cast<std::uint64_t>(s.bodies.size()));
  w.f64(r.time);
  w.i64(r.steps);
  char solver[k_solver_field] = {};
  std::memcpy(solver, r.solver.data(), r.solver.size());
  w.raw(solver, sizeof solver);
  w.u32(static_cast<std::uint32_t>(std::max(r.block, 0)));
  w.u32(static_cast<std::uint32_t>(r.integrator));
  for (const char* row : k_header_rows) w.f32(static_cast<float>(param_row(row).get(r.params)));
  w.u32(static_cast<std::uint32_t>(r.params.collisions.mode));
  w.f32(r.params.collisions.restitution), w.f32(r.params.collisions.box);
  w.u32(0);
  const CollisionTotals& t = r.totals;
  w.f64(t.energy_offset);
  w.f64(t.wall_impulse.x), w.f64(t.wall_impulse.y), w.f64(t.wall_impulse.z);
  w.i64(t.contacts), w.i64(t.merges), w.i64(t.wall_hits), w.i64(t.truncated);
  if (adaptive) w.f32(r.params.eta), w.u32(0), w.f64(r.next_dt);
  if (memory) w.f64(r.last_eval_time);
  if (wide_dt) w.zeros(k_wide_dt_at - w.size()), w.f64(r.params.dt);
  // The writer's version, as text (informative: no reader needs it).
  w.zeros(k_writer_at - w.size());
  const std::string writer = version_description().substr(0, k_writer_chars - 1);
  w.raw(writer.data(), writer.size());
  w.zeros(k_snapshot_header_bytes - w.size());
  if (!doubles) {
    for (const std::vector<Vec4>* a : {&s.bodies.pos, &s.bodies.vel})
      for (const Vec4& v : *a) w.f32(v.x), w.f32(v.y), w.f32(v.z), w.f32(v.w);
  } else if (exact) {
    for (const std::vector<Vec4d>* a : {&s.bodies.pos64, &s.bodies.vel64})
      for (const Vec4d& v : *a) w.f64(v.x), w.f64(v.y), w.f64(v.z), w.f64(v.w);
  } else {  // a double run's floats alone (none held yet): widened
    for (const std::vector<Vec4>* a : {&s.bodies.pos, &s.bodies.vel})
      for (const Vec4& v : *a) w.f64(v.x), w.f64(v.y), w.f64(v.z), w.f64(v.w);
  }
  if (labels) {
    w.raw(s.types.data(), s.types.size());
    for (std::uint64_t id : s.ids) w.u64(id);
  }
  if (memory && doubles)
    for (const Vec4d& v : r.last_acc64) w.f64(v.x), w.f64(v.y), w.f64(v.z), w.f64(v.w);
  else if (memory)
    for (const Vec4& v : r.last_acc) w.f32(v.x), w.f32(v.y), w.f32(v.z), w.f32(v.w);
  for (const ParamRow* row : extra) {
    char name[k_row_name_bytes] = {};
    std::memcpy(name, row->name, std::min(std::strlen(row->name), k_row_name_bytes - 1));
    w.raw(name, sizeof name);
    w.f64(row->get(r.params));
  }
  if (!extra.empty()) w.u32(static_cast<std::uint32_t>(extra.size()));
  if (units) {
    const UnitSystem& u = r.units;
    const Cosmology& c = u.cosmology;
    w.f64(u.length_cm), w.f64(u.mass_g), w.f64(u.velocity_cm_s), w.f64(u.g);
    w.u32((c.cosmological ? k_cosmological : 0u) | (c.comoving ? k_comoving : 0u)), w.u32(0);
    w.f64(c.hubble), w.f64(c.omega0), w.f64(c.omega_lambda), w.f64(c.scale_factor);
  }
  w.u64(bytes::fnv1a64(w.out().data(), w.size()));
}

// One line: "<name>: header: <what>".
[[noreturn]] void bad(const std::string& name, const std::string& what) {
  throw SnapshotError(name + ": " + what);
}

Snapshot decode_orrery(const std::uint8_t* data, std::size_t size, const std::string& name) {
  if (size < 20) bad(name, "truncated: " + std::to_string(size) + " bytes, shorter than a header");
  // The order mark says how the rest was written.
  bytes::Reader probe(data, size, bytes::Order::little, name);
  probe.take(12);
  const std::uint32_t mark = probe.u32();
  bytes::Order order = bytes::Order::little;
  if (mark == 0x04030201u)
    order = bytes::Order::big;
  else if (mark != k_order_mark)
    bad(
        name, "header: bad byte-order mark 0x" + [&] {
          char b[16];
          std::snprintf(b, sizeof b, "%08x", mark);
          return std::string(b);
        }());
  bytes::Reader r(data, size, order, name);
  r.take(sizeof k_magic);
  const std::uint32_t version = r.u32();
  if (version < 1 || version > k_snapshot_version)
    bad(name, "unknown format version " + std::to_string(version) + " (this build reads 1 to " +
                  std::to_string(k_snapshot_version) + ")");
  r.u32();
  const std::uint32_t header = r.u32();
  if (header != k_snapshot_header_bytes)
    bad(name, "header: size " + std::to_string(header) + ", expected " +
                  std::to_string(k_snapshot_header_bytes));
  if (size < k_snapshot_header_bytes + 8)
    bad(name, "truncated: " + std::to_string(size) + " bytes, " +
                  (size < k_snapshot_header_bytes
                       ? std::string("shorter than a header")
                       : "a header (" + std::to_string(k_snapshot_header_bytes) +
                             " bytes) with no bodies and no checksum after it"));
  const std::uint32_t flags = r.u32();
  const std::uint32_t known =
      k_flag_reversed | k_flag_gravity | k_flag_labels | (version >= 2 ? k_flag_double : 0u) |
      (version >= 3 ? k_flag_adaptive : 0u) | (version >= 4 ? k_flag_memory | k_flag_wide_dt : 0u) |
      (version >= 5 ? k_flag_units : 0u) | (version >= 6 ? k_flag_rows : 0u);
  if (flags & ~known) bad(name, "header: unknown flags " + std::to_string(flags));
  const bool labels = flags & k_flag_labels, doubles = flags & k_flag_double;
  const bool memory = flags & k_flag_memory;
  if (memory && !(flags & k_flag_adaptive))
    bad(name, "header: the adaptive step's memory without the adaptive step");
  const std::uint64_t per_body =
      (doubles ? 64 : 32) + (labels ? 1 + 8 : 0) + (memory ? (doubles ? 32 : 16) : 0);
  const std::uint64_t n = r.u64();
  const std::size_t units_bytes = flags & k_flag_units ? k_units_bytes : 0;
  const std::size_t rows_count_bytes = flags & k_flag_rows ? 4 : 0;
  if (size < k_snapshot_header_bytes + 8 + units_bytes + rows_count_bytes)
    bad(name, "truncated: " + std::to_string(size) +
                  " bytes, too few for the header, the units "
                  "and the checksum");
  std::uint32_t rows = 0;  // the rows block's count, read from its end
  if (rows_count_bytes) {
    bytes::Reader count(data, size, order, name);
    count.seek(size - 8 - units_bytes - 4);
    rows = count.u32();
    if (rows > k_max_rows) bad(name, "header: " + std::to_string(rows) + " parameter rows");
  }
  const std::size_t rows_bytes = rows_count_bytes + k_row_bytes * rows;
  if (size < k_snapshot_header_bytes + 8 + units_bytes + rows_bytes)
    bad(name, "truncated: " + std::to_string(size) + " bytes, too few for its parameter rows");
  const std::uint64_t room = size - k_snapshot_header_bytes - 8 - units_bytes - rows_bytes;
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    bad(name, "header: N " + std::to_string(n) + " is more than this build reads (2^31 - 1)");
  if (room % per_body != 0 || n != room / per_body)
    bad(name,
        std::string(n > room / per_body ? "truncated" : "longer than its header says") +
            ": the header's N " + std::to_string(n) + " needs " +
            std::to_string(k_snapshot_header_bytes + per_body * n + rows_bytes + units_bytes + 8) +
            " bytes, the file has " + std::to_string(size));
  if (n == 0) bad(name, "header: N is 0 (a snapshot holds at least one body)");
  // The checksum covers everything before it.
  bytes::Reader tail(data, size, order, name);
  tail.seek(size - 8);
  const std::uint64_t stored = tail.u64();
  if (stored != bytes::fnv1a64(data, size - 8))
    bad(name, "checksum mismatch (the file is damaged)");

  Snapshot s;
  s.format = SnapshotFormat::orrery;
  RunState& run = s.run;
  run.time_reversed = flags & k_flag_reversed;
  run.params.gravity = flags & k_flag_gravity;
  if (doubles) run.params.precision = Precision::double_;
  run.time = r.f64();
  run.steps = r.i64();
  if (!std::isfinite(run.time)) bad(name, "header: the time is not finite");
  if (run.steps < 0) bad(name, "header: negative step count " + std::to_string(run.steps));
  const std::uint8_t* solver = r.take(k_solver_field);
  std::size_t len = 0;
  while (len < k_solver_field && solver[len]) ++len;
  if (len == k_solver_field) bad(name, "header: the solver name is not terminated");
  for (std::size_t k = 0; k < len; ++k)
    if (solver[k] < 0x21 || solver[k] > 0x7e) bad(name, "header: the solver name is not text");
  for (std::size_t k = len; k < k_solver_field; ++k)
    if (solver[k]) bad(name, "header: bytes after the solver name");
  run.solver.assign(reinterpret_cast<const char*>(solver), len);
  const std::uint32_t block = r.u32();
  if (block > 4096) bad(name, "header: block size " + std::to_string(block) + " out of range");
  run.block = static_cast<int>(block);
  const std::uint32_t integrator = r.u32();
  if (integrator >= integrator_table().size())
    bad(name, "header: unknown integrator " + std::to_string(integrator));
  run.integrator = static_cast<Integrator>(integrator);
  for (const char* row : k_header_rows) param_row(row).set(run.params, r.f32());
  const std::uint32_t mode = r.u32();
  if (mode > static_cast<std::uint32_t>(CollisionMode::merge))
    bad(name, "header: unknown collision mode " + std::to_string(mode));
  run.params.collisions.mode = static_cast<CollisionMode>(mode);
  run.params.collisions.restitution = r.f32(), run.params.collisions.box = r.f32();
  r.u32();
  CollisionTotals& t = run.totals;
  t.energy_offset = r.f64();
  t.wall_impulse.x = r.f64(), t.wall_impulse.y = r.f64(), t.wall_impulse.z = r.f64();
  t.contacts = r.i64(), t.merges = r.i64(), t.wall_hits = r.i64(), t.truncated = r.i64();
  if (!std::isfinite(t.energy_offset) || !std::isfinite(t.wall_impulse.x) ||
      !std::isfinite(t.wall_impulse.y) || !std::isfinite(t.wall_impulse.z))
    bad(name, "header: the collision totals are not finite");
  if (t.contacts < 0 || t.merges < 0 || t.wall_hits < 0 || t.truncated < 0)
    bad(name, "header: negative collision counts");
  if (flags & k_flag_wide_dt) {  // the exact dt, past the fields above
    bytes::Reader wide(data, size, order, name);
    wide.seek(k_wide_dt_at);
    const float rounded = run.params.dt;
    run.params.dt = wide.f64();
    if (static_cast<float>(run.params.dt) != rounded)
      bad(name, "header: the exact dt does not round to the header's float dt");
  }
  if (flags & k_flag_adaptive) {
    run.params.adaptive = true;
    run.params.eta = r.f32();
    r.u32();
    run.next_dt = r.f64();
    if (!(run.next_dt >= 0.0 && run.next_dt <= run.params.dt))
      bad(name, "header: the adaptive step's next size is not in [0, dt]");
    if (memory) {
      run.last_eval_time = r.f64();
      if (!std::isfinite(run.last_eval_time))
        bad(name, "header: the last force evaluation's time is not finite");
    }
  }
  try {
    validate(run.params);
    // A pair every setter refuses (the adaptive step or damping with reversed time) is refused
    // here too, not run backwards.
    if (run.time_reversed) check_reversible(run.integrator, run.params);
  } catch (const InputError& e) {
    bad(name, std::string("header: ") + e.what());
  }
  // A double run of a module with no double path (no one typed --precision: the file says it).
  if (doubles)
    for (const SolverInfo& info : all_solvers())
      if (info.name == run.solver && !info.doubles)
        bad(name, "header: a double-precision run of " + run.solver +
                      ", which has no double-precision path (" + double_solver_names() + " have)");
  r.seek(k_snapshot_header_bytes);
  const int count = static_cast<int>(n);
  s.bodies.pos.resize(static_cast<std::size_t>(count));
  s.bodies.vel.resize(static_cast<std::size_t>(count));
  if (doubles) {
    BodyState& b = s.bodies;
    b.pos64.resize(static_cast<std::size_t>(count));
    b.vel64.resize(static_cast<std::size_t>(count));
    for (std::vector<Vec4d>* a : {&b.pos64, &b.vel64})
      for (Vec4d& v : *a) v.x = r.f64(), v.y = r.f64(), v.z = r.f64(), v.w = r.f64();
    round_to_floats(b);
  } else if (order == bytes::native_order()) {  // the bytes as they lie: one copy an array
    static_assert(sizeof(Vec4) == 16, "a body's four floats, unpadded");
    for (std::vector<Vec4>* a : {&s.bodies.pos, &s.bodies.vel})
      std::memcpy(a->data(), r.take(a->size() * sizeof(Vec4)), a->size() * sizeof(Vec4));
  } else {
    for (std::vector<Vec4>* a : {&s.bodies.pos, &s.bodies.vel})
      for (Vec4& v : *a) v.x = r.f32(), v.y = r.f32(), v.z = r.f32(), v.w = r.f32();
  }
  if (labels) {
    const std::uint8_t* types = r.take(static_cast<std::size_t>(count));
    s.types.assign(types, types + count);
    for (std::uint8_t t : s.types)
      if (t > 5) bad(name, "particle type " + std::to_string(t) + " (GADGET's are 0 to 5)");
    s.ids.resize(static_cast<std::size_t>(count));
    if (order == bytes::native_order())
      std::memcpy(s.ids.data(), r.take(s.ids.size() * 8), s.ids.size() * 8);
    else
      for (std::uint64_t& id : s.ids) id = r.u64();
  }
  if (memory) {
    const auto finite = [](double x, double y, double z) {
      return std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
    };
    bool ok = true;
    if (doubles) {
      run.last_acc64.resize(static_cast<std::size_t>(count));
      for (Vec4d& v : run.last_acc64)
        v.x = r.f64(), v.y = r.f64(), v.z = r.f64(), v.w = r.f64(), ok &= finite(v.x, v.y, v.z);
    } else {
      run.last_acc.resize(static_cast<std::size_t>(count));
      for (Vec4& v : run.last_acc)
        v.x = r.f32(), v.y = r.f32(), v.z = r.f32(), v.w = r.f32(), ok &= finite(v.x, v.y, v.z);
    }
    if (!ok) bad(name, "the adaptive step's memory holds a non-finite acceleration");
  }
  for (std::uint32_t k = 0; k < rows; ++k) {
    const std::uint8_t* text = r.take(k_row_name_bytes);
    const std::string row_name(reinterpret_cast<const char*>(text),
                               strnlen(reinterpret_cast<const char*>(text), k_row_name_bytes));
    const double value = r.f64();
    const ParamRow* row = find_param(row_name);
    if (!row || row->form == ParamForm::view)
      bad(name, "header: parameter '" + row_name +
                    "' is not one this build knows (a newer Orrery wrote the file?)");
    if (!std::isfinite(value)) bad(name, "header: parameter " + row_name + " is not finite");
    row->set(run.params, value);
  }
  if (rows_count_bytes) r.u32();
  if (flags & k_flag_units) {
    UnitSystem& u = run.units;
    Cosmology& c = u.cosmology;
    u.length_cm = r.f64(), u.mass_g = r.f64(), u.velocity_cm_s = r.f64(), u.g = r.f64();
    const std::uint32_t cf = r.u32();
    r.u32();
    c.hubble = r.f64(), c.omega0 = r.f64(), c.omega_lambda = r.f64(), c.scale_factor = r.f64();
    if (cf & ~(k_cosmological | k_comoving)) bad(name, "units: unknown cosmology flags");
    c.cosmological = cf & k_cosmological, c.comoving = cf & k_comoving;
    const bool none = u.length_cm == 0 && u.mass_g == 0 && u.velocity_cm_s == 0;
    const auto good = [](double x) { return x > 0 && std::isfinite(x); };
    if (!good(u.g) || (!none && !(good(u.length_cm) && good(u.mass_g) && good(u.velocity_cm_s))))
      bad(name, "units: a unit or G that is not a finite number > 0");
    for (double x : {c.hubble, c.omega0, c.omega_lambda, c.scale_factor})
      if (!(x >= 0) || !std::isfinite(x))
        bad(name, "units: a cosmology value that is not a finite number >= 0");
  }
  check_bodies(s.bodies, name);
  return s;
}

}  // namespace

namespace orrery_format {

bool looks_like(const std::uint8_t* data, std::size_t size) {
  return size >= sizeof k_magic && std::memcmp(data, k_magic, sizeof k_magic) == 0;
}

std::vector<std::uint8_t> encode(const Snapshot& s) {
  bytes::Writer w(bytes::Order::little);
  encode_orrery(s, w);
  return std::move(w.out());
}

Snapshot decode(const std::uint8_t* data, std::size_t size, const std::string& name) {
  return decode_orrery(data, size, name);
}

}  // namespace orrery_format

}  // namespace orrery
