// A run across MPI ranks (issue 47): the bodies are split by ranges of Morton keys balanced by each
// body's work, each rank holds only its own and builds its own tree, and the ranks exchange
// locally essential trees (what each rank's bodies need of the others') every force pass. Built
// only with MPI (the orrery_distributed library); launched with mpirun. No MPI types here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "orrery/bodies.h"
#include "orrery/diagnostics.h"
#include "orrery/integrators.h"
#include "orrery/physics.h"
#include "orrery/presets.h"
#include "orrery/series.h"
#include "orrery/simulation.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

namespace orrery {

// The ranks of one run (MPI's world). Every exchange is collective and guarded by a timeout: a
// rank that died or hangs ends the run on every rank with one line naming the exchange, never a
// hang.
class Ranks {
 public:
  // Starts MPI (once; it is finalised at exit) and joins its world. A process that mpirun did not
  // start is a world of one.
  static Ranks& world();
  int rank() const { return m_rank; }
  int size() const { return m_size; }
  // This rank among the ranks of its host, and how many its host has.
  int local_rank() const { return m_local_rank; }
  int local_size() const { return m_local_size; }
  // Seconds an exchange may take before the run is ended (default 120; ORRERY_MPI_TIMEOUT).
  double timeout_s() const { return m_timeout_s; }
  void set_timeout_s(double s) { m_timeout_s = s; }

  // Element-wise over the ranks, in place; every rank gets the result.
  void sum(double* v, int n, const char* what);
  void min(double* v, int n, const char* what);
  void max(double* v, int n, const char* what);
  // send[r] goes to rank r; what each rank sent this one comes back, by rank (a rank's own without
  // a copy: move `send` in where it is large).
  std::vector<std::vector<std::uint8_t>> exchange(std::vector<std::vector<std::uint8_t>> send,
                                                  const char* what);
  // Every rank's bytes, by rank.
  std::vector<std::vector<std::uint8_t>> gather_all(const std::vector<std::uint8_t>& mine,
                                                    const char* what);
  // Each rank's failure (`why`, empty: none): where any failed, every rank throws InputError with
  // the line of the first that did, so none goes on alone into a collective.
  void agree(const std::string& why, const char* what);
  // Runs `work` on rank 0 alone; what it throws is thrown on every rank as one InputError (agree).
  void on_root(const char* what, const std::function<void()>& work);
  // Ends the run on every rank with one line (stderr) and exit status `code`.
  [[noreturn]] void abort(const std::string& line, int code);
  // Runs `wait` (a wait on other ranks outside MPI: NCCL's) under the exchanges' timeout.
  void guarded(const char* what, const std::function<void()>& wait);

