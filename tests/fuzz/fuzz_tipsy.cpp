// libFuzzer target: the TIPSY reader alone (both byte orders, with and without the header's
// padding), past the format detection: any bytes give bodies or a SnapshotError, never a crash,
// hang or sanitizer report.
#include <cstddef>
#include <cstdint>

#include "orrery/snapshot.h"
#include "sim/io/tipsy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool claims = orrery::tipsy::looks_like(data, size);
  try {
    const orrery::Snapshot s = orrery::tipsy::decode(data, size, "fuzz");
    if (!claims || s.bodies.size() < 1) __builtin_trap();  // read only what looks like TIPSY
  } catch (const orrery::SnapshotError&) {
  }
  return 0;
}
