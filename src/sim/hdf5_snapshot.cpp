// HDF5 snapshots through libhdf5's C API, on memory images (the core driver, lent the caller's
// bytes to read). Every dataset's shape and class is checked against the header before it is
// read, and libhdf5's own error stack is silenced: a fault is one SnapshotError line.
#include "hdf5_snapshot.h"

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "byte_io.h"
#include "gadget.h"  // finish
#include "isolated.h"
#include "orrery/host_memory.h"
#include "orrery/input.h"

namespace orrery::hdf5 {
namespace {

constexpr int k_types = 6;
// A body while it loads: the file's floats (28 bytes), its ID, then the snapshot's two Vec4s,
// type and ID (41 bytes).
constexpr double k_load_bytes_per_body = 28 + 8 + 41;
constexpr double k_g_cgs = 6.6743e-8;  // G in cm^3 g^-1 s^-2 (CODATA 2018)
const std::uint8_t k_signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

// An HDF5 identifier closed when it goes.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
  ~Id() {
    if (m_id >= 0) m_close(m_id);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return m_id; }
  bool ok() const { return m_id >= 0; }

 private:
  hid_t m_id;
  herr_t (*m_close)(hid_t);
};

void quiet() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

// File-image callbacks that lend libhdf5 the caller's bytes, read-only and never copied. They
// hold no heap state: H5LTopen_file_image allocates its bookkeeping and leaks it when the open
// fails, which a damaged file makes happen on every load.
struct Image {
  void* bytes;
  size_t size;
};
void* image_malloc(size_t size, H5FD_file_image_op_t, void* udata) {
  auto* image = static_cast<Image*>(udata);
  return size == image->size ? image->bytes : nullptr;
}
void* image_memcpy(void* dest, const void* src, size_t, H5FD_file_image_op_t, void*) {
  return dest == src ? dest : nullptr;  // the "copy" is the same bytes; anything else is refused
}
void* image_realloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t image_free(void*, H5FD_file_image_op_t, void*) { return 0; }
void* image_udata_copy(void* udata) { return udata; }
herr_t image_udata_free(void*) { return 0; }

hid_t open_image(Image& image) {
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5FD_file_image_callbacks_t callbacks{image_malloc, image_memcpy,     image_realloc,
                                        image_free,   image_udata_copy, image_udata_free,
                                        &image};
  if (!fapl.ok() || H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 ||
      H5Pset_file_image_callbacks(fapl, &callbacks) < 0 ||
      H5Pset_file_image(fapl, image.bytes, image.size) < 0)
    return -1;
  return H5Fopen("orrery-image.hdf5", H5F_ACC_RDONLY, fapl);
}

class Reader {
 public:
  explicit Reader(const File& f) : Reader(f.name, f.bytes) {}
  Reader(const std::string& name, const std::vector<std::uint8_t>& bytes)
      : m_name(name), m_image{const_cast<std::uint8_t*>(bytes.data()), bytes.size()} {
    quiet();
    m_file = open_image(m_image);
    if (m_file < 0) fail("not a readable HDF5 file");
  }
  ~Reader() {
    if (m_file >= 0) H5Fclose(m_file);
  }
  [[noreturn]] void fail(const std::string& why) const { throw SnapshotError(m_name + ": " + why); }

