// Ctrl-C and SIGTERM as a request to stop: both programs finish their files and exit 128 + signal.
#pragma once

namespace orrery {

// Installs `handler` for SIGINT and SIGTERM, reset to the default on the first signal, so a second
// one ends the process at once (a stop that hangs can still be ended).
void on_stop_signals(void (*handler)(int));

}  // namespace orrery
