#!/usr/bin/env python3
"""A TIPSY file opened, stepped and saved: the bodies of another code's file, 100 leapfrog steps,
then written back as TIPSY (and as Orrery's own snapshot, which keeps the run for a restart).

    python3 examples/tipsy_file.py [IN.tipsy] [OUT.tipsy]

(with orrery installed: README, "Installing it"; or from the build tree, PYTHONPATH=build/python)

With no file given, it first writes one (a 4,096-body disk) so it runs anywhere.
"""
import sys

import orrery

if len(sys.argv) > 1:
    path = sys.argv[1]
else:
    path = "disk.tipsy"
    orrery.Simulation(n=4096, preset="disk", solver="cpu").save(path)
    print("wrote", path)
out = sys.argv[2] if len(sys.argv) > 2 else "stepped.tipsy"

sim = orrery.load(path, integrator="leapfrog", dt=0.005)
print(f"opened {path}: {sim.n} bodies, time {sim.time}, mass {sim.masses.sum():.6g}")
e0 = sim.diagnostics()["energy"]
sim.step(100)
e1 = sim.diagnostics()["energy"]
print(f"100 steps with {sim.solver}: time {sim.time:.3f}, energy drift {(e1 - e0) / abs(e0):.2e}")
sim.save(out)
sim.save(out.rsplit(".", 1)[0] + ".orrery")
print("saved", out, "and", out.rsplit(".", 1)[0] + ".orrery")
