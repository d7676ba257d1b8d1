"""Issue 42: values the setters took without a word, and messages that did not name the keyword.
pybind11's own conversions took None, nan, 0.5 and -1 as bools, True as 1.0, numpy.float32(0.5)
as the block size 0 (the default), step(True) as one step, n=True as one body and gpus=0, which
both programs refuse; wrong types raised several lines without the property's name. Each is now
refused in one line naming the keyword and the value, and the value stays as it was."""
import numpy as np
import pytest

import orrery


def small():
    return orrery.Simulation(n=10, preset="random", solver="cpu")


@pytest.mark.parametrize("name,value,error,message", [
    ("gravity", None, TypeError, "gravity=None: expected True or False, got NoneType"),
    ("gravity", float("nan"), TypeError, "gravity=nan: expected True or False, got float"),
    ("gravity", 0.5, TypeError, "gravity=0.5: expected True or False"),
    ("gravity", -1, TypeError, "gravity=-1: expected True or False, got int"),
    ("time_reversed", None, TypeError, "time_reversed=None: expected True or False"),
    ("softening", True, TypeError, "softening=True: expected a number, got bool"),
    ("softening", "x", TypeError, "softening='x': expected a number, got str"),
    ("theta", [0.5], TypeError, r"theta=\[0.5\]: expected a number, got list"),
    # numpy 2's repr of a scalar names its type: "np.float32(0.5)"
    ("block", np.float32(0.5), TypeError,
     r"block=(np\.float32\()?0\.5\)?: expected an integer, got float32"),
    ("block", True, TypeError, "block=True: expected an integer, got bool"),
    ("gpus", 0, ValueError, "gpus=0: must be 1 to 1024"),
    ("dt", True, TypeError, "dt=True: expected a number, got bool"),
    ("dt_max", "big", TypeError, "dt_max='big': expected a number, got str"),
    ("solver", 3, TypeError, "solver=3: expected a string, got int"),
    ("integrator", None, TypeError, "integrator=None: expected a string, got NoneType"),
    ("box", "wide", TypeError, "box='wide': expected a number, got str"),
])
def test_a_setter_refuses_a_wrong_value_in_one_line_and_keeps_the_old(name, value, error,
                                                                      message):
    sim = small()
    before = getattr(sim, name)
    with pytest.raises(error, match=message) as e:
        setattr(sim, name, value)
    assert "\n" not in str(e.value)
    assert getattr(sim, name) == before


def test_numpy_scalars_of_the_right_kind_are_taken():
    sim = small()
    sim.gravity = np.bool_(False)
    assert sim.gravity is False
    sim.softening = np.float32(0.25)
    assert sim.softening == 0.25
    sim.step(np.int64(2))
    assert sim.steps == 2


@pytest.mark.parametrize("call,error,message", [
    (lambda s: s.step(True), TypeError, "k=True: expected an integer, got bool"),
    (lambda s: s.step(2.0), TypeError, "k=2.0: expected an integer, got float"),
    (lambda s: s.step(2**63), ValueError, "k=9223372036854775808: must be 0 to"),
    (lambda s: s.integrate("1"), TypeError, "t='1': expected a number, got str"),
    (lambda s: s.integrate(1.0, exact=None), TypeError, "exact=None: expected True or False"),
])
def test_calls_name_the_argument(call, error, message):
    sim = small()
    with pytest.raises(error, match=message):
        call(sim)
    assert sim.steps == 0


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(n=True), TypeError, "n=True: expected an integer, got bool"),
    (dict(n=2**31), ValueError, "n=2147483648: must be 1 to 2147483647"),
    (dict(n=10, seed=-1), ValueError, r"seed=-1: must be 0 to 2\^64 - 1"),
    (dict(n=10, seed=2**64), ValueError, r"seed=18446744073709551616: must be 0 to 2\^64 - 1"),
    (dict(n=10, preset=3), TypeError, "preset=3: expected a string, got int"),
    (dict(n=10, gpus=0), ValueError, "gpus=0: must be 1 to 1024"),
    (dict(n=10, gravity=1), TypeError, "gravity=1: expected True or False, got int"),
])
def test_the_constructor_names_the_keyword(kwargs, error, message):
    with pytest.raises(error, match=message):
        orrery.Simulation(solver="cpu", **kwargs)


def test_gadget_g_on_a_file_that_keeps_its_own_units_is_refused(tmp_path):
    small().save(tmp_path / "run.orrery")
    with pytest.raises(ValueError, match="gadget_g=5: .*run.orrery is Orrery's format, which brings its own units"):
        orrery.load(tmp_path / "run.orrery", gadget_g=5)
    assert orrery.load(tmp_path / "run.orrery").n == 10


def test_file_names_as_the_os_module_takes_them(tmp_path):
    """Issue 42: a NUL in a name gave OSError: x (the name cut at it), save('.') said "Device or
    resource busy", a loop of links was "no such file", and load() refused the bytes save() took."""
    sim = small()
    with pytest.raises(ValueError, match="save: the path .* holds a NUL character"):
        sim.save(str(tmp_path / "x\0y.orrery"))
    with pytest.raises(ValueError, match="load: the path .* holds a NUL character"):
        orrery.load(str(tmp_path / "x\0y.orrery"))
    with pytest.raises(IsADirectoryError, match="is a folder"):
        sim.save(tmp_path)
    loop = tmp_path / "loop.orrery"
    loop.symlink_to(loop)
    with pytest.raises(OSError, match="Too many levels of symbolic links"):
        orrery.load(loop)
    target = bytes(tmp_path / "b.orrery")
    sim.save(target)
    assert orrery.load(target).n == 10


def test_a_base_name_opens_only_a_set_of_several_files(tmp_path):
    """Issue 42: load('zz') with no zz loaded zz.0, a file of its own."""
    small().save(tmp_path / "zz.orrery")
    (tmp_path / "zz.orrery").rename(tmp_path / "zz.0")
    with pytest.raises(ValueError, match=r"zz: cannot open: no such file \(.*zz.0 is a file of "
                                         r"its own, not the first of a set"):
        orrery.load(tmp_path / "zz")
    assert orrery.load(tmp_path / "zz.0").n == 10


def test_bodies_given_outside_the_walls_are_refused():
    """Issue 42: bodies given outside box were accepted and landed on the walls."""
    pos = np.zeros((3, 3))
    pos[2] = [0.0, 30.0, 0.0]
    with pytest.raises(ValueError, match=r"from_arrays: body 2 at \(0, 30, 0\) with radius 0.5 "
                                         r"is outside the walls \(box=20"):
        orrery.Simulation.from_arrays(pos, None, 1.0, radius=0.5, box=20, gravity=False,
                                      solver="cpu")
    pos[2] = [0.0, 9.0, 0.0]
    sim = orrery.Simulation.from_arrays(pos, None, 1.0, radius=0.5, box=20, gravity=False,
                                        solver="cpu")
    moved = np.array(sim.positions)
    moved[1] = [9.9, 0.0, 0.0]  # 9.9 + 0.5 is past the wall at 10
    with pytest.raises(ValueError, match="positions: body 1 at .* is outside the walls"):
        sim.positions = moved
    assert sim.positions[1, 0] == 0.0
