// The state's columns as numpy arrays: x, y, z of positions or velocities as (N, 3), and w (masses
// or radii) as (N,), in the body type's own precision. Copies: the arrays are the caller's.
#pragma once

#include <pybind11/numpy.h>

#include <vector>

#include "orrery/physics.h"

namespace orrery::python {

namespace py = pybind11;

template <class V>
py::array_t<RealOf<V>> column3(const std::vector<V>& v) {
  py::array_t<RealOf<V>> a({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
  RealOf<V>* d = a.mutable_data();
  for (std::size_t i = 0; i < v.size(); ++i) {
    d[3 * i] = v[i].x;
    d[3 * i + 1] = v[i].y;
    d[3 * i + 2] = v[i].z;
  }
  return a;
}

template <class V>
py::array_t<RealOf<V>> column_w(const std::vector<V>& v) {
  py::array_t<RealOf<V>> a(static_cast<py::ssize_t>(v.size()));
  RealOf<V>* d = a.mutable_data();
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = v[i].w;
  return a;
}

}  // namespace orrery::python
