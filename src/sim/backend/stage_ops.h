// Private: the sums of the diagnostics on host arrays (device_passes.h has the device ones), and
// the event pool of the phase timer.
#pragma once

#include <memory>

#include "orrery/no_copy.h"
#include "orrery/physics.h"

namespace orrery {

// The diagnostics' sums over bodies, in double: pot holds each body's potential in w.
struct Sums {
  double mass = 0, kinetic = 0, potential2 = 0;  // potential2 = sum m_i phi_i = 2 W
  double p[3] = {0, 0, 0}, l[3] = {0, 0, 0}, mr[3] = {0, 0, 0};
  double momentum_scale = 0;
  void add(const Sums& o);
};
Sums host_sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n);

// A pool of CUDA events on the default stream, reused after clear().
class EventPool : NoCopy {
 public:
  EventPool();
  ~EventPool();
  int record();  // records the next event, returns its index
  bool done(int index) const;
  void wait(int index);
  float elapsed_ms(int from, int to);
  void clear();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace orrery
