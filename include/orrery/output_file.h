// Output files: opened before a run so a bad path fails at once, written in one go after it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "orrery/input.h"
#include "orrery/no_copy.h"

namespace orrery {

// The clock now through strftime's `format`, in UTC or local time: the stamps files carry in their
// names and records.
std::string clock_text(const char* format, bool utc);

// A file a run writes, opened for writing before the run (creating it, not yet truncating it),
// so a bad path fails at once, and written in one go at the end (a regular file is replaced; a
// device or pipe such as /dev/stdout is written to). A file this created and never
// wrote is removed when the object goes. Move-only.
class OutputFile : NoCopy {
 public:
  OutputFile() = default;
  // Throws InputError naming `what` ("--csv"), the path and the system's reason.
  static OutputFile open(const std::string& path, std::string_view what);
  ~OutputFile();
  OutputFile(OutputFile&& o) noexcept;
  OutputFile& operator=(OutputFile&& o) noexcept;

  bool is_open() const { return m_fd >= 0; }
  const std::string& path() const { return m_path; }
  // The same file (device and inode), however the two paths were spelled.
  bool same_file(const OutputFile& o) const;
  // Replaces the file's content; throws std::runtime_error naming the path on failure.
  void write(const void* data, std::size_t size);
  void write(const std::string& text) { write(text.data(), text.size()); }

 private:
  void close_file() noexcept;
  int m_fd = -1;
  std::string m_path;
  bool m_created = false, m_written = false, m_regular = true;
  dev_t m_dev = 0;
  ino_t m_ino = 0;
};

// Where a write to `path` lands: a symbolic link's final target (a dangling one too), else the
// path itself. Saves write there, so a link stays a link.
std::string write_target(const std::string& path);
// What names one place on disk, however it is spelled: "inode DEV:INO" for a file that exists,
// else the target's real folder and its name (x.out, ./x.out and a link to it are one place).
std::string output_place(const std::string& path);
// Throws InputError when two of the outputs (what, path) name one place ("--save and --export-csv
// name the same file: x.out"); empty paths are skipped.
void require_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Checks up front that `path` can be saved to, as root too: not a folder; an existing device or
// pipe must open for writing (it is written in place); otherwise a file is created and removed in
// its folder. Throws InputError naming `what` ("--save") and the path.
void check_can_save(const std::string& path, const std::string& what);

// Writes `bytes` to path's write target: a device or pipe in place; otherwise a temporary file in
// the target's folder, synced and renamed over it, keeping an existing file's mode (and owner,
// for root). Throws std::runtime_error naming the path; on failure the temporary file is removed.
void write_file_replacing(const std::string& path, const void* bytes, std::size_t size);

// Throws InputError when two open outputs are one file ("--csv and --json name the same file").
void require_distinct(const OutputFile& a, std::string_view a_what, const OutputFile& b,
                      std::string_view b_what);

}  // namespace orrery
