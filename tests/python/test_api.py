"""The Python module's API: arrays in and out, settings and their checks, files, Ctrl-C, the GIL,
the viewer (render, show) and the module's listings."""
import os
import re
import subprocess
import signal
import struct
import threading
import time

import numpy as np
import pytest

import orrery
from conftest import HAVE_HDF5, needs_display


def small(**settings):
    settings.setdefault("solver", "cpu")
    return orrery.Simulation(n=100, preset="plummer", **settings)


def test_arrays_round_trip_and_are_read_only_copies():
    sim = small()
    rng = np.random.default_rng(1)
    for name, shape in [("positions", (100, 3)), ("velocities", (100, 3)), ("masses", (100,)),
                        ("radii", (100,))]:
        a = rng.random(shape).astype(np.float32)
        setattr(sim, name, a)
        got = getattr(sim, name)
        assert got.dtype == np.float32 and got.shape == shape
        assert np.array_equal(got, a)
        with pytest.raises(ValueError, match="read-only"):  # a copy: a write would be lost
            got[:] = 5
        assert np.array_equal(getattr(sim, name), a)
    sim.masses = 0.25  # one number for all
    assert np.all(sim.masses == 0.25)
    sim.positions = np.zeros((100, 3), dtype=np.float64)  # other real dtypes are converted
    assert np.all(sim.positions == 0)


def test_setting_arrays_keeps_the_clock():
    sim = small(dt=0.01)
    sim.step(5)
    sim.velocities = sim.velocities * 0.5
    assert sim.steps == 5 and sim.time == pytest.approx(0.05)


@pytest.mark.parametrize("pos,vel,mass,error,match", [
    (np.zeros((4, 2)), np.zeros((4, 3)), np.ones(4), ValueError, r"pos: shape \(4, 2\)"),
    (np.zeros((4, 3)), np.zeros((5, 3)), np.ones(4), ValueError, r"vel: shape \(5, 3\)"),
    (np.zeros((4, 3)), np.zeros((4, 3)), np.ones(3), ValueError, r"mass: shape \(3,\)"),
    (np.zeros((0, 3)), np.zeros((0, 3)), np.ones(0), ValueError, "N >= 1"),
    (np.array([[0, 0, np.nan]] * 4), np.zeros((4, 3)), np.ones(4), ValueError, "not finite"),
    (np.full((4, 3), 1e39), np.zeros((4, 3)), np.ones(4), ValueError, "not finite"),
    (np.zeros((4, 3)), np.zeros((4, 3)), [1, 1, -1, 1], ValueError, "element 2 is negative"),
    (np.zeros((4, 3), dtype=complex), np.zeros((4, 3)), np.ones(4), TypeError, "complex128"),
    (np.array([["a"] * 3] * 4), np.zeros((4, 3)), np.ones(4), TypeError, "not a real number"),
    ("text", np.zeros((4, 3)), np.ones(4), TypeError, "not a real number"),
])
def test_from_arrays_refuses_bad_arrays(pos, vel, mass, error, match):
    with pytest.raises(error, match=match):
        orrery.Simulation.from_arrays(pos, vel, mass)


def test_setters_refuse_bad_arrays():
    sim = small()
    with pytest.raises(ValueError, match=r"shape \(99, 3\), expected \(100, 3\)"):
        sim.positions = np.zeros((99, 3))
    with pytest.raises(ValueError, match="negative"):
        sim.masses = -np.ones(100)
    with pytest.raises(ValueError, match="not finite"):
        sim.velocities = np.full((100, 3), np.inf)
    sim.box = 50
    with pytest.raises(ValueError, match="smaller than the bodies"):
        sim.radii = np.full(100, 30.0)


