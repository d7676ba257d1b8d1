// Steps a 2,000-body Plummer sphere through the installed engine and checks that the energy is kept
// (leapfrog, dt 0.004 in N-body units) and that the library is the version the package named.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "orrery/version.h"

int main(int argc, char** argv) {
  using namespace orrery;
  if (argc > 1 && std::strcmp(argv[1], version_number()) != 0) {
    std::fprintf(stderr, "library version %s, package version %s\n", version_number(), argv[1]);
    return 1;
  }
  SimParams p;
  p.dt = 0.004;
  p.softening = 0.01f;
  Simulation sim(make_preset(Preset::plummer, 2000, 7), make_solver("cpu-omp"),
                 Integrator::leapfrog, p);
  const Diagnostics start = sim.measure();
  sim.step(250);
  const Diagnostics end = sim.measure();
  const double energy = drift(start, end).energy;
  std::printf("orrery %s: %d bodies, %d steps, energy drift %.2e\n", version_description().c_str(),
              end.bodies, 250, energy);
  return std::isfinite(energy) && std::fabs(energy) < 1e-3 && end.bodies == 2000 ? 0 : 1;
}
