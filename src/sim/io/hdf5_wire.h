// Private: the decoded HDF5 snapshot as the reader process (isolated.h) hands it back, and the
// Snapshot made from it in the parent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "isolated.h"
#include "orrery/snapshot.h"

namespace orrery::hdf5 {

// The decoded snapshot as the reader process passes it back, in the memory file both map. Child
// and parent are one binary, so the arrays go as their bytes, each where wire_layout() puts it;
// the run goes without its solver name, which follows the arrays with the units line.
struct WireHead {
  std::uint64_t n, types, ids, solver_chars, units_chars;
  double file_time, redshift, box_size;
  bool run_recorded;
  double time;
  long long steps;
  int block;
  Integrator integrator;
  SimParams params;
  bool time_reversed;
  CollisionTotals totals;
  double next_dt;
  bool doubles;  // pos64 and vel64 follow (a double-precision run's own file)
  bool memory;   // the adaptive step's memory follows (acc: Vec4, or Vec4d where doubles)
  double last_eval_time;
  UnitSystem units;  // the run's
};
static_assert(std::is_trivially_copyable_v<WireHead> && std::is_trivially_copyable_v<Vec4>);

struct WireLayout {
  std::size_t pos, vel, types, ids, pos64, vel64, acc, solver, units, end;
};
inline WireLayout wire_layout(const WireHead& h) {
  const auto aligned = [](std::size_t at) { return (at + 63) / 64 * 64; };
  WireLayout l{};
  l.pos = aligned(sizeof h);
  l.vel = l.pos + h.n * sizeof(Vec4);
  l.types = l.vel + h.n * sizeof(Vec4);
  l.ids = aligned(l.types + h.types);
  const std::size_t wide = h.doubles ? h.n * sizeof(Vec4d) : 0;
  l.pos64 = aligned(l.ids + h.ids * sizeof(std::uint64_t));
  l.vel64 = l.pos64 + wide;
  l.acc = l.vel64 + wide;
  l.solver = l.acc + (h.memory ? h.n * (h.doubles ? sizeof(Vec4d) : sizeof(Vec4)) : 0);
  l.units = l.solver + h.solver_chars;
  l.end = l.units + h.units_chars;
  return l;
}

// The Snapshot of a reader's answer; throws SnapshotError naming `name` where it is malformed.
Snapshot from_wire(const AnswerView& in, const std::string& name);

}  // namespace orrery::hdf5
