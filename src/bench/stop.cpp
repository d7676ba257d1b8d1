#include "stop.h"

#include <signal.h>

#include "orrery/stop_signals.h"

namespace orrery::bench {

std::atomic<bool> g_stop_requested{false};

namespace {

volatile sig_atomic_t g_signal = 0;

void on_stop_signal(int sig) {
  g_signal = sig;
  g_stop_requested.store(true);  // lock-free, so safe in a handler
}

}  // namespace

void catch_stop_signals() {
  static_assert(std::atomic<bool>::is_always_lock_free);
  on_stop_signals(on_stop_signal);
}

void throw_if_stopped() {
  if (g_stop_requested.load()) throw Stopped{static_cast<int>(g_signal)};
}

}  // namespace orrery::bench