@pytest.mark.parametrize("settings,match", [
    (dict(dt=0), "dt=0: invalid time step"),
    (dict(dt=float("nan")), "dt=nan: must be a finite number"),
    (dict(softening=1e-20), "softening"),
    (dict(damping=1.5), "damping"),
    (dict(theta=3), "theta"),
    (dict(integrator="rk4"), "integrator=rk4"),
    (dict(solver="warp"), "solver=warp"),
    (dict(integrator="leapfrog", damping=0.9), "leapfrog takes no damping"),
    (dict(collisions="sometimes"), "collisions=sometimes"),
    (dict(restitution=2), "restitution"),
    (dict(box=0), "box=0"),
    (dict(box=0.01, radius=5), "smaller than the bodies"),
    (dict(radius=-1), "radius"),
    (dict(solver="cpu", block=128), "takes no block size"),
    (dict(solver="cpu", gpus=2), "gpus"),
])
def test_bad_settings_raise_value_error(settings, match):
    settings.setdefault("solver", "cpu")
    with pytest.raises(ValueError, match=match):
        orrery.Simulation(n=50, preset="plummer", **settings)


def test_bad_keyword_types_raise_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        orrery.Simulation(n=10, colour="red")
    with pytest.raises(TypeError, match=r"dt=\[0.1\]: expected a number, got list"):
        orrery.Simulation(n=10, dt=[0.1])
    # A string is a dt's other type: "auto", the adaptive step.
    with pytest.raises(ValueError, match="dt='fast': expected a number > 0 or 'auto'"):
        orrery.Simulation(n=10, dt="fast")
    with pytest.raises(TypeError, match=r"theta=(np\.)?True_?: expected a number, got bool_?$"):
        orrery.Simulation(n=10, theta=np.bool_(True))
    with pytest.raises(ValueError, match="gpus=9223372036854775808: must be 1 to 1024"):
        orrery.Simulation(n=10, gpus=2**63)
    # numpy's scalars are numbers like Python's.
    sim = orrery.Simulation(n=10, solver="cpu", dt=np.float32(0.25), gpus=np.int64(1))
    assert sim.dt == 0.25
    with pytest.raises(ValueError, match="n=0"):
        orrery.Simulation(n=0)
    with pytest.raises(ValueError, match="preset=galaxy"):
        orrery.Simulation(n=10, preset="galaxy")


def test_properties_are_checked_and_keep_the_old_value():
    sim = small(integrator="leapfrog")
    sim.dt = 0.005
    assert sim.dt == pytest.approx(0.005)
    with pytest.raises(ValueError):
        sim.dt = -1
    assert sim.dt == pytest.approx(0.005)
    with pytest.raises(ValueError, match="leapfrog takes no damping"):
        sim.damping = 0.5
    assert sim.damping == 1.0
    sim.integrator = "euler"
    sim.damping = 0.5
    with pytest.raises(ValueError, match="takes no damping"):
        sim.integrator = "yoshida4"
    assert sim.integrator == "euler"
    with pytest.raises(ValueError, match="solver=warp"):
        sim.solver = "warp"
    sim.solver = "cpu-bh"
    sim.theta = 0.7
    assert (sim.solver, sim.theta) == ("cpu-bh", pytest.approx(0.7))
    sim.collisions = "bounce"
    sim.box = 30
    assert sim.box == 30 and sim.collisions == "bounce"
    sim.box = None
    assert sim.box is None
    sim.gravity = False
    assert not sim.gravity and np.all(sim.accelerations() == 0)


def test_save_and_load_continue_bit_for_bit(tmp):
    a = small(integrator="leapfrog", dt=0.003, softening=0.07)
    a.step(7)
    path = tmp / "run.orrery"
    a.save(path.as_posix())
    b = orrery.load(path)
    assert (b.solver, b.integrator, b.steps) == ("cpu", "leapfrog", 7)
    assert b.dt == a.dt and b.softening == a.softening and b.time == a.time
    a.step(5)
    b.step(5)
    assert np.array_equal(a.positions, b.positions)
    assert np.array_equal(a.velocities, b.velocities)
    # Settings given to load() go over the file's.
    c = orrery.load(path, integrator="yoshida4")
    assert c.integrator == "yoshida4"


def test_tipsy_and_csv(tmp):
    a = small()
    a.save((tmp / "x.tipsy").as_posix())
    b = orrery.load(tmp / "x.tipsy")
    assert np.array_equal(a.positions, b.positions) and np.array_equal(a.masses, b.masses)
    a.save((tmp / "x.csv").as_posix())
    table = np.loadtxt(tmp / "x.csv", delimiter=",", skiprows=1)
    assert table.shape == (100, 8)
    assert np.allclose(table[:, :3], a.positions, rtol=1e-6)


