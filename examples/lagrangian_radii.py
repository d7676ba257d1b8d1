#!/usr/bin/env python3
"""A Plummer sphere's Lagrangian radii (the radii holding 10%, 25%, 50%, 75% and 90% of the mass,
about the centre of mass) over time: flat for a sphere in equilibrium, the core slowly contracting
as two-body relaxation sets in.

    python3 examples/lagrangian_radii.py [N] [OUT.png]

(with orrery installed: README, "Installing it"; or from the build tree, PYTHONPATH=build/python)
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import orrery

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
out = sys.argv[2] if len(sys.argv) > 2 else "lagrangian_radii.png"
fractions = [0.1, 0.25, 0.5, 0.75, 0.9]
sim = orrery.Simulation(n=n, preset="plummer", integrator="leapfrog", dt=0.005, softening=0.01)
print(sim)


def lagrangian_radii(sim):
    x, m = sim.positions.astype(np.float64), sim.masses.astype(np.float64)
    centre = np.asarray(sim.diagnostics()["centre_of_mass"])
    r = np.linalg.norm(x - centre, axis=1)
    order = np.argsort(r)
    enclosed = np.cumsum(m[order]) / m.sum()
    return [r[order][np.searchsorted(enclosed, f)] for f in fractions]


times, radii = [], []
for _ in range(40):
    times.append(sim.time)
    radii.append(lagrangian_radii(sim))
    sim.integrate(sim.time + 0.25)
radii = np.array(radii)
print("half-mass radius from %.3f to %.3f" % (radii[0, 2], radii[-1, 2]))

fig, ax = plt.subplots(figsize=(6, 4))
for i, f in enumerate(fractions):
    ax.plot(times, radii[:, i], label=f"{int(f * 100)}%")
ax.set_yscale("log")
ax.set_xlabel("time")
ax.set_ylabel("Lagrangian radius")
ax.set_title(f"Plummer sphere, N = {n}, {sim.solver}")
ax.legend(title="mass", fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=100)
print("wrote", out)
