"""Python that behaves as REBOUND's and pynbody's users expect (issue 46): len(sim), copies and
pickles that are exact (through the snapshot encoding) and independent, and read-only arrays whose
writes raise instead of being lost."""
import copy
import pickle

import numpy as np
import pytest

import orrery
from conftest import HAVE_HDF5


def small(**settings):
    settings.setdefault("solver", "cpu")
    return orrery.Simulation(n=200, preset="plummer", integrator="leapfrog", dt=0.01, **settings)


def test_len_is_the_bodies():
    assert len(small()) == 200
    assert len(orrery.Simulation.from_arrays(np.zeros((3, 3)), None, 1.0, solver="cpu")) == 3


@pytest.mark.parametrize("make", [
    lambda s: s.copy(),
    lambda s: copy.copy(s),
    lambda s: copy.deepcopy(s),
    lambda s: pickle.loads(pickle.dumps(s)),
])
def test_a_copy_is_exact_and_independent(make):
    sim = small(softening=0.05)
    sim.step(7)
    twin = make(sim)
    assert twin is not sim
    assert (twin.n, twin.steps, twin.time, twin.solver, twin.integrator) == \
        (sim.n, sim.steps, sim.time, sim.solver, sim.integrator)
    assert twin.softening == sim.softening and twin.dt == sim.dt
    for name in ("positions", "velocities", "masses", "radii"):
        assert np.array_equal(getattr(twin, name), getattr(sim, name)), name
    # The same steps from the same state: the same bits.
    sim.step(5)
    twin.step(5)
    assert np.array_equal(twin.positions, sim.positions)
    assert np.array_equal(twin.velocities, sim.velocities)
    # Independent: changing one leaves the other.
    twin.positions = twin.positions + 1.0
    assert not np.array_equal(twin.positions, sim.positions)


def test_a_pickle_of_another_version_is_refused():
    sim = small()
    func, (version, data) = sim.__reduce__()
    with pytest.raises(ValueError, match="Orrery 0.0.1-other, not"):
        func("0.0.1-other", data)
    with pytest.raises(ValueError, match="no Orrery state"):
        func(version, "not bytes")
    with pytest.raises(ValueError):
        func(version, b"garbage, not a snapshot")


def test_arrays_are_read_only_so_no_write_is_lost():
    sim = small()
    before = sim.positions.copy()
    for name in ("positions", "velocities", "masses", "radii"):
        a = getattr(sim, name)
        assert not a.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 100
    assert np.array_equal(sim.positions, before)
    p = sim.positions.copy()  # the way to change the state: a whole array
    p[0] = 100
    sim.positions = p
    assert np.array_equal(sim.positions[0], [100, 100, 100])


