// The CUDA device seen from host code: presence, properties, memory, copies and event timing.
#include <algorithm>
#include <cstdio>

#include "cuda_check.cuh"
#include "orrery/device.h"

namespace orrery {

bool cuda_compiled() { return true; }

const DeviceInfo& device_info() {
  static const DeviceInfo info = [] {
    DeviceInfo d;
    int count = 0;  // cudaGetDeviceCount leaves it unwritten on error (35 with no driver)
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1) {
      d.reason = e != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(e)
                                  : std::string("no CUDA device found");
      cudaGetLastError();  // clear the sticky-free error so later calls start clean
      return d;
    }
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
      d.reason = "no CUDA device: cannot read the properties of device 0";
      cudaGetLastError();
      return d;
    }
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    d.present = true;
    d.name = p.name;
    d.sm_count = p.multiProcessorCount;
    d.clock_mhz = clock_khz / 1000;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.total_mem = p.totalGlobalMem;
    return d;
  }();
  return info;
}

bool device_present() { return device_info().present; }

std::size_t device_free_memory() {
  if (!device_present()) return 0;
  std::size_t free_b = 0, total_b = 0;
  CUDA_CHECK_THROW(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

void require_device() {
  if (!device_present())
    throw std::runtime_error("this solver needs a CUDA device, and there is none (" +
                             device_info().reason + ")");
}

DeviceArray::DeviceArray(std::size_t count) : m_count(count) {
  require_device();
  if (count > 0) CUDA_CHECK_THROW(cudaMalloc(&m_ptr, count * sizeof(Vec4)));
}

DeviceArray::~DeviceArray() {
  if (m_ptr) {
    const cudaError_t e = cudaFree(m_ptr);
    if (e != cudaSuccess)
      std::fprintf(stderr, "orrery: cudaFree failed: %s\n", cudaGetErrorString(e));
  }
}

DeviceArray::DeviceArray(DeviceArray&& o) noexcept : m_ptr(o.m_ptr), m_count(o.m_count) {
  o.m_ptr = nullptr;
  o.m_count = 0;
}

DeviceArray& DeviceArray::operator=(DeviceArray&& o) noexcept {
  if (this != &o) {
    DeviceArray tmp(std::move(*this));
    m_ptr = o.m_ptr;
    m_count = o.m_count;
    o.m_ptr = nullptr;
    o.m_count = 0;
  }
  return *this;
}

void DeviceArray::upload(const Vec4* host, std::size_t count) {
  if (count > m_count) throw std::out_of_range("DeviceArray::upload: more elements than allocated");
  CUDA_CHECK_THROW(cudaMemcpy(m_ptr, host, count * sizeof(Vec4), cudaMemcpyHostToDevice));
}

void DeviceArray::download(Vec4* host, std::size_t count) const {
  if (count > m_count)
    throw std::out_of_range("DeviceArray::download: more elements than allocated");
  CUDA_CHECK_THROW(cudaMemcpy(host, m_ptr, count * sizeof(Vec4), cudaMemcpyDeviceToHost));
}

void device_synchronize() { CUDA_CHECK_THROW(cudaDeviceSynchronize()); }

void device_copy(Vec4* dst, const Vec4* src, std::size_t count) {
  CUDA_CHECK_THROW(cudaMemcpy(dst, src, count * sizeof(Vec4), cudaMemcpyDeviceToDevice));
}

namespace {

__device__ __forceinline__ bool finite4(const Vec4& a) {
  return isfinite(a.x) && isfinite(a.y) && isfinite(a.z) && isfinite(a.w);
}

// first = min over bodies i with a non-finite position or velocity (stays INT_MAX when none).
__global__ void first_nonfinite_kernel(const Vec4* __restrict__ pos, const Vec4* __restrict__ vel,
                                       int n, int* first) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (!finite4(pos[i]) || !finite4(vel[i])) {
      atomicMin(first, i);
      return;
    }
}

void launch_first_nonfinite(const Vec4* pos, const Vec4* vel, int n, int* first_dev) {
  constexpr int k_init = 0x7fffffff;
  CUDA_CHECK_THROW(cudaMemcpyAsync(first_dev, &k_init, sizeof(int), cudaMemcpyHostToDevice));
  const int threads = 256;
  const int blocks = std::max(1, std::min((n + threads - 1) / threads, device_info().sm_count * 8));
  first_nonfinite_kernel<<<blocks, threads>>>(pos, vel, n, first_dev);
  CUDA_CHECK_LAUNCH("first_nonfinite_kernel");
}

long long to_index(int first) { return first == 0x7fffffff ? -1 : first; }

}  // namespace

struct FiniteProbe::Impl {
  int* first_dev = nullptr;
  int* first_host = nullptr;  // pinned, so the copy is asynchronous
  cudaEvent_t done = nullptr;
};

FiniteProbe::FiniteProbe() : m_impl(std::make_unique<Impl>()) {
  require_device();
  CUDA_CHECK_THROW(cudaMalloc(&m_impl->first_dev, sizeof(int)));
  CUDA_CHECK_THROW(cudaMallocHost(&m_impl->first_host, sizeof(int)));
  CUDA_CHECK_THROW(cudaEventCreateWithFlags(&m_impl->done, cudaEventDisableTiming));
}

FiniteProbe::~FiniteProbe() {
  if (m_impl->done) cudaEventDestroy(m_impl->done);
  if (m_impl->first_host) cudaFreeHost(m_impl->first_host);
  if (m_impl->first_dev) cudaFree(m_impl->first_dev);
}

void FiniteProbe::launch(const Vec4* pos, const Vec4* vel, int n) {
  if (m_pending || n < 1) return;
  launch_first_nonfinite(pos, vel, n, m_impl->first_dev);
  CUDA_CHECK_THROW(
      cudaMemcpyAsync(m_impl->first_host, m_impl->first_dev, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK_THROW(cudaEventRecord(m_impl->done));
  m_pending = true;
}

bool FiniteProbe::poll(long long& first) {
  if (!m_pending) return false;
  const cudaError_t e = cudaEventQuery(m_impl->done);
  if (e == cudaErrorNotReady) return false;
  CUDA_CHECK_THROW(e);
  m_pending = false;
  first = to_index(*m_impl->first_host);
  return true;
}

long long FiniteProbe::wait() {
  long long first = -1;
  if (!m_pending) return first;
  CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->done));
  poll(first);
  return first;
}

long long FiniteProbe::check(const Vec4* pos, const Vec4* vel, int n) {
  launch(pos, vel, n);
  return wait();
}

struct GpuTimer::Impl {
  cudaEvent_t start = nullptr, stop = nullptr;
};

GpuTimer::GpuTimer() : m_impl(std::make_unique<Impl>()) {
  require_device();
  CUDA_CHECK_THROW(cudaEventCreate(&m_impl->start));
  CUDA_CHECK_THROW(cudaEventCreate(&m_impl->stop));
}

GpuTimer::~GpuTimer() {
  if (m_impl->start) cudaEventDestroy(m_impl->start);
  if (m_impl->stop) cudaEventDestroy(m_impl->stop);
}

void GpuTimer::start() { CUDA_CHECK_THROW(cudaEventRecord(m_impl->start)); }
void GpuTimer::stop() { CUDA_CHECK_THROW(cudaEventRecord(m_impl->stop)); }

float GpuTimer::elapsed_ms() {
  CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->stop));
  float ms = 0.0f;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, m_impl->start, m_impl->stop));
  return ms;
}

}  // namespace orrery
