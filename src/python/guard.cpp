#include "guard.h"

namespace orrery::python {

bool made(const py::handle& self) {
  if (!py::isinstance<PySimulation>(self)) return false;
  auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
  return inst->get_value_and_holder().holder_constructed();
}

Held hold(const py::handle& self) {
  if (!made(self))
    throw py::type_error(
        "this orrery.Simulation was never made (Simulation.__new__ without __init__): make one "
        "with orrery.Simulation(...), Simulation.from_arrays(...) or orrery.load(...)");
  Held h{self.cast<PySimulation*>(), {}};
  h.lock = std::unique_lock<std::recursive_mutex>(h.sim->lock(), std::try_to_lock);
  if (!h.lock.owns_lock()) {  // another thread's call: wait for it without the GIL
    py::gil_scoped_release nogil;
    h.lock.lock();
  }
  return h;
}

}  // namespace orrery::python
