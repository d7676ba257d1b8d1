"""Orrery from Python: gravitational N-body simulations on the GPU and the CPU, numpy in and out.

    import orrery
    sim = orrery.Simulation(n=65536, preset="plummer", solver="cuda-bh", integrator="leapfrog")
    sim.integrate(10.0)
    print(sim.diagnostics()["virial_ratio"], sim.positions[:3])
    sim.render("plummer.png", color="density")

The engine is the one the `orrery` viewer and `orrery-bench` run. Simulation, load, solvers and
devices are compiled (orrery._orrery); show() and render() run this build's viewer on a copy of the
state (docs/python.md).
"""
import json
import os
import warnings
import shutil
import subprocess
import tempfile
import threading

import numpy as np

from . import _orrery
from ._orrery import Simulation, devices, formats, integrators, parameters, presets, solvers
from ._series import Series

# A run over MPI ranks, in a build that found MPI (Debian: libopenmpi-dev).
if hasattr(_orrery, "RankRun"):
    from ._orrery import RankRun

# One version: the CMake project's, with the git checkout's description as a PEP 440 local label
# ("0.1.0+g702cc34.dirty"); version_description as both programs' --version print it.
__version__, version_description = _orrery._version()

_native_init = Simulation.__init__


def _init_once(self, *args, **kwargs):
    # A second __init__ on a live Simulation would replace it silently, or not at all.
    if Simulation._made(self):
        raise RuntimeError("Simulation.__init__: this simulation exists already; make another "
                           "with orrery.Simulation(...)")
    _native_init(self, *args, **kwargs)


_init_once.__doc__ = _native_init.__doc__
Simulation.__init__ = _init_once

__all__ = ["Simulation", "Series", "load", "solvers", "devices", "presets", "integrators", "formats",
           "parameters", "viewer_path"]
if hasattr(_orrery, "RankRun"):
    __all__.append("RankRun")


def _file_name(path, what):
    """A path as str (bytes too, as the os module takes them), refused where the C++ side would
    read it wrong: a NUL ends a C string, so "x\\0y" was the file "x"."""
    path = os.fsdecode(os.fspath(path))
    if "\0" in path:
        raise ValueError(f"{what}: the path {path!r} holds a NUL character")
    return path


def load(path, types=None, gadget_g=None, units=None, **settings):
    """A Simulation from a file: an Orrery snapshot (which brings its solver, integrator, settings,
    time and step count, under the settings given here), a TIPSY or GADGET-2 file (told by their
    content), an HDF5 snapshot (GADGET-4, AREPO, SWIFT; sets of several files from any name or their
    base), or a scene file (.json, as in assets/scenes). For GADGET files, types=[1, 2] keeps those particle types, and gadget_g is G in
    the file's units (default 43007.1, GADGET's kpc, 1e10 solar masses and km/s; 1 for a file in
    G = 1 units, with no physical scale): velocities are divided by sqrt(gadget_g) so the run's G
    is 1. units='1 kpc, 1e10 Msun, 1 km/s' (or 'nbody') gives the units of a file that brings none
    (TIPSY, GADGET-2, HDF5 without a Units group); a file with its own refuses others. sim.units
    and sim.file_info then say what was read; sim.types and sim.ids hold the file's. Raises OSError
    when the file cannot be opened and ValueError when its content is bad."""
    path = _file_name(path, "load")
    if os.path.islink(path) and not os.path.exists(path):
        try:
            os.stat(path)
        except OSError as e:  # a loop of links is not "no such file"
            raise OSError(e.errno, e.strerror, path) from None
    if not any(os.path.exists(path + s) for s in ("", ".0", ".0.hdf5")):
        raise FileNotFoundError(2, "no such file", path)
    if os.path.isdir(path):
        raise IsADirectoryError(21, "is a folder", path)
    if os.path.exists(path) and not os.access(path, os.R_OK):
        raise PermissionError(13, "cannot be read", path)
    sim = _orrery._load(path, types, gadget_g, units, **settings)
    cosmology = sim.units["cosmology"]
    if cosmology["cosmological"]:
        warnings.warn(
            f"{path}: a cosmological snapshot (h = {cosmology['hubble']:g}, Omega0 = "
            f"{cosmology['omega0']:g}, OmegaLambda = {cosmology['omega_lambda']:g}): Orrery "
            "integrates Newtonian gravity in physical coordinates, without expansion or periodic "
            "boundaries", stacklevel=2)
    return sim


