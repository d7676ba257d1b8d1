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
  // The run written as a series from now on (output 0 now), each output after the step it falls
  // on; and at the end (after finish() and serve()) its last output waited for and the last state
  // saved to `save` (none: ""). Collective; throw InputError, the same line on every rank.
  void write_series(const SeriesPlan& plan);
  void close_outputs(const std::string& save);
  // The bodies drawn, in ID order: body k is ID k x stride().
  const BodyState& sample() const { return m_sample; }
  double time() const;
  long long steps() const { return m_run->steps(); }
  // Every rank's interactions in the last frame's steps.
  double interactions() const { return m_interactions; }
  std::string describe() const;
  // Rank 0's mean ms: a frame's steps (the slowest rank's, as rank 0 waits on it), and a sample's
  // gathering: this rank's bodies fetched from its solver, the sample sent and placed.
  std::string timings() const;

 private:
  void gather();  // collective: each rank's bodies of the stride, to rank 0
  // A frame's command as every rank gets it: steps, the end, dt, softening, damping, theta.
  static constexpr int k_command = 6;
  void run_frame(const double* command);
  Ranks& m_ranks;
  std::unique_ptr<RankRun> m_run;
  long long m_total = 0, m_stride = 1;
  bool m_fresh = false;  // the sample is of the bodies as they are
  // This rank's rows drawn and their places in the sample, as of its rebalances and count.
  std::vector<std::size_t> m_rows;
  std::vector<std::uint64_t> m_slots;
  int m_rows_of = -1;
  std::size_t m_rows_n = 0;
  double m_interactions = 0.0;
  long long m_frames = 0, m_gathers = 0;  // frames that stepped, samples gathered
  double m_step_ms = 0.0, m_fetch_ms = 0.0, m_send_ms = 0.0;
  BodyState m_sample;
  std::unique_ptr<RankSeries> m_series;
};

// The viewer's run under mpirun (main.cpp, for --decompose): every rank draws its part of the
// preset and makes the run, rank 0 opens the window. Returns the exit status; a failure on one
// rank ends the run on every rank with its line.
int run_over_ranks(const Options& options);

}  // namespace orrery::app
