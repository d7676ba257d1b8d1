// orrery.Series' engine (py_series.cpp), and the load options that orrery.load and orrery.Series
// take alike (py_files.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "orrery/snapshot.h"
#include "settings.h"

namespace orrery::python {

namespace py = pybind11;

void bind_series(py::module_& m);
// types=, gadget_g= and units= as LoadOptions; ValueError in one line for a bad one.
LoadOptions load_options(const std::optional<std::vector<int>>& types,
                         std::optional<double> gadget_g, const std::optional<std::string>& units);

}  // namespace orrery::python
