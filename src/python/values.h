// Python values as the module takes them, each checked by type and range and refused in one line
// that names the keyword and the value: pybind11's own conversions took None and nan as bools,
// True as 1.0, numpy.float32(0.5) as the integer 0, and gave several lines without the keyword
// for a wrong type.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace orrery::python {

namespace py = pybind11;

// True or False (numpy's bool too); not None, numbers or strings.
bool as_bool(const py::handle& v, const std::string& key);
// A real number (Python's or numpy's, not bool, complex or str).
double as_number(const py::handle& v, const std::string& key);
// An integer (Python's or numpy's, not bool or float) in [lo, hi].
long long as_integer(const py::handle& v, const std::string& key, long long lo, long long hi);
// An unsigned 64-bit integer (a seed: 0 to 2^64 - 1).
std::uint64_t as_seed(const py::handle& v, const std::string& key);
std::string as_text(const py::handle& v, const std::string& key);

}  // namespace orrery::python