def test_a_scene_loads_with_its_settings():
    here = os.path.dirname(os.path.abspath(__file__))
    sim = orrery.load(os.path.join(here, "..", "..", "assets", "scenes", "box.json"),
                      solver="cpu")
    assert sim.collisions == "bounce" and not sim.gravity and sim.box is not None


def test_bad_files(tmp):
    with pytest.raises(FileNotFoundError):
        orrery.load(tmp / "missing.orrery")
    with pytest.raises(IsADirectoryError):
        orrery.load(tmp)
    (tmp / "junk.orrery").write_bytes(b"not a snapshot at all")
    with pytest.raises(ValueError, match="junk.orrery"):
        orrery.load(tmp / "junk.orrery")
    lying = bytearray((tmp / "junk.orrery").read_bytes())
    small().save((tmp / "good.orrery").as_posix())
    data = (tmp / "good.orrery").read_bytes()
    (tmp / "cut.orrery").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated"):
        orrery.load(tmp / "cut.orrery")
    del lying
    with pytest.raises(OSError):
        small().save((tmp / "no" / "such" / "folder.orrery").as_posix())


def test_a_non_finite_state_raises_and_is_not_saved(tmp):
    sim = orrery.Simulation.from_arrays([[0, 0, 0], [1e-30, 0, 0]], None, [1e30, 1e30],
                                        solver="cpu", softening=1e-10, dt=1.0)
    with pytest.raises(RuntimeError, match="non-finite"):
        sim.step(3)
    with pytest.raises(ValueError, match="not finite"):
        sim.save((tmp / "nan.orrery").as_posix())
    assert not (tmp / "nan.orrery").exists()


def test_ctrl_c_interrupts_integrate_between_steps():
    sim = orrery.Simulation(n=2048, preset="plummer", solver="cpu", dt=0.001)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sim.integrate(1e6)
    assert time.monotonic() - t0 < 10
    assert 0 < sim.steps < 1e9
    assert sim.time == pytest.approx(sim.steps * 0.001, rel=1e-6)  # whole steps only
    assert np.all(np.isfinite(sim.positions))
    sim.step(1)  # still usable
    timer.join()


def test_stepping_releases_the_gil():
    sim = orrery.Simulation(n=2048, preset="plummer", solver="cpu", dt=0.001)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 0.5:
        sim.step(20)
    stop.set()
    t.join()
    assert len(ticks) > 20  # the other thread ran all along


def test_phases_and_rate():
    sim = small(solver="cpu-bh")
    sim.step(3)
    phases = sim.phases()
    assert {"walk", "build"} <= set(phases) and all(v >= 0 for v in phases.values())
    assert sim.interactions_per_second > 0


def test_listings():
    names = [s["name"] for s in orrery.solvers()]
    assert {"cpu", "cpu-omp", "cpu-bh"} <= set(names)
    for s in orrery.solvers():
        assert s["available"] == (s["why_not"] is None)
        if s["gpu"]:
            assert s["block_sizes"]
    assert isinstance(orrery.devices(), list)
    assert "plummer" in orrery.presets() and "leapfrog" in orrery.integrators()


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def render_or_skip(sim, path, **options):
    try:
        return sim.render(path, **options)
    except RuntimeError as e:
        if "EGL" in str(e) or "context" in str(e):
            pytest.skip(f"no EGL context here: {e}")
        raise


def test_render_writes_a_png_of_the_state_without_stepping(tmp):
    sim = small()
    path = (tmp / "frame.png").as_posix()
    render_or_skip(sim, path, width=320, height=200, color="density", palette="magma")
    assert os.path.getsize(path) > 1000
    assert png_size(path) == (320, 200)
    assert sim.steps == 0


