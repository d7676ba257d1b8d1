// Ctrl-C and SIGTERM stop orrery-bench between steps: the run in progress ends after its step,
// nothing more runs, and the output files it had opened but not written are removed (their
// destructors run), so an interrupted bench leaves no empty or partial file behind.
#pragma once

#include <atomic>

namespace orrery::bench {

// Set by the handler; runs pass it to RunPlan::cancel.
extern std::atomic<bool> g_stop_requested;

// Installs the handlers (reset on the first signal, so a second one ends the process at once).
void catch_stop_signals();

// Thrown between steps once a stop was asked for; main() turns it into exit 128 + signal.
struct Stopped {
  int signal;
};
// Throws Stopped when a stop was asked for.
void throw_if_stopped();

}  // namespace orrery::bench
