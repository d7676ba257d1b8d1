// Private: move-only owners of the CUDA handles that are not device memory (GpuBuffer owns that):
// pinned host memory, events and streams. Each is released in its destructor, so a constructor
// that throws half-way leaks nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "orrery/cuda_check.cuh"

namespace orrery {

// Page-locked host memory of `count` T (mapped: also visible to kernels through device_pointer()),
// so copies into it are asynchronous.
template <class T>
class PinnedHost {
 public:
  PinnedHost() = default;
  explicit PinnedHost(std::size_t count, bool mapped = false) {
    CUDA_CHECK_THROW(cudaHostAlloc(reinterpret_cast<void**>(&m_ptr), sizeof(T) * count,
                                   mapped ? cudaHostAllocMapped : cudaHostAllocDefault));
  }
  ~PinnedHost() {
    if (m_ptr) cudaFreeHost(m_ptr);
  }
  PinnedHost(PinnedHost&& o) noexcept : m_ptr(std::exchange(o.m_ptr, nullptr)) {}
  PinnedHost& operator=(PinnedHost&& o) noexcept {
    std::swap(m_ptr, o.m_ptr);
    return *this;
  }
  T* get() const { return m_ptr; }
  T& operator*() const { return *m_ptr; }
  T* operator->() const { return m_ptr; }
  T& operator[](std::size_t i) const { return m_ptr[i]; }
  T* device_pointer() const {
    T* d = nullptr;
    CUDA_CHECK_THROW(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d), m_ptr, 0));
    return d;
  }

 private:
  T* m_ptr = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() = default;
  explicit CudaEvent(unsigned flags) {
    CUDA_CHECK_THROW(cudaEventCreateWithFlags(&m_event, flags));
  }
  ~CudaEvent() {
    if (m_event) cudaEventDestroy(m_event);
  }
  CudaEvent(CudaEvent&& o) noexcept : m_event(std::exchange(o.m_event, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& o) noexcept {
    std::swap(m_event, o.m_event);
    return *this;
  }
  cudaEvent_t get() const { return m_event; }

 private:
  cudaEvent_t m_event = nullptr;
};

class CudaStream {
 public:
  CudaStream() = default;
  explicit CudaStream(unsigned flags) {
    CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&m_stream, flags));
  }
  ~CudaStream() {
    if (m_stream) cudaStreamDestroy(m_stream);
  }
  CudaStream(CudaStream&& o) noexcept : m_stream(std::exchange(o.m_stream, nullptr)) {}
  CudaStream& operator=(CudaStream&& o) noexcept {
    std::swap(m_stream, o.m_stream);
    return *this;
  }
  cudaStream_t get() const { return m_stream; }

 private:
  cudaStream_t m_stream = nullptr;
};

}  // namespace orrery
