// Reading an input file whole, in chunks, refusing what is no regular file.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "orrery/snapshot.h"

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

}  // namespace orrery
