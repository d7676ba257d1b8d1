"""Test particles: massless bodies after the last body with a mass feel the others and pull on
nothing (REBOUND's N_active, here by mass). The solvers sum over the sources alone; these tests
check the physics and the sums on every solver of this build, against numpy."""
import numpy as np
import pytest

import orrery
from conftest import HAVE_GPU

SOLVERS = [s["name"] for s in orrery.solvers() if s["available"]]


def sphere_with_tests(n, active, solver):
    base = orrery.Simulation(n, "plummer", solver="cpu", seed=5)
    m = base.masses.copy()
    m[active:] = 0
    return orrery.Simulation.from_arrays(base.positions, base.velocities, m, solver=solver,
                                         softening=0.05)


def direct(pos, mass, eps):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d.astype(np.float64) ** 2).sum(-1) + eps * eps
    return (mass[None, :, None] * d / r2[..., None] ** 1.5).sum(1)


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_sums_over_the_sources_are_the_whole_sums(solver):
    sim = sphere_with_tests(1501, 211, solver)
    assert sim.n_active == 211 and len(sim) == 1501
    a = sim.accelerations()
    want = direct(sim.positions, sim.masses.astype(np.float64), 0.05)
    err = np.linalg.norm(a - want, axis=1) / (np.linalg.norm(want, axis=1) + 1e-30)
    tree = solver.endswith("-bh")
    assert np.sqrt(np.mean(err ** 2)) < (1e-3 if tree else 1e-5)
    assert np.abs(a[211:]).sum() > 0  # the test particles feel the sphere


@pytest.mark.parametrize("solver", SOLVERS)
def test_test_particles_orbit_a_star_that_stays_still(solver):
    """A unit mass and 64 massless bodies on circular orbits at r = 1..2: after a while the star
    is where it was, to the bit, and every orbit keeps its radius and its specific energy."""
    k = 64
    r = np.linspace(1.0, 2.0, k)
    phase = np.linspace(0, 2 * np.pi, k, endpoint=False)
    pos = np.zeros((k + 1, 3))
    vel = np.zeros((k + 1, 3))
    pos[1:, 0], pos[1:, 1] = r * np.cos(phase), r * np.sin(phase)
    vel[1:, 0], vel[1:, 1] = -np.sin(phase) / np.sqrt(r), np.cos(phase) / np.sqrt(r)
    mass = np.zeros(k + 1)
    mass[0] = 1.0
    sim = orrery.Simulation.from_arrays(pos, vel, mass, solver=solver, integrator="leapfrog",
                                        dt=0.002, softening=1e-4)
    assert sim.n_active == 1
    sim.integrate(3.0)
    p, v = sim.positions.astype(np.float64), sim.velocities.astype(np.float64)
    assert np.all(p[0] == 0) and np.all(v[0] == 0)
    radius = np.linalg.norm(p[1:], axis=1)
    energy = 0.5 * (v[1:] ** 2).sum(1) - 1 / radius
    assert np.max(np.abs(radius / r - 1)) < 1e-3
    assert np.max(np.abs(energy / (-0.5 / r) - 1)) < 1e-3


def test_n_active_follows_the_masses():
    sim = sphere_with_tests(100, 100, "cpu")
    assert sim.n_active == 100
    sim.add(np.ones((5, 3)) * 3, mass=0)
    assert (len(sim), sim.n_active) == (105, 100)
    sim.add(np.ones((1, 3)) * 4, mass=1e-3)  # a source after test particles: all count
    assert (len(sim), sim.n_active) == (106, 106)
    sim.remove(sim.ids[-1])
    assert sim.n_active == 100
    sim.masses = 0.0
    assert sim.n_active == 1
    sim.step()
    assert np.all(sim.accelerations() == 0)


@pytest.mark.skipif(not HAVE_GPU, reason="no GPU")
@pytest.mark.parametrize("solver", ["cuda-fast", "cuda-bh"])
def test_a_gpu_step_with_test_particles_matches_the_cpu(solver):
    cpu = sphere_with_tests(30011, 3001, "cpu-omp" if solver == "cuda-fast" else "cpu-bh")
    gpu = sphere_with_tests(30011, 3001, solver)
    for s in (cpu, gpu):
        s.step(3)
    assert np.allclose(gpu.positions, cpu.positions, atol=2e-4, rtol=0)
