// A build without CUDA: the device's motion between outputs is not there (orrery/playback.h).
#include <stdexcept>

#include "orrery/playback.h"

namespace orrery {

void hermite_between_device(const Vec4*, const Vec4*, const Vec4*, const Vec4*, const int*, int,
                            double, double, double, Vec4*, Vec4*) {
  throw std::runtime_error("this build has no CUDA: the motion between outputs runs on the host");
}

struct DevicePlayback::Impl {};

DevicePlayback::DevicePlayback() {
  throw std::runtime_error("this build has no CUDA: the motion between outputs runs on the host");
}
DevicePlayback::~DevicePlayback() = default;
bool DevicePlayback::ready(const Frame&, const Frame&, const Frame&, bool) { return false; }
void DevicePlayback::move(double, Vec4*, Vec4*) {}
std::vector<std::pair<int, std::string>> DevicePlayback::take_unmatched() { return {}; }

}  // namespace orrery