  bool has(const std::string& path) const {
    return H5Lexists(m_file, path.c_str(), H5P_DEFAULT) > 0;
  }
  bool has_attr(const std::string& group, const std::string& attr) const {
    return has(group) && H5Aexists_by_name(m_file, group.c_str(), attr.c_str(), H5P_DEFAULT) > 0;
  }
  // A numeric attribute's values (as double), `count` of them (0: any number).
  std::vector<double> attr(const std::string& group, const std::string& name,
                           std::size_t count) const {
    const std::string what = group + "/" + name;
    if (!has_attr(group, name)) fail("no attribute " + what);
    Id a(H5Aopen_by_name(m_file, group.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    const H5T_class_t c = H5Tget_class(type);
    if (c != H5T_INTEGER && c != H5T_FLOAT) fail(what + ": not a number");
    Id space(H5Aget_space(a), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space);
    if (n < 1 || (count > 0 && static_cast<std::size_t>(n) != count))
      fail(what + ": " + std::to_string(n) + " values, expected " + std::to_string(count));
    std::vector<double> v(static_cast<std::size_t>(n));
    if (H5Aread(a, H5T_NATIVE_DOUBLE, v.data()) < 0) fail(what + ": cannot be read");
    for (double x : v)
      if (!std::isfinite(x)) fail(what + ": not finite");
    return v;
  }
  // The first number of an attribute, which must lie in [lo, hi] (NaN never does).
  double attr1(const std::string& group, const std::string& name, double fallback, double lo,
               double hi) const {
    if (!has_attr(group, name)) return fallback;
    const double v = attr(group, name, 0)[0];
    if (!(v >= lo && v <= hi)) fail(group + "/" + name + " out of range");
    return v;
  }
  std::string text(const std::string& group, const std::string& name) const {
    if (!has_attr(group, name)) return "";
    Id a(H5Aopen_by_name(m_file, group.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) > 0) return "";
    const std::size_t size = H5Tget_size(type);
    if (size == 0 || size > 4096) return "";
    std::string s(size, '\0');
    if (H5Aread(a, type, s.data()) < 0) return "";
    s.resize(std::strlen(s.c_str()));
    return s;
  }
  // A dataset of n rows of `cols` numbers (cols 1: shape (n,) or (n, 1)), read as T.
  template <class T>
  std::vector<T> data(const std::string& path, std::size_t n, int cols, hid_t mem_type) const {
    if (!has(path)) fail("no dataset " + path);
    Id d(H5Dopen2(m_file, path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.ok()) fail(path + ": not a dataset");
    Id type(H5Dget_type(d), H5Tclose);
    const H5T_class_t c = H5Tget_class(type);
    if (c != H5T_INTEGER && c != H5T_FLOAT) fail(path + ": not numbers");
    Id space(H5Dget_space(d), H5Sclose);
    const int ndims = H5Sget_simple_extent_ndims(space);
    hsize_t dims[4] = {};
    if (ndims < 1 || ndims > 2) fail(path + ": " + std::to_string(ndims) + " dimensions");
    H5Sget_simple_extent_dims(space, dims, nullptr);
    const hsize_t want_cols = static_cast<hsize_t>(cols);
    const bool ok = dims[0] == n && (ndims == 1 ? cols == 1 : dims[1] == want_cols);
    if (!ok)
      fail(path + ": shape (" + std::to_string(dims[0]) +
           (ndims == 2 ? ", " + std::to_string(dims[1]) : std::string(",")) + "), expected (" +
           std::to_string(n) + (cols == 1 ? ",)" : ", " + std::to_string(cols) + ")"));
    std::vector<T> v(n * static_cast<std::size_t>(cols));
    if (n > 0 && H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
      fail(path + ": cannot be read");
    return v;
  }

 private:
  std::string m_name;
  Image m_image;  // lent to libhdf5 while the file is open
  hid_t m_file = -1;
};

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
    if (!(here[t] >= 0 && here[t] <= count_max && total[t] >= 0 && total[t] <= word_max &&
          high[t] >= 0 && high[t] <= count_max))
      r.fail("Header: a count of type " + std::to_string(t) + " out of range");
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

// G in the file's units, and what it was told by.
double units_g(const Reader& r, const LoadOptions& o, std::string& how) {
  if (r.has("Orrery")) {
    how = "Orrery's HDF5: G = 1";
    return 1.0;
  }
  const char* swift[] = {"Unit length in cgs (U_L)", "Unit mass in cgs (U_M)",
                         "Unit time in cgs (U_t)"};
  if (r.has_attr("Units", swift[0]) && r.has_attr("Units", swift[1]) &&
      r.has_attr("Units", swift[2])) {
    const double l = r.attr("Units", swift[0], 1)[0], m = r.attr("Units", swift[1], 1)[0],
                 t = r.attr("Units", swift[2], 1)[0];
    if (!(l > 0 && m > 0 && t > 0) || !std::isfinite(l * m * t))
      r.fail("Units: a unit that is not a number > 0");
    how = "SWIFT's Units group";
    return k_g_cgs * m * t * t / (l * l * l);
  }
  for (const char* group : {"Parameters", "Header"}) {
    if (r.has_attr(group, "UnitLength_in_cm") && r.has_attr(group, "UnitMass_in_g") &&
        r.has_attr(group, "UnitVelocity_in_cm_per_s")) {
      const double l = r.attr(group, "UnitLength_in_cm", 1)[0],
                   m = r.attr(group, "UnitMass_in_g", 1)[0],
                   v = r.attr(group, "UnitVelocity_in_cm_per_s", 1)[0];
      if (!(l > 0 && m > 0 && v > 0) || !std::isfinite(l * m * v))
        r.fail(std::string(group) + ": a unit that is not a number > 0");
      how = std::string("the file's ") + group + " units";
      const double t = l / v;
      return k_g_cgs * m * t * t / (l * l * l);
    }
  }
  how = "no units in the file: --gadget-g";
  return o.gadget_g;
}

void read_run(const Reader& r, Snapshot& s) {
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
  } catch (const std::invalid_argument& e) {
    r.fail(std::string("Orrery: ") + e.what());
  }
  SimParams& p = run.params;
  // Floats are read in float's range (validate() then applies each setting's own rule).
  const double fmax = std::numeric_limits<float>::max();
  const auto setting = [&](const char* name, float fallback) {
    return static_cast<float>(r.attr1("Orrery", name, fallback, -fmax, fmax));
  };
  p.dt = setting("dt", p.dt);
  p.softening = setting("softening", p.softening);
  p.damping = setting("damping", p.damping);
  p.theta = setting("theta", p.theta);
  p.gravity = setting("gravity", 1) != 0;
  p.collisions.restitution = setting("restitution", 1);
  p.collisions.box = setting("box", 0);
  run.time_reversed = setting("time_reversed", 0) != 0;
  run.steps = static_cast<long long>(r.attr1("Orrery", "steps", 0, 0, 1e18));
  run.time = r.attr1("Orrery", "time", 0, -std::numeric_limits<double>::max(),
                     std::numeric_limits<double>::max());
  try {
    validate(p);
    check_integrator(run.integrator, p);
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

Snapshot decode_here(const std::vector<File>& files, const LoadOptions& o) {
  Snapshot s;
  s.format = SnapshotFormat::hdf5;
  s.run_recorded = false;
  Header first;
  double g = o.gadget_g;
  std::int64_t seen[k_types] = {};
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Reader r(files[k]);
    const Header h = header(r);
    if (k == 0) {
      first = h;
      g = units_g(r, o, s.units);
      if (!(g > 0) || !std::isfinite(g)) r.fail("G in the file's units is not a number > 0");
      read_run(r, s);
      if (h.num_files > 1 && static_cast<std::size_t>(h.num_files) != files.size())
        r.fail("file 1 of a set of " + std::to_string(h.num_files) +
               ": open it by its name so the others are read too");
    }
    std::int64_t n = 0;
    for (std::int64_t c : h.here) n += c;
    if (n + static_cast<std::int64_t>(s.bodies.pos.size()) >
        std::numeric_limits<std::int32_t>::max())
      r.fail("Header: more particles than Orrery holds (2^31 - 1)");
    // A compressed dataset can be far larger than its file: ask for the memory before reading.
    try {
      check_host_memory(n + static_cast<std::int64_t>(s.bodies.pos.size()), k_load_bytes_per_body);
    } catch (const InputError& e) {
      r.fail(e.what());
    }
    const double vscale = 1.0 / std::sqrt(g);
    for (int t = 0; t < k_types; ++t) {
      const auto c = static_cast<std::size_t>(h.here[t]);
      seen[t] += h.here[t];
      if (c == 0) continue;
      const std::string group = "PartType" + std::to_string(t);
      const auto x = r.data<float>(group + "/Coordinates", c, 3, H5T_NATIVE_FLOAT);
      const auto v = r.data<float>(group + "/Velocities", c, 3, H5T_NATIVE_FLOAT);
      std::vector<float> m;
      if (h.mass[t] == 0 || r.has(group + "/Masses"))
        m = r.data<float>(group + "/Masses", c, 1, H5T_NATIVE_FLOAT);
      std::vector<float> radii;  // Orrery's own files keep the bodies' radii
      if (r.has(group + "/Radii")) radii = r.data<float>(group + "/Radii", c, 1, H5T_NATIVE_FLOAT);
      std::vector<std::uint64_t> ids;
      if (r.has(group + "/ParticleIDs"))
        ids = r.data<std::uint64_t>(group + "/ParticleIDs", c, 1, H5T_NATIVE_UINT64);
      for (std::size_t i = 0; i < c; ++i) {
        s.bodies.pos.push_back(Vec4{x[3 * i], x[3 * i + 1], x[3 * i + 2],
                                    m.empty() ? static_cast<float>(h.mass[t]) : m[i]});
        s.bodies.vel.push_back(
            Vec4{static_cast<float>(v[3 * i] * vscale), static_cast<float>(v[3 * i + 1] * vscale),
                 static_cast<float>(v[3 * i + 2] * vscale), radii.empty() ? 0.0f : radii[i]});
        s.types.push_back(static_cast<std::uint8_t>(t));
        s.ids.push_back(ids.empty() ? s.ids.size() : ids[i]);
      }
    }
  }
  gadget::finish(s, files[0].name, first.total, seen, first.time, first.redshift, first.box);
  if (!s.run_recorded) s.run.time = first.time * std::sqrt(g);
  char line[240];
  std::snprintf(line, sizeof line,
                "HDF5, G = %g in the file's units (%s): velocities / %.6g, so G = 1", g,
                s.units.c_str(), std::sqrt(g));
  s.units = line;
  return s;
}

// A decoded snapshot as the reader process passes it back. Child and parent are one binary, so
// the arrays go as their bytes (a 16M-body file passed through Orrery's format spent seconds in
// its byte-wise writer and checksum): the counts, the run without its solver name, the arrays,
// then the strings.
struct WireHead {
  std::uint64_t n, types, ids, solver_chars, units_chars;
  double file_time, redshift, box_size;
  bool run_recorded;
};
static_assert(std::is_trivially_copyable_v<WireHead> && std::is_trivially_copyable_v<SimParams> &&
              std::is_trivially_copyable_v<CollisionTotals> && std::is_trivially_copyable_v<Vec4>);

template <class T>
void put(std::vector<std::uint8_t>& out, const T* p, std::size_t count) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(p);
  out.insert(out.end(), b, b + count * sizeof(T));
}

std::vector<std::uint8_t> to_wire(const Snapshot& s) {
  WireHead h{};
  h.n = s.bodies.pos.size(), h.types = s.types.size(), h.ids = s.ids.size();
  h.solver_chars = s.run.solver.size(), h.units_chars = s.units.size();
  h.file_time = s.file_time, h.redshift = s.redshift, h.box_size = s.box_size;
  h.run_recorded = s.run_recorded;
  std::vector<std::uint8_t> out;
  out.reserve(sizeof h + h.n * (2 * sizeof(Vec4) + 9) + 512);
  put(out, &h, 1);
  put(out, &s.run.time, 1), put(out, &s.run.steps, 1), put(out, &s.run.block, 1);
  put(out, &s.run.integrator, 1), put(out, &s.run.params, 1), put(out, &s.run.time_reversed, 1);
  put(out, &s.run.totals, 1);
  put(out, s.bodies.pos.data(), h.n), put(out, s.bodies.vel.data(), h.n);
  put(out, s.types.data(), h.types), put(out, s.ids.data(), h.ids);
  put(out, s.run.solver.data(), h.solver_chars), put(out, s.units.data(), h.units_chars);
  return out;
}

Snapshot from_wire(const std::vector<std::uint8_t>& in, const std::string& name) {
  const auto bad = [&] { return SnapshotError(name + ": its reader's answer is malformed"); };
  std::size_t at = 0;
  const auto get = [&](void* p, std::size_t bytes) {
    if (bytes > in.size() - at) throw bad();
    std::memcpy(p, in.data() + at, bytes);
    at += bytes;
  };
  WireHead h{};
  get(&h, sizeof h);
  if (h.n > (1ull << 31) || (h.types != 0 && h.types != h.n) || h.ids != h.types ||
      h.solver_chars > 64 || h.units_chars > 4096)
    throw bad();
  Snapshot s;
  s.format = SnapshotFormat::hdf5;
  s.file_time = h.file_time, s.redshift = h.redshift, s.box_size = h.box_size;
  s.run_recorded = h.run_recorded;
  get(&s.run.time, sizeof s.run.time), get(&s.run.steps, sizeof s.run.steps);
  get(&s.run.block, sizeof s.run.block), get(&s.run.integrator, sizeof s.run.integrator);
  get(&s.run.params, sizeof s.run.params), get(&s.run.time_reversed, sizeof s.run.time_reversed);
  get(&s.run.totals, sizeof s.run.totals);
  s.bodies.pos.resize(h.n), s.bodies.vel.resize(h.n);
  get(s.bodies.pos.data(), h.n * sizeof(Vec4)), get(s.bodies.vel.data(), h.n * sizeof(Vec4));
  s.types.resize(h.types), s.ids.resize(h.ids);
  get(s.types.data(), h.types), get(s.ids.data(), h.ids * sizeof(std::uint64_t));
  s.run.solver.resize(h.solver_chars), s.units.resize(h.units_chars);
  get(s.run.solver.data(), h.solver_chars), get(s.units.data(), h.units_chars);
  if (at != in.size()) throw bad();
  return s;
}

}  // namespace

Snapshot decode(const std::vector<File>& files, const LoadOptions& o) {
  if (files.empty()) throw SnapshotError("HDF5: no file");
  return from_wire(run_isolated([&] { return to_wire(decode_here(files, o)); }, files[0].name,
                                "libhdf5", o.progress),
                   files[0].name);
}

namespace {

void put_attr(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const void* data,
              hsize_t n) {
  Id space(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
  Id a(H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!a.ok() || H5Awrite(a, mem_type, data) < 0)
    throw SnapshotError(std::string("HDF5: cannot write the attribute ") + name);
}
void put_double(hid_t loc, const char* name, double v) {
  put_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v, 1);
}
void put_text(hid_t loc, const char* name, const std::string& v) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, std::max<std::size_t>(v.size(), 1));
  std::string padded = v.empty() ? std::string(1, '\0') : v;
  put_attr(loc, name, type, type, padded.data(), 1);
}
template <class T>
void put_data(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const std::vector<T>& v,
              int cols) {
  hsize_t dims[2] = {v.size() / static_cast<std::size_t>(cols), static_cast<hsize_t>(cols)};
  Id space(H5Screate_simple(cols == 1 ? 1 : 2, dims, nullptr), H5Sclose);
  Id d(H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!d.ok() || H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    throw SnapshotError(std::string("HDF5: cannot write the dataset ") + name);
}

}  // namespace

std::vector<std::uint8_t> encode(const Snapshot& s) {
  quiet();
  const int n = s.bodies.size();
  const bool typed = static_cast<int>(s.types.size()) == n;
  const bool with_ids = static_cast<int>(s.ids.size()) == n;
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_core(fapl, 1 << 20, 0);  // in memory only: the image is written by the caller
  Id file(H5Fcreate("orrery-image.hdf5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose);
  if (!file.ok()) throw SnapshotError("HDF5: cannot make a file image");
  std::int32_t count[k_types] = {};
  for (int i = 0; i < n; ++i) ++count[typed ? s.types[static_cast<std::size_t>(i)] % k_types : 1];
  {
    Id h(H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const std::uint32_t zero6[k_types] = {};
    std::uint32_t total[k_types];
    for (int t = 0; t < k_types; ++t) total[t] = static_cast<std::uint32_t>(count[t]);
    const double mass_table[k_types] = {};
    put_attr(h, "NumPart_ThisFile", H5T_STD_I32LE, H5T_NATIVE_INT32, count, k_types);
    put_attr(h, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, total, k_types);
    put_attr(h, "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, zero6, k_types);
    put_attr(h, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass_table, k_types);
    put_double(h, "Time", s.run.time);
    put_double(h, "Redshift", 0.0);
    put_double(h, "BoxSize", s.run.params.collisions.box);
    const std::int32_t one = 1;
    put_attr(h, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT32, &one, 1);
  }
  for (int t = 0; t < k_types; ++t) {
    if (count[t] == 0) continue;
    const std::string name = "PartType" + std::to_string(t);
    Id g(H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    std::vector<float> x, v, m, r;
    std::vector<std::uint64_t> ids;
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if ((typed ? s.types[k] % k_types : 1) != t) continue;
      const Vec4& p = s.bodies.pos[k];
      const Vec4& u = s.bodies.vel[k];
      x.insert(x.end(), {p.x, p.y, p.z});
      v.insert(v.end(), {u.x, u.y, u.z});
      m.push_back(p.w);
      r.push_back(u.w);
      ids.push_back(with_ids ? s.ids[k] : static_cast<std::uint64_t>(i));
    }
    put_data(g, "Coordinates", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, x, 3);
    put_data(g, "Velocities", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, v, 3);
    put_data(g, "Masses", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, m, 1);
    put_data(g, "ParticleIDs", H5T_STD_U64LE, H5T_NATIVE_UINT64, ids, 1);
    put_data(g, "Radii", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, r, 1);
  }
  {
    Id o(H5Gcreate2(file, "Orrery", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    const RunState& run = s.run;
    const SimParams& p = run.params;
    put_double(o, "G", 1.0);
    put_text(o, "solver", run.solver);
    put_double(o, "block", run.block);
    put_text(o, "integrator", to_string(run.integrator));
    put_double(o, "dt", p.dt);
    put_double(o, "softening", p.softening);
    put_double(o, "damping", p.damping);
    put_double(o, "theta", p.theta);
    put_double(o, "gravity", p.gravity ? 1 : 0);
    put_text(o, "collisions", to_string(p.collisions.mode));
    put_double(o, "restitution", p.collisions.restitution);
    put_double(o, "box", p.collisions.box);
    put_double(o, "time_reversed", run.time_reversed ? 1 : 0);
    put_double(o, "steps", static_cast<double>(run.steps));
    put_double(o, "time", run.time);
  }
  H5Fflush(file, H5F_SCOPE_GLOBAL);
  const ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size <= 0) throw SnapshotError("HDF5: cannot read the file image back");
  std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file, out.data(), out.size()) != size)
    throw SnapshotError("HDF5: cannot read the file image back");
  return out;
}

}  // namespace orrery::hdf5
