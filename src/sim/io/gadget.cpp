// GADGET-2 binary snapshots: every length is checked before it is used, so a lying file is refused
// with its name and block, never read past its end.
#include "gadget.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "byte_io.h"
#include "tipsy.h"  // check_bodies

namespace orrery::gadget {
namespace {

constexpr std::uint32_t k_header_bytes = 256;

struct Header {
  std::int64_t npart[k_types] = {};  // in this file
  double mass[k_types] = {};         // 0: the MASS block holds them
  double time = 0, redshift = 0, box = 0;
  double omega0 = 0, omega_lambda = 0, hubble = 0;
  std::int64_t total[k_types] = {};  // in all files (low and high words); 0 when not filled in
  int num_files = 0;
  std::int64_t count() const {
    std::int64_t n = 0;
    for (std::int64_t c : npart) n += c;
    return n;
  }
};

// One block: its label (SnapFormat 2; else empty) and where its payload lies.
struct Block {
  std::string label;
  std::size_t at = 0, bytes = 0;
};

class FileReader {
 public:
  FileReader(const File& f) : m_f(f) {
    const std::uint8_t* d = f.bytes.data();
    const std::size_t n = f.bytes.size();
    for (bytes::Order o : {bytes::Order::little, bytes::Order::big}) {
      bytes::Reader r(d, n, o, f.name);
      if (n < 4) break;
      const std::uint32_t first = r.u32();
      if (first == k_header_bytes || first == 8) {
        m_order = o;
        m_format2 = first == 8;
        return;
      }
    }
    fail("not a GADGET-2 file (no header record)");
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw SnapshotError(m_f.name + ": " + why);
  }

  // Every block of the file, each record's two markers checked against each other.
  std::vector<Block> blocks() const {
    std::vector<Block> out;
    bytes::Reader r(m_f.bytes.data(), m_f.bytes.size(), m_order, m_f.name);
    const std::size_t size = m_f.bytes.size();
    while (r.at() < size) {
      Block b;
      if (m_format2) {
        const std::size_t start = r.at();
        const std::uint32_t a = marker(r, "a block label");
        if (a != 8)
          fail("a label record of " + std::to_string(a) + " bytes at byte " +
               std::to_string(start) + " (SnapFormat 2 has 8)");
        const std::uint8_t* label = r.take(4);
        b.label.assign(reinterpret_cast<const char*>(label), 4);
        while (!b.label.empty() && b.label.back() == ' ') b.label.pop_back();
        r.u32();  // the next block's size + 8: informative
        if (r.u32() != 8)
          fail("the label record of block " + b.label + " ends with a different marker");
      }
      const std::string what =
          b.label.empty() ? "block " + std::to_string(out.size() + 1) : "block " + b.label;
      const std::uint32_t len = marker(r, what);
      if (len > size - r.at())
        fail(what + ": " + std::to_string(len) + " bytes, past the end of the file (truncated?)");
      b.at = r.at();
      b.bytes = len;
      r.seek(r.at() + len);
      if (size - r.at() < 4) fail(what + ": no closing marker (truncated)");
      const std::uint32_t end = r.u32();
      if (end != len)
        fail(what + ": its markers disagree (" + std::to_string(len) + " and " +
             std::to_string(end) + " bytes)");
      out.push_back(b);
    }
    return out;
  }

  Header header(const Block& b) const {
    if (b.bytes != k_header_bytes)
      fail("a header of " + std::to_string(b.bytes) + " bytes (GADGET-2's has 256)");
    bytes::Reader r(m_f.bytes.data() + b.at, b.bytes, m_order, m_f.name);
    Header h;
    for (auto& c : h.npart) c = r.i32();
    for (double& m : h.mass) m = r.f64();
    h.time = r.f64();
    h.redshift = r.f64();
    r.seek(96);
    std::uint32_t low[k_types];
    for (auto& c : low) c = r.u32();
    r.seek(124);
    h.num_files = r.i32();
    h.box = r.f64();
    h.omega0 = r.f64(), h.omega_lambda = r.f64(), h.hubble = r.f64();
    r.seek(168);
    for (int t = 0; t < k_types; ++t)
      h.total[t] = (static_cast<std::int64_t>(r.u32()) << 32) | low[t];
    for (int t = 0; t < k_types; ++t) {
      if (h.npart[t] < 0) fail("header: a negative count of type " + std::to_string(t));
      if (!std::isfinite(h.mass[t]) || h.mass[t] < 0)
        fail("header: type " + std::to_string(t) + "'s mass is not a finite number >= 0");
    }
    if (!std::isfinite(h.time) || !std::isfinite(h.redshift) || !std::isfinite(h.box) || h.box < 0)
      fail("header: a time, redshift or box size that is not finite");
    if (h.num_files < 0) fail("header: a negative NumFilesPerSnapshot");
    for (double c : {h.omega0, h.omega_lambda, h.hubble})
      if (!std::isfinite(c) || c < 0 || c > 1e6)
        fail("header: an Omega0, OmegaLambda or HubbleParam that is not a number in [0, 1e6]");
    return h;
  }

