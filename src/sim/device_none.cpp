// The device API in a CPU-only build: there is never a CUDA device.
#include <stdexcept>

#include "cpu_solvers.h"
#include "orrery/collisions.h"
#include "orrery/device.h"
#include "orrery/fields.h"
#include "stage_ops.h"

namespace orrery {

bool cuda_compiled() { return false; }

const DeviceInfo& device_info() {
  static const DeviceInfo info = [] {
    DeviceInfo d;
    d.reason =
        "no CUDA device: this build has no CUDA support (ORRERY_ENABLE_CUDA off or nvcc missing)";
    return d;
  }();
  return info;
}

bool device_present() { return false; }
std::size_t device_free_memory() { return 0; }

void require_device() {
  throw std::runtime_error("this solver needs a CUDA device, and there is none (" +
                           device_info().reason + ")");
}

DeviceArray::DeviceArray(std::size_t) { require_device(); }
DeviceArray::~DeviceArray() = default;
DeviceArray::DeviceArray(DeviceArray&& o) noexcept : m_ptr(o.m_ptr), m_count(o.m_count) {}
DeviceArray& DeviceArray::operator=(DeviceArray&&) noexcept { return *this; }
void DeviceArray::upload(const Vec4*, std::size_t) { require_device(); }
void DeviceArray::download(Vec4*, std::size_t) const { require_device(); }
void device_synchronize() {}
void device_copy(Vec4*, const Vec4*, std::size_t) { require_device(); }

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

// The step pipeline's device passes: never reached without a device (no GPU solver exists).
void device_kick(Vec4*, const Vec4*, int, float) { require_device(); }
void device_drift(const Vec4*, Vec4*, const Vec4*, int, float) { require_device(); }
void device_euler(const Vec4*, Vec4*, Vec4*, const Vec4*, int, float, float) { require_device(); }
void device_zero(Vec4*, int) { require_device(); }
std::unique_ptr<Collider> make_device_collider() {
  require_device();
  return nullptr;
}
void device_potentials(const Vec4*, Vec4*, int, float) { require_device(); }
struct DeviceReducer::Impl {};
DeviceReducer::DeviceReducer() { require_device(); }
DeviceReducer::~DeviceReducer() = default;
Sums DeviceReducer::sums(const Vec4*, const Vec4*, const Vec4*, int) {
  require_device();
  return {};
}
double DeviceReducer::pair_potential_energy(const Vec4*, int, float) {
  require_device();
  return 0.0;
}
struct EventPool::Impl {};
EventPool::EventPool() { require_device(); }
EventPool::~EventPool() = default;
int EventPool::record() { return 0; }
bool EventPool::done(int) const { return true; }
void EventPool::wait(int) {}
float EventPool::elapsed_ms(int, int) { return 0.0f; }
void EventPool::clear() {}

// The per-body quantities' device passes: never reached without a device.
void device_speeds(const Vec4*, int, float*) { require_device(); }
void device_masses(const Vec4*, int, float*) { require_device(); }
void device_magnitudes(const Vec4*, int, float*) { require_device(); }
void device_depths(const Vec4*, int, float*) { require_device(); }
void device_download(const float*, float*, std::size_t) { require_device(); }
void device_upload(const float*, float*, std::size_t) { require_device(); }
void device_read_body(const Vec4*, const Vec4*, int, Vec4&, Vec4&) { require_device(); }
struct DeviceFields::Impl {};
DeviceFields::DeviceFields() { require_device(); }
DeviceFields::~DeviceFields() = default;
void DeviceFields::density(const Vec4*, int, float*) { require_device(); }
Vec3 DeviceFields::body_acceleration(const Vec4*, int, int, float) {
  require_device();
  return {};
}

}  // namespace orrery