def test_render_takes_the_camera_rows(tmp):
    """The camera is the view's rows of the parameter table: render() passes them on, and the
    viewer refuses one out of its row's bounds."""
    names = {r["name"] for r in orrery.parameters() if r["owner"] == "view"}
    assert {"camera_distance", "camera_azimuth", "camera_elevation", "fov"} <= names
    sim = small()
    far, near = (tmp / "far.png").as_posix(), (tmp / "near.png").as_posix()
    render_or_skip(sim, far, width=160, height=100)
    render_or_skip(sim, near, width=160, height=100, camera_distance=8, camera_elevation=60, fov=30)
    assert open(far, "rb").read() != open(near, "rb").read()
    with pytest.raises(ValueError, match="--camera-elevation"):
        sim.render((tmp / "x.png").as_posix(), camera_elevation=100)


def test_render_refuses_bad_options(tmp):
    sim = small()
    with pytest.raises(TypeError, match="unexpected view option"):
        sim.render((tmp / "x.png").as_posix(), colour="red")
    with pytest.raises(FileNotFoundError):
        sim.render((tmp / "no" / "x.png").as_posix())
    with pytest.raises(ValueError, match="--color"):
        render_or_skip(sim, (tmp / "x.png").as_posix(), color="sparkle")
    # Issue 42: its own frames= and screenshot= reached the viewer, and a path came back for a
    # picture never written.
    for own in ("frames", "screenshot"):
        with pytest.raises(TypeError, match=f"render: {own}= is show\\(\\)'s"):
            sim.render((tmp / "x.png").as_posix(), **{own: 3})
    assert not (tmp / "x.png").exists()


@needs_display
def test_show_opens_the_viewer_and_brings_the_state_back():
    sim = small(dt=0.01)
    sim.step(2)
    sim.show(frames=5, vsync="off")
    assert sim.steps == 7  # one step a frame
    assert sim.time == pytest.approx(0.07)
    assert sim.solver == "cpu"


def test_a_gadget_file_with_its_types_and_ids():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "assets", "gadget", "galaxy.dat")
    sim = orrery.load(path, solver="cpu")
    assert sim.n == 60000
    assert sim.types.dtype == np.uint8 and set(np.unique(sim.types)) == {1, 2}
    assert sim.ids[0] == 1 and sim.ids[-1] == 60000
    disk = orrery.load(path, types=[2], solver="cpu")
    assert disk.n == 20000 and np.all(disk.types == 2)
    # G = 1 in the file's units: the velocities as written, sqrt(43007.1) times the default's.
    raw = orrery.load(path, gadget_g=1.0, solver="cpu")
    assert np.allclose(raw.velocities, sim.velocities * np.sqrt(43007.1), rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError, match="gadget_g=0"):
        orrery.load(path, gadget_g=0.0)
    with pytest.raises(ValueError, match="no particle of those types"):
        orrery.load(path, types=[4])
    # A preset's bodies (issue 46): numbered, and collisionless (GADGET's type 1).
    assert np.all(small().types == 1) and np.array_equal(small().ids, np.arange(100))


def test_every_parameter_row_is_a_keyword_and_a_checked_property():
    """The engine's parameter table drives the keywords and properties: a row is all it takes."""
    rows = orrery.parameters()
    assert {"dt", "eta", "softening", "damping", "theta", "restitution"} <= {r["name"] for r in rows}
    for row in rows:
        if not row["keyword"]:
            continue
        name = row["name"]
        assert row["min"] < row["default"] <= row["max"] or (
            not row["min_excluded"] and row["min"] <= row["default"] <= row["max"])
        inside = 0.5 * (max(row["min"], 0.0) + min(row["max"], 2.0 * max(row["default"], 1.0)))
        sim = small(**{name: inside})
        assert getattr(sim, name) == pytest.approx(inside, rel=1e-6)
        setattr(sim, name, row["default"])
        assert getattr(sim, name) == pytest.approx(row["default"], rel=1e-6)
        below = row["min"] - 1.0
        with pytest.raises(ValueError, match=f"^{name}="):
            setattr(sim, name, below)
        assert getattr(sim, name) == pytest.approx(row["default"], rel=1e-6)  # kept
        with pytest.raises(ValueError, match=f"^{name}="):
            small(**{name: below})
        assert row["help"][1:] in type(sim).__dict__[name].__doc__  # capitalised there