def viewer_path():
    """The viewer's executable that show() and render() run: $ORRERY_VIEWER, else this build's."""
    env = os.environ.get("ORRERY_VIEWER")
    if env:
        return env
    try:
        from ._build import VIEWER
    except ImportError:
        VIEWER = ""
    if VIEWER and os.path.exists(VIEWER):
        return VIEWER
    found = shutil.which("orrery")
    if found:
        return found
    raise RuntimeError("the orrery viewer was not built (it needs GLFW and OpenGL); "
                       "set ORRERY_VIEWER to its path")


_FLAGS = {"width", "height", "color", "palette", "color_scale", "color_range", "trails",
          "trail_bodies", "point_radius", "hide_panel", "steps_per_frame", "frames", "vsync",
          "draw", "record", "record_fps", "keys", "screenshot", "hud", "mode", "bloom", "frame",
          "follow",
          "keep_frame", "camera_path"}
# The camera: the view's rows of the parameter table (camera_distance, fov, ...).
_VIEW_ROWS = [row["name"] for row in _orrery.parameters() if row["owner"] == "view"]
_FLAGS |= set(_VIEW_ROWS)
# camera={...}: its keys, and the flags they stand for.
_CAMERA_KEYS = {"distance": "camera_distance", "azimuth": "camera_azimuth",
                "elevation": "camera_elevation", "roll": "camera_roll", "fov": "fov",
                "orbit": "orbit", "frame": "frame", "follow": "follow",
                "keep_frame": "keep_frame", "path": "camera_path"}


def _camera_options(camera):
    """The flags of camera={...}: distance, azimuth, elevation, roll, fov (degrees), centre
    (x, y, z), orbit (degrees a second), frame, follow, keep_frame and path."""
    if not isinstance(camera, dict):
        raise ValueError(f"camera: must be a dict (keys: {', '.join(sorted(_CAMERA_KEYS))}, "
                         f"centre), not {type(camera).__name__}")
    out = {}
    for key, value in camera.items():
        if key in ("centre", "center"):
            try:
                x, y, z = (float(v) for v in value)
            except (TypeError, ValueError):
                raise ValueError(f"camera: {key} must be three numbers (x, y, z)") from None
            out.update(camera_x=x, camera_y=y, camera_z=z)
        elif key in _CAMERA_KEYS:
            out[_CAMERA_KEYS[key]] = value
        else:
            raise ValueError(f"camera: unknown key '{key}' (keys: "
                             f"{', '.join(sorted(_CAMERA_KEYS))}, centre)")
    return out


def _path_file(path, folder):
    """camera_path=: a JSON file's path as given, or keyframes ({"keys": [...]} or a list of keys)
    written to a file in folder."""
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    if isinstance(path, (list, tuple)):
        path = {"keys": list(path)}
    if not isinstance(path, dict):
        raise ValueError("camera_path: must be a JSON file's path, a dict with \"keys\" or a list "
                         "of keyframes")
    name = os.path.join(folder, "camera_path.json")
    try:
        text = json.dumps(path, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"camera_path: {e}") from None
    with open(name, "w") as f:
        f.write(text)
    return name


def _view_args(options, folder):
    """Viewer flags from keyword arguments: color="density" -> --color density; True -> the flag.
    camera={...} gives the camera's flags (those typed alone too: ValueError); a camera path given
    as keyframes is written in folder."""
    options = dict(options)
    if "camera" in options:
        camera = _camera_options(options.pop("camera"))
        for key in camera:
            if key in options:
                raise ValueError(f"camera: {key} is given twice (in camera= and as {key}=)")
        options.update(camera)
    if options.get("camera_path") is not None:
        options["camera_path"] = _path_file(options["camera_path"], folder)
    args = []
    for key, value in options.items():
        if key not in _FLAGS:
            raise TypeError(f"unexpected view option '{key}' (options: {', '.join(sorted(_FLAGS))})")
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif key == "color_range":
            lo, hi = value
            args += [flag, f"{float(lo)!r},{float(hi)!r}"]
        else:
            args += [flag, str(value)]
    return args


