// Output files: opened before a run so a bad path fails at once, written in one go after it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "orrery/input.h"

namespace orrery {

// A file a run writes, opened for writing before the run (creating it, not yet truncating it),
// so a bad path fails at once, and written in one go at the end (a regular file is replaced; a
// device or pipe such as /dev/stdout is written to). A file this created and never
// wrote is removed when the object goes. Move-only.
class OutputFile {
 public:
  OutputFile() = default;
  // Throws InputError naming `what` ("--csv"), the path and the system's reason.
  static OutputFile open(const std::string& path, std::string_view what);
  ~OutputFile();
  OutputFile(OutputFile&& o) noexcept;
  OutputFile& operator=(OutputFile&& o) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

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

// Throws InputError when two open outputs are one file ("--csv and --json name the same file").
void require_distinct(const OutputFile& a, std::string_view a_what, const OutputFile& b,
                      std::string_view b_what);

}  // namespace orrery
