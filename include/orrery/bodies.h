// Bodies: the state's arrays as one call lends them to a Simulation - its own, or storage the
// caller holds (the viewer's mapped GL buffers, a worker's host arrays). Nothing in sim/ knows who
// lent them.
#pragma once

#include <utility>

#include "orrery/physics.h"

namespace orrery {

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
