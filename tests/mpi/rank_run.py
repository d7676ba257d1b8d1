"""Run under `mpirun -np K python3 rank_run.py DIR` (ctest runs K = 1 to 3): orrery.RankRun steps a
Plummer sphere over the ranks from Python. Every body is on one rank with its ID, the mass over
the ranks is the whole's, leapfrog keeps the energy through two decompositions, the run saved as
one snapshot loads in one process as the ranks' bodies by ID, and bad settings and a snapshot that
cannot be written raise ValueError on every rank. Exits non-zero where a check fails."""
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
np.save(os.path.join(out, f"pos_{run.ranks}_{run.rank}.npy"), pos)
saved = os.path.join(out, f"run_{run.ranks}.orrery")
run.save(saved)  # collective: every rank's files are written after it
if run.rank == 0:
    every = np.concatenate([np.load(os.path.join(out, f"ids_{run.ranks}_{r}.npy"))
                            for r in range(run.ranks)])
    assert np.array_equal(np.sort(every), np.arange(n)), "an ID missing or on two ranks"
    by_id = np.empty((n, 3), np.float32)
    by_id[every] = np.concatenate([np.load(os.path.join(out, f"pos_{run.ranks}_{r}.npy"))
                                   for r in range(run.ranks)])
    one = orrery.load(saved)  # the whole run in one process, bodies in ID order
    assert one.n == n and one.steps == 7, (one.n, one.steps)
    assert np.array_equal(one.positions, by_id), "the snapshot is not the ranks' bodies by ID"
try:
    run.save(os.path.join(out, "no-such-folder", "run.orrery"))
except ValueError as e:
    assert "no-such-folder" in str(e), str(e)
else:
    raise AssertionError("a snapshot in a missing folder: not refused")
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
