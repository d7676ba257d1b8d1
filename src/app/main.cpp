// orrery: the viewer's entry point. Parses the command line, runs the App, reports errors in one
// line.
#include <signal.h>

#include <cstdio>
#include <exception>
#include <utility>

#include "app.h"
#include "cli.h"
#include "orrery/input.h"
#include "orrery/output_file.h"

namespace {

void on_stop_signal(int sig) { orrery::app::g_stop_signal = sig; }

// SIGINT and SIGTERM end the run after its frame, with its files finished; the handler is reset
// on the first, so a second one ends the process at once.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const orrery::app::ParseResult parsed = orrery::app::parse_command_line(argc, argv);
  if (!parsed.run) return parsed.exit_code;
  catch_stop_signals();
  orrery::OutputFile screenshot;
  try {  // before any window opens: a bad path costs no run
    if (!parsed.options.screenshot.empty())
      screenshot = orrery::OutputFile::open(parsed.options.screenshot, "--screenshot");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: error: %s\n", e.what());
    return 2;
  }
  try {
    orrery::app::App app(parsed.options, std::move(screenshot));
    return app.run();
  } catch (const orrery::InputError& e) {  // a window or image size this GL cannot draw
    std::fprintf(stderr, "orrery: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: error: %s\n", e.what());
    return 1;
  }
}
