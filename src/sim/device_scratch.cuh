// Private: a move-only device allocation of T, grown on demand (contents not kept), for the
// device passes' scratch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.cuh"

namespace orrery {

template <class T>
class DeviceScratch {
 public:
  DeviceScratch() = default;
  ~DeviceScratch() {
    if (m_ptr) cudaFree(m_ptr);
  }
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;
  void reserve(std::size_t count) {
    if (count <= m_count) return;
    if (m_ptr) cudaFree(m_ptr);
    m_ptr = nullptr, m_count = 0;
    CUDA_CHECK_THROW(cudaMalloc(&m_ptr, sizeof(T) * std::max<std::size_t>(count, 1)));
    m_count = count;
  }
  T* get() const { return m_ptr; }
  std::size_t size() const { return m_count; }

 private:
  T* m_ptr = nullptr;
  std::size_t m_count = 0;
};

}  // namespace orrery
