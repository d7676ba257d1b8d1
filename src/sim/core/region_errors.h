// Private: an exception cannot leave an OpenMP region (the runtime calls std::terminate: a
// std::bad_alloc inside cpu-bh's tree build aborted the Python interpreter and the bench). Work
// inside a region runs through run(); the first exception is kept, the rest of the region's work
// is skipped, and rethrow() after the region throws it on the calling thread.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace orrery {

class RegionErrors {
 public:
  template <class F>
  void run(F&& f) noexcept {
    if (failed()) return;
    try {
      f();
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (!m_first) m_first = std::current_exception();
      m_failed.store(true, std::memory_order_relaxed);
    }
  }
  bool failed() const { return m_failed.load(std::memory_order_relaxed); }
  void rethrow() {
    if (m_first) std::rethrow_exception(m_first);
  }

 private:
  std::mutex m_mutex;
  std::atomic<bool> m_failed{false};
  std::exception_ptr m_first;
};

}  // namespace orrery
