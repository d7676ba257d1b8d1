"""Issue 42: restarts bit for bit in every format that claims them. 20 steps against 10, save,
load and 10 more, over cpu / cpu-omp / cpu-bh x single / double x a fixed dt / dt='auto' x the
three integrators x Orrery's format / HDF5: the positions, velocities, time and step count must be
equal to the bit. HDF5 of an adaptive run used to load with dt_max as its next step (every
integrator diverged) and HDF5 of a double run stored float32 and loaded as single."""
import itertools

import numpy as np
import pytest

import orrery


def _hdf5_in_build(tmp_path_factory):
    d = tmp_path_factory.mktemp("probe")
    try:
        orrery.Simulation(n=2, preset="random", solver="cpu").save(d / "probe.hdf5")
    except OSError as e:
        if "no HDF5 support" in str(e):
            return False
        raise
    return True


CASES = [c for c in itertools.product(["cpu", "cpu-omp", "cpu-bh"], ["single", "double"],
                                      [0.001, "auto"], ["euler", "leapfrog", "yoshida4"],
                                      [".orrery", ".hdf5"])
         if not (c[0] == "cpu-bh" and c[1] == "double")]  # a tree code has no double path


def _mark(case):
    if case[2] == "auto" and case[3] == "euler":
        # Its adaptive step measures the rate between its last two evaluations, and a file keeps
        # only the state: the first step after a restart keeps the planned size.
        return pytest.param(*case, marks=pytest.mark.xfail(
            strict=True, reason="issue 42: euler's adaptive step restarts without its previous "
            "evaluation"))
    return pytest.param(*case)


@pytest.mark.parametrize("solver,precision,dt,integrator,ext", [_mark(c) for c in CASES])
def test_a_restart_continues_the_run_bit_for_bit(tmp_path, tmp_path_factory, solver, precision,
                                                 dt, integrator, ext):
    if ext == ".hdf5" and not _hdf5_in_build(tmp_path_factory):
        pytest.skip("this build has no HDF5")
    settings = dict(solver=solver, precision=precision, dt=dt, integrator=integrator)
    straight = orrery.Simulation(n=300, preset="plummer", seed=2, **settings)
    straight.step(20)
    first = orrery.Simulation(n=300, preset="plummer", seed=2, **settings)
    first.step(10)
    first.save(tmp_path / ("run" + ext))
    resumed = orrery.load(tmp_path / ("run" + ext))
    assert resumed.precision == precision
    assert resumed.dt == straight.dt
    resumed.step(10)
    assert resumed.steps == straight.steps
    assert resumed.time == straight.time
    assert np.array_equal(resumed.positions, straight.positions)
    assert np.array_equal(resumed.velocities, straight.velocities)
