// The CUDA device seen from host code: presence, properties, memory, copies and event timing.
#include <algorithm>
#include <cstdio>

#include "cuda_handles.cuh"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {

bool cuda_compiled() { return true; }

DeviceInfo device_info_of(int index) {
  DeviceInfo d;
  int count = 0;  // cudaGetDeviceCount leaves it unwritten on error (35 with no driver)
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count <= index || index < 0) {
    d.reason = e != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(e)
               : count < 1      ? std::string("no CUDA device found")
                                : "no CUDA device " + std::to_string(index);
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return d;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, index) != cudaSuccess) {
    d.reason = "no CUDA device: cannot read the properties of device " + std::to_string(index);
    cudaGetLastError();
    return d;
  }
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index);
  d.present = true;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.clock_mhz = clock_khz / 1000;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.total_mem = p.totalGlobalMem;
  return d;
}

const DeviceInfo& device_info() {
  static const DeviceInfo info = device_info_of(0);
  return info;
}

bool device_present() { return device_info().present; }

int device_count() {
  static const int count = [] {
    if (!device_present()) return 0;
    int c = 0;
    if (cudaGetDeviceCount(&c) != cudaSuccess) {
      cudaGetLastError();
      return 1;  // device 0 answered device_info(): at least that one
    }
    return c;
  }();
  return count;
}

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

void use_device(int index) { CUDA_CHECK_THROW(cudaSetDevice(index)); }

void device_synchronize() { CUDA_CHECK_THROW(cudaDeviceSynchronize()); }

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
  GpuBuffer<int> first_dev{1};
  PinnedHost<int> first_host{1};  // so the copy is asynchronous
  CudaEvent done{cudaEventDisableTiming};
};

FiniteProbe::FiniteProbe() {
  require_device();
  m_impl = std::make_unique<Impl>();
}

FiniteProbe::~FiniteProbe() = default;

void FiniteProbe::launch(const Vec4* pos, const Vec4* vel, int n) {
  if (m_pending || n < 1) return;
  launch_first_nonfinite(pos, vel, n, m_impl->first_dev.data());
  CUDA_CHECK_THROW(cudaMemcpyAsync(m_impl->first_host.get(), m_impl->first_dev.data(), sizeof(int),
                                   cudaMemcpyDeviceToHost));
  CUDA_CHECK_THROW(cudaEventRecord(m_impl->done.get()));
  m_pending = true;
}

bool FiniteProbe::poll(long long& first) {
  if (!m_pending) return false;
  const cudaError_t e = cudaEventQuery(m_impl->done.get());
  if (e == cudaErrorNotReady) return false;
  CUDA_CHECK_THROW(e);
  m_pending = false;
  first = to_index(*m_impl->first_host);
  return true;
}

long long FiniteProbe::wait() {
  long long first = -1;
  if (!m_pending) return first;
  CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->done.get()));
  poll(first);
  return first;
}

long long FiniteProbe::check(const Vec4* pos, const Vec4* vel, int n) {
  launch(pos, vel, n);
  return wait();
}

struct GpuTimer::Impl {
  CudaEvent start{cudaEventDefault}, stop{cudaEventDefault};
};

GpuTimer::GpuTimer() {
  require_device();
  m_impl = std::make_unique<Impl>();
}

GpuTimer::~GpuTimer() = default;

void GpuTimer::start() { CUDA_CHECK_THROW(cudaEventRecord(m_impl->start.get())); }
void GpuTimer::stop() { CUDA_CHECK_THROW(cudaEventRecord(m_impl->stop.get())); }

float GpuTimer::elapsed_ms() {
  CUDA_CHECK_THROW(cudaEventSynchronize(m_impl->stop.get()));
  float ms = 0.0f;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, m_impl->start.get(), m_impl->stop.get()));
  return ms;
}

}  // namespace orrery
