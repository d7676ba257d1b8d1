#!/usr/bin/env python3
"""Two galaxies merging: the energy (conserved, with leapfrog) and the virial ratio 2K/|W| (rising
through the first pass, settling towards 1) over the run, plotted with matplotlib. The jump in
the energy at t = 4.4 is the two heavy cores' passage, where a fixed step of 0.01 is too coarse.

    python3 examples/galaxy_merger.py [N] [OUT.png]

(with orrery installed: README, "Installing it"; or from the build tree, PYTHONPATH=build/python)
"""
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt

import orrery

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
out = sys.argv[2] if len(sys.argv) > 2 else "galaxy_merger.png"
# The best solver here: the GPU tree code where there is a GPU, else the CPU tree code.
solver = "cuda-bh" if any(s["name"] == "cuda-bh" and s["available"] for s in orrery.solvers()) \
    else "cpu-bh"
sim = orrery.Simulation(n=n, preset="collision", solver=solver, integrator="leapfrog", dt=0.01,
                        softening=0.5)  # each galaxy's heavy core: a softened, extended mass
print(sim)
times, energy, virial = [], [], []
for _ in range(80):
    d = sim.diagnostics()
    times.append(d["time"])
    energy.append(d["energy"])
    virial.append(d["virial_ratio"])
    sim.step(10)
print(f"{sim.steps} steps, {sim.interactions_per_second:.3g} interactions/s, "
      f"energy drift {(energy[-1] - energy[0]) / abs(energy[0]):.2e}")

fig, (a, b) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
a.plot(times, [e / abs(energy[0]) for e in energy])
a.set_ylabel("E / |E0|")
b.plot(times, virial)
b.axhline(1.0, color="grey", lw=0.5)
b.set_ylabel("2K / |W|")
b.set_xlabel("time")
a.set_title(f"two galaxies, N = {sim.n}, {solver}, leapfrog")
fig.tight_layout()
fig.savefig(out, dpi=100)
print("wrote", out)
