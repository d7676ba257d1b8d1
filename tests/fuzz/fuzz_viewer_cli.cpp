// libFuzzer target: the viewer's command-line parsing and validation (parse_command_line), which
// must answer any input with a result or one error line: no crash, hang or sanitizer report.
#include <cstddef>
#include <cstdint>

#include "app/cli.h"
#include "fuzz_args.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const orrery::fuzz::Args a = orrery::fuzz::split_args("orrery", data, size);
  const orrery::app::ParseResult r = orrery::app::parse_command_line(a.argc(), a.argv.data());
  if (r.run && (r.options.n < 0 || r.options.n > orrery::app::k_max_bodies)) __builtin_trap();
  return 0;
}
