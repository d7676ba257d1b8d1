// Helpers shared by the tests: reading a file, and running a solver through the step
// pipeline's Simulation.
#pragma once

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "orrery/presets.h"
#include "orrery/solver.h"
#include "orrery/simulation.h"

namespace orrery::test {

// The whole content of a file ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A scratch folder, removed with what it holds.
struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/orrery-test-XXXXXX";
    path = ::mkdtemp(t) ? t : "";
  }
  ~TempDir() {
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
          std::remove((path + "/" + e->d_name).c_str());
      ::closedir(d);
    }
    ::rmdir(path.c_str());
  }
  int entries() const {
    int k = 0;
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d))
        k += std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, "..");
      ::closedir(d);
    }
    return k;
  }
};

// A Simulation on the side a registry solver runs (host or device storage holding s).
inline std::unique_ptr<Simulation> make_simulation(const std::string& solver, const BodyState& s,
                                           const SimParams& p, Integrator integrator,
                                           int block = 0) {
  std::unique_ptr<Solver> g = make_solver(solver, block);
  return std::make_unique<Simulation>(s, std::move(g), integrator, p);
}

// Advances s by `steps` steps of a solver (its fused seed Euler step: the `euler`
// integrator) through a Simulation on the module's side (host or device), and returns the state.
inline BodyState run_system(std::unique_ptr<Solver> solver, const BodyState& s, int steps,
                            const SimParams& p, Integrator integrator = Integrator::euler) {
  Simulation system(s, std::move(solver), integrator, p);
  system.step(steps);
  return system.state();
}

// The same for a solver named in the registry.
inline BodyState run_host(const std::string& solver, const BodyState& s, int steps,
                          const SimParams& p) {
  return run_system(make_solver(solver), s, steps, p);
}

}  // namespace orrery::test
