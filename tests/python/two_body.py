"""Two-body orbits the Python tests share."""
import math

import numpy as np

import orrery


def kepler(e, **settings):
    """Two bodies of mass 1/2 on an orbit of semi-major axis 1 and eccentricity e, at pericentre."""
    r = 1.0 - e
    v = math.sqrt((1.0 + e) / (1.0 - e))
    pos = np.array([[-r / 2, 0, 0], [r / 2, 0, 0]])
    vel = np.array([[0, -v / 2, 0], [0, v / 2, 0]])
    return orrery.Simulation.from_arrays(pos, vel, [0.5, 0.5], softening=1e-6, **settings)
