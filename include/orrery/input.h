// The input rules both programs and the panel share: decimal integers with full range checks,
// finite floats that fit a float, lists with no empty items, and output files opened up front.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace orrery {

// Bad input from a user: the programs print its message as one line and exit with code 2.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A decimal integer in [lo, hi], the whole text: an optional sign and digits only (so "010" is
// ten, never octal; "0x10", "1e3", "" and "--" are not numbers). `what` names the value in the
// message ("--n"). Throws InputError.
long long parse_integer(std::string_view text, std::string_view what, long long lo, long long hi);
// A decimal integer in [0, 2^64 - 1] (a seed). Throws InputError.
std::uint64_t parse_u64(std::string_view text, std::string_view what);
// A finite decimal number that a float holds: digits with an optional sign, point and exponent
// ("0.016", "1e-3"); not nan, inf or hex; not beyond float's range; not a nonzero value that
// rounds to zero in float. Throws InputError.
float parse_float(std::string_view text, std::string_view what);
// The same, then checked against [lo, hi] (both inclusive). Throws InputError.
float parse_float_in(std::string_view text, std::string_view what, float lo, float hi);
// Splits a comma-separated list; an empty text or an empty item is an error. Throws InputError.
std::vector<std::string> split_list(std::string_view text, std::string_view what);

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
