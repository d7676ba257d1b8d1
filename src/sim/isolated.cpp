#include "isolated.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "orrery/snapshot.h"

namespace orrery {
namespace {

// The child's answer: the work's bytes or an error message, then one status byte (last, so the
// parent drops it without moving the bytes).
constexpr std::uint8_t k_ok = 0, k_refused = 1;

class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) close(m_fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  operator int() const { return m_fd; }

 private:
  int m_fd;
};

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= static_cast<std::size_t>(w);
  }
  return true;
}

[[noreturn]] void answer(int fd, std::uint8_t status, const std::uint8_t* p, std::size_t n) {
  const bool ok = write_all(fd, p, n) && write_all(fd, &status, 1);
  _exit(ok ? 0 : 3);
}

}  // namespace

std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const std::string& name, const std::string& library,
                                       LoadProgress* progress) {
  const auto failed = [&](const std::string& why) {
    return SnapshotError(name + ": " + library + " failed on it (" + why + ")");
  };
  Fd fd(memfd_create("orrery-reader", MFD_CLOEXEC));
  if (fd < 0) throw failed(std::string("no memory file for its reader: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw failed(std::string("cannot start its reader: ") + std::strerror(errno));
  if (pid == 0) {
    try {
      const std::vector<std::uint8_t> out = work();
      answer(fd, k_ok, out.data(), out.size());
    } catch (const SnapshotError& e) {
      answer(fd, k_refused, reinterpret_cast<const std::uint8_t*>(e.what()), std::strlen(e.what()));
    } catch (const std::exception& e) {
      const std::string why = name + ": " + library + " failed on it (" + e.what() + ")";
      answer(fd, k_refused, reinterpret_cast<const std::uint8_t*>(why.data()), why.size());
    }
  }
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, progress ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      throw failed(std::string("lost its reader: ") + std::strerror(errno));
    if (done == 0) {  // still reading
      try {
        progress->check(name);
      } catch (...) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        throw;
      }
      usleep(10000);
    }
  }
  if (WIFSIGNALED(status))
    throw failed(std::string("its reader died on ") + strsignal(WTERMSIG(status)) +
                 "; the file is damaged");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw failed("its reader stopped with status " + std::to_string(WEXITSTATUS(status)) +
                 "; the file is damaged");
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size < 1) throw failed("its reader gave no answer");
  std::vector<std::uint8_t> out(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t r = pread(fd, out.data() + got, out.size() - got, static_cast<off_t>(got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw failed("its answer could not be read back");
    got += static_cast<std::size_t>(r);
  }
  const std::uint8_t head = out.back();
  out.pop_back();
  if (head == k_refused) throw SnapshotError(std::string(out.begin(), out.end()));
  if (head != k_ok) throw failed("its reader gave a malformed answer");
  return out;
}

}  // namespace orrery
