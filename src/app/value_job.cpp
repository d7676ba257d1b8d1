// ValueJob: a Simulation of its own on the worker, so the stepping one is never shared.
#include "value_job.h"

#include <memory>

#include "orrery/simulation.h"

namespace orrery::app {

ValueJob::~ValueJob() { cancel(); }

void ValueJob::start(const std::string& solver, const SimParams& params, BodyState state,
                     Quantity q, std::uint64_t version) {
  cancel();
  m_done = false;
  m_error = nullptr;
  m_values.clear();
  m_quantity = q;
  m_version = version;
  m_control.cancel = false;
  m_control.bodies_done = 0;
  m_thread = std::thread([this, solver, params, state = std::move(state), q] {
    try {
      // euler takes any parameters; the values do not depend on the integrator.
      Simulation sim(state, make_solver(solver), Integrator::euler, params);
      sim.solver().set_control(&m_control);
      std::vector<float> out(static_cast<std::size_t>(state.size()));
      sim.quantity_to_host(q, sim.bodies(), out.data());
      m_values = std::move(out);
    } catch (...) {
      m_error = std::current_exception();
    }
    m_done = true;
  });
}

std::vector<float> ValueJob::take(Quantity& q, std::uint64_t& version) {
  m_thread.join();
  if (m_error) std::rethrow_exception(m_error);
  q = m_quantity;
  version = m_version;
  return std::move(m_values);
}

void ValueJob::cancel() {
  if (!m_thread.joinable()) return;
  m_control.cancel = true;
  m_thread.join();
  m_values.clear();
}

}  // namespace orrery::app
