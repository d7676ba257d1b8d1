// What every reader shares: reading an input file whole (in chunks, refusing what is no regular
// file) with the load's progress, the bodies' checks every reader ends with, the units of a file
// that brings none, and the particle types' names.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "orrery/snapshot.h"
#include "tipsy.h"

namespace orrery {

std::vector<std::uint8_t> read_input_file(const std::string& path, LoadProgress* progress) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw SnapshotError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw SnapshotError(path + ": cannot open: " + std::strerror(errno));
  // Not a folder, a device or a pipe (/dev/zero would never end).
  if (S_ISDIR(st.st_mode)) throw SnapshotError(path + ": cannot open: is a folder");
  if (!S_ISREG(st.st_mode)) throw SnapshotError(path + ": cannot open: not a regular file");
  if (progress) progress->total += st.st_size;
  // The size is a hint (the file may change under us): read to the end, in chunks. At the size
  // given, a small probe tells the end from a file that grew, so the buffer is not regrown then.
  constexpr std::size_t k_chunk = 8u << 20;
  std::vector<std::uint8_t> b(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  std::uint8_t probe[4096];
  for (;;) {
    if (progress) progress->check(path);
    const bool at_size = got == b.size();
    std::uint8_t* into = at_size ? probe : b.data() + got;
    const ssize_t r = ::read(fd, into, at_size ? sizeof probe : std::min(k_chunk, b.size() - got));
    if (r < 0 && errno == EINTR) continue;
    // A read that fails part-way (/proc/self/mem, an I/O error) is the file's fault.
    if (r < 0) throw SnapshotError(path + ": cannot read: " + std::strerror(errno));
    if (r == 0) break;
    if (at_size) b.insert(b.end(), probe, probe + r);
    got += static_cast<std::size_t>(r);
    if (progress) progress->read += r;
  }
  return b;
}

void check_bodies(const BodyState& b, const std::string& name) {
  check_bodies(b.pos.data(), b.vel.data(), b.pos.size(), 0, name);
}

void check_bodies(const Vec4* pos, const Vec4* vel, std::size_t n, std::size_t first,
                  const std::string& name) {
  for (std::size_t k = 0; k < n; ++k) {
    const Vec4& p = pos[k];
    const Vec4& v = vel[k];
    const char* what = nullptr;
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      what = "position is not finite";
    else if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      what = "velocity is not finite";
    else if (!std::isfinite(p.w) || p.w < 0.0f)
      what = "mass is negative or not finite";
    else if (!std::isfinite(v.w) || v.w < 0.0f)
      what = "radius is negative or not finite";
    if (what) throw SnapshotError(name + ": body " + std::to_string(first + k) + ": its " + what);
  }
}

LoadOptions parse_load_options(const std::optional<std::string>& types,
                               const std::optional<std::string>& gadget_g,
                               const std::optional<std::string>& units) {
  LoadOptions o;
  if (types)
    for (const std::string& item : split_list(*types, "--types"))
      o.types.push_back(static_cast<int>(parse_integer(item, "--types", 0, 5)));
  if (gadget_g) {
    o.gadget_g = parse_float(*gadget_g, "--gadget-g");
    if (!(o.gadget_g > 0)) throw InputError("--gadget-g '" + *gadget_g + "': must be > 0");
    o.gadget_g_given = true;
  }
  if (units) take_units_text(o, *units, "--units", "--gadget-g");
  return o;
}

void take_units_text(LoadOptions& o, const std::string& text, const std::string& name,
                     const std::string& gadget_g_name) {
  const bool flag = name.rfind("--", 0) == 0;  // a program's option, else a Python keyword
  const auto shown = [&](const std::string& v) { return name + (flag ? " '" : "='") + v + "'"; };
  const UnitsChoice c = parse_units(text, name);
  if (c.henon)
    throw InputError(shown("henon") +
                     " rescales a preset; a file's units are a length and a mass (and velocity), "
                     "such as '1 kpc, 1e10 Msun, 1 km/s', or " +
                     shown("nbody"));
  if (c.units.physical() && o.gadget_g_given)
    throw InputError(gadget_g_name + " with " + shown(text) +
                     ": G follows from the units; give one or the other");
  o.units = c.units;
  o.units_option = shown(text);
  if (!c.units.physical() && o.gadget_g_given) o.units->g = o.gadget_g;
}

UnitSystem units_for_file(const LoadOptions& o, const Cosmology& c) {
  UnitSystem u;
  if (o.units)
    u = *o.units;
  else if (o.gadget_g_given)
    u.g = o.gadget_g;
  else
    u = gadget_units(c);
  u.cosmology = c;
  return u;
}

void refuse_other_units(const LoadOptions& o, const std::string& name, const char* format) {
  if (o.units)
    throw SnapshotError(o.units_option + ": " + name + " is " + format +
                        ", which brings its own units (they are used)");
  if (o.gadget_g_given)
    throw SnapshotError(o.gadget_g_option + ": " + name + " is " + format +
                        ", which brings its own units (they are used)");
}

const std::vector<std::string>& particle_type_names() {
  static const std::vector<std::string> names = {"gas",   "halo",  "disk",
                                                 "bulge", "stars", "boundary"};
  return names;
}

void print_load_progress(LoadProgress& p, const std::string& program, const std::string& path,
                         double every_s) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto last = start;
  p.tick = [=](const LoadProgress& q) mutable {
    const Clock::time_point now = Clock::now();
    if (std::chrono::duration<double>(now - last).count() < every_s) return;
    last = now;
    const double s = std::chrono::duration<double>(now - start).count();
    const long long total = q.total.load();
    if (q.decoding.load() || total <= 0)
      std::fprintf(stderr, "%s: loading %s: decoding (%.0f s)\n", program.c_str(), path.c_str(), s);
    else
      std::fprintf(stderr, "%s: loading %s: %.0f%% of %.0f MB (%.0f s)\n", program.c_str(),
                   path.c_str(), 100.0 * static_cast<double>(q.read.load()) / total, total / 1e6,
                   s);
  };
}

void LoadProgress::check(const std::string& path) {
  if (cancel.load()) throw LoadCancelled(path + ": loading cancelled");
  if (tick) tick(*this);
}

}  // namespace orrery
