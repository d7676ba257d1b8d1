// The parent's side of the HDF5 reader's answer: its checks and the Snapshot made from it.
#include "hdf5_wire.h"

#include <cstring>

#include "bulk_copy.h"

namespace orrery::hdf5 {

Snapshot from_wire(const AnswerView& in, const std::string& name) {
  const auto bad = [&] { return SnapshotError(name + ": its reader's answer is malformed"); };
  WireHead h{};
  if (in.size() < sizeof h) throw bad();
  std::memcpy(&h, in.data(), sizeof h);
  if (h.n > (1ull << 31) || (h.types != 0 && h.types != h.n) || h.ids != h.types ||
      h.solver_chars > 64 || h.units_chars > 4096)
    throw bad();
  const WireLayout l = wire_layout(h);
  if (l.end != in.size()) throw bad();
  const std::uint8_t* p = in.data();
  Snapshot s;
  s.format = SnapshotFormat::hdf5;
  s.file_time = h.file_time, s.redshift = h.redshift, s.box_size = h.box_size;
  s.run_recorded = h.run_recorded;
  RunState& run = s.run;
  run.time = h.time, run.steps = h.steps, run.block = h.block, run.integrator = h.integrator;
  run.params = h.params, run.time_reversed = h.time_reversed, run.totals = h.totals;
  run.next_dt = h.next_dt;
  run.units = h.units;
  if (h.memory) {
    run.last_eval_time = h.last_eval_time;
    if (h.doubles)
      assign_bulk(run.last_acc64, reinterpret_cast<const Vec4d*>(p + l.acc), h.n);
    else
      assign_bulk(run.last_acc, reinterpret_cast<const Vec4*>(p + l.acc), h.n);
  }
  if (h.doubles) {
    assign_bulk(s.bodies.pos64, reinterpret_cast<const Vec4d*>(p + l.pos64), h.n);
    assign_bulk(s.bodies.vel64, reinterpret_cast<const Vec4d*>(p + l.vel64), h.n);
  }
  const auto* pos = reinterpret_cast<const Vec4*>(p + l.pos);
  const auto* vel = reinterpret_cast<const Vec4*>(p + l.vel);
  const auto* ids = reinterpret_cast<const std::uint64_t*>(p + l.ids);
  assign_bulk(s.bodies.pos, pos, h.n), assign_bulk(s.bodies.vel, vel, h.n);
  assign_bulk(s.types, p + l.types, h.types), assign_bulk(s.ids, ids, h.ids);
  run.solver.assign(reinterpret_cast<const char*>(p + l.solver), h.solver_chars);
  s.units_note.assign(reinterpret_cast<const char*>(p + l.units), h.units_chars);
  return s;
}

}  // namespace orrery::hdf5
