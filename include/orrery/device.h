// The CUDA device as the host code sees it, with no CUDA types: presence, properties, memory,
// timing. In a CPU-only build every query reports no device.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "orrery/physics.h"

namespace orrery {

struct DeviceInfo {
  bool present = false;
  std::string name;
  std::string reason;  // why there is no device, when present is false
  int sm_count = 0;
  int clock_mhz = 0;
  int cc_major = 0, cc_minor = 0;
  std::size_t total_mem = 0;
};

bool cuda_compiled();
// Queried once and cached; never throws.
const DeviceInfo& device_info();
bool device_present();
// Free device memory in bytes right now (0 with no device).
std::size_t device_free_memory();
// Throws std::runtime_error naming the missing CUDA device when there is none.
void require_device();

// Move-only device allocation of Vec4 elements.
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count);
  ~DeviceArray();
  DeviceArray(DeviceArray&& o) noexcept;
  DeviceArray& operator=(DeviceArray&& o) noexcept;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  Vec4* data() const { return m_ptr; }
  std::size_t size() const { return m_count; }
  void upload(const Vec4* host, std::size_t count);
  void download(Vec4* host, std::size_t count) const;

 private:
  Vec4* m_ptr = nullptr;
  std::size_t m_count = 0;
};

void device_synchronize();
void device_copy(Vec4* dst, const Vec4* src, std::size_t count);  // device to device

// Times GPU work on the default stream with CUDA events.
class GpuTimer {
 public:
  GpuTimer();
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  void start();
  void stop();
  float elapsed_ms();  // waits for the stop event

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace orrery
