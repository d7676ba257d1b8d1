// A build without libhdf5: HDF5 files are recognised and refused with the reason.
#include <cstring>

#include "hdf5_snapshot.h"

namespace orrery::hdf5 {
namespace {
const char* const k_why =
    ": HDF5, and this build has no HDF5 support (install libhdf5-dev and rebuild)";
}

bool available() { return false; }

bool looks_like(const std::uint8_t* data, std::size_t size) {
  static const std::uint8_t sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  return size >= 8 && std::memcmp(data, sig, 8) == 0;
}

int files_in_set(const std::vector<std::uint8_t>&, const std::string& name) {
  throw SnapshotError(name + k_why);
}

std::vector<std::string> set_names(const std::string& path, int) { return {path}; }

Snapshot decode(const std::vector<File>& files, const LoadOptions&) {
  throw SnapshotError((files.empty() ? std::string("HDF5") : files[0].name) + k_why);
}

std::vector<std::uint8_t> encode(const Snapshot&) {
  throw SnapshotError(std::string("HDF5 file") + k_why);
}

}  // namespace orrery::hdf5
