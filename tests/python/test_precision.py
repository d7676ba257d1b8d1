"""Double precision through the Python module: float64 arrays that keep what they were given, the
Kepler orbit's energy far below float's, switching, and the refusals."""
import math

import numpy as np
import pytest

import orrery
from two_body import kepler


def test_double_arrays_are_float64_and_keep_their_values():
    pos = np.array([[0.1, 0.2, 0.3], [1.0 + 1e-12, 0.0, 0.0]])
    sim = orrery.Simulation.from_arrays(pos, None, [1.0, 2.0], solver="cpu", precision="double")
    assert sim.precision == "double"
    assert sim.positions.dtype == np.float64
    assert sim.masses.dtype == np.float64
    assert sim.positions[1, 0] == 1.0 + 1e-12  # float32 would give 1.0
    sim.velocities = np.array([[0.0, 1e-13, 0.0], [0.0, 0.0, 0.0]])
    assert sim.velocities[0, 1] == 1e-13
    single = orrery.Simulation.from_arrays(pos, None, [1.0, 2.0], solver="cpu")
    assert single.precision == "single"
    assert single.positions.dtype == np.float32


def test_kepler_energy_is_far_below_floats_in_double():
    drifts = {}
    for precision in ("single", "double"):
        sim = kepler(0.5, solver="cpu", integrator="yoshida4", dt=2 * math.pi / 2000,
                     precision=precision)
        e0 = sim.diagnostics()["energy"]
        sim.step(20 * 2000)
        drifts[precision] = abs(sim.diagnostics()["energy"] - e0) / abs(e0)
    assert drifts["double"] < 1e-10
    assert drifts["single"] > 1e3 * drifts["double"]


def test_switching_precision_mid_run():
    sim = orrery.Simulation(n=64, preset="plummer", solver="cpu", integrator="leapfrog")
    sim.step(2)
    sim.precision = "double"
    sim.step(2)
    assert sim.positions.dtype == np.float64
    assert sim.steps == 4
    sim.precision = "single"
    assert sim.positions.dtype == np.float32


def test_what_cannot_run_in_double_is_refused():
    with pytest.raises(ValueError, match="precision=quad"):
        orrery.Simulation(n=16, solver="cpu", precision="quad")
    with pytest.raises(ValueError, match="cpu-bh has no double-precision path"):
        orrery.Simulation(n=16, solver="cpu-bh", precision="double")
    sim = orrery.Simulation(n=16, solver="cpu", precision="double")
    with pytest.raises(ValueError, match="collisions"):
        sim.collisions = "bounce"
    with pytest.raises(ValueError):
        sim.solver = "cpu-bh"
    assert sim.solver == "cpu"
