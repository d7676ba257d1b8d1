// The colour values of a CPU run, made on a worker thread from a copy of the state with a solver
// of its own. Colouring by acceleration or potential is a whole force pass: on the UI thread it
// held the window for minutes (N = 200,000 with cpu-omp; Esc did nothing for 50 s). Here the
// frames go on, and the pass can be cancelled.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "orrery/fields.h"
#include "orrery/no_copy.h"
#include "orrery/params.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

namespace orrery::app {

class ValueJob : NoCopy {
 public:
  ValueJob() = default;
  ~ValueJob();  // cancels and joins

  // Quantity q of `state` under `solver` (a CPU solver's name) and `params`; `version`: the
  // state's, handed back with the values.
  void start(const std::string& solver, const SimParams& params, BodyState state, Quantity q,
             std::uint64_t version);
  bool active() const { return m_thread.joinable(); }
  bool done() const { return m_done; }
  // After done(): joins and hands over the values, with their quantity and version; rethrows the
  // worker's exception.
  std::vector<float> take(Quantity& q, std::uint64_t& version);
  // Stops the pass at its next body and joins; the values are dropped.
  void cancel();

 private:
  std::thread m_thread;
  StepControl m_control;
  std::atomic<bool> m_done{false};
  std::exception_ptr m_error;
  std::vector<float> m_values;
  Quantity m_quantity = Quantity::speed;
  std::uint64_t m_version = 0;
};

}  // namespace orrery::app
