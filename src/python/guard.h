// Every method and property of orrery.Simulation runs holding the object's lock: a call from a
// second thread waits (its GIL released while it waits) until the first returns, so two threads
// never step, switch or read one Simulation at once and its state is never torn. An object that
// __init__ never made (Simulation.__new__ alone) is refused with TypeError instead of read.
#pragma once

#include <mutex>
#include <utility>

#include "py_simulation.h"

namespace orrery::python {

// Whether __init__ made the Simulation behind `self` (pybind11 gives an unmade one's methods
// uninitialised memory).
bool made(const py::handle& self);

// The Simulation behind `self`, its lock taken for the call; TypeError for one never made.
struct Held {
  PySimulation* sim;
  std::unique_lock<std::recursive_mutex> lock;
};
Held hold(const py::handle& self);

// A member function as a binding that holds the lock through the call.
template <class R, class... A>
auto guarded(R (PySimulation::*f)(A...)) {
  return [f](const py::object& self, A... a) -> R {
    const Held h = hold(self);
    return (h.sim->*f)(std::forward<A>(a)...);
  };
}
template <class R, class... A>
auto guarded(R (PySimulation::*f)(A...) const) {
  return [f](const py::object& self, A... a) -> R {
    const Held h = hold(self);
    return (h.sim->*f)(std::forward<A>(a)...);
  };
}

namespace detail {
template <class M>
struct Lambda;
template <class C, class R, class S, class... A>
struct Lambda<R (C::*)(S, A...) const> {
  template <class F>
  static auto wrap(F f) {
    return [f](const py::object& self, A... a) -> R {
      const Held h = hold(self);
      return f(*h.sim, std::forward<A>(a)...);
    };
  }
};
}  // namespace detail

// A lambda whose first parameter is the Simulation (PySimulation& or const PySimulation&), the
// same way.
template <class F>
auto guarded(F f) {
  return detail::Lambda<decltype(&F::operator())>::wrap(f);
}

}  // namespace orrery::python
