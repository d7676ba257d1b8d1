// The bodies of a state: BodyState, the arrays a state is made of and handed around in (presets,
// files, Python), and Bodies, the arrays as one call lends them to a Simulation - its own, or
// storage the caller holds (the viewer's mapped GL buffers, a worker's host arrays). Nothing in
// sim/ knows who lent them.
#pragma once

#include <utility>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

struct BodyState {
  std::vector<Vec4> pos;  // w = mass
  std::vector<Vec4> vel;  // w = radius (collisions; orrery/collisions.h)
  // The same in double, where a double-precision run or a file gave them (else empty): pos and vel
  // are then their float rounding.
  std::vector<Vec4d> pos64, vel64;
  int size() const { return static_cast<int>(pos.size()); }
};
// pos64 and vel64 from the floats (widened), or the floats from pos64 and vel64 (rounded).
void widen_to_doubles(BodyState& s);
void round_to_floats(BodyState& s);

struct Bodies {
  Vec4* pos = nullptr;   // the newest positions
  Vec4* next = nullptr;  // the other position buffer: a step writes it, then the two swap
  Vec4* vel = nullptr;   // updated in place
  int n = 0;             // bodies in the simulation (merges move the survivors to the front)
  bool on_device = false;

  // After a step wrote `next`: it holds the newest positions.
  void flip() { std::swap(pos, next); }
};

}  // namespace orrery
