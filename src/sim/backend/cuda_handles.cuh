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

// An event or a stream, made with flags by Create and released by Destroy.
template <class Handle, cudaError_t (*Create)(Handle*, unsigned), cudaError_t (*Destroy)(Handle)>
class CudaHandle {
 public:
  CudaHandle() = default;
  explicit CudaHandle(unsigned flags) { CUDA_CHECK_THROW(Create(&m_handle, flags)); }
  ~CudaHandle() {
    if (m_handle) Destroy(m_handle);
  }
  CudaHandle(CudaHandle&& o) noexcept : m_handle(std::exchange(o.m_handle, nullptr)) {}
  CudaHandle& operator=(CudaHandle&& o) noexcept {
    std::swap(m_handle, o.m_handle);
    return *this;
  }
  Handle get() const { return m_handle; }

 private:
  Handle m_handle = nullptr;
};

using CudaEvent = CudaHandle<cudaEvent_t, cudaEventCreateWithFlags, cudaEventDestroy>;
using CudaStream = CudaHandle<cudaStream_t, cudaStreamCreateWithFlags, cudaStreamDestroy>;

}  // namespace orrery