  // n values of 4 or 8 bytes each (float or double, uint32 or uint64), as the block's size says.
  int width(const Block& b, std::int64_t n, int per, const std::string& what) const {
    const auto u = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(per);
    if (b.bytes == 4 * u) return 4;
    if (b.bytes == 8 * u) return 8;
    fail(what + ": " + std::to_string(b.bytes) + " bytes for " + std::to_string(n) +
         " particles (the header's counts)");
  }
  // Value i of a block whose size width() checked.
  double real(const Block& b, std::size_t i, int w) const {
    const std::uint64_t u = load(b.at + i * w, w);
    if (w == 4) {
      const auto u32 = static_cast<std::uint32_t>(u);
      float v;
      std::memcpy(&v, &u32, 4);
      return v;
    }
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  }
  std::uint64_t integer(const Block& b, std::size_t i, int w) const {
    return load(b.at + i * w, w);
  }
  bool format2() const { return m_format2; }

 private:
  std::uint64_t load(std::size_t at, int w) const {
    const std::uint8_t* p = m_f.bytes.data() + at;
    std::uint64_t v = 0;
    for (int k = 0; k < w; ++k) {
      const int shift = 8 * (m_order == bytes::Order::little ? k : w - 1 - k);
      v |= static_cast<std::uint64_t>(p[k]) << shift;
    }
    return v;
  }
  std::uint32_t marker(bytes::Reader& r, const std::string& what) const {
    if (m_f.bytes.size() - r.at() < 4) fail(what + ": truncated");
    return r.u32();
  }
  const File& m_f;
  bytes::Order m_order = bytes::Order::little;
  bool m_format2 = false;
};

// The blocks Orrery reads, found by label (SnapFormat 2) or by place (SnapFormat 1: HEAD, POS,
// VEL, ID, then MASS where some type's mass is 0).
struct Layout {
  const Block *head = nullptr, *pos = nullptr, *vel = nullptr, *id = nullptr, *mass = nullptr;
};

Layout layout(const FileReader& f, const std::vector<Block>& blocks, bool mass_block) {
  Layout l;
  if (f.format2()) {
    if (blocks.empty() || blocks[0].label != "HEAD") f.fail("SnapFormat 2 without HEAD first");
    for (const Block& b : blocks) {
      if (b.label == "HEAD" && !l.head)
        l.head = &b;
      else if (b.label == "POS" && !l.pos)
        l.pos = &b;
      else if (b.label == "VEL" && !l.vel)
        l.vel = &b;
      else if (b.label == "ID" && !l.id)
        l.id = &b;
      else if (b.label == "MASS" && !l.mass)
        l.mass = &b;
    }
  } else {
    if (blocks.size() > 0) l.head = &blocks[0];
    if (blocks.size() > 1) l.pos = &blocks[1];
    if (blocks.size() > 2) l.vel = &blocks[2];
    if (blocks.size() > 3) l.id = &blocks[3];
    if (mass_block && blocks.size() > 4) l.mass = &blocks[4];
  }
  if (!l.head) f.fail("no HEAD block");
  return l;
}

// SnapFormat 1 has no labels: GADGET-2 writes and reads POS, VEL, ID, then MASS where a type's
// MassTable entry is 0, then the gas's U. A file with fewer blocks lacks one of them, and their
// sizes cannot say which (a missing MASS leaves U of the same size in its place; a missing ID
// moves MASS into ID's): refused, naming what the header asks for and what the file holds. U is
// asked for only behind a MASS block, where it could pass for one.
void check_places(const FileReader& f, const std::vector<Block>& blocks, bool mass_block,
                  bool gas) {
  if (f.format2()) return;
  std::vector<std::string> want = {"POS", "VEL", "ID"};
  if (mass_block) want.push_back("MASS");
  if (mass_block && gas) want.push_back("U");
  const std::size_t have = blocks.empty() ? 0 : blocks.size() - 1;
  if (have >= want.size()) return;
  std::string asked, held;
  for (const std::string& w : want) asked += (asked.empty() ? "" : ", ") + w;
  for (std::size_t k = 1; k < blocks.size(); ++k)
    held += (k > 1 ? ", " : "") + std::to_string(blocks[k].bytes);
  f.fail("SnapFormat 1 finds blocks by their place: the header asks for " + asked + " (" +
         std::to_string(want.size()) + " blocks) after it, but the file has " +
         std::to_string(have) + (have ? " (of " + held + " bytes)" : "") +
         "; one is missing, and without labels no block can be told from another");
}

}  // namespace

bool looks_like(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return false;
  for (bytes::Order o : {bytes::Order::little, bytes::Order::big}) {
    bytes::Reader r(data, size, o, "");
    const std::uint32_t first = r.u32();
    if (first == k_header_bytes) return true;
    if (first == 8 && size >= 8 && std::memcmp(data + 4, "HEAD", 4) == 0) return true;
  }
  return false;
}

int files_in_set(const std::uint8_t* data, std::size_t size, const std::string& name) {
  const File f{name, std::vector<std::uint8_t>(data, data + size)};
  FileReader r(f);
  const std::vector<Block> blocks = r.blocks();
  return r.header(*layout(r, blocks, false).head).num_files;
}

std::vector<std::string> set_names(const std::string& path, int count) {
  std::string base = path;
  const std::size_t dot = path.find_last_of('.');
  if (dot != std::string::npos && dot + 1 < path.size() &&
      path.find_first_not_of("0123456789", dot + 1) == std::string::npos)
    base = path.substr(0, dot);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(base + "." + std::to_string(i));
  return names;
}

void check_counts(const std::string& name, const std::int64_t (&total)[k_types],
                  const std::int64_t (&seen)[k_types]) {
  for (int t = 0; t < k_types; ++t)
    if (total[t] != 0 && total[t] != seen[t])
      throw SnapshotError(name + ": header: " + std::to_string(total[t]) + " particles of type " +
                          std::to_string(t) + " in all files, but the files hold " +
                          std::to_string(seen[t]));
}

void finish(Snapshot& s, const std::string& name, const std::int64_t (&total)[k_types],
            const std::int64_t (&seen)[k_types], double time, double redshift, double box,
            bool lone) {
  if (!lone) check_counts(name, total, seen);
  if (s.bodies.pos.empty()) throw SnapshotError(name + ": no particles");
  check_bodies(s.bodies, name);
  s.file_time = time;
  s.redshift = redshift;
  s.box_size = box;
}

// A GADGET-2 header's cosmology. The binary format has no flag for comoving integration: as yt
// reads it, a run with a cosmological constant (or a matter density and a redshift) is a
// cosmological one, whose Time is the scale factor.
Cosmology cosmology_of(const Header& h) {
  Cosmology c;
  c.cosmological = h.omega_lambda > 0 || (h.omega0 > 0 && h.redshift > 0);
  c.comoving = c.cosmological;
  c.hubble = h.hubble, c.omega0 = h.omega0, c.omega_lambda = h.omega_lambda;
  c.scale_factor = c.comoving ? h.time : 1.0;
  return c;
}

Snapshot decode(const std::vector<File>& files, const LoadOptions& o) {
  if (files.empty()) throw SnapshotError("GADGET-2: no file");
  UnitSystem units;   // from the first header (its cosmology)
  double vscale = 1;  // the velocities' factor into G = 1 units
  Snapshot s;
  s.format = SnapshotFormat::gadget2;
  s.run_recorded = false;
  Header first;
  std::int64_t seen[k_types] = {};
  for (std::size_t k = 0; k < files.size(); ++k) {
    const File& file = files[k];
    FileReader f(file);
    const std::vector<Block> blocks = f.blocks();
    Header h = f.header(*layout(f, blocks, false).head);
    if (k == 0) {
      first = h;
      units = units_for_file(o, cosmology_of(h));
      if (!(units.g > 0) || !std::isfinite(units.g))
        throw SnapshotError("--gadget-g: must be a finite number > 0");
      vscale = 1.0 / units.engine_scale();
      if (h.num_files > 1 && static_cast<std::size_t>(h.num_files) != files.size())
        f.fail("file 1 of a set of " + std::to_string(h.num_files) +
               ": open it by its name so the others are read too");
    } else if (h.num_files != first.num_files) {
      f.fail("a NumFilesPerSnapshot of " + std::to_string(h.num_files) +
             " where the first file says " + std::to_string(first.num_files));
    }
    const std::int64_t n = h.count();
    if (n + static_cast<std::int64_t>(s.bodies.pos.size()) >
        std::numeric_limits<std::int32_t>::max())
      f.fail("header: " + std::to_string(n) + " particles, more than Orrery holds (2^31 - 1)");
    // Before any allocation: the file must be large enough for the positions the header promises.
    if (static_cast<double>(n) * 12.0 > static_cast<double>(file.bytes.size()))
      f.fail("header: " + std::to_string(n) + " particles, but the file has " +
             std::to_string(file.bytes.size()) + " bytes");
    std::int64_t with_mass = 0;
    for (int t = 0; t < k_types; ++t)
      if (h.mass[t] == 0) with_mass += h.npart[t];
    const Layout l = layout(f, blocks, with_mass > 0);
    if (n == 0) continue;
    check_places(f, blocks, with_mass > 0, h.npart[0] > 0);
    if (!l.pos) f.fail("no POS block");
    if (!l.vel) f.fail("no VEL block");
    if (with_mass > 0 && !l.mass)
      f.fail("no MASS block, and " + std::to_string(with_mass) +
             " particles have no mass in the header");
    const int wp = f.width(*l.pos, n, 3, "POS"), wv = f.width(*l.vel, n, 3, "VEL");
    const int wi = l.id ? f.width(*l.id, n, 1, "ID") : 0;
    const int wm = with_mass > 0 ? f.width(*l.mass, with_mass, 1, "MASS") : 0;
    std::size_t i = 0, m = 0;
    for (int t = 0; t < k_types; ++t) {
      for (std::int64_t j = 0; j < h.npart[t]; ++j, ++i) {
        Vec4 p{static_cast<float>(f.real(*l.pos, 3 * i, wp)),
               static_cast<float>(f.real(*l.pos, 3 * i + 1, wp)),
               static_cast<float>(f.real(*l.pos, 3 * i + 2, wp)), 0.0f};
        p.w = static_cast<float>(h.mass[t] != 0 ? h.mass[t] : f.real(*l.mass, m++, wm));
        const Vec4 v{static_cast<float>(f.real(*l.vel, 3 * i, wv) * vscale),
                     static_cast<float>(f.real(*l.vel, 3 * i + 1, wv) * vscale),
                     static_cast<float>(f.real(*l.vel, 3 * i + 2, wv) * vscale), 0.0f};
        s.bodies.pos.push_back(p);
        s.bodies.vel.push_back(v);
        s.types.push_back(static_cast<std::uint8_t>(t));
        s.ids.push_back(l.id ? f.integer(*l.id, i, wi) : static_cast<std::uint64_t>(s.ids.size()));
      }
      seen[t] += h.npart[t];
    }
  }
  const bool lone = files.size() == 1 && first.num_files <= 1;
  finish(s, files[0].name, first.total, seen, first.time, first.redshift, first.box, lone);
  s.run.units = units;
  // A comoving run's Time is the scale factor: the run's own clock starts at 0.
  s.run.time = units.cosmology.comoving ? 0.0 : first.time / vscale;
  if (!std::isfinite(s.run.time))  // a finite file time times sqrt(G) can overflow
    throw SnapshotError(files[0].name +
                        ": header: time times sqrt(G) (the time in G = 1 units) is not finite");
  char line[320];
  std::snprintf(line, sizeof line, "GADGET-2 in %s%s: velocities / %.6g and time x %.6g, so G = 1",
                describe(units).c_str(),
                o.units            ? " (--units)"
                : o.gadget_g_given ? " (--gadget-g)"
                                   : " (GADGET's, as the format has no units; --units for others)",
                1.0 / vscale, 1.0 / vscale);
  s.units_note = line;
  // The totals as check_counts reads them (0: not filled in), summed in double: a lying header's
  // can pass 2^63.
  bool disagree = false;
  double said = 0, held = 0;
  for (int t = 0; t < k_types; ++t) {
    said += static_cast<double>(first.total[t]), held += static_cast<double>(seen[t]);
    disagree |= first.total[t] != 0 && first.total[t] != seen[t];
  }
  if (lone && disagree) {
    char note[160];
    std::snprintf(note, sizeof note,
                  "; the header's totals (%.0f particles) disagree with this lone file's own "
                  "counts (%.0f): its own are read",
                  said, held);
    s.units_note += note;
  }
  return s;
}

}  // namespace orrery::gadget