def test_the_stubs_are_written_from_the_parameter_table():
    """scripts/gen_stubs.py writes _orrery.pyi's keyword and property lines from the table: the
    committed stubs are what it writes, and a new row would get its two lines."""
    import importlib.util
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    spec = importlib.util.spec_from_file_location("gen_stubs",
                                                  os.path.join(root, "scripts", "gen_stubs.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    stubs = open(gen.STUBS).read()
    rows = orrery.parameters()
    assert gen.stubs_from(stubs, rows) == stubs, "run scripts/gen_stubs.py"
    for row in rows:
        if row["keyword"]:
            assert f"    {row['name']}: float" in stubs, row["name"]  # the property
            assert f"{row['name']}: Optional[float] = None" in stubs, row["name"]  # the keyword
    grown = gen.stubs_from(stubs, rows + [dict(name="zeta", keyword=True)])
    assert "    zeta: float\n" in grown and "zeta: Optional[float] = None," in grown


def test_save_takes_the_format_its_name_asks_for_and_refuses_others(tmp_path):
    sim = small()
    sim.save(tmp_path / "s.csv")
    assert (tmp_path / "s.csv").read_text().startswith("x,y,z,vx,vy,vz,mass,radius\n")
    sim.save(tmp_path / "s.orrery")
    assert orrery.load(tmp_path / "s.orrery").n == sim.n
    with pytest.raises(ValueError, match=r"'\.out'.*\.orrery"):
        sim.save(tmp_path / "s.out")
    assert not (tmp_path / "s.out").exists()


def test_render_is_clean_unless_a_hud_is_asked_for(tmp):
    """render() draws the bodies alone by default; hud="minimal" adds the time, a scale bar and
    the colour bar (in physical units for a state that has them); a bad word is a ValueError."""
    sim = orrery.Simulation(2000, "plummer", seed=2, solver="cpu", units="1 pc, 1 Msun")
    with pytest.raises(ValueError, match="--hud"):
        sim.render((tmp / "x.png").as_posix(), hud="bogus")
    clean, hud = (tmp / "clean.png").as_posix(), (tmp / "hud.png").as_posix()
    render_or_skip(sim, clean, width=640, height=360)
    render_or_skip(sim, hud, width=640, height=360, hud="minimal")
    with open(clean, "rb") as a, open(hud, "rb") as b:
        assert a.read() != b.read()


def test_a_notebook_shows_the_state_inline():
    sim = small()
    png = sim._repr_png_()
    if png is None:
        pytest.skip("no EGL context here: _repr_png_ gives None, and the notebook the text form")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    assert struct.unpack(">II", png[16:24]) == (640, 360)
    assert sim.steps == 0


def test_one_version_everywhere(tmp):
    """orrery.__version__ (PEP 440), the viewer's --version and the files say one version."""
    assert orrery.__version__.split("+")[0] == orrery.version_description.split(" ")[0]
    assert re.fullmatch(r"\d+\.\d+\.\d+(\+[A-Za-z0-9.]+)?", orrery.__version__)
    out = subprocess.run([orrery.viewer_path(), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == f"orrery {orrery.version_description}\n"
    if HAVE_HDF5:
        small().save(tmp / "v.hdf5")
        import h5py
        with h5py.File(tmp / "v.hdf5") as f:
            assert f["Orrery"].attrs["version"].decode() == orrery.version_description


def test_a_long_integrate_reports_its_progress():
    """progress=callable is called about every second between runs of steps, with the time, the
    target and the steps; its exception ends the call with the state of the last whole step."""
    sim = orrery.Simulation(20000, "plummer", solver="cpu-omp")
    seen = []

    class Enough(Exception):
        pass

    def tell(time, target, steps):
        seen.append((time, target, steps))
        raise Enough

    with pytest.raises(Enough):
        sim.integrate(1e6, progress=tell)
    (time, target, steps), = seen
    assert target == 1e6 and 0 < time < 1e6 and steps == sim.steps > 0
    assert sim.time == pytest.approx(steps * sim.dt, rel=1e-6)
    with pytest.raises(TypeError, match="progress"):
        sim.integrate(sim.time + 1, progress="yes")
    sim.integrate(sim.time + 0.1, progress=False)
