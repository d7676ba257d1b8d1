// orrery-bench --decompose in a build without MPI (runs.h).
#include "options.h"
#include "runs.h"

namespace orrery::bench {

int run_decomposed(const Plan&) {
  throw UsageError("--decompose: this build has no MPI (Debian: libopenmpi-dev, then build again)");
}

}  // namespace orrery::bench
