"""Type stubs of orrery's compiled part (orrery._orrery)."""
from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
Triple = Tuple[float, float, float]

cuda_compiled: bool

class Simulation:
    def __init__(self, n: Optional[int] = None, preset: str = "plummer", seed: int = 1, *,
                 solver: Optional[str] = None, block: Optional[int] = None,
                 gpus: Optional[int] = None, integrator: Optional[str] = None,
                 precision: Optional[str] = None,
                 dt: Union[float, str, None] = None, dt_max: Optional[float] = None,
                 eta: Optional[float] = None,
                 # parameter rows (scripts/gen_stubs.py writes these from orrery.parameters())
                 softening: Optional[float] = None,
                 damping: Optional[float] = None,
                 theta: Optional[float] = None,
                 restitution: Optional[float] = None,
                 # end of the parameter rows
                 collisions: Optional[str] = None,
                 radius: Optional[float] = None, box: Optional[float] = None,
                 gravity: Optional[bool] = None) -> None: ...
    @staticmethod
    def from_arrays(pos: ArrayLike, vel: Optional[ArrayLike], mass: Union[ArrayLike, float],
                    radius: Union[ArrayLike, float, None] = None, **settings: Any) -> "Simulation": ...
    def step(self, k: int = 1) -> None: ...
    def integrate(self, t: float, exact: bool = True) -> None: ...
    def save(self, path: Union[str, PathLike]) -> None: ...
    def accelerations(self) -> np.ndarray: ...
    def potentials(self) -> np.ndarray: ...
    def diagnostics(self) -> Dict[str, Any]: ...
    def phases(self) -> Dict[str, float]: ...
    def show(self, **view_options: Any) -> None: ...
    def render(self, path: Union[str, PathLike], width: int = 1280, height: int = 720,
               **view_options: Any) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def interactions_per_second(self) -> float: ...
    @property
    def config(self) -> str: ...
    @property
    def types(self) -> Optional[np.ndarray]: ...
    @property
    def ids(self) -> Optional[np.ndarray]: ...
    @property
    def next_dt(self) -> float: ...
    @property
    def floor_hits(self) -> int: ...
    positions: np.ndarray
    velocities: np.ndarray
    masses: np.ndarray
    radii: np.ndarray
    solver: str
    block: int
    gpus: int
    integrator: str
    precision: str  # "single" or "double" (the arrays then float64)
    dt: Union[float, str]  # a step, or "auto": the adaptive step
    dt_max: Optional[float]  # the adaptive step's largest (None with a fixed dt)
    eta: float
    # parameter rows (scripts/gen_stubs.py writes these from orrery.parameters())
    softening: float
    damping: float
    theta: float
    restitution: float
    # end of the parameter rows
    box: Optional[float]
    gravity: bool
    collisions: str
    time_reversed: bool

def _load(path: str, types: Optional[List[int]] = None, gadget_g: Optional[float] = None,
          **settings: Any) -> Simulation: ...
def solvers() -> List[Dict[str, Any]]: ...
def devices() -> List[Dict[str, Any]]: ...
def presets() -> List[str]: ...
def integrators() -> List[str]: ...
def parameters() -> List[Dict[str, Any]]: ...
