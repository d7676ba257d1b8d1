// libFuzzer target: the snapshot loader (decode_snapshot: Orrery's format, TIPSY or HDF5, told by
// the content), which must answer any bytes with a snapshot of finite bodies or a SnapshotError:
// no crash, hang or sanitizer report.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "orrery/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const orrery::Snapshot s = orrery::decode_snapshot(data, size, "fuzz");
    if (s.bodies.size() < 1 || s.bodies.pos.size() != s.bodies.vel.size()) __builtin_trap();
    for (const orrery::Vec4& p : s.bodies.pos)
      if (!std::isfinite(p.x) || !(p.w >= 0.0f)) __builtin_trap();
    // What loads saves again to the same bytes (Orrery's format) or the same bodies (TIPSY).
    const auto again = orrery::encode_snapshot(s, s.format);
    const orrery::Snapshot t = orrery::decode_snapshot(again.data(), again.size(), "again");
    if (t.bodies.size() != s.bodies.size()) __builtin_trap();
  } catch (const orrery::SnapshotError&) {
  }
  return 0;
}
