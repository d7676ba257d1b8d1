// HDF5 snapshots through libhdf5's C API, on memory images (the core driver, lent the caller's
// bytes to read). Every dataset's shape and class is checked against the header before it is
// read, and libhdf5's own error stack is silenced: a fault is one SnapshotError line. Orrery's own
// files are written by hdf5_write.cpp.
#include "hdf5_snapshot.h"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>

#include "bulk_copy.h"
#include "byte_io.h"
#include "gadget.h"  // check_counts
#include "hdf5_id.h"
#include "hdf5_reader.h"
#include "hdf5_units.h"
#include "hdf5_wire.h"
#include "isolated.h"
#include "orrery/host_memory.h"
#include "orrery/input.h"
#include "orrery/param_table.h"
#include "tipsy.h"  // check_bodies

namespace orrery::hdf5 {
namespace {

using gadget::k_types;
// A body while it loads, beside the file's bytes: the reader's answer (two Vec4s, type and ID:
// 41 bytes), then the snapshot's copy.
constexpr double k_load_bytes_per_body = 41 + 41;
const std::uint8_t k_signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

struct Header {
  std::int64_t here[k_types] = {}, total[k_types] = {};
  double mass[k_types] = {};
  double time = 0, redshift = 0, box = 0;
  int num_files = 1;
};

Header header(const Reader& r) {
  if (!r.has("Header")) r.fail("no Header group (not a GADGET, AREPO or SWIFT snapshot)");
  Header h;
  const std::vector<double> here = r.attr("Header", "NumPart_ThisFile", k_types);
  const std::vector<double> total =
      r.has_attr("Header", "NumPart_Total") ? r.attr("Header", "NumPart_Total", k_types) : here;
  std::vector<double> high(k_types, 0.0);
  if (r.has_attr("Header", "NumPart_Total_HighWord"))
    high = r.attr("Header", "NumPart_Total_HighWord", k_types);
  const std::vector<double> mass = r.has_attr("Header", "MassTable")
                                       ? r.attr("Header", "MassTable", k_types)
                                       : std::vector<double>(k_types, 0.0);
  const double count_max = std::numeric_limits<std::int32_t>::max();
  const double word_max = std::numeric_limits<std::uint32_t>::max();
  for (int t = 0; t < k_types; ++t) {
    // Each count by its attribute's name: in range and whole.
    for (const auto& [v, top, name] : {std::tuple{here[t], count_max, "NumPart_ThisFile"},
                                       std::tuple{total[t], word_max, "NumPart_Total"},
                                       std::tuple{high[t], count_max, "NumPart_Total_HighWord"}}) {
      if (!(v >= 0 && v <= top))
        r.fail(std::string("Header/") + name + ": the count of type " + std::to_string(t) +
               " is out of range");
      if (v != std::floor(v))
        r.fail(std::string("Header/") + name + ": the count of type " + std::to_string(t) +
               " is not a whole number");
    }
    if (!(mass[t] >= 0 && mass[t] <= std::numeric_limits<float>::max()))
      r.fail("Header/MassTable: a mass that is negative or not a number");
    h.here[t] = static_cast<std::int64_t>(here[t]);
    h.total[t] = static_cast<std::int64_t>(total[t]) + (static_cast<std::int64_t>(high[t]) << 32);
    h.mass[t] = mass[t];
  }
  const double huge = std::numeric_limits<double>::max();
  h.time = r.attr1("Header", "Time", 0.0, -huge, huge);
  h.redshift = r.attr1("Header", "Redshift", 0.0, -huge, huge);
  h.box = r.attr1("Header", "BoxSize", 0.0, 0.0, huge);  // SWIFT's has 3: the first is read
  h.num_files = static_cast<int>(r.attr1("Header", "NumFilesPerSnapshot", 1.0, 0.0, 1e6));
  return h;
}

// `memory`: the file keeps the adaptive step's memory (k_memory_dataset).
void read_run(const Reader& r, Snapshot& s, bool& memory) {
  if (!r.has("Orrery")) return;
  RunState& run = s.run;
  run.solver = r.text("Orrery", "solver");
  if (run.solver.size() > k_snapshot_solver_chars) run.solver.clear();
  run.block = static_cast<int>(r.attr1("Orrery", "block", 0, 0, 1 << 20));
  const std::string integrator = r.text("Orrery", "integrator");
  try {
    if (!integrator.empty()) run.integrator = parse_integrator(integrator);
    const std::string mode = r.text("Orrery", "collisions");
    if (!mode.empty()) run.params.collisions.mode = parse_collision_mode(mode);
    const std::string precision = r.text("Orrery", "precision");
    if (!precision.empty()) run.params.precision = parse_precision(precision);
  } catch (const std::invalid_argument& e) {
    r.fail(std::string("Orrery: ") + e.what());
  }
  SimParams& p = run.params;
  // Floats are read in float's range (validate() then applies each setting's own rule).
  const double fmax = std::numeric_limits<float>::max();
  const auto setting = [&](const char* name, float fallback) {
    return static_cast<float>(r.attr1("Orrery", name, fallback, -fmax, fmax));
  };
  p.dt = r.attr1("Orrery", "dt", p.dt, -fmax, fmax);  // in double, as a double run steps
  p.adaptive = setting("adaptive", 0) != 0;
  p.eta = setting("eta", p.eta);
  run.next_dt = r.attr1("Orrery", "next_dt", 0, 0, fmax);
  if (r.has_attr("Orrery", "last_eval_time")) {
    run.last_eval_time = r.attr1("Orrery", "last_eval_time", 0, -std::numeric_limits<double>::max(),
                                 std::numeric_limits<double>::max());
    memory = true;  // the rows are read with the bodies
  }
  for (const ParamRow& row : param_rows())
    if (row.form != ParamForm::step) row.set(p, setting(row.name, row.get(p)));
  p.gravity = setting("gravity", 1) != 0;
  p.collisions.box = setting("box", 0);
  run.time_reversed = setting("time_reversed", 0) != 0;
  run.steps = static_cast<long long>(r.attr1("Orrery", "steps", 0, 0, 1e18));
  run.time = r.attr1("Orrery", "time", 0, -std::numeric_limits<double>::max(),
                     std::numeric_limits<double>::max());
  try {
    validate(p);
    check_integrator(run.integrator, p);
    if (run.time_reversed) check_reversible(run.integrator, p);
  } catch (const std::invalid_argument& e) {
    r.fail(std::string("Orrery: ") + e.what());
  }
  s.run_recorded = true;
}

}  // namespace

bool available() { return true; }

bool looks_like(const std::uint8_t* data, std::size_t size) {
  return size >= sizeof k_signature && std::memcmp(data, k_signature, sizeof k_signature) == 0;
}

int files_in_set(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  const std::vector<std::uint8_t> out = run_isolated(
      [&] {
        const Reader r(name, bytes);
        bytes::Writer w(bytes::Order::little);
        w.u32(static_cast<std::uint32_t>(header(r).num_files));
        return w.out();
      },
      name, "libhdf5");
  if (out.size() != 4) throw SnapshotError(name + ": its reader's answer is malformed");
  return static_cast<int>(bytes::Reader(out.data(), out.size(), bytes::Order::little, name).u32());
}

std::vector<std::string> set_names(const std::string& path, int count) {
  std::string base = path;
  const std::string ext = ".hdf5";
  if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
    base.resize(base.size() - ext.size());
  const std::size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot + 1 < base.size() &&
      base.find_first_not_of("0123456789", dot + 1) == std::string::npos)
    base.resize(dot);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(base + "." + std::to_string(i) + ext);
  return names;
}

