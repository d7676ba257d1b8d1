"""Issue 42: restarts bit for bit in every format that claims them. 20 steps against 10, save,
load and 10 more, over cpu / cpu-omp / cpu-bh x single / double x a fixed dt / dt='auto' x the
three integrators x Orrery's format / HDF5: the positions, velocities, time and step count must be
equal to the bit. HDF5 of an adaptive run used to load with dt_max as its next step (every
integrator diverged), HDF5 of a double run stored float32 and loaded as single, and euler's
adaptive step, which plans each step from its evaluation and the step before's, restarted without
that earlier evaluation."""
import itertools

import numpy as np
import pytest

import orrery
from conftest import HAVE_HDF5


CASES = [c for c in itertools.product(["cpu", "cpu-omp", "cpu-bh"], ["single", "double"],
                                      [0.001, "auto"], ["euler", "leapfrog", "yoshida4"],
                                      [".orrery", ".hdf5"])
         if not (c[0] == "cpu-bh" and c[1] == "double")]  # a tree code has no double path


@pytest.mark.parametrize("solver,precision,dt,integrator,ext", CASES)
def test_a_restart_continues_the_run_bit_for_bit(tmp_path, solver, precision,
                                                 dt, integrator, ext):
    if ext == ".hdf5" and not HAVE_HDF5:
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


def test_hdf5_memory_that_is_missing_or_damaged_is_refused(tmp_path):
    if not HAVE_HDF5:
        pytest.skip("this build has no HDF5")
    h5py = pytest.importorskip("h5py")
    s = orrery.Simulation(n=50, preset="plummer", seed=1, solver="cpu", integrator="euler",
                          dt="auto")
    s.step(3)
    s.save(tmp_path / "run.hdf5")
    with h5py.File(tmp_path / "run.hdf5", "r") as f:
        assert f["PartType1/OrreryLastAccelerations"].shape == (50, 4)
        assert "last_eval_time" in f["Orrery"].attrs
    with h5py.File(tmp_path / "run.hdf5", "r+") as f:
        f["PartType1/OrreryLastAccelerations"][7, 1] = np.nan
    with pytest.raises(ValueError, match="OrreryLastAccelerations: row 7 is not finite"):
        orrery.load(tmp_path / "run.hdf5")
    with h5py.File(tmp_path / "run.hdf5", "r+") as f:
        del f["PartType1/OrreryLastAccelerations"]
    with pytest.raises(ValueError, match="OrreryLastAccelerations: missing"):
        orrery.load(tmp_path / "run.hdf5")


def test_edited_positions_do_not_keep_the_memory(tmp_path):
    """Forces kept from before an edit are of other positions: a save after the edit keeps no
    memory (version 3), one after the next step does (version 4)."""
    a = orrery.Simulation(n=80, preset="plummer", seed=3, solver="cpu", integrator="euler",
                          dt="auto")
    a.step(4)
    a.save(tmp_path / "before.orrery")
    assert (tmp_path / "before.orrery").read_bytes()[8] == 4
    pos = a.positions.copy()  # read-only: a copy to edit
    pos[0, 0] += 0.5
    a.positions = pos
    a.save(tmp_path / "edited.orrery")
    assert (tmp_path / "edited.orrery").read_bytes()[8] == 3
    a.step(1)
    a.save(tmp_path / "after.orrery")
    assert (tmp_path / "after.orrery").read_bytes()[8] == 4


@pytest.mark.parametrize("ext", [".orrery", ".hdf5"])
def test_a_double_run_keeps_dt_in_double(tmp_path, ext):
    """Issue 42: ten steps of 0.1 reached 1.0000000149 in a double run (dt was a float). A double
    run steps by dt as given; a single run by its float rounding, and its clock says so."""
    if ext == ".hdf5" and not HAVE_HDF5:
        pytest.skip("this build has no HDF5")
    d = orrery.Simulation(n=20, preset="plummer", seed=1, solver="cpu", precision="double",
                          dt=0.1)
    assert d.dt == 0.1
    d.step(10)
    assert d.time == 1.0
    s = orrery.Simulation(n=20, preset="plummer", seed=1, solver="cpu", dt=0.1)
    assert s.dt == 0.1
    s.step(10)
    assert s.time == 10 * float(np.float32(0.1))
    d.save(tmp_path / ("run" + ext))
    back = orrery.load(tmp_path / ("run" + ext))
    assert back.dt == 0.1 and back.precision == "double"
    back.step(10)
    assert back.time == 2.0
    if ext == ".orrery":
        raw = (tmp_path / "run.orrery").read_bytes()
        assert raw[8] == 4 and raw[20] & 64  # version 4, the exact dt's flag
