// The CUDA device as the host code sees it, with no CUDA types: presence, properties, memory,
// timing. In a CPU-only build every query reports no device.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "orrery/no_copy.h"
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
// Device 0, queried once and cached; never throws.
const DeviceInfo& device_info();
// Device `index` (0 to device_count() - 1), queried now; never throws (present false, with the
// reason, for an index with no device).
DeviceInfo device_info_of(int index);
bool device_present();
// CUDA devices visible to this process (0 with none; CUDA_VISIBLE_DEVICES narrows them). Device 0
// is the one device_info() describes and every one-GPU module runs on.
int device_count();
// Free device memory in bytes right now (0 with no device).
std::size_t device_free_memory();
// Throws std::runtime_error naming the missing CUDA device when there is none.
void require_device();
// Makes device `index` this thread's device (a rank of a run over MPI takes its own GPU before it
// allocates anything); throws std::runtime_error with CUDA's reason.
void use_device(int index);

void device_synchronize();

// The index of the first body whose position or velocity has a non-finite component, or -1, over
// host arrays (FiniteProbe does the same on the device).
long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n);
// What of one body is not finite: "its position", "its mass", "its velocity", "its radius" (a
// merged radius can overflow), joined with "and"; "" when all is finite.
std::string nonfinite_parts(const Vec4& pos, const Vec4& vel);

// The device check without waiting, for the viewer's frame loop: launch() enqueues the kernel and
// a copy of its one-int result on the default stream; poll() returns true once that result is in
// and puts the index (or -1) in `first`. One check in flight at a time.
class FiniteProbe : NoCopy {
 public:
  FiniteProbe();
  ~FiniteProbe();
  void launch(const Vec4* pos, const Vec4* vel, int n);
  bool pending() const { return m_pending; }
  // Waits for the check in flight and returns its result (-1 when none is in flight).
  long long wait();
  // launch() and wait().
  long long check(const Vec4* pos, const Vec4* vel, int n);
  bool poll(long long& first);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  bool m_pending = false;
};

// Times GPU work on the default stream with CUDA events.
class GpuTimer : NoCopy {
 public:
  GpuTimer();
  ~GpuTimer();
  void start();
  void stop();
  float elapsed_ms();  // waits for the stop event

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace orrery
