// orrery: the viewer's entry point. Parses the command line, runs the App, reports errors in one
// line.
#include <cstdio>
#include <exception>

#include "app.h"
#include "cli.h"

int main(int argc, char** argv) {
  const orrery::app::ParseResult parsed = orrery::app::parse_command_line(argc, argv);
  if (!parsed.run) return parsed.exit_code;
  try {
    orrery::app::App app(parsed.options);
    return app.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: error: %s\n", e.what());
    return 1;
  }
}
