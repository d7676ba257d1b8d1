"""Python that behaves as REBOUND's and pynbody's users expect (issue 46): len(sim), copies and
pickles that are exact (through the snapshot encoding) and independent, and read-only arrays whose
writes raise instead of being lost."""
import copy
import pickle

import numpy as np
import pytest

import orrery


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
