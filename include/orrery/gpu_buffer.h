// GpuBuffer<T>: the one owner of device memory (as tiny-cuda-nn's GPUMemory<T>): move-only, freed
// in its destructor, grown on demand, so nothing leaks when a constructor or a step throws. No CUDA
// types: the allocation and copies live in the device code (a CPU-only build throws "no device").
#pragma once

#include <cstddef>
#include <utility>

#include "orrery/no_copy.h"

namespace orrery {
namespace gpu_memory {
// Throws std::runtime_error naming the bytes asked for and the device's answer.
void* allocate(std::size_t bytes);
// Logs instead of throwing (called from destructors); `bytes`: what allocate() was asked for.
void release(void* p, std::size_t bytes) noexcept;
// The device memory GpuBuffers hold now, and the most they have held at once since the last
// reset_peak() (a run's own high-water mark: cudaMemGetInfo sees only the present).
std::size_t held();
std::size_t peak();
void reset_peak();
void upload(void* device_dst, const void* host_src, std::size_t bytes);
void download(void* host_dst, const void* device_src, std::size_t bytes);
void copy(void* device_dst, const void* device_src, std::size_t bytes);
void zero(void* device_dst, std::size_t bytes);
}  // namespace gpu_memory

template <class T>
class GpuBuffer : NoCopy {
 public:
  GpuBuffer() = default;
  explicit GpuBuffer(std::size_t count) { resize(count); }
  ~GpuBuffer() { gpu_memory::release(m_ptr, bytes()); }
  GpuBuffer(GpuBuffer&& o) noexcept
      : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(std::exchange(o.m_count, 0)) {}
  GpuBuffer& operator=(GpuBuffer&& o) noexcept {
    if (this != &o) {
      gpu_memory::release(m_ptr, bytes());
      m_ptr = std::exchange(o.m_ptr, nullptr);
      m_count = std::exchange(o.m_count, 0);
    }
    return *this;
  }

  // Exactly `count` elements; the contents are not kept. Throws (and holds nothing) when the
  // device cannot give them.
  void resize(std::size_t count) {
    if (count == m_count && m_ptr) return;
    gpu_memory::release(m_ptr, bytes());
    m_ptr = nullptr, m_count = 0;
    if (count == 0) return;
    m_ptr = static_cast<T*>(gpu_memory::allocate(sizeof(T) * count));
    m_count = count;
  }
  // At least `count` elements (grows, never shrinks; contents not kept when it grows).
  void enlarge(std::size_t count) {
    if (count > m_count) resize(count);
  }

  T* data() const { return m_ptr; }
  std::size_t size() const { return m_count; }
  std::size_t bytes() const { return m_count * sizeof(T); }

  // Copies `count` elements from or to the host; throws std::out_of_range beyond size().
  void upload(const T* host, std::size_t count) {
    check(count);
    gpu_memory::upload(m_ptr, host, count * sizeof(T));
  }
  void download(T* host, std::size_t count) const {
    check(count);
    gpu_memory::download(host, m_ptr, count * sizeof(T));
  }

 private:
  void check(std::size_t count) const;
  T* m_ptr = nullptr;
  std::size_t m_count = 0;
};

[[noreturn]] void throw_gpu_buffer_range(std::size_t count, std::size_t size);

template <class T>
void GpuBuffer<T>::check(std::size_t count) const {
  if (count > m_count) throw_gpu_buffer_range(count, m_count);
}

}  // namespace orrery
