// GpuBuffer's memory: cudaMalloc, cudaFree and the copies in a CUDA build; without CUDA every use
// is refused with the device check's message.
#include "orrery/gpu_buffer.h"

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "orrery/device.h"
#ifdef ORRERY_HAVE_CUDA
#include <cuda_runtime.h>

#include "orrery/cuda_check.cuh"
#endif

namespace orrery {
namespace gpu_memory {
namespace {
std::atomic<std::size_t> g_held{0}, g_peak{0};
}  // namespace

std::size_t held() { return g_held.load(); }
std::size_t peak() { return g_peak.load(); }
void reset_peak() { g_peak.store(g_held.load()); }

#ifdef ORRERY_HAVE_CUDA

void* allocate(std::size_t bytes) {
  require_device();
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky: later calls start clean
    throw std::runtime_error("cannot allocate " + std::to_string(bytes) +
                             " bytes of device memory: " + cudaGetErrorString(e));
  }
  const std::size_t now = g_held += bytes;
  std::size_t was = g_peak.load();
  while (now > was && !g_peak.compare_exchange_weak(was, now)) {
  }
  return p;
}

void release(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  g_held -= bytes;
  const cudaError_t e = cudaFree(p);
  if (e != cudaSuccess)
    std::fprintf(stderr, "orrery: cudaFree failed: %s\n", cudaGetErrorString(e));
}

void upload(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUDA_CHECK_THROW(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void download(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUDA_CHECK_THROW(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

void copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes) CUDA_CHECK_THROW(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

void zero(void* dst, std::size_t bytes) {
  if (bytes) CUDA_CHECK_THROW(cudaMemset(dst, 0, bytes));
}

#else

void* allocate(std::size_t) {
  require_device();
  return nullptr;
}
void release(void*, std::size_t) noexcept {}
void upload(void*, const void*, std::size_t) { require_device(); }
void download(void*, const void*, std::size_t) { require_device(); }
void copy(void*, const void*, std::size_t) { require_device(); }
void zero(void*, std::size_t) { require_device(); }

#endif
}  // namespace gpu_memory

void throw_gpu_buffer_range(std::size_t count, std::size_t size) {
  throw std::out_of_range("GpuBuffer: " + std::to_string(count) + " elements asked of " +
                          std::to_string(size));
}

}  // namespace orrery
