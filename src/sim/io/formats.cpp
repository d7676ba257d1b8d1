// The snapshot formats' registry (orrery/formats.h) and the one dispatch through it: a name's
// format for writing, a content's for reading, sets of files, safe saving (a temporary file renamed
// over the target), the --types subset, and the CSV writer.
#include "orrery/formats.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "gadget.h"
#include "hdf5_snapshot.h"
#include "orrery/output_file.h"
#include "orrery/registry.h"
#include "orrery_format.h"
#include "tipsy.h"

namespace orrery {
namespace {

// A single-file reader over the first file.
template <Snapshot (*Decode)(const std::uint8_t*, std::size_t, const std::string&)>
Snapshot one_file(const std::vector<SnapshotFile>& files, const LoadOptions&) {
  return Decode(files.front().bytes.data(), files.front().bytes.size(), files.front().name);
}

// "x,y,z,vx,vy,vz,mass,radius", then one line a body (9 significant digits: floats round-trip).
std::vector<std::uint8_t> encode_csv(const Snapshot& s) {
  const std::string text = csv_text(s.bodies);
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

int gadget_set_size(const std::vector<std::uint8_t>& first, const std::string& name) {
  return gadget::files_in_set(first.data(), first.size(), name);
}

std::vector<FormatInfo> make_table() {
  return {
      {SnapshotFormat::orrery,
       "Orrery",
       "Orrery's own: the whole state of a run, for a restart bit for bit",
       {".orrery"},
       true,
       true,
       true,
       orrery_format::looks_like,
       nullptr,
       nullptr,
       one_file<orrery_format::decode>,
       orrery_format::encode},
      {SnapshotFormat::tipsy,
       "TIPSY",
       "the standard TIPSY particle file (big-endian)",
       {".tipsy"},
       false,
       false,
       false,
       tipsy::looks_like,
       nullptr,
       nullptr,
       one_file<tipsy::decode>,
       tipsy::encode},
      {SnapshotFormat::gadget2,
       "GADGET-2",
       "GADGET-2's binary snapshots, one file or a set (read, not written)",
       {},
       false,
       true,
       false,
       gadget::looks_like,
       gadget_set_size,
       gadget::set_names,
       gadget::decode,
       nullptr},
      {SnapshotFormat::hdf5,
       "HDF5",
       "GADGET-4's HDF5 layout, as AREPO and SWIFT write it, one file or a set",
       {".hdf5", ".h5"},
       true,
       true,
       false,
       hdf5::looks_like,
       hdf5::files_in_set,
       hdf5::set_names,
       hdf5::decode,
       hdf5::encode},
      {SnapshotFormat::csv,
       "CSV",
       "x,y,z,vx,vy,vz,mass,radius, a line a body (written, not read)",
       {".csv"},
       false,
       false,
       false,
       nullptr,
       nullptr,
       nullptr,
       nullptr,
       encode_csv},
  };
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The name's extension, lower case with its dot; "" where the last part of the path has none (a
// leading dot names a hidden file, not an extension).
std::string extension_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  if (dot == std::string::npos || dot == 0) return "";
  return lower(base.substr(dot));
}

// The units of a format that has none but those given (TIPSY: --units, else N-body units, said
// so); a format that keeps its own refuses others. GADGET-2 and HDF5 take theirs as they read.
void take_units(Snapshot& s, const LoadOptions& o, const std::string& path) {
  if (s.format == SnapshotFormat::orrery) refuse_other_units(o, path, "Orrery's format");
  if (s.format != SnapshotFormat::tipsy) return;
  if (o.gadget_g_given)
    throw SnapshotError(o.gadget_g_option + ": " + path +
                        " is TIPSY; gadget-g is G in a GADGET-2 or HDF5 file's units, and a TIPSY "
                        "file's are given with " +
                        o.units_option);
  s.run.units = o.units ? *o.units : nbody_units();
  to_engine_velocities(s.bodies, s.run.units);
  s.run.time *= s.run.units.engine_scale();
  s.units_note = "TIPSY in " + describe(s.run.units) +
                 (o.units ? " (--units)" : " (the format has no units; --units gives them)");
}

// Keeps the bodies of the types asked for (all when none are).
void keep_types(Snapshot& s, const std::vector<int>& types, const std::string& path) {
  if (types.empty()) return;
  if (s.types.empty())
    throw SnapshotError(path + ": --types: a " + std::string(to_string(s.format)) +
                        " file has no particle types");
  bool keep[6] = {};
  for (int t : types) {
    if (t < 0 || t > 5)
      throw SnapshotError("--types: " + std::to_string(t) + " is not a type (0 to 5)");
    keep[t] = true;
  }
  // In place, in order: the bodies kept move to the front.
  std::size_t k = 0;
  for (std::size_t i = 0; i < s.types.size(); ++i)
    if (keep[s.types[i]]) {
      s.bodies.pos[k] = s.bodies.pos[i], s.bodies.vel[k] = s.bodies.vel[i];
      s.types[k] = s.types[i];
      if (!s.ids.empty()) s.ids[k] = s.ids[i];
      ++k;
    }
  s.bodies.pos.resize(k), s.bodies.vel.resize(k), s.types.resize(k);
  if (!s.ids.empty()) s.ids.resize(k);
  if (k == 0) throw SnapshotError(path + ": --types: no particle of those types");
}

}  // namespace

const std::vector<FormatInfo>& format_table() {
  static const std::vector<FormatInfo> rows = make_table();
  return rows;
}

const FormatInfo& format_info(SnapshotFormat f) {
  return row_by_id(format_table(), f, "format_info");
}

const FormatInfo* format_of(const std::uint8_t* data, std::size_t size) {
  for (const FormatInfo& i : format_table())
    if (i.looks_like && i.looks_like(data, size)) return &i;
  return nullptr;
}

std::string written_extensions() {
  std::string s;
  for (const FormatInfo& i : format_table())
    if (i.encode)
      for (const std::string& e : i.extensions) s += (s.empty() ? "" : ", ") + e;
  return s;
}

const FormatInfo& format_for_writing(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext.empty()) return format_info(SnapshotFormat::orrery);
  for (const FormatInfo& i : format_table())
    if (i.encode && std::find(i.extensions.begin(), i.extensions.end(), ext) != i.extensions.end())
      return i;
  throw InputError(path + ": no format is written as '" + ext + "' (the extensions written: " +
                   written_extensions() + "; a name with none is Orrery's format)");
}

void check_save_format(const std::string& path, const std::string& option) {
  try {
    format_for_writing(path);
  } catch (const InputError& e) {
    throw InputError(option + " " + e.what());
  }
}

SnapshotFormat snapshot_format_for(const std::string& path) { return format_for_writing(path).id; }

const char* to_string(SnapshotFormat f) { return format_info(f).name; }

std::vector<std::uint8_t> encode_snapshot(const Snapshot& s, SnapshotFormat f) {
  if (s.bodies.pos.size() != s.bodies.vel.size())
    throw SnapshotError("positions and velocities differ in count");
  const FormatInfo& info = format_info(f);
  if (!info.encode) throw SnapshotError(std::string(info.name) + " files are read, not written");
  return info.encode(s);
}

Snapshot decode_snapshot(const std::uint8_t* data, std::size_t size, const std::string& name) {
  if (const FormatInfo* f = format_of(data, size)) {
    std::vector<SnapshotFile> one{{name, std::vector<std::uint8_t>(data, data + size)}};
    return f->decode(one, {});
  }
  if (size == 0) throw SnapshotError(name + ": empty file");
  const std::string tipsy_why = tipsy::near_miss(data, size);
  if (!tipsy_why.empty()) throw SnapshotError(name + ": " + tipsy_why);
  throw SnapshotError(name + ": neither an Orrery snapshot (wrong magic), a TIPSY file (no " +
                      "header whose counts match the size) nor a GADGET-2 file (no header record)");
}

void save_snapshot(const std::string& path, const Snapshot& s, SnapshotFormat f) {
  std::vector<std::uint8_t> b;
  try {
    b = encode_snapshot(s, f);
  } catch (const SnapshotError& e) {
    throw SnapshotError(path + ": " + e.what());
  }
  write_file_replacing(path, b.data(), b.size());
}

void save_snapshot(const std::string& path, const Snapshot& s) {
  SnapshotFormat f;
  try {
    f = format_for_writing(path).id;
  } catch (const InputError& e) {
    throw SnapshotError(e.what());
  }
  save_snapshot(path, s, f);
}

Snapshot load_snapshot(const std::string& path, const LoadOptions& o) {
  // A multi-file set named by its base: open its first file.
  struct stat st {};
  std::string first = path;
  if (::stat(path.c_str(), &st) != 0) {
    if (::stat((path + ".0").c_str(), &st) == 0)
      first = path + ".0";
    else if (::stat((path + ".0.hdf5").c_str(), &st) == 0)
      first = path + ".0.hdf5";
  }
  std::vector<std::uint8_t> b = read_input_file(first, o.progress);
  const FormatInfo* f = format_of(b.data(), b.size());
  if (!f) return decode_snapshot(b.data(), b.size(), path);  // the reason no format reads it
  // The file's bytes go to the reader moved, never copied (a 16M-body snapshot is 550 MB); a set's
  // other files by their names.
  const int count = f->set_size ? f->set_size(b, first) : 1;
  // Only a set of several files is opened by its base name: a lone "zz.0" is not what "zz" named.
  if (first != path && count <= 1)
    throw SnapshotError(path + ": cannot open: no such file (" + first +
                        " is a file of its own, not the first of a set: open it by that name)");
  std::vector<SnapshotFile> files;
  if (count <= 1) {
    files.push_back({f->set_size ? first : path, std::move(b)});
  } else {
    for (const std::string& name : f->set_names(first, count))
      files.push_back({name, name == first ? std::move(b) : read_input_file(name, o.progress)});
  }
  if (o.progress) o.progress->decoding = true;
  Snapshot s = f->decode(files, o);
  take_units(s, o, path);
  keep_types(s, o.types, path);
  return s;
}

std::string csv_text(const BodyState& s) {
  std::string out = "x,y,z,vx,vy,vz,mass,radius\n";
  out.reserve(out.size() + 120 * static_cast<std::size_t>(s.size()));
  char line[256];
  for (int i = 0; i < s.size(); ++i) {
    const Vec4& p = s.pos[static_cast<std::size_t>(i)];
    const Vec4& v = s.vel[static_cast<std::size_t>(i)];
    std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p.x, p.y, p.z,
                  v.x, v.y, v.z, p.w, v.w);
    out += line;
  }
  return out;
}

}  // namespace orrery
