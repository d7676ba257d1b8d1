"""Physics through the Python module: the Kepler orbit, conservation, the solvers' forces against a
numpy direct sum, integrate()'s end time."""
import math

import numpy as np
import pytest

import orrery
from conftest import GPU_SOLVERS, needs_gpu


def kepler(e, **settings):
    """Two bodies of mass 1/2 (G M = 1) on an orbit of semi-major axis 1 and eccentricity e, at
    pericentre, centre of mass at rest at the origin: the period is 2 pi."""
    r = 1.0 - e
    v = math.sqrt((1.0 + e) / (1.0 - e))
    pos = np.array([[-r / 2, 0, 0], [r / 2, 0, 0]])
    vel = np.array([[0, -v / 2, 0], [0, v / 2, 0]])
    return orrery.Simulation.from_arrays(pos, vel, [0.5, 0.5], softening=1e-6, **settings)


def direct_sum(pos, mass, eps):
    d = pos[None, :, :].astype(np.float64) - pos[:, None, :]
    r2 = (d ** 2).sum(-1) + eps * eps
    inv3 = r2 ** -1.5
    acc = (d * (mass[None, :, None] * inv3[:, :, None])).sum(1)
    phi = -(mass[None, :] / np.sqrt(r2)).sum(1) + mass / eps  # without the self term
    return acc, phi


def test_kepler_orbit_returns_after_one_period():
    sim = kepler(0.5, solver="cpu", integrator="yoshida4", dt=2 * math.pi / 4000)
    start = sim.positions.copy()
    sim.integrate(2 * math.pi)
    assert sim.time == pytest.approx(2 * math.pi, abs=1e-9)
    assert np.abs(sim.positions - start).max() < 1e-4


def test_leapfrog_holds_the_energy_of_a_plummer_sphere():
    sim = orrery.Simulation(n=1024, preset="plummer", solver="cpu-omp", integrator="leapfrog",
                            dt=0.002, softening=0.05)
    e0 = sim.diagnostics()["energy"]
    sim.step(500)
    e1 = sim.diagnostics()["energy"]
    assert abs((e1 - e0) / e0) < 1e-3
    # Leapfrog's error is bounded and second order: twice the step, about four times the drift.
    assert sim.steps == 500 and sim.time == pytest.approx(1.0, rel=1e-6)


def test_momentum_is_conserved_to_float_accuracy():
    sim = orrery.Simulation(n=777, preset="collision", solver="cpu", dt=0.01)
    d0 = sim.diagnostics()
    sim.step(20)
    d1 = sim.diagnostics()
    scale = np.sum(sim.masses[:, None] * np.abs(sim.velocities))
    assert np.linalg.norm(np.subtract(d1["momentum"], d0["momentum"])) < 1e-5 * scale


@pytest.mark.parametrize("solver", ["cpu", "cpu-omp", "cpu-bh"])
def test_accelerations_and_potentials_match_a_direct_sum(solver):
    sim = orrery.Simulation(n=1000, preset="plummer", seed=7, solver=solver, softening=0.05,
                            theta=0.0)  # theta 0: the tree opens every cell, the exact sum
    acc, phi = direct_sum(sim.positions, sim.masses.astype(np.float64), 0.05)
    got = sim.accelerations()
    assert got.shape == (1000, 3) and got.dtype == np.float32
    err = np.linalg.norm(got - acc, axis=1) / np.linalg.norm(acc, axis=1)
    assert np.median(err) < 1e-5 and err.max() < 1e-3
    assert np.allclose(sim.potentials(), phi, rtol=1e-4)


def test_diagnostics_match_numpy():
    sim = orrery.Simulation(n=500, preset="disk", solver="cpu", softening=0.1)
    d = sim.diagnostics()
    x, v, m = sim.positions.astype(np.float64), sim.velocities.astype(np.float64), \
        sim.masses.astype(np.float64)
    kinetic = 0.5 * np.sum(m * (v ** 2).sum(1))
    _, phi = direct_sum(sim.positions, m, 0.1)
    potential = 0.5 * np.sum(m * phi)
    assert d["kinetic"] == pytest.approx(kinetic, rel=1e-6)
    assert d["potential"] == pytest.approx(potential, rel=1e-5)
    assert d["energy"] == pytest.approx(kinetic + potential, rel=1e-5)
    assert d["mass"] == pytest.approx(m.sum(), rel=1e-6)
    assert np.allclose(d["momentum"], (m[:, None] * v).sum(0), atol=1e-6)
    assert np.allclose(d["angular_momentum"], (m[:, None] * np.cross(x, v)).sum(0), rtol=1e-5,
                       atol=1e-6)
    assert np.allclose(d["centre_of_mass"], (m[:, None] * x).sum(0) / m.sum(), atol=1e-6)
    assert d["virial_ratio"] == pytest.approx(2 * kinetic / abs(potential), rel=1e-5)
    assert d["bodies"] == 500 and d["steps"] == 0


def test_integrate_ends_at_t_exactly_or_at_the_next_whole_step():
    sim = orrery.Simulation(n=64, preset="plummer", solver="cpu", dt=0.01)
    sim.integrate(0.1234)
    assert sim.steps == 13 and sim.time == pytest.approx(0.1234, abs=1e-9)
    assert sim.dt == pytest.approx(0.01)  # kept after the short step
    sim.integrate(0.2, exact=False)  # 0.0766 to go: 8 whole steps, ending past 0.2
    assert sim.steps == 21 and sim.time == pytest.approx(0.1234 + 0.08, abs=1e-7)
    sim.integrate(sim.time)  # no step
    assert sim.steps == 21
    with pytest.raises(ValueError, match="before the current time"):
        sim.integrate(0.0)


def test_time_reversed_retraces_with_leapfrog():
    sim = orrery.Simulation(n=300, preset="plummer", solver="cpu", integrator="leapfrog",
                            dt=0.005)
    start = sim.positions.copy()
    sim.step(100)
    sim.time_reversed = True
    sim.step(100)
    assert np.abs(sim.positions - start).max() < 1e-4
    assert sim.time == pytest.approx(0.0, abs=1e-9)


def test_merging_lowers_n_and_keeps_mass():
    sim = orrery.Simulation(n=3000, preset="accretion", solver="cpu-omp")
    m0 = sim.masses.sum(dtype=np.float64)
    sim.step(30)
    assert sim.n < 3000
    assert sim.positions.shape == (sim.n, 3)
    assert sim.masses.sum(dtype=np.float64) == pytest.approx(m0, rel=1e-5)


@needs_gpu
@pytest.mark.parametrize("solver", GPU_SOLVERS)
def test_every_gpu_solver_against_cpu(solver):
    # 1,000 bodies: not a multiple of any block size.
    ref = orrery.Simulation(n=1000, preset="plummer", seed=3, solver="cpu", dt=0.001)
    sim = orrery.Simulation(n=1000, preset="plummer", seed=3, solver=solver, dt=0.001,
                            theta=0.3)
    ref.step(3)
    sim.step(3)
    scale = np.abs(ref.positions).max()
    tol = 1e-3 if solver == "cuda-bh" else 1e-5
    assert np.abs(sim.positions - ref.positions).max() / scale < tol
    assert sim.interactions_per_second > 0


@needs_gpu
def test_switching_to_a_gpu_solver_moves_the_state():
    sim = orrery.Simulation(n=1000, preset="plummer", solver="cpu", dt=0.001)
    sim.step(2)
    before = sim.positions
    sim.solver = GPU_SOLVERS[0]
    assert np.array_equal(sim.positions, before)
    sim.step(2)
    assert sim.steps == 4