namespace {

template <class V>
bool is_finite3(const V& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Rows read at a time: the five buffers of a block (2.5 MB) stay in cache.
constexpr std::size_t k_block_rows = 1 << 16;

// A particle type's datasets in one file, opened and checked: Masses where the MassTable gives
// none (or the file has them anyway), Orrery's Radii and the IDs where present.
struct TypeData {
  TypeData(const Reader& r, int t, std::size_t c, double mass)
      : group("PartType" + std::to_string(t)),
        x(r, group + "/Coordinates", c, 3),
        v(r, group + "/Velocities", c, 3) {
    if (mass == 0 || r.has(group + "/Masses")) m.emplace(r, group + "/Masses", c, 1);
    if (r.has(group + "/Radii")) rad.emplace(r, group + "/Radii", c, 1);
    if (r.has(group + "/ParticleIDs")) id.emplace(r, group + "/ParticleIDs", c, 1);
  }
  const std::string group;
  const Rows x, v;
  std::optional<Rows> m, rad, id;
};

// One block of a type's rows as read, in the precision of body type V (float, or a double run's
// own doubles).
template <class V>
struct Block {
  std::vector<RealOf<V>> x = std::vector<RealOf<V>>(3 * k_block_rows),
                         v = std::vector<RealOf<V>>(3 * k_block_rows),
                         m = std::vector<RealOf<V>>(k_block_rows),
                         r = std::vector<RealOf<V>>(k_block_rows);
};

// What a file's numbers are multiplied by to be the run's: positions and masses into the run's
// units (1 but for Orrery's own file of a run in other units than it writes), velocities into
// the engine's G = 1 units of them.
struct Scale {
  double pos = 1, mass = 1, vel = 1;
};

// Rows [first, first + k) of a type's positions and velocities (times the scale) into pos and
// vel, each from that block's first row; a Masses dataset must agree with a non-zero MassTable
// entry (or which is meant?).
template <class V>
void read_bodies(const Reader& r, const TypeData& d, int t, std::size_t first, std::size_t k,
                 double mass, const Scale& scale, Block<V>& b, V* pos, V* vel) {
  using R = RealOf<V>;
  const hid_t type = std::is_same_v<R, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  const auto read = [&](const Rows& rows, const char* what, void* into) {
    if (!rows.read(first, k, type, into)) r.fail(d.group + "/" + what + ": cannot be read");
  };
  read(d.x, "Coordinates", b.x.data());
  read(d.v, "Velocities", b.v.data());
  if (d.m) read(*d.m, "Masses", b.m.data());
  if (d.rad) read(*d.rad, "Radii", b.r.data());
  if (d.m && mass != 0)
    for (std::size_t i = 0; i < k; ++i)
      if (b.m[i] != static_cast<R>(mass))
        r.fail(d.group + "/Masses: row " + std::to_string(first + i) + " is " +
               std::to_string(b.m[i]) + " where Header/MassTable gives " + std::to_string(mass) +
               " for type " + std::to_string(t));
  const double vscale = scale.vel;
  if (scale.pos == 1 && scale.mass == 1) {
    for (std::size_t i = 0; i < k; ++i) {
      pos[i] = V{b.x[3 * i], b.x[3 * i + 1], b.x[3 * i + 2], d.m ? b.m[i] : static_cast<R>(mass)};
      vel[i] = V{static_cast<R>(b.v[3 * i] * vscale), static_cast<R>(b.v[3 * i + 1] * vscale),
                 static_cast<R>(b.v[3 * i + 2] * vscale), d.rad ? b.r[i] : R(0)};
    }
    return;
  }
  const double ps = scale.pos, ms = scale.mass;
  for (std::size_t i = 0; i < k; ++i) {
    pos[i] = V{static_cast<R>(b.x[3 * i] * ps), static_cast<R>(b.x[3 * i + 1] * ps),
               static_cast<R>(b.x[3 * i + 2] * ps), static_cast<R>((d.m ? b.m[i] : mass) * ms)};
    vel[i] = V{static_cast<R>(b.v[3 * i] * vscale), static_cast<R>(b.v[3 * i + 1] * vscale),
               static_cast<R>(b.v[3 * i + 2] * vscale), d.rad ? static_cast<R>(b.r[i] * ps) : R(0)};
  }
}

// One particle type's rows [0, c) of a file into pos, vel, types and ids (at `at`), checked.
// A double run's own file (pos64 and vel64 given): the doubles as written, the floats their
// rounding.
void read_type(const Reader& r, int t, std::size_t c, double mass, const Scale& scale, Vec4* pos,
               Vec4* vel, std::uint8_t* types, std::uint64_t* ids, std::size_t at,
               const std::string& name, Vec4d* pos64, Vec4d* vel64, void* acc) {
  const TypeData d(r, t, c, mass);
  std::optional<Rows> memory;
  if (acc) {
    if (!r.has(d.group + "/" + k_memory_dataset))
      r.fail(d.group + "/" + k_memory_dataset +
             ": missing, though Orrery@last_eval_time says the file keeps the adaptive step's "
             "memory");
    memory.emplace(r, d.group + "/" + k_memory_dataset, c, 4);
  }
  const std::optional<Rows>& id = d.id;
  std::optional<Block<Vec4>> floats;  // one of the two, as the file is read
  std::optional<Block<Vec4d>> doubles;
  if (pos64)
    doubles.emplace();
  else
    floats.emplace();
  std::vector<std::uint64_t> ib(k_block_rows);
  for (std::size_t first = 0; first < c; first += k_block_rows) {
    const std::size_t k = std::min(k_block_rows, c - first);
    const auto read = [&](const Rows& rows, const char* what, hid_t type, void* into) {
      if (!rows.read(first, k, type, into)) r.fail(d.group + "/" + what + ": cannot be read");
    };
    if (id && id->is_signed()) {  // converted to unsigned, a negative ID would read as 0
      std::vector<std::int64_t> sb(k);
      read(*id, "ParticleIDs", H5T_NATIVE_INT64, sb.data());
      for (std::size_t i = 0; i < k; ++i) {
        if (sb[i] < 0)
          r.fail(d.group + "/ParticleIDs: row " + std::to_string(first + i) + " is negative (" +
                 std::to_string(sb[i]) + ")");
        ib[i] = static_cast<std::uint64_t>(sb[i]);
      }
    } else if (id) {
      read(*id, "ParticleIDs", H5T_NATIVE_UINT64, ib.data());
    }
    const std::size_t to = at + first;
    for (std::size_t i = 0; i < k; ++i) ids[to + i] = id ? ib[i] : to + i;
    if (pos64) {
      read_bodies(r, d, t, first, k, mass, scale, *doubles, pos64 + to, vel64 + to);
      for (std::size_t i = to; i < to + k; ++i)
        pos[i] = to_float(pos64[i]), vel[i] = to_float(vel64[i]);
    } else {
      read_bodies(r, d, t, first, k, mass, scale, *floats, pos + to, vel + to);
    }
    std::memset(types + to, t, k);
    check_bodies(pos + to, vel + to, k, to, name);
    if (memory) {
      const hid_t type = pos64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
      const std::size_t wide = pos64 ? sizeof(Vec4d) : sizeof(Vec4);
      auto* into = static_cast<std::uint8_t*>(acc) + to * wide;
      read(*memory, k_memory_dataset, type, into);
      for (std::size_t i = 0; i < k; ++i) {
        const bool finite = pos64 ? is_finite3(reinterpret_cast<const Vec4d*>(into)[i])
                                  : is_finite3(reinterpret_cast<const Vec4*>(into)[i]);
        if (!finite)
          r.fail(d.group + "/" + k_memory_dataset + ": row " + std::to_string(first + i) +
                 " is not finite");
      }
    }
  }
}

// Reads the set in the reader process, straight into the answer: the headers first (counts,
// units, the run), then the particles.
void decode_into(const std::vector<File>& files, const LoadOptions& o, Answer& answer) {
  Snapshot meta;  // the run and the units: the bodies go into the answer
  meta.run_recorded = false;
  bool memory = false;
  Header first;
  UnitSystem file, run_u;  // the numbers' units, and the run's
  std::string how;
  std::int64_t seen[k_types] = {}, n = 0;
  std::vector<Header> headers;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Reader r(files[k]);
    const Header h = header(r);
    if (k == 0) {
      first = h;
      file = file_units(r, o, cosmology(r, h.time, h.redshift), how);
      if (!(file.g > 0) || !std::isfinite(file.g))
        r.fail("G in the file's units is not a number > 0");
      run_u = run_units(r, file);
      read_run(r, meta, memory);
      if (h.num_files > 1 && static_cast<std::size_t>(h.num_files) != files.size())
        r.fail("file 1 of a set of " + std::to_string(h.num_files) +
               ": open it by its name so the others are read too");
    }
    if (k > 0 && h.num_files != first.num_files)
      r.fail("Header/NumFilesPerSnapshot is " + std::to_string(h.num_files) + " where file 1 of " +
             "the set says " + std::to_string(first.num_files));
    for (int t = 0; t < k_types; ++t) seen[t] += h.here[t], n += h.here[t];
    if (n > std::numeric_limits<std::int32_t>::max())
      r.fail("Header: more particles than Orrery holds (2^31 - 1)");
    headers.push_back(h);
  }
  gadget::check_counts(files[0].name, first.total, seen);
  if (n == 0) throw SnapshotError(files[0].name + ": no particles");
  // Every dataset's shape against the header before the answer is sized: a header that lies
  // about its counts is refused without the memory it asks for.
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Reader r(files[k]);
    for (int t = 0; t < k_types; ++t)
      if (headers[k].here[t] > 0)
        TypeData(r, t, static_cast<std::size_t>(headers[k].here[t]), headers[k].mass[t]);
  }
  // A compressed dataset can be far larger than its file: ask for the memory before reading.
  try {
    check_host_memory(n, k_load_bytes_per_body);
  } catch (const InputError& e) {
    throw SnapshotError(files[0].name + ": " + e.what());
  }

