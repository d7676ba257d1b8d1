// Helpers shared by the tests: stepping a solver on host memory with ping-pong position buffers.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery::test {

// The whole content of a file ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Advances s by `steps` steps of a CPU solver, pos ping-ponging between two host buffers.
inline BodyState run_host(Solver& solver, BodyState s, int steps, const SimParams& p) {
  std::vector<Vec4> out(s.pos.size());
  for (int k = 0; k < steps; ++k) {
    solver.step(s.pos.data(), out.data(), s.vel.data(), s.size(), p);
    s.pos.swap(out);
  }
  return s;
}

}  // namespace orrery::test
