"""Type stubs of the orrery package."""
from os import PathLike
from typing import Any, Optional, Sequence, Union

from ._orrery import Simulation as Simulation
from ._orrery import devices as devices
from ._orrery import integrators as integrators
from ._orrery import parameters as parameters
from ._orrery import presets as presets
from ._orrery import solvers as solvers
from ._series import Series as Series

__version__: str
version_description: str

def load(path: Union[str, PathLike], types: Optional[Sequence[int]] = None,
         gadget_g: Optional[float] = None, units: Optional[str] = None,
         **settings: Any) -> Simulation: ...
def viewer_path() -> str: ...