def test_every_body_has_an_id():
    sim = small()
    assert sim.ids.dtype == np.uint64 and np.array_equal(sim.ids, np.arange(200))
    assert np.all(sim.types == 1)
    own = orrery.Simulation.from_arrays(np.zeros((3, 3)) + [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
                                        None, 1.0, solver="cpu", ids=[70, 8, 9])
    assert list(own.ids) == [70, 8, 9]
    for bad, kind, match in [([1, 1, 2], ValueError, "ID 1 is given twice"),
                             ([1, -2, 3], ValueError, "ID -2 is negative"),
                             ([1.5, 2, 3], TypeError, "whole numbers"),
                             ([1, 2], ValueError, "shape")]:
        with pytest.raises(kind, match=match):
            orrery.Simulation.from_arrays(np.eye(3), None, 1.0, solver="cpu", ids=bad)


def test_a_file_without_ids_gets_them_numbered(tmp_path):
    small().save(tmp_path / "s.tipsy")  # TIPSY has no place for IDs
    sim = orrery.load(tmp_path / "s.tipsy", solver="cpu")
    assert np.array_equal(sim.ids, np.arange(200)) and np.all(sim.types == 1)
    assert list(sim.add([0, 0, 9], mass=1.0)) == [200]
    sim.remove([3])
    assert len(sim) == 200 and 3 not in sim.ids


def test_ids_follow_their_bodies_through_merges_and_files(tmp_path):
    sim = orrery.Simulation(n=300, preset="plummer", solver="cpu", collisions="merge",
                            radius=0.2, integrator="leapfrog", dt=0.01)
    sim.step(60)
    assert sim.n < 300  # merged
    ids = sim.ids
    assert len(np.unique(ids)) == sim.n and ids.max() < 300
    for ext in (".orrery", ".hdf5") if HAVE_HDF5 else (".orrery",):
        sim.save(tmp_path / f"s{ext}")
        back = orrery.load(tmp_path / f"s{ext}", solver="cpu")
        assert np.array_equal(back.ids, ids), ext


def test_add_and_remove_by_id():
    sim = small()
    sim.step(3)
    t, steps = sim.time, sim.steps
    new = sim.add([[10, 0, 0], [0, 10, 0]], vel=[[0, 1, 0], [1, 0, 0]], mass=[0.01, 0.02])
    assert list(new) == [200, 201]
    assert len(sim) == 202 and (sim.time, sim.steps) == (t, steps)
    assert np.array_equal(sim.positions[-2:], [[10, 0, 0], [0, 10, 0]])
    assert np.allclose(sim.masses[-2:], [0.01, 0.02])
    sim.add([0, 0, 20], mass=0.5, ids=[5000])
    assert sim.ids[-1] == 5000
    before = sim.positions.copy()
    sim.remove([3, 200])
    assert len(sim) == 201 and 3 not in sim.ids and 200 not in sim.ids
    keep = np.ones(203, bool)
    keep[[3, 200]] = False
    assert np.array_equal(sim.positions, before[keep])
    sim.remove(5000)
    sim.step(2)  # the run goes on
    assert sim.steps == steps + 2


@pytest.mark.parametrize("call, kind, match", [
    (lambda s: s.add([1, 2], mass=1.0), ValueError, "pos must have shape"),
    (lambda s: s.add([1, 2, 3]), TypeError, "mass= is required"),
    (lambda s: s.add([[1, 2, 3]], mass=[1, 2]), ValueError, "mass must have shape"),
    (lambda s: s.add([[1, 2, 3]], mass=-1.0), ValueError, "negative"),
    (lambda s: s.add([[np.nan, 2, 3]], mass=1.0), ValueError, "not finite"),
    (lambda s: s.add([[1, 2, 3]], mass=1.0, ids=[5]), ValueError, "ID 5 is taken"),
    (lambda s: s.add([[1, 2, 3], [4, 5, 6]], mass=1.0, ids=[900, 900]), ValueError,
     "given twice"),
    (lambda s: s.add([["a", "b", "c"]], mass=1.0), TypeError, "real number"),
    (lambda s: s.remove([7, 12345]), ValueError, "no body has ID 12345"),
    (lambda s: s.remove([7, 7]), ValueError, "given twice"),
    (lambda s: s.remove(np.arange(200)), ValueError, "at least one body"),
    (lambda s: s.remove("7"), TypeError, "whole numbers"),
])
def test_bad_adds_and_removes_leave_the_state(call, kind, match):
    sim = small()
    sim.step(2)
    before = (sim.positions.copy(), sim.ids.copy(), sim.time, sim.steps)
    with pytest.raises(kind, match=match):
        call(sim)
    assert np.array_equal(sim.positions, before[0]) and np.array_equal(sim.ids, before[1])
    assert (sim.time, sim.steps) == before[2:]


def test_the_default_solver_for_large_n_on_the_cpu_is_the_tree():
    """The viewer's rule: without a GPU, the tree code where it is the faster (from 8,192 bodies);
    all pairs below, in double precision, without gravity, or when a solver is asked for."""
    if any(s["gpu"] and s["available"] for s in orrery.solvers()):
        pytest.skip("a GPU here: the default is its solver")
    assert orrery.Simulation(n=8192).solver == "cpu-bh"
    assert orrery.Simulation(n=8191).solver == "cpu-omp"
    assert orrery.Simulation(n=20000, solver="cpu-omp").solver == "cpu-omp"
    assert orrery.Simulation(n=20000, precision="double").solver == "cpu-omp"
    assert orrery.Simulation(n=20000, preset="box").solver == "cpu-omp"  # no gravity
    big = np.random.default_rng(3).normal(size=(10000, 3))
    assert orrery.Simulation.from_arrays(big, None, 1e-4).solver == "cpu-bh"
