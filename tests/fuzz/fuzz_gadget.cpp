// libFuzzer target: the GADGET-2 reader alone (SnapFormat 1 and 2, both byte orders, float or
// double), past the format detection: any bytes give bodies or a SnapshotError, never a crash, a
// hang, a read past the end or an allocation the input cannot back.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "orrery/snapshot.h"
#include "sim/io/gadget.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool claims = orrery::gadget::looks_like(data, size);
  orrery::LoadOptions o;
  o.gadget_g = 1.0;
  try {
    const orrery::Snapshot s = orrery::gadget::decode(
        {orrery::gadget::File{"fuzz", std::vector<std::uint8_t>(data, data + size)}}, o);
    // Read only what looks like GADGET-2, and never more bodies than the input could hold.
    if (!claims || s.bodies.size() < 1 || static_cast<std::size_t>(s.bodies.size()) * 12 > size)
      __builtin_trap();
  } catch (const orrery::SnapshotError&) {
  }
  return 0;
}