  const UnitFactors f = factors(file, run_u);
  const Scale scale{f.length, f.mass, f.velocity / run_u.engine_scale()};
  char line[400];
  std::snprintf(line, sizeof line, "HDF5 in %s (%s): velocities / %.6g, so G = 1",
                describe(file).c_str(), how.c_str(), file.engine_scale());
  const std::string note = line;
  const RunState& run = meta.run;
  WireHead h{};
  h.n = h.types = h.ids = static_cast<std::uint64_t>(n);
  h.solver_chars = run.solver.size(), h.units_chars = note.size();
  h.file_time = first.time, h.redshift = first.redshift, h.box_size = first.box * f.length;
  h.run_recorded = meta.run_recorded;
  h.units = run_u;
  // A comoving run's Time is the scale factor: the run's own clock starts at 0.
  h.time = meta.run_recorded         ? run.time
           : file.cosmology.comoving ? 0.0
                                     : first.time * file.engine_scale();
  h.steps = run.steps, h.block = run.block, h.integrator = run.integrator;
  h.params = run.params, h.time_reversed = run.time_reversed, h.totals = run.totals;
  h.next_dt = run.next_dt;
  h.doubles = meta.run_recorded && run.params.precision == Precision::double_;
  h.memory = meta.run_recorded && run.params.adaptive && memory;
  h.last_eval_time = run.last_eval_time;
  if (!std::isfinite(h.time))
    throw SnapshotError(files[0].name + (meta.run_recorded
                                             ? ": Orrery: time is not finite"
                                             : ": Header: Time times sqrt(G) (the time in G = 1 "
                                               "units) is not finite"));
  const WireLayout l = wire_layout(h);
  std::uint8_t* out = answer.resize(l.end);
  std::memcpy(out, &h, sizeof h);
  std::memcpy(out + l.solver, run.solver.data(), h.solver_chars);
  std::memcpy(out + l.units, note.data(), h.units_chars);
  auto* pos = reinterpret_cast<Vec4*>(out + l.pos);
  auto* vel = reinterpret_cast<Vec4*>(out + l.vel);
  auto* ids = reinterpret_cast<std::uint64_t*>(out + l.ids);
  std::size_t at = 0;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Reader r(files[k]);
    for (int t = 0; t < k_types; ++t) {
      const auto c = static_cast<std::size_t>(headers[k].here[t]);
      if (c == 0) continue;
      read_type(r, t, c, headers[k].mass[t], scale, pos, vel, out + l.types, ids, at, files[k].name,
                h.doubles ? reinterpret_cast<Vec4d*>(out + l.pos64) : nullptr,
                h.doubles ? reinterpret_cast<Vec4d*>(out + l.vel64) : nullptr,
                h.memory ? out + l.acc : nullptr);
      at += c;
    }
  }
}

}  // namespace

Snapshot decode(const std::vector<File>& files, const LoadOptions& o) {
  if (files.empty()) throw SnapshotError("HDF5: no file");
  return from_wire(run_isolated([&](Answer& a) { decode_into(files, o, a); }, files[0].name,
                                "libhdf5", o.progress),
                   files[0].name);
}

}  // namespace orrery::hdf5
