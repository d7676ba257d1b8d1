#include "isolated.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <new>

#include "orrery/no_copy.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

// The child's answer: the work's bytes or an error message, then one status byte (last, so the
// parent reads the bytes where they lie).
constexpr std::uint8_t k_ok = 0, k_refused = 1;

class Fd : NoCopy {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) close(m_fd);
  }
  operator int() const { return m_fd; }

 private:
  int m_fd;
};

}  // namespace

Answer::~Answer() {
  if (m_data) munmap(m_data, m_size + 1);
}

void Answer::finish(std::uint8_t status) {
  if (!m_data) resize(0);
  m_data[m_size] = status;
}

std::uint8_t* Answer::resize(std::size_t size) {
  if (m_data) munmap(m_data, m_size + 1);
  m_data = nullptr, m_size = 0;
  // One byte more for the status. The pages are allocated and mapped in two calls rather than
  // faulted in one at a time as they are written.
  const auto bytes = static_cast<off_t>(size + 1);
  if (ftruncate(m_fd, bytes) != 0 || fallocate(m_fd, 0, 0, bytes) != 0) throw std::bad_alloc();
  void* p = mmap(nullptr, size + 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, m_fd, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  m_data = static_cast<std::uint8_t*>(p), m_size = size;
  return m_data;
}

AnswerView::~AnswerView() {
  if (m_mapped > 0) munmap(const_cast<std::uint8_t*>(m_data), m_mapped);
}

namespace {

// Ends the child: the answer's bytes as written, or `message` in their place, then the status.
[[noreturn]] void answer(Answer& a, std::uint8_t status, const std::string* message) {
  try {
    if (message) std::memcpy(a.resize(message->size()), message->data(), message->size());
    a.finish(status);
  } catch (...) {
    _exit(3);
  }
  _exit(0);
}

}  // namespace

AnswerView run_isolated(const std::function<void(Answer&)>& work, const std::string& name,
                        const std::string& library, LoadProgress* progress) {
  const auto failed = [&](const std::string& why) {
    return SnapshotError(name + ": " + library + " failed on it (" + why + ")");
  };
  Fd fd(memfd_create("orrery-reader", MFD_CLOEXEC));
  if (fd < 0) throw failed(std::string("no memory file for its reader: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw failed(std::string("cannot start its reader: ") + std::strerror(errno));
  if (pid == 0) {
    Answer a(fd);
    try {
      work(a);
      answer(a, k_ok, nullptr);
    } catch (const SnapshotError& e) {
      const std::string why = e.what();
      answer(a, k_refused, &why);
    } catch (const std::exception& e) {
      const std::string why = name + ": " + library + " failed on it (" + e.what() + ")";
      answer(a, k_refused, &why);
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
  const auto size = static_cast<std::size_t>(st.st_size);
  void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) throw failed("its answer could not be read back");
  AnswerView view(static_cast<const std::uint8_t*>(p), size - 1, size);
  const std::uint8_t head = view.data()[size - 1];
  if (head == k_refused)
    throw SnapshotError(std::string(reinterpret_cast<const char*>(view.data()), view.size()));
  if (head != k_ok) throw failed("its reader gave a malformed answer");
  return view;
}

std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const std::string& name, const std::string& library,
                                       LoadProgress* progress) {
  const AnswerView view = run_isolated(
      [&](Answer& a) {
        const std::vector<std::uint8_t> out = work();
        if (!out.empty()) std::memcpy(a.resize(out.size()), out.data(), out.size());
      },
      name, library, progress);
  return std::vector<std::uint8_t>(view.data(), view.data() + view.size());
}

}  // namespace orrery
