// Validation of simulation parameters and the Solver defaults.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "orrery/solver.h"

namespace orrery {

void validate(const SimParams& p) {
  auto fail = [](const char* what, float v, const char* rule) {
    std::ostringstream s;
    s << "invalid " << what << " " << v << ": " << rule;
    throw std::invalid_argument(s.str());
  };
  if (!std::isfinite(p.dt) || p.dt <= 0.0f) fail("time step", p.dt, "must be a finite number > 0");
  if (!std::isfinite(p.softening) || p.softening <= 0.0f)
    fail("softening", p.softening, "must be a finite number > 0 (the self term needs it)");
  if (!std::isfinite(p.damping) || p.damping < 0.0f || p.damping > 1.0f)
    fail("damping", p.damping, "must be in [0, 1]");
}

std::string Solver::config() const {
  std::ostringstream s;
  s << name();
  if (block_size() > 0) s << " block " << block_size();
  return s.str();
}

}  // namespace orrery
