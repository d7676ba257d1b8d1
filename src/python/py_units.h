// sim.units, sim.file_info and the arrays in named units, bound onto the Simulation class.
#pragma once

#include <pybind11/pybind11.h>

#include "py_simulation.h"

namespace orrery::python {

void bind_units(pybind11::class_<PySimulation>& sim);

}  // namespace orrery::python
