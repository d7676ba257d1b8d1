// Work that runs a library over hostile bytes in a child process: Debian's libhdf5 (1.10) reads
// freed memory and leaks on damaged files (found by fuzz_snapshot), and no check of ours can
// stand in front of its decoder. In a child, such a fault costs one error line, not the viewer
// or the Python interpreter with its run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "orrery/no_copy.h"

namespace orrery {

struct LoadProgress;

// The child's answer, written in place into an anonymous memory file that the parent maps: a
// 16M-body snapshot is 690 MB, and each copy of it (into a vector, through write() and read())
// cost a fresh page fault per 4 KB.
class Answer : NoCopy {
 public:
  explicit Answer(int fd) : m_fd(fd) {}
  ~Answer();
  // The answer's bytes, `size` of them, writable; what was written before is kept. Throws
  // std::bad_alloc when the memory file cannot grow or be mapped.
  std::uint8_t* resize(std::size_t size);
  std::uint8_t* data() const { return m_data; }
  std::size_t size() const { return m_size; }
  // Writes the status byte after the answer's bytes.
  void finish(std::uint8_t status);

 private:
  int m_fd;
  std::uint8_t* m_data = nullptr;
  std::size_t m_size = 0;
};

// The child's answer as the parent reads it: mapped, read-only, unmapped when it goes.
class AnswerView : NoCopy {
 public:
  AnswerView(const std::uint8_t* data, std::size_t size, std::size_t mapped)
      : m_data(data), m_size(size), m_mapped(mapped) {}
  ~AnswerView();
  AnswerView(AnswerView&& o) noexcept : m_data(o.m_data), m_size(o.m_size), m_mapped(o.m_mapped) {
    o.m_data = nullptr, o.m_mapped = 0;
  }
  AnswerView& operator=(AnswerView&&) = delete;
  const std::uint8_t* data() const { return m_data; }
  std::size_t size() const { return m_size; }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size, m_mapped;
};

// Runs `work` in a forked child and returns what it wrote into its Answer. The child runs
// nothing else: no OpenMP, CUDA or GL, and it leaves with _exit. Throws SnapshotError: with the
// message of a SnapshotError `work` threw, or, when the child died or could not start,
// "<name>: <library> failed on it (...)". With `progress`, the parent checks it every 10 ms while
// it waits: a cancel kills the child (LoadCancelled).
AnswerView run_isolated(const std::function<void(Answer&)>& work, const std::string& name,
                        const std::string& library, LoadProgress* progress = nullptr);
// The same for a small answer, passed as a vector both ways.
std::vector<std::uint8_t> run_isolated(const std::function<std::vector<std::uint8_t>()>& work,
                                       const std::string& name, const std::string& library,
                                       LoadProgress* progress = nullptr);

}  // namespace orrery
