"""Run under `mpirun -np K python3 rank_run.py DIR` (ctest runs K = 1 to 3): orrery.RankRun steps a
Plummer sphere over the ranks from Python. Every body is on one rank with its ID, the mass over
the ranks is the whole's, leapfrog keeps the energy through two decompositions, and bad settings
raise ValueError on every rank before anything runs. Exits non-zero where a check fails."""
import os
import sys

import numpy as np

import orrery

out = sys.argv[1]
n = 20011  # no multiple of any rank count
run = orrery.RankRun(n, "plummer", seed=5, solver="cpu-bh", dt=0.001, integrator="leapfrog",
                     theta=0.5, softening=0.01, rebalance_every=3)
assert 1 <= run.ranks and 0 <= run.rank < run.ranks and run.n == n
start = run.diagnostics()
run.step(7)  # decomposed again after steps 3 and 6
end = run.diagnostics()
assert end["steps"] == 7, end
assert abs(end["time"] - 7 * 0.001) < 1e-9, end  # the clock goes on through decompositions
drift = abs((end["energy"] - start["energy"]) / start["energy"])
assert drift < 1e-5, f"energy drift {drift}"
assert abs(end["mass"] - orrery.Simulation(16, "plummer").diagnostics()["mass"]) < 1e-5, end
pos, ids = run.positions, run.ids
assert pos.shape == (len(ids), 3) and np.isfinite(pos).all() and len(ids) > 0
np.save(os.path.join(out, f"ids_{run.ranks}_{run.rank}.npy"), ids)
run.diagnostics()  # collective: every rank's file is written after it
if run.rank == 0:
    every = np.concatenate([np.load(os.path.join(out, f"ids_{run.ranks}_{r}.npy"))
                            for r in range(run.ranks)])
    assert np.array_equal(np.sort(every), np.arange(n)), "an ID missing or on two ranks"
for bad, words in [(dict(solver="cpu"), "cuda-bh or cpu-bh"), (dict(dt="auto"), "fixed dt"),
                   (dict(preset="disk"), "each rank draws"), (dict(n=run.ranks - 1 or -1), "")]:
    kw = dict(n=1000, solver="cpu-bh", dt=0.001)
    kw.update(bad)
    try:
        orrery.RankRun(**kw)
    except ValueError as e:
        assert words in str(e), (bad, str(e))
    else:
        raise AssertionError(f"{bad}: not refused")
print(f"ok: rank {run.rank} of {run.ranks}: {len(ids)} bodies, energy drift {drift:.2e}")
