// libFuzzer target: orrery-bench's command-line parsing and validation (parse_command_line and
// make_plan), which must answer any input with a plan or a UsageError: no crash, hang or
// sanitizer report. Opens no file (outputs are opened separately, after the plan).
#include <cstddef>
#include <cstdint>

#include "bench/options.h"
#include "fuzz_args.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const orrery::fuzz::Args a = orrery::fuzz::split_args("orrery-bench", data, size);
  try {
    const std::optional<orrery::bench::Plan> plan =
        orrery::bench::parse_command_line(a.argc(), a.argv.data());
    if (plan && (plan->ns.empty() || plan->steps < 1 || plan->solvers.empty())) __builtin_trap();
  } catch (const orrery::bench::UsageError&) {
  }
  return 0;
}