def _run_viewer(args, what):
    proc = subprocess.run([viewer_path()] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        reason = lines[-1] if lines else f"exit status {proc.returncode}"
        if proc.returncode == 2 and ("--screenshot" in reason or "--record" in reason):
            raise OSError(f"{what}: {reason}")
        if proc.returncode == 2:
            raise ValueError(f"{what}: {reason}")
        raise RuntimeError(f"{what}: {reason}")
    return proc


def _show(self, **view_options):
    """Opens the viewer on this state (the same window, keys and panel as the `orrery` program)
    and returns when the window is closed, with the state (and the solver, integrator and settings
    chosen in the panel) as the viewer left it. view_options are the viewer's flags without the
    dashes: width, height, color, palette, color_scale, color_range=(lo, hi), trails,
    trail_bodies, point_radius, hide_panel, hud, steps_per_frame, frames, vsync, draw, record,
    record_fps, keys, screenshot, and the camera: its rows camera_distance, camera_azimuth,
    camera_elevation, camera_roll, fov (degrees), camera_x, camera_y, camera_z (the point looked
    at) and orbit (degrees a second); frame ("all", "mass:0.9", "bodies:0.95", "none"), follow
    ("com", "body:5"), keep_frame=True and camera_path (a JSON file, or the keyframes as a dict or
    a list: [{"t": 0, "camera_distance": 80}, {"t": 4, "camera_azimuth": 90}]). camera={...}
    gives them together: distance, azimuth, elevation, roll, fov, centre=(x, y, z), orbit, frame,
    follow, keep_frame, path. Needs a display (DISPLAY or WAYLAND_DISPLAY)."""
    with tempfile.TemporaryDirectory(prefix="orrery-show-") as tmp:
        start, end = os.path.join(tmp, "start.orrery"), os.path.join(tmp, "end.orrery")
        self._snapshot_to(start)
        _run_viewer(["--load", start, "--save", end] + _view_args(view_options, tmp), "show")
        self._restore_from(end)


def _render(self, path, width=1280, height=720, **view_options):
    """Draws this state as one PNG frame, headless (EGL, as `orrery --headless`), without stepping
    it: for notebooks and papers. view_options as for show() (color="density", palette="magma",
    point_radius=0.1, hud="minimal", ...) but frames, screenshot, record and paused, which
    render() sets itself (TypeError). hud: "none" (default: the bodies alone), "minimal" (the
    time, a scale bar and the colour bar, in physical units where sim.units has them) or "full"
    (the panel). camera={"azimuth": 30, "elevation": 20, "roll": 10, "centre": (0, 0, 0),
    "frame": "mass:0.9"} sets the view (see show()). mode="density" draws the bodies' smoothed
    surface density (a kernel as wide as the distance to each body's 32nd neighbour, log scale,
    magma unless palette= is given) instead of the bodies. Raises
    ValueError for a bad option, OSError when path cannot be written (a full disk too),
    RuntimeError when no EGL context can be made."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(2, "no such folder", folder)
    for own in ("frames", "screenshot", "record", "paused"):  # render() sets these itself
        if own in view_options:
            raise TypeError(f"render: {own}= is show()'s; render() draws one picture to path")
    view_options.setdefault("hud", "none")
    with tempfile.TemporaryDirectory(prefix="orrery-render-") as tmp:
        start = os.path.join(tmp, "start.orrery")
        self._snapshot_to(start)
        # Paused, so no frame steps; three frames, so a colour made off the UI thread (CPU
        # solvers) has arrived by the last one, whose picture is kept.
        args = ["--headless", "--paused", "--frames", "3", "--load", start, "--width", str(width),
                "--height", str(height), "--screenshot", path] + _view_args(view_options, tmp)
        try:
            _run_viewer(args, "render")
        except RuntimeError as e:
            if "EGL" in str(e) or "context" in str(e):
                raise
            raise OSError(f"render: {path}: {e}") from e  # the picture is what failed
    if not os.path.isfile(path):  # a path returned is a picture written
        raise OSError(f"render: the viewer wrote no picture at {path}")
    return path


def _repr_png_(self):
    """The state as a notebook shows it inline: a 640x360 render with the minimal HUD (time,
    scale bar, colour bar). None where no picture can be made (no EGL context): the notebook
    then shows the text form."""
    with tempfile.TemporaryDirectory(prefix="orrery-repr-") as tmp:
        path = os.path.join(tmp, "state.png")
        try:
            _render(self, path, width=640, height=360, hud="minimal")
        except (RuntimeError, OSError):
            return None
        with open(path, "rb") as f:
            return f.read()


Simulation.show = _show
Simulation.render = _render
Simulation._repr_png_ = _repr_png_


_native_save = Simulation.save


def _save(self, path):
    path = _file_name(path, "save")
    if os.path.isdir(path):  # was "Device or resource busy" (the rename over a folder)
        raise IsADirectoryError(21, "is a folder", path)
    return _native_save(self, path)


_save.__doc__ = _native_save.__doc__
Simulation.save = _save


# The state's arrays are copies; a write into one would be lost, so they come read-only and a
# write raises (numpy's "assignment destination is read-only"). Assign a whole array to change
# the state: sim.positions = p (REBOUND's particles and pynbody's arrays are views instead:
# docs/python.md says why not here).
def _read_only(getter):
    def get(self):
        a = getter(self)
        if a is not None:
            a.flags.writeable = False
        return a
    get.__doc__ = getter.__doc__
    return get


for _name in ("positions", "velocities", "masses", "radii", "types", "ids"):
    _prop = getattr(Simulation, _name)
    setattr(Simulation, _name, property(_read_only(_prop.fget), _prop.fset, None, _prop.__doc__))
del _name, _prop


def _len(self):
    """The number of bodies (sim.n)."""
    return self.n


def _state_bytes(sim):
    """The state as Orrery's snapshot encoding, which restarts bit for bit."""
    with tempfile.TemporaryDirectory(prefix="orrery-copy-") as tmp:
        path = os.path.join(tmp, "state.orrery")
        sim._snapshot_to(path)
        with open(path, "rb") as f:
            return f.read()


def _from_state(version, data):
    """A Simulation from _state_bytes() of this version of Orrery (pickle's constructor)."""
    if version != __version__:
        raise ValueError(f"this pickle holds a Simulation of Orrery {version}, not {__version__}: "
                         "save() and load() carry a state between versions")
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError("this pickle holds no Orrery state")
    with tempfile.TemporaryDirectory(prefix="orrery-copy-") as tmp:
        path = os.path.join(tmp, "state.orrery")
        with open(path, "wb") as f:
            f.write(data)
        return load(path)


def _copy(self):
    """An independent Simulation in the same state, bit for bit: bodies, time, step count,
    solver, integrator and settings (through Orrery's snapshot encoding, as pickling)."""
    return _from_state(__version__, _state_bytes(self))


def _reduce(self):
    return (_from_state, (__version__, _state_bytes(self)))


Simulation.__len__ = _len
Simulation.copy = _copy
Simulation.__copy__ = _copy
Simulation.__deepcopy__ = lambda self, memo: _copy(self)
Simulation.__reduce__ = _reduce


# IDs: every body has one (a file's, else numbered 0 to N-1), kept through merges and saved in
# the formats that hold them (Orrery's, HDF5); add() and remove() change the bodies by them.
_native_from_arrays = Simulation.from_arrays


def _id_array(ids, what):
    a = np.atleast_1d(np.asarray(ids))
    if a.ndim == 1 and a.dtype == object and all(isinstance(x, int) for x in a):
        wide = [x for x in a if x < 0 or x >= 2**64]  # beyond every integer dtype of numpy
        if wide:
            raise ValueError(f"{what}: ID {wide[0]} is not in [0, 2^64 - 1]")
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise TypeError(f"{what}: IDs must be whole numbers (a sequence or one)")
    if a.dtype.kind == "i" and (a < 0).any():
        raise ValueError(f"{what}: ID {int(a[a < 0][0])} is negative")
    a = a.astype(np.uint64)
    values, counts = np.unique(a, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"{what}: ID {int(values[counts > 1][0])} is given twice")
    return a


def _from_arrays(pos, vel, mass, radius=None, ids=None, **settings):
    sim = _native_from_arrays(pos, vel, mass, radius, **settings)
    if ids is not None:
        ids = _id_array(ids, "from_arrays: ids")
        sim._replace_bodies(sim.positions, sim.velocities, sim.masses, sim.radii,
                            np.ones(sim.n, np.uint8), ids, "from_arrays")
    return sim


_from_arrays.__doc__ = (_native_from_arrays.__doc__ or "") + (
    " ids: the bodies' IDs, N distinct whole numbers (default 0 to N-1).")
Simulation.from_arrays = staticmethod(_from_arrays)


def _add(self, pos, vel=None, mass=None, radius=None, ids=None):
    """Adds bodies to the run, keeping its time, step count and settings: pos of shape (k, 3) (or
    (3,) for one), vel likewise (None: at rest), mass (k,) or one number (required), radius
    likewise (default 0), ids: k new distinct IDs (default: after the largest there). The next
    step recomputes the forces. Raises ValueError for a shape, a value that is not finite, a
    negative mass or radius, or an ID that is taken or given twice, and TypeError for a dtype that
    is not a real number; the state is unchanged then. Returns the new bodies' IDs."""
    if mass is None:
        raise TypeError("add: mass= is required (an array of k or one number)")
    p = np.asarray(pos)
    if p.ndim == 1:
        p = p[None, :]
    if p.ndim != 2 or p.shape[1] != 3 or p.shape[0] < 1:
        raise ValueError(f"add: pos must have shape (k, 3) or (3,), not {np.shape(pos)}")
    k = p.shape[0]
    v = np.zeros((k, 3)) if vel is None else np.asarray(vel)
    if v.ndim == 1 and k == 1:
        v = v[None, :]
    m = np.asarray(mass)
    m = np.full(k, m) if m.ndim == 0 else m
    r = np.zeros(k) if radius is None else np.asarray(radius)
    r = np.full(k, r) if r.ndim == 0 else r
    for name, a, shape in (("vel", v, (k, 3)), ("mass", m, (k,)), ("radius", r, (k,))):
        if a.shape != shape:
            raise ValueError(f"add: {name} must have shape {shape} for {k} bodies, not {a.shape}")
    types, have = self.types, self.ids
    if ids is None:
        start = int(have.max()) + 1 if have.size else 0
        new = np.arange(start, start + k, dtype=np.uint64)
    else:
        new = _id_array(ids, "add: ids")
        if new.size != k:
            raise ValueError(f"add: {new.size} IDs for {k} bodies")
    taken = np.intersect1d(new, have)
    if taken.size:
        raise ValueError(f"add: ID {int(taken[0])} is taken")
    self._replace_bodies(np.concatenate([self.positions, p]), np.concatenate([self.velocities, v]),
                         np.concatenate([self.masses, m]), np.concatenate([self.radii, r]),
                         np.concatenate([types, np.ones(k, np.uint8)]),
                         np.concatenate([have, new]), "add")
    return new


def _remove(self, ids):
    """Removes the bodies with these IDs (one or a sequence), keeping the run's time, step count
    and settings. Raises ValueError for an ID no body has, one given twice, or removing every
    body; the state is unchanged then."""
    gone = _id_array(ids, "remove")
    types, have = self.types, self.ids
    unknown = np.setdiff1d(gone, have)
    if unknown.size:
        raise ValueError(f"remove: no body has ID {int(unknown[0])}"
                         + (f" (nor {unknown.size - 1} more)" if unknown.size > 1 else ""))
    keep = ~np.isin(have, gone)
    if not keep.any():
        raise ValueError("remove: a simulation needs at least one body")
    self._replace_bodies(self.positions[keep], self.velocities[keep], self.masses[keep],
                         self.radii[keep], types[keep], have[keep], "remove")


def _n_active(self):
    """Bodies [0, n_active) hold every body with a mass; the rest are test particles: massless,
    they feel the others and pull on nothing, and the solvers sum over the first n_active alone
    (the all-pairs solvers then cost N x n_active interactions a pass; the tree codes leave test
    particles out of the tree when they are at least half the bodies). Put test particles last:
    add(..., mass=0) appends them. A massless body before a massive one is a source of nothing
    all the same, but it counts in n_active."""
    massive = np.flatnonzero(self.masses)
    return int(massive[-1]) + 1 if massive.size else min(1, self.n)


Simulation.add = _add
Simulation.remove = _remove
Simulation.n_active = property(_n_active)

# A thread in integrate() would keep the interpreter from exiting (after Ctrl-C in the main
# thread, too): threading runs these before it joins the threads.
if hasattr(threading, "_register_atexit"):
    threading._register_atexit(_orrery._stop_runs)
