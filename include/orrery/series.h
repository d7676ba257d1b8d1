// A run's snapshot series, as GADGET and REBOUND's SimulationArchive keep one: the state at the
// start and then every K steps or every T of simulation time, one file an output, named by a
// pattern ("snapshot_%03d.hdf5": GADGET-4's names, which yt's DatasetSeries opens) in the format
// its extension asks for. Each file is written whole or not at all (save_snapshot), on a thread of
// its own while the run steps on: the run pays only the copy of its state.
#pragma once

#include <exception>
#include <string>
#include <thread>

#include "orrery/simulation.h"
#include "orrery/snapshot.h"

namespace orrery {

// GADGET-4's names, in the folder the run starts in.
constexpr const char* k_default_series_pattern = "snapshot_%03d.hdf5";

// The most steps between outputs.
constexpr long long k_max_series_steps = 1000000000000000LL;

struct SeriesPlan {
  long long every_steps = 0;  // > 0: an output every K steps
  double every_time = 0;      // > 0: an output at the step nearest each multiple of T of time run
  std::string pattern;        // one %d, %Nd or %0Nd: the output's number
  std::string pattern_name = "--series";  // how messages name the pattern
  int block = 0;                          // the block size the outputs record (snapshot_of)
};

// --save-every's grammar: "K" or "steps=K" (a whole number of steps >= 1) or "time=T" (a finite
// time > 0), and the pattern: one number conversion, "%%" for a percent sign, an extension a
// format writes. Throws InputError naming `every_name` or `pattern_name` and the value.
SeriesPlan parse_series(const std::string& every, const std::string& pattern,
                        const std::string& every_name, const std::string& pattern_name);

// Output k's file name.
std::string series_file(const SeriesPlan& p, int k);

// A Simulation's state as a snapshot (lent arrays b, or its own): bodies, run (recording `block`,
// the block size asked for; 0: the solver's default), types and IDs.
Snapshot snapshot_of(Simulation& sim, const Bodies& b, int block = 0);

// When a series' outputs fall: its start, then every K steps or the step nearest each multiple
// of T of time run (within half a step; time run backwards counts alike; a step longer than T
// gives one output, the multiples it passed skipped).
class SeriesClock {
 public:
  explicit SeriesClock(const SeriesPlan& plan)
      : m_every_steps(plan.every_steps), m_every_time(plan.every_time) {}
  void start(const Simulation& sim);
  // After a step: whether an output is due now.
  bool due(const Simulation& sim);

 private:
  long long m_every_steps = 0, m_step0 = 0;
  double m_every_time = 0, m_time0 = 0, m_elapsed = 0;  // the time run at the last step
  long long m_next = 1;  // the next output's multiple of the interval
};

class SeriesWriter {
 public:
  // Checks, before any step: output 0's folder can be written, and no file of the pattern's first
  // outputs exists (a series never overwrites one). Throws InputError.
  explicit SeriesWriter(SeriesPlan plan);
  // Waits for the output being written (its failure, if any, is lost: call finish() to hear it).
  ~SeriesWriter();
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;
  // Writes output 0, the state as it is (waiting for it), and starts the clock there.
  void start(Simulation& sim, const Bodies& b);
  // After a step: the next output, where it is due: the state is copied here and written behind
  // the steps that follow, one output at a time. True when an output was begun. Throws what the
  // write of an output before threw (naming its file), or SnapshotError where this one cannot
  // begin; every output before that one stays whole, and none is begun after it.
  bool after_step(Simulation& sim, const Bodies& b);
  // The next output, the state made by the caller (a run over ranks gathers it and keeps its own
  // SeriesClock): begins writing it behind the steps; throws as after_step does.
  void write(Snapshot s);
  // Waits until every output begun is written; throws what a failed write threw.
  void finish();
  // Outputs written whole so far, and the last of them.
  int written() const { return m_written; }
  const std::string& last_file() const { return m_last; }

 private:
  SeriesPlan m_plan;
  SeriesClock m_clock;
  int m_begun = 0, m_written = 0;
  std::string m_last;
  std::thread m_writing;                 // the output being written
  std::string m_writing_path;            // its file
  std::exception_ptr m_failed;           // what its write threw (set by its thread)
};

}  // namespace orrery
