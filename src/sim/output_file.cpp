// Output files opened before a run and written in one go after it.
#include "orrery/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace orrery {

OutputFile OutputFile::open(const std::string& path, std::string_view what) {
  if (path.empty()) throw InputError(std::string(what) + ": empty file name");
  OutputFile f;
  f.m_path = path;
  // O_EXCL first tells whether this run creates the file (and so removes it if never written).
  f.m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (f.m_fd >= 0) {
    f.m_created = true;
  } else if (errno == EEXIST) {
    f.m_fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  }
  if (f.m_fd < 0)
    throw InputError(std::string(what) + " " + path +
                     ": cannot open for writing: " + std::strerror(errno));
  struct stat st {};
  if (fstat(f.m_fd, &st) != 0) {
    const int e = errno;
    f.close_file();
    throw InputError(std::string(what) + " " + path + ": cannot be examined: " + std::strerror(e));
  }
  f.m_dev = st.st_dev;
  f.m_ino = st.st_ino;
  f.m_regular = S_ISREG(st.st_mode);  // else a device or pipe (/dev/stdout): written in order
  return f;
}

OutputFile::~OutputFile() { close_file(); }

OutputFile::OutputFile(OutputFile&& o) noexcept { *this = std::move(o); }

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    close_file();
    m_fd = o.m_fd;
    m_path = std::move(o.m_path);
    m_created = o.m_created;
    m_written = o.m_written;
    m_regular = o.m_regular;
    m_dev = o.m_dev;
    m_ino = o.m_ino;
    o.m_fd = -1;
    o.m_created = false;
  }
  return *this;
}

void OutputFile::close_file() noexcept {
  if (m_fd < 0) return;
  ::close(m_fd);
  m_fd = -1;
  if (m_created && !m_written) ::unlink(m_path.c_str());  // leave no empty file behind
}

bool OutputFile::same_file(const OutputFile& o) const {
  return is_open() && o.is_open() && m_dev == o.m_dev && m_ino == o.m_ino;
}

void OutputFile::write(const void* data, std::size_t size) {
  if (m_fd < 0) throw std::runtime_error("cannot write " + m_path + ": not open");
  auto fail_write = [&](const char* step) {
    throw std::runtime_error("cannot write " + m_path + " (" + step + "): " + std::strerror(errno));
  };
  if (m_regular && ftruncate(m_fd, 0) != 0) fail_write("truncate");
  const char* p = static_cast<const char*>(data);
  std::size_t left = size;
  off_t at = 0;
  while (left > 0) {
    const ssize_t w = m_regular ? ::pwrite(m_fd, p, left, at) : ::write(m_fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail_write("write");
    p += w;
    at += w;
    left -= static_cast<std::size_t>(w);
  }
  if (m_regular && fsync(m_fd) != 0 && errno != EINVAL && errno != EROFS) fail_write("sync");
  m_written = true;
}

void require_distinct(const OutputFile& a, std::string_view a_what, const OutputFile& b,
                      std::string_view b_what) {
  if (a.same_file(b))
    throw InputError(std::string(a_what) + " " + a.path() + " and " + std::string(b_what) + " " +
                     b.path() + " name the same file");
}

}  // namespace orrery
