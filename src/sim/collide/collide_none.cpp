// A build without CUDA: the device collider is refused with the reason, as every device part is.
#include <stdexcept>

#include "orrery/collisions.h"
#include "orrery/device.h"

namespace orrery {

std::unique_ptr<Collider> make_device_collider() {
  throw std::runtime_error("the device collider needs a CUDA device, and there is none (" +
                           device_info().reason + ")");
}

}  // namespace orrery