 private:
  Ranks();
  int m_rank = 0, m_size = 1, m_local_rank = 0, m_local_size = 1;
  double m_timeout_s = 120.0;
};

// One rank's share of a run's bodies and what follows them.
struct RankBodies {
  BodyState bodies;                 // positions with masses, velocities with radii
  std::vector<std::uint64_t> ids;   // every body's ID, unique over the run
  std::vector<std::uint8_t> types;  // empty on every rank, or one a body
  std::vector<float> work;          // each body's interactions on the last pass (empty: 1 each)
};

// What a decomposition did.
struct Decomposition {
  std::vector<std::uint64_t> splits;  // rank r holds keys in [splits[r], splits[r + 1])
  double work_min = 0, work_max = 0, work_mean = 0;  // each rank's work after it
  long long bodies_moved = 0;                        // bodies that changed rank, over the run
  // Seconds this rank took to key and sort its bodies, to move them, to merge what it received.
  double sort_s = 0, move_s = 0, merge_s = 0;
};

// Moves the bodies so that rank r holds the r-th of size() contiguous ranges of 63-bit Morton
// keys (over the bounding box of every rank's bodies) with equal work, each rank's bodies in key
// order. Collective. Throws InputError where the ranks' bodies disagree (types on some ranks only)
// or there are fewer bodies than ranks.
Decomposition decompose(Ranks& ranks, RankBodies& mine);

// cpu-bh over the ranks: each rank's tree of its own bodies, with the other ranks' essential trees
// (the cells and bodies of theirs that its bodies' walk opens, made for its bodies' bounding box)
// added to every group's walk. Its forces are those of one tree over every body to within that
// tree's own error at the same theta. work() gives each body's interactions for decompose().
class DistributedBh {
 public:
  static std::unique_ptr<Solver> make(Ranks& ranks);
  // cuda-bh over the ranks, one GPU each (bind_gpus first): each rank's tree on its GPU, the
  // essential trees made there and sent GPU to GPU over NCCL. Throws std::runtime_error where
  // NCCL cannot be loaded.
  static std::unique_ptr<Solver> make_device(Ranks& ranks);
  // Rank k of a host takes that host's GPU k. Collective. Throws InputError, the same line on
  // every rank, where a host has more ranks than GPUs, a rank has no GPU, or the ranks' GPUs are
  // not all one model.
  static void bind_gpus(Ranks& ranks);
  // What bind_gpus gathered of each rank, by rank: its GPU's name, or why it has none.
  struct RankGpu {
    std::string name, why;
  };
  // bind_gpus's verdict: throws InputError with the first rank's `why`, or where two ranks' GPUs
  // are of different models.
  static void check_gpus(const std::vector<RankGpu>& gpus);
  // The work of the bodies of the solver's last pass (a solver made by make() or make_device()).
  static std::vector<float> work(const Solver& s);
  // Bytes of essential trees this rank received on the last pass.
  static std::size_t received_bytes(const Solver& s);
  // The bodies were moved between ranks (decompose): what the solver kept of each body is
  // dropped.
  static void moved(Solver& s);
};

// The line that refuses a run of `n` bodies on more ranks than bodies (every rank checks alike).
std::string too_few_bodies(long long n, int ranks);

// This rank's share of a state every rank holds whole (a preset not drawn in parts, a file): bodies
// rank, rank + ranks, ..., their IDs their indices. decompose() then moves them to their ranges.
RankBodies share_of(const Ranks& ranks, const BodyState& all);

// This rank's part of an independently drawn preset (random, shell, plummer, plummer-halo:
// make_preset_part), IDs from its first body's index in the whole, the whole centred (centre of
// mass and its velocity at 0) over every part. Collective. Throws InputError, the same on every
// rank, for fewer bodies than ranks or another preset.
RankBodies draw_part(Ranks& ranks, Preset preset, int n, std::uint64_t seed);

// One run over the ranks: the bodies decomposed, stepped by a distributed tree's forces (cuda-bh,
// one GPU a rank, after DistributedBh::bind_gpus; or cpu-bh) and decomposed again every
// `rebalance_every` steps (0: the first time only; one rank never again) by each body's measured
// work. Every member is collective: each rank calls them in the same order. A failure on one rank
// (a GPU's error, its memory running out) ends the run on every rank with one line naming the
// rank and the cause: exit 1 in a step, 2 while the solver is made (InputError, the same on every
// rank, is thrown).
class RankRun {
 public:
  RankRun(Ranks& ranks, RankBodies mine, bool gpu, Integrator integrator, const SimParams& params,
          int rebalance_every);
  ~RankRun();
  // One step (a decomposition first when one is due).
  void step();
  // The decomposition that the next step would make first, if one is due (a bench times the
  // step alone).
  void rebalance_if_due();
  // E, P, L and the mass over every rank's bodies (each body's potential from every body).
  Diagnostics diagnostics();
  // This rank's bodies as they are now, in its key order.
  const RankBodies& bodies();
  // The whole run as one snapshot on rank 0: every rank's bodies in ID order (ids set), the run's
  // state; empty on the other ranks. Throws InputError, the same line on every rank, where rank
  // 0's host cannot hold every body.
  Snapshot snapshot();
  // The whole run written to `path` by rank 0 (the format by its extension; a temporary file
  // renamed over it, so a rank that dies during a save leaves the last file whole). Throws
  // InputError, the same line on every rank, where it cannot be written.
  void save(const std::string& path);
  Solver& solver() { return *m_forces; }
  Simulation& simulation() { return *m_sim; }
  long long steps() const { return m_steps; }
  // This rank's bodies now.
  int size() const { return static_cast<int>(m_mine.ids.size()); }
  // Their IDs (they move only at a decomposition: no fetch of the state).
  const std::vector<std::uint64_t>& ids() const { return m_mine.ids; }
  // The last decomposition, the decompositions since the first, the bodies they moved, and the
  // busiest rank's work against the mean after the worst of them (1: none).
  const Decomposition& last() const { return m_last; }
  int rebalances() const { return m_rebalances; }
  double moved() const { return m_moved; }
  double worst_balance() const { return m_worst_balance; }

 private:
  void rebalance();
  // fn(), or the run ended on every rank with its error's line (exit 1; Ranks::abort).
  template <typename Fn>
  auto or_abort(Fn&& fn) -> decltype(fn());
  Ranks& m_ranks;
  RankBodies m_mine;
  int m_rebalance_every;
  Decomposition m_last;
  Solver* m_forces = nullptr;
  std::unique_ptr<Simulation> m_sim;
  long long m_steps = 0, m_balanced_at = 0;
  int m_rebalances = 0;
  double m_moved = 0, m_worst_balance = 1.0;
};

// A run over the ranks written as a snapshot series (orrery/series.h: the state at the start,
// then every K steps or T of time): each output gathered from every rank (RankRun::snapshot) and
// written by rank 0 behind the steps that follow; every rank keeps the clock. Every member is
// collective and throws InputError, the same line on every rank, where an output fails; the
// outputs before it are whole.
class RankSeries {
 public:
  // Checks the outputs' names (on rank 0) and writes output 0.
  RankSeries(RankRun& run, const SeriesPlan& plan);
  ~RankSeries();
  // After a step: the next output, where one is due.
  void after_step();
  // Waits for the last output begun.
  void finish();
  // Rank 0's outputs written whole so far, and the last.
  int written() const;
  std::string last_file() const;

 private:
  RankRun& m_run;
  SeriesClock m_clock;
  std::unique_ptr<SeriesWriter> m_writer;  // rank 0's
};

}  // namespace orrery
