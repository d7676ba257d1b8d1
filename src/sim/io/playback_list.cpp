// The outputs a series argument names (orrery/playback.h): globs, folders and files, GADGET-2
// sets grouped, one format, natural order.
#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "orrery/formats.h"
#include "orrery/playback.h"

namespace orrery {
namespace {

bool is_folder(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::string base_name(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The format a file's content is in, from its first bytes and its size (every format's
// looks_like reads at most its first 32 bytes; TIPSY compares its counts with the size), or null.
const FormatInfo* peek_format(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return nullptr;
  std::uint8_t head[4096];
  const std::size_t got = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return nullptr;
  const std::size_t size = static_cast<std::size_t>(st.st_size);
  if (got < std::min<std::size_t>(size, 32)) return nullptr;
  return format_of(head, size);
}

// Natural order: runs of digits compare as numbers (snap_9 before snap_10), the rest as text.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::size_t is = i, js = j;  // leading zeros do not count
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int c = a.compare(is, ie - is, b, js, je - js);
      if (c != 0) return c < 0;
      i = ie, j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::string extension(const std::string& path) {
  const std::size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
  return dot == std::string::npos || (slash != std::string::npos && dot < slash) ? ""
                                                                                 : path.substr(dot);
}

// The files an argument names (in no order); a folder's are every file in it that is not hidden.
std::vector<std::string> expand(const std::string& arg) {
  std::vector<std::string> files;
  if (arg.empty()) throw InputError("--load: an empty name");
  if (has_glob(arg)) {
    glob_t g{};
    const int rc = ::glob(arg.c_str(), GLOB_NOSORT, nullptr, &g);
    for (std::size_t k = 0; rc == 0 && k < g.gl_pathc; ++k)
      if (is_file(g.gl_pathv[k])) files.emplace_back(g.gl_pathv[k]);
    ::globfree(&g);
    if (files.empty()) throw InputError("'" + arg + "': no file matches");
    return files;
  }
  if (is_folder(arg)) {
    if (DIR* d = ::opendir(arg.c_str())) {
      while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        const std::string path = arg + (arg.back() == '/' ? "" : "/") + name;
        if (name[0] != '.' && is_file(path)) files.push_back(path);
      }
      ::closedir(d);
    }
    return files;
  }
  if (is_file(arg)) return {arg};
  if (is_file(arg + ".0")) return {arg + ".0"};  // a GADGET-2 set by its base name
  throw InputError(arg + ": no such file");
}

// A GADGET-2 set's member: "snap_005.3" -> "snap_005"; else "".
std::string set_base(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot + 1 == path.size() ||
      path.find('/', dot) != std::string::npos)
    return "";
  for (std::size_t k = dot + 1; k < path.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(path[k]))) return "";
  return path.substr(0, dot);
}

// A member of a set of files: GADGET-2's "snap_005.3" or GADGET-4's "snap_005.3.hdf5" ->
// "snap_005" (load_snapshot opens a set from its base); else "".
std::string member_base(const std::string& path, SnapshotFormat format) {
  if (format == SnapshotFormat::gadget2) return set_base(path);
  if (format != SnapshotFormat::hdf5) return "";
  const std::string ext = extension(path);
  if (ext != ".hdf5" && ext != ".h5") return "";
  return set_base(path.substr(0, path.size() - ext.size()));
}

}  // namespace

bool names_series(const std::vector<std::string>& args) {
  return args.size() > 1 || (args.size() == 1 && (has_glob(args[0]) || is_folder(args[0])));
}

std::vector<PlaybackOutput> list_series(const std::vector<std::string>& args) {
  if (args.empty()) throw InputError("--load: no file named");
  struct File {
    std::string path;
    const FormatInfo* format;  // null: no snapshot's content (damaged, or no snapshot at all)
    bool in_folder;
  };
  std::vector<File> files;
  std::set<std::string> seen;
  for (const std::string& arg : args) {
    const bool folder = is_folder(arg);
    for (const std::string& path : expand(arg)) {
      const FormatInfo* f = peek_format(path);
      char* real = ::realpath(path.c_str(), nullptr);
      const std::string key = real ? real : path;
      std::free(real);
      if (!seen.insert(key).second) throw InputError(path + ": named twice in the series");
      files.push_back({path, f && f->decode ? f : nullptr, folder});
    }
  }
  // A file whose content is no snapshot stays an output where it has the series' extension (a
  // damaged output: a gap when played); elsewhere a folder's is left out and a named one refused.
  const FormatInfo* format = nullptr;
  std::string first, series_extension;  // the first file with a snapshot's content
  for (const File& f : files)
    if (f.format && !format)
      format = f.format, first = f.path, series_extension = extension(f.path);
  std::vector<File> kept;
  for (const File& f : files) {
    if (f.format || (format && extension(f.path) == series_extension))
      kept.push_back(f);
    else if (!f.in_folder)
      throw InputError(f.path + ": not a snapshot (Orrery, TIPSY, GADGET-2 or HDF5) in the series");
  }
  files.swap(kept);
  if (!format) throw InputError(args.front() + ": no snapshot file in this folder");
  for (const File& f : files)
    if (f.format && f.format != format)
      throw InputError("a series is in one format: " + first + " is " + format->name + ", " +
                       f.path + " is " + f.format->name);
  // Sets of files (GADGET-2's, GADGET-4's HDF5): one output a base name, its label the range of
  // its members.
  std::vector<PlaybackOutput> out;
  std::map<std::string, std::vector<std::string>> sets;
  for (const File& f : files) {
    const std::string base = member_base(f.path, format->id);
    if (base.empty())
      out.push_back({f.path, base_name(f.path)});
    else
      sets[base].push_back(f.path);
  }
  for (const auto& [base, members] : sets)
    out.push_back(
        {base, base_name(base) +
                   (members.size() > 1 ? ".0-" + std::to_string(members.size() - 1) : ".0") +
                   (format->id == SnapshotFormat::hdf5 ? extension(members.front()) : "")});
  std::sort(out.begin(), out.end(), [](const PlaybackOutput& a, const PlaybackOutput& b) {
    return natural_less(a.path, b.path);
  });
  return out;
}

}  // namespace orrery
