"""The adaptive step through the Python module: dt='auto' with dt_max and eta, integrate() landing
on a time, the e = 0.9 orbit against a fixed step of the same cost, and the refusals."""
import math

import numpy as np
import pytest

import orrery
from two_body import kepler


def test_settings_and_properties():
    sim = orrery.Simulation(n=32, preset="plummer", solver="cpu", dt="auto", dt_max=0.05, eta=0.01)
    assert sim.dt == "auto"
    assert sim.dt_max == pytest.approx(0.05)
    assert sim.eta == pytest.approx(0.01)
    assert "dt=auto" in repr(sim)
    sim.step(3)
    assert 0 < sim.next_dt <= 0.05
    assert sim.floor_hits == 0
    sim.dt = 0.01
    assert sim.dt == pytest.approx(0.01)
    assert sim.dt_max is None
    assert sim.next_dt == pytest.approx(0.01)
    sim.dt = "auto"
    assert sim.dt == "auto"


def test_integrate_lands_on_the_time():
    sim = kepler(0.9, solver="cpu", integrator="yoshida4", dt="auto", dt_max=0.5)
    sim.integrate(2 * math.pi)
    assert sim.time == pytest.approx(2 * math.pi, rel=1e-6)
    steps = sim.steps
    sim.integrate(3.0 * math.pi, exact=False)
    assert sim.time >= 3.0 * math.pi
    assert sim.time - 3.0 * math.pi <= 0.5
    assert sim.steps > steps


def test_e09_orbit_keeps_its_energy_where_a_fixed_step_of_the_same_cost_does_not():
    periods = 10
    adaptive = kepler(0.9, solver="cpu", integrator="yoshida4", precision="double", dt="auto",
                      dt_max=0.1, eta=0.004)
    e0 = adaptive.diagnostics()["energy"]
    adaptive.integrate(periods * 2 * math.pi)
    drift = abs(adaptive.diagnostics()["energy"] - e0) / abs(e0)
    fixed = kepler(0.9, solver="cpu", integrator="yoshida4", precision="double",
                   dt=periods * 2 * math.pi / adaptive.steps)
    fixed.integrate(periods * 2 * math.pi)
    fixed_drift = abs(fixed.diagnostics()["energy"] - e0) / abs(e0)
    assert drift < 1e-7
    assert fixed_drift > 10 * drift


def test_refusals():
    with pytest.raises(ValueError, match="eta"):
        orrery.Simulation(n=16, solver="cpu", dt="auto", eta=0)
    with pytest.raises(ValueError, match="eta"):
        orrery.Simulation(n=16, solver="cpu", dt="auto", eta=float("nan"))
    with pytest.raises(ValueError, match="eta"):
        orrery.Simulation(n=16, solver="cpu", dt="auto", eta=-0.1)
    with pytest.raises(ValueError, match="needs dt='auto'"):
        orrery.Simulation(n=16, solver="cpu", eta=0.01)
    with pytest.raises(ValueError, match="needs dt='auto'"):
        orrery.Simulation(n=16, solver="cpu", dt_max=0.1)
    with pytest.raises(ValueError, match="auto"):
        orrery.Simulation(n=16, solver="cpu", dt="soon")
    sim = orrery.Simulation(n=16, solver="cpu", integrator="leapfrog", dt="auto")
    with pytest.raises(ValueError, match="adaptive step"):
        sim.time_reversed = True
    assert not sim.time_reversed
    with pytest.raises(ValueError, match="eta"):
        sim.eta = 0
    fixed = orrery.Simulation(n=16, solver="cpu")
    with pytest.raises(ValueError, match="needs dt='auto'"):
        fixed.eta = 0.01
    fixed.integrator = "leapfrog"
    fixed.time_reversed = True
    with pytest.raises(ValueError, match="adaptive step"):
        fixed.dt = "auto"
    assert fixed.dt == pytest.approx(0.016)


def test_save_and_load_keep_the_adaptive_step(tmp_path):
    sim = orrery.Simulation(n=64, preset="plummer", solver="cpu", integrator="leapfrog",
                            dt="auto", eta=0.03)
    sim.step(5)
    path = tmp_path / "run.orrery"
    sim.save(path)
    back = orrery.load(path)
    assert back.dt == "auto"
    assert back.eta == pytest.approx(0.03)
    assert back.next_dt == sim.next_dt
    sim.step(5)
    back.step(5)
    assert np.array_equal(back.positions, sim.positions)
