// The device API in a CPU-only build: there is never a CUDA device. What is left here is the
// device API that code outside the backend names (memory, the probes and timers).
#include <stdexcept>
#include <string>

#include "backend.h"
#include "device_passes.h"
#include "double_backend.h"
#include "orrery/device.h"
#include "stage_ops.h"

namespace orrery {

bool cuda_compiled() { return false; }

DeviceInfo device_info_of(int) {
  DeviceInfo d;
  d.reason =
      "no CUDA device: this build has no CUDA support (ORRERY_ENABLE_CUDA off or nvcc missing)";
  return d;
}

const DeviceInfo& device_info() {
  static const DeviceInfo info = device_info_of(0);
  return info;
}

bool device_present() { return false; }
int device_count() { return 0; }
std::size_t device_free_memory() { return 0; }

void require_device() {
  throw std::runtime_error("this solver needs a CUDA device, and there is none (" +
                           device_info().reason + ")");
}

void use_device(int) { require_device(); }

void device_synchronize() {}

struct FiniteProbe::Impl {};
FiniteProbe::FiniteProbe() { require_device(); }
FiniteProbe::~FiniteProbe() = default;
void FiniteProbe::launch(const Vec4*, const Vec4*, int) { require_device(); }
bool FiniteProbe::poll(long long&) { return false; }
long long FiniteProbe::wait() { return -1; }
long long FiniteProbe::check(const Vec4*, const Vec4*, int) {
  require_device();
  return -1;
}

struct GpuTimer::Impl {};
GpuTimer::GpuTimer() { require_device(); }
GpuTimer::~GpuTimer() = default;
void GpuTimer::start() {}
void GpuTimer::stop() {}
float GpuTimer::elapsed_ms() { return 0.0f; }

// The CUDA backend and the device potentials: no GPU solver exists here.
std::unique_ptr<Backend> make_cuda_backend() {
  require_device();
  return nullptr;
}
std::unique_ptr<DoubleBackend> make_cuda_double_backend() {
  require_device();
  return nullptr;
}
void device_potentials(const Vec4*, Vec4*, int, float) { require_device(); }
struct EventPool::Impl {};
EventPool::EventPool() { require_device(); }
EventPool::~EventPool() = default;
int EventPool::record() { return 0; }
bool EventPool::done(int) const { return true; }
void EventPool::wait(int) {}
float EventPool::elapsed_ms(int, int) { return 0.0f; }
void EventPool::clear() {}

}  // namespace orrery
