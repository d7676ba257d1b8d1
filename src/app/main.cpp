// orrery: the viewer's entry point. Parses the command line, runs the App, reports errors in one
// line.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>

#include "app.h"
#include "cli.h"
#include "orrery/input.h"
#include "orrery/output_file.h"
#include "orrery/stop_signals.h"
#include "rank_view.h"

namespace {

// SIGINT and SIGTERM end the run after its frame, with its files finished.
void on_stop_signal(int sig) { orrery::app::g_stop_signal = sig; }

// libgomp's idle threads spin 300,000 rounds before they sleep (GOMP_SPINCOUNT's default). In the
// viewer three sets of threads take turns on the cores in every frame - the simulation's worker
// and its OpenMP team, the CPU splat's team, Mesa's llvmpipe - and each set's spinning took the
// others' time: on the 2-core dev machine a frame at the default N lost about 2 ms to it
// (docs/benchmarks.md, "OpenMP's idle spin"). libgomp reads the variable once, before main, so
// the viewer sets it and starts itself again, unless the user chose a wait policy.
// It starts the file /proc/self/exe names, not the link itself, so that the process keeps its
// name: through the link the kernel called it "exe", and `pkill orrery` and `top` missed it.
void shorten_omp_spin(char** argv) {
  if (std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY")) return;
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return;
  self[len] = '\0';
  if (setenv("GOMP_SPINCOUNT", "10000", 1) != 0) return;
  execv(self, argv);  // returns only on failure: run on with the default spin
}

}  // namespace

int main(int argc, char** argv) {
  shorten_omp_spin(argv);
  const orrery::app::ParseResult parsed = orrery::app::parse_command_line(argc, argv);
  if (!parsed.run) return parsed.exit_code;
  orrery::on_stop_signals(on_stop_signal);
#ifdef ORRERY_VIEWER_RANKS
  if (parsed.options.decompose) return orrery::app::run_over_ranks(parsed.options);
#endif
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
