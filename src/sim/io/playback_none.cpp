// A build without CUDA: the device's motion between outputs is not there (orrery/playback.h).
#include <stdexcept>

#include "orrery/playback.h"

namespace orrery {

void hermite_between_device(const Vec4*, const Vec4*, const Vec4*, const Vec4*, const int*, int,
                            double, double, double, Vec4*, Vec4*) {
  throw std::runtime_error("this build has no CUDA: the motion between outputs runs on the host");
}

}  // namespace orrery
