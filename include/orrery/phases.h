// Per-phase timings of the step pipeline (the 15-418 project's tick breakdown): every stage of a
// step is a named phase, timed with CUDA events from a reused pool on the GPU and a clock on the
// CPU.
#pragma once

#include <array>
#include <chrono>
#include <memory>
#include <vector>

#include "orrery/no_copy.h"

namespace orrery {

enum class Phase {
  force,            // a solver's acceleration pass
  integrate,        // an integrator's kicks and drifts
  force_integrate,  // the fused force + Euler launch (one pass, reported as one phase)
  bounds,           // tree codes: the bounding box of the bodies
  sort,             // tree codes: Morton keys, the sort, the sorted copy of the bodies
  build,            // tree codes: the cells from the sorted keys
  moments,          // tree codes: masses, centres of mass, quadrupoles
  walk,             // tree codes: the traversal that sums the forces
  grid,             // collisions: cell size, hashed cell keys, the sort, the cell ranges
  contacts,         // collisions: the search of the neighbouring cells for touching pairs
  resolve,          // collisions: the handshake rounds, merges, walls
  exchange,         // several GPUs: waiting for the others and summing their accelerations
  diagnostics,      // potentials and the sums of the diagnostics (always the last)
  count
};
constexpr int k_phase_count = static_cast<int>(Phase::count);
// "force", "integrate", "force+integrate", "bounds", "sort", "build", "moments", "walk", "grid",
// "contacts", "resolve", "exchange", "diagnostics".
const char* phase_name(Phase p);

struct PhaseTimes {
  std::array<double, k_phase_count> ms{};  // time in each phase
  double total() const;                    // their sum
  double operator[](Phase p) const { return ms[static_cast<int>(p)]; }
};

class PhaseTimer : NoCopy {
 public:
  // device: CUDA events on the default stream (throws with no device); else steady_clock.
  explicit PhaseTimer(bool device);
  ~PhaseTimer();

  bool on_device() const { return m_device; }
  // Ends the phase in progress and starts p (nothing is recorded when p is already in progress,
  // so a run of fused steps costs two marks, not two per step).
  void begin(Phase p);
  // Ends the phase in progress, if any.
  void end();
  // Whether anything was recorded since the last take().
  bool pending() const { return !m_marks.empty(); }
  // Whether everything recorded has finished (the GPU has passed the last mark): take() would not
  // wait.
  bool ready() const;
  // Waits for the last mark and returns the time spent in each phase since the last take().
  PhaseTimes take();

 private:
  struct Mark {
    int event = -1;  // index into the pool (device)
    std::chrono::steady_clock::time_point at;
    int phase = -1;  // the phase starting here; -1: an end
  };
  void mark(int phase);
  bool m_device;
  struct Pool;
  std::unique_ptr<Pool> m_pool;
  std::vector<Mark> m_marks;
  int m_current = -1;
};

}  // namespace orrery
