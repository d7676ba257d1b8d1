// orrery.RankRun: a run over MPI ranks from Python (built where MPI was found).
#pragma once

#include <pybind11/pybind11.h>

#include "settings.h"

namespace orrery::python {

// Binds RankRun into `m`; `keywords` parses the settings keywords as Simulation's do.
void bind_ranks(pybind11::module_& m, Keywords (*keywords)(const pybind11::kwargs&));

}  // namespace orrery::python
