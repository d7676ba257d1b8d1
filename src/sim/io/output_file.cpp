// Output files opened before a run and written in one go after it.
#include "orrery/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <vector>

namespace orrery {

std::string clock_text(const char* format, bool utc) {
  const std::time_t now = std::time(nullptr);
  std::tm t{};
  if (utc)
    gmtime_r(&now, &t);
  else
    localtime_r(&now, &t);
  char buf[64];
  return std::string(buf, std::strftime(buf, sizeof buf, format, &t));
}

namespace {

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string write_target(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {  // as the kernel's own limit on a chain of links
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::vector<char> buf(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4095) + 1);
    const ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size() - 1);
    if (n <= 0) return p;
    const std::string link(buf.data(), static_cast<std::size_t>(n));
    p = link[0] == '/' ? link : folder_of(p) + "/" + link;
  }
  return p;
}

std::string output_place(const std::string& path) {
  const std::string t = write_target(path);
  struct stat st {};
  if (::stat(t.c_str(), &st) == 0)
    return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  char* real = ::realpath(folder_of(t).c_str(), nullptr);
  if (!real) return t;
  std::string place = std::string(real) + "/" + name_of(t);
  std::free(real);
  return place;
}

void require_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::string> places(outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].second.empty()) continue;
    places[i] = output_place(outputs[i].second);
    for (std::size_t j = 0; j < i; ++j)
      if (!places[j].empty() && places[j] == places[i])
        throw InputError(outputs[j].first + " and " + outputs[i].first +
                         " name the same file: " + outputs[i].second);
  }
}

void check_can_save(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError(what + ": empty file name");
  const std::string t = write_target(path);
  struct stat st {};
  if (::stat(t.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw InputError(what + " " + path + ": is a folder");
    if (!S_ISREG(st.st_mode)) {  // a device or a pipe: written in place
      const int fd = ::open(t.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        throw InputError(what + " " + path + ": cannot write to it: " + std::strerror(errno));
      ::close(fd);
      return;
    }
  }
  // Permission bits say nothing to root: create a file there, and remove it.
  const std::string folder = folder_of(t);
  std::string probe = folder + "/.orrery-check-XXXXXX";
  std::vector<char> name(probe.begin(), probe.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw InputError(what + " " + path + ": cannot write in " + folder + ": " +
                     std::strerror(errno));
  ::close(fd);
  ::unlink(name.data());
}

void write_file_replacing(const std::string& path, const void* data, std::size_t size) {
  const std::string target = write_target(path);
  const auto failed = [&](const char* step, int e) {
    return std::runtime_error(path + ": cannot save (" + step + "): " + std::strerror(e));
  };
  const auto write_all = [&](int fd) -> int {  // 0, or the errno of the failed write
    const char* p = static_cast<const char*>(data);
    std::size_t left = size;
    while (left > 0) {
      const ssize_t w = ::write(fd, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return w < 0 ? errno : EIO;
      p += w;
      left -= static_cast<std::size_t>(w);
    }
    return 0;
  };
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    // A device or a pipe (/dev/null, /dev/stdout): written in place, never replaced by a file.
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw failed("open", errno);
    const int e = write_all(fd);
    ::close(fd);
    if (e != 0) throw failed("write", e);
    return;
  }
  std::string tmp = folder_of(target) + "/." + name_of(target) + ".tmp-XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw std::runtime_error(path + ": cannot create a temporary file: " + std::strerror(errno));
  tmp.assign(name.data());
  const auto fail = [&](const char* step, int e) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw failed(step, e);
  };
  if (const int e = write_all(fd)) fail("write", e);
  // An existing file keeps its mode (and, where we may, its owner); a new one is 0644.
  if (::fchmod(fd, exists ? (st.st_mode & 07777) : 0644) != 0) fail("permissions", errno);
  if (exists && ::geteuid() == 0 && ::fchown(fd, st.st_uid, st.st_gid) != 0) fail("owner", errno);
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) fail("sync", errno);
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw failed("close", e);
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw failed("rename", e);
  }
}

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
