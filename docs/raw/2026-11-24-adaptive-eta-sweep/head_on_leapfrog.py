# The head-on pass (bodies of mass 1/2 from rest at x = -1 and 1, softening 1e-3) with leapfrog
# and the adaptive step at eta 0.02, float and double, to t = 6.
import numpy as np
import orrery
for precision in ("single", "double"):
    s = orrery.Simulation.from_arrays(np.array([[-1.0, 0, 0], [1.0, 0, 0]]), None, [0.5, 0.5],
                                      solver="cpu", integrator="leapfrog", softening=1e-3,
                                      dt="auto", eta=0.02, precision=precision)
    e0 = s.diagnostics()["energy"]
    s.integrate(4.0)  # past the pass at t = 3.14
    print(f"{precision}: t {s.time:.3f}, {s.steps} steps, dE/|E0| {(s.diagnostics()['energy'] - e0) / abs(e0):.3e}, x {s.positions[1, 0]:.5f}, floor {s.floor_hits}")
