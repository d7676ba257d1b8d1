// orrery: the viewer's entry point. Parses the command line, runs the App, reports errors in one
// line.

#include <cstdio>
#include <exception>
#include <utility>

#include "app.h"
#include "cli.h"
#include "orrery/input.h"
#include "orrery/output_file.h"
#include "orrery/stop_signals.h"

namespace {

// SIGINT and SIGTERM end the run after its frame, with its files finished.
void on_stop_signal(int sig) { orrery::app::g_stop_signal = sig; }

}  // namespace

int main(int argc, char** argv) {
  const orrery::app::ParseResult parsed = orrery::app::parse_command_line(argc, argv);
  if (!parsed.run) return parsed.exit_code;
  orrery::on_stop_signals(on_stop_signal);
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
