// The viewer over MPI ranks (issue 47): `mpirun -np K orrery --decompose ...`. Rank 0 opens the
// window and draws a sample of every rank's bodies; the other ranks open none and step when rank 0
// says (serve()). A frame is collective: rank 0's command (the steps, or the end) reaches every
// rank in one reduction, every rank takes the steps, and each sends rank 0 its bodies whose ID is
// a multiple of the stride: the same bodies every frame, wherever the decomposition moves them,
// in ID order, so picking and colour follow a body. The stride is the least that keeps the bodies
// drawn at or under --draw-max (1: all of them, where they fit).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "orrery/distributed.h"

namespace orrery::app {

class RankView {
 public:
  RankView(Ranks& ranks, std::unique_ptr<RankRun> run, long long total, long long draw_max);
  bool root() const { return m_ranks.rank() == 0; }
  // Rank 0: the panel's step size, softening, damping and theta (from `p`) and `steps` steps on
  // every rank, then the sample gathered when they moved it (collective).
  void frame(int steps, const SimParams& p);
  // Every rank but 0: takes rank 0's frames until it ends the run.
  void serve();
  // Rank 0: the others stop (after the last frame, or when the viewer fails).
  void finish();
  // The bodies drawn, in ID order: body k is ID k x stride().
  const BodyState& sample() const { return m_sample; }
  double time() const;
  long long steps() const { return m_run->steps(); }
  std::string describe() const;

 private:
  void gather();  // collective: each rank's bodies of the stride, to rank 0
  // A frame's command as every rank gets it: steps, the end, dt, softening, damping, theta.
  static constexpr int k_command = 6;
  void run_frame(const double* command);
  Ranks& m_ranks;
  std::unique_ptr<RankRun> m_run;
  long long m_total = 0, m_stride = 1;
  bool m_fresh = false;  // the sample is of the bodies as they are
  BodyState m_sample;
};

// The viewer's run under mpirun (main.cpp, for --decompose): every rank draws its part of the
// preset and makes the run, rank 0 opens the window. Returns the exit status; a failure on one
// rank ends the run on every rank with its line.
int run_over_ranks(const Options& options);

}  // namespace orrery::app
