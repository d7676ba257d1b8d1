"""HDF5 snapshots: files written here with h5py in the GADGET-4, AREPO and SWIFT layouts and as a
two-file set, read by Orrery; Orrery's own HDF5 opened with h5py as yt and pynbody would, and read
back exactly; damaged files refused in one line."""
import math
import subprocess

import numpy as np
import pytest

import orrery
from conftest import needs_hdf5

h5py = pytest.importorskip("h5py", reason="h5py is not installed (Debian: python3-h5py)")


pytestmark = needs_hdf5

G_CGS = 6.6743e-8


def write_gadget4(path, n_gas=5, n_halo=7, units=None, doubles=False, num_files=1, totals=None,
                  offset=0.0, table_mass=0.25):
    """GADGET-4's layout: Header attributes, PartType0 with its own masses, PartType1 with the
    MassTable's, and (GADGET-4) the units in a Parameters group."""
    rng = np.random.default_rng(int(offset * 10) + 1)
    dt = np.float64 if doubles else np.float32
    with h5py.File(path, "w") as f:
        h = f.create_group("Header")
        here = np.array([n_gas, n_halo, 0, 0, 0, 0], dtype=np.int64)
        h.attrs["NumPart_ThisFile"] = here
        h.attrs["NumPart_Total"] = np.array(totals if totals is not None else here, dtype=np.uint64)
        h.attrs["NumPart_Total_HighWord"] = np.zeros(6, dtype=np.uint32)
        h.attrs["MassTable"] = np.array([0, table_mass, 0, 0, 0, 0], dtype=np.float64)
        h.attrs["Time"] = 0.5
        h.attrs["Redshift"] = 1.0
        h.attrs["BoxSize"] = 100.0
        h.attrs["NumFilesPerSnapshot"] = num_files
        if units:
            p = f.create_group("Parameters")
            p.attrs["UnitLength_in_cm"], p.attrs["UnitMass_in_g"], \
                p.attrs["UnitVelocity_in_cm_per_s"] = units
        data = {}
        for t, n in [(0, n_gas), (1, n_halo)]:
            g = f.create_group(f"PartType{t}")
            x = (rng.random((n, 3)) * 10 + offset).astype(dt)
            v = rng.normal(size=(n, 3)).astype(dt)
            g["Coordinates"], g["Velocities"] = x, v
            g["ParticleIDs"] = np.arange(n, dtype=np.uint64) + 1000 * t
            if t == 0:
                g["Masses"] = np.full(n, 0.125, dtype=dt)
            data[t] = (x, v)
    return data


def test_gadget4_layout_with_units_types_and_ids(tmp_path):
    path = tmp_path / "snap.hdf5"
    units = (3.085678e21, 1.989e43, 1e5)  # kpc, 1e10 solar masses, km/s
    data = write_gadget4(path, units=units)
    sim = orrery.load(path, solver="cpu")
    assert sim.n == 12
    assert list(sim.types) == [0] * 5 + [1] * 7
    assert list(sim.ids[:2]) == [0, 1] and sim.ids[5] == 1000
    assert np.allclose(sim.masses, [0.125] * 5 + [0.25] * 7)
    l, m, v = units
    g = G_CGS * m * (l / v) ** 2 / l ** 3
    assert g == pytest.approx(43007, rel=1e-3)  # GADGET's standard units
    assert np.allclose(sim.positions[:5], data[0][0])
    assert np.allclose(sim.velocities[5:], data[1][1] / math.sqrt(g), rtol=1e-5)
    assert sim.time == pytest.approx(0.5 * math.sqrt(g), rel=1e-6)


def test_arepo_layout_in_double_without_units_takes_gadget_g(tmp_path):
    path = tmp_path / "arepo.hdf5"
    data = write_gadget4(path, doubles=True)
    with h5py.File(path, "a") as f:
        f.create_group("Config").attrs["GADGET_AREPO"] = 1
    sim = orrery.load(path, gadget_g=4.0, solver="cpu")
    assert np.allclose(sim.velocities[:5], data[0][1] / 2.0, rtol=1e-6)


def test_a_large_file_in_double_is_read_exactly_across_its_blocks(tmp_path):
    # Orrery reads 65,536 rows at a time: both types cross that, the halo twice.
    path = tmp_path / "large.hdf5"
    n_gas, n_halo = 70001, 140003
    data = write_gadget4(path, n_gas=n_gas, n_halo=n_halo, doubles=True)
    sim = orrery.load(path, gadget_g=1.0, solver="cpu")
    assert sim.n == n_gas + n_halo
    assert np.array_equal(sim.types, [0] * n_gas + [1] * n_halo)
    assert np.array_equal(sim.ids[:n_gas], np.arange(n_gas))
    assert np.array_equal(sim.ids[n_gas:], np.arange(n_halo) + 1000)
    for t, rows in [(0, slice(0, n_gas)), (1, slice(n_gas, None))]:
        assert np.array_equal(sim.positions[rows], data[t][0].astype(np.float32))
        assert np.array_equal(sim.velocities[rows], data[t][1].astype(np.float32))
    assert np.array_equal(sim.masses, [0.125] * n_gas + [0.25] * n_halo)


def test_swift_layout_with_its_units_group(tmp_path):
    path = tmp_path / "swift.hdf5"
    data = write_gadget4(path)
    with h5py.File(path, "a") as f:
        u = f.create_group("Units")
        u.attrs["Unit length in cgs (U_L)"] = np.array([3.085678e24])
        u.attrs["Unit mass in cgs (U_M)"] = np.array([1.98841e43])
        u.attrs["Unit time in cgs (U_t)"] = np.array([3.085678e19])
        del f["Header"].attrs["BoxSize"]
        f["Header"].attrs["BoxSize"] = np.array([100.0, 100.0, 100.0])
    sim = orrery.load(path, solver="cpu")
    g = G_CGS * 1.98841e43 * 3.085678e19 ** 2 / 3.085678e24 ** 3
    assert np.allclose(sim.velocities[:5], data[0][1] / math.sqrt(g), rtol=1e-5)


def test_a_two_file_set_from_any_name(tmp_path):
    base = tmp_path / "snap_005"
    write_gadget4(f"{base}.0.hdf5", num_files=2, totals=[10, 14, 0, 0, 0, 0])
    write_gadget4(f"{base}.1.hdf5", num_files=2, totals=[10, 14, 0, 0, 0, 0], offset=50)
    for name in [base, f"{base}.0.hdf5", f"{base}.1.hdf5"]:
        sim = orrery.load(name, gadget_g=1.0, solver="cpu")
        assert sim.n == 24
        assert sim.positions[12:, 0].min() >= 50  # the second file's bodies follow the first's
    (tmp_path / "snap_005.1.hdf5").unlink()
    with pytest.raises(ValueError, match=r"snap_005\.1\.hdf5: cannot open"):
        orrery.load(f"{base}.0.hdf5")


def test_orrery_writes_what_yt_and_pynbody_read_and_reads_it_back_exactly(tmp_path):
    a = orrery.Simulation(n=300, preset="box", seed=4, solver="cpu", integrator="leapfrog",
                          dt=0.01)
    a.step(4)
    path = tmp_path / "run.hdf5"
    a.save(str(path))
    with h5py.File(path, "r") as f:  # as a GADGET-4 reader sees it
        h = f["Header"].attrs
        assert list(h["NumPart_ThisFile"]) == [0, 300, 0, 0, 0, 0]
        assert list(h["NumPart_Total"]) == [0, 300, 0, 0, 0, 0]
        assert h["Time"] == pytest.approx(a.time)
        assert h["NumFilesPerSnapshot"] == 1
        p = f["PartType1"]
        assert p["Coordinates"].shape == (300, 3) and p["Coordinates"].dtype == np.float32
        assert np.array_equal(p["Coordinates"][:], a.positions)
        assert np.array_equal(p["Velocities"][:], a.velocities)
        assert np.array_equal(p["Masses"][:], a.masses)
        assert p["ParticleIDs"].shape == (300,)
        o = f["Orrery"].attrs
        assert o["G"] == 1.0 and o["integrator"] == b"leapfrog" and o["steps"] == 4
    b = orrery.load(path)
    assert (b.solver, b.integrator, b.steps, b.time) == ("cpu", "leapfrog", 4, a.time)
    assert b.collisions == "bounce" and b.box == a.box and not b.gravity
    assert np.array_equal(b.radii, a.radii)
    a.step(3)
    b.step(3)
    assert np.array_equal(a.positions, b.positions)
    assert np.array_equal(a.velocities, b.velocities)


@pytest.mark.parametrize("damage,says", [
    (lambda f: f["PartType1"].__delitem__("Coordinates"), "no dataset PartType1/Coordinates"),
    (lambda f: f["Header"].attrs.__delitem__("NumPart_ThisFile"),
     "no attribute Header/NumPart_ThisFile"),
    (lambda f: (f["PartType0"].__delitem__("Velocities"),
                f["PartType0"].create_dataset("Velocities", data=np.zeros((5, 2)))),
     r"PartType0/Velocities: shape \(5, 2\), expected \(5, 3\)"),
    (lambda f: f["PartType0"]["Coordinates"].__setitem__((1, 1), np.nan), "body 1"),
    (lambda f: f["PartType0"].__delitem__("Masses"), "no dataset PartType0/Masses"),
    (lambda f: f.__delitem__("Header"), "no Header group"),
    (lambda f: f["Header"].attrs.__setitem__("NumPart_ThisFile", [5, 9, 0, 0, 0, 0]),
     "header: 7 particles of type 1 in all files, but the files hold 9"),
    (lambda f: [f["Header"].attrs.__setitem__(k, [5, 9, 0, 0, 0, 0])
                for k in ["NumPart_ThisFile", "NumPart_Total"]],
     r"PartType1/Coordinates: shape \(7, 3\), expected \(9, 3\)"),
    # Refused for its shapes before the 8 GB that 200M bodies would need are asked for.
    (lambda f: [f["Header"].attrs.__setitem__(k, [5, 200000000, 0, 0, 0, 0])
                for k in ["NumPart_ThisFile", "NumPart_Total"]],
     r"PartType1/Coordinates: shape \(7, 3\), expected \(200000000, 3\)"),
])
def test_damaged_files_are_one_line(tmp_path, damage, says):
    path = tmp_path / "bad.hdf5"
    write_gadget4(path)
    with h5py.File(path, "a") as f:
        damage(f)
    with pytest.raises(ValueError, match=says) as e:
        orrery.load(path, solver="cpu")
    assert "\n" not in str(e.value)


def test_a_truncated_file(tmp_path):
    path = tmp_path / "cut.hdf5"
    write_gadget4(path, n_gas=2000, n_halo=2000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="cut.hdf5"):
        orrery.load(path, solver="cpu")


def test_types_and_ids_follow_merges_and_are_saved(tmp_path):
    """Two touching pairs merge: each survivor (the heavier; the first on a tie) keeps its type and
    ID, and Orrery's format and HDF5 both save them."""
    path = tmp_path / "pairs.hdf5"
    with h5py.File(path, "w") as f:
        h = f.create_group("Header")
        h.attrs["NumPart_ThisFile"] = np.array([3, 2, 0, 0, 0, 0], dtype=np.int64)
        h.attrs["MassTable"] = np.array([0, 0.5, 0, 0, 0, 0], dtype=np.float64)
        g0 = f.create_group("PartType0")
        g0["Coordinates"] = np.array([[0, 0, 0], [0.5, 0, 0], [50, 0, 0]], dtype=np.float32)
        g0["Velocities"] = np.zeros((3, 3), dtype=np.float32)
        g0["Masses"] = np.array([1.0, 3.0, 2.0], dtype=np.float32)
        g0["ParticleIDs"] = np.array([11, 12, 13], dtype=np.uint64)
        g1 = f.create_group("PartType1")
        g1["Coordinates"] = np.array([[100, 0, 0], [100.5, 0, 0]], dtype=np.float32)
        g1["Velocities"] = np.zeros((2, 3), dtype=np.float32)
        g1["ParticleIDs"] = np.array([21, 22], dtype=np.uint64)
    sim = orrery.load(path, solver="cpu", collisions="merge", radius=0.4, gravity=False,
                      dt=0.001)
    assert list(sim.ids) == [11, 12, 13, 21, 22]
    sim.step(1)
    assert sim.n == 3
    assert list(sim.ids) == [12, 13, 21]
    assert list(sim.types) == [0, 0, 1]
    assert np.allclose(sim.masses, [4.0, 2.0, 1.0])
    for name in ("merged.orrery", "merged.hdf5"):
        sim.save(tmp_path / name)
        back = orrery.load(tmp_path / name, solver="cpu")
        assert list(back.ids) == [12, 13, 21], name
        assert list(back.types) == [0, 0, 1], name
    with h5py.File(tmp_path / "merged.hdf5", "r") as f:
        assert list(f["PartType0/ParticleIDs"][:]) == [12, 13]
        assert list(f["PartType1/ParticleIDs"][:]) == [21]


def test_a_file_time_where_the_step_cannot_move_the_clock_is_refused(tmp_path):
    """Issue 42: at Time 1e17 a step of 0.01 leaves time + dt == time; integrate() with dt='auto'
    never returned, and a fixed step ran millions of steps that left the time unchanged."""
    path = tmp_path / "late.hdf5"
    orrery.Simulation(n=50, preset="plummer", solver="cpu", dt=0.01).save(path)
    with h5py.File(path, "a") as f:
        del f["Orrery"]  # the file's own Header/Time, as another code writes it
        f["Header"].attrs["Time"] = 1e17
    for settings in ({"dt": "auto"}, {"dt": 0.01}):
        sim = orrery.load(path, gadget_g=1, solver="cpu", **settings)
        assert sim.time == 1e17
        with pytest.raises(RuntimeError, match="the clock cannot advance: at t = 1e\\+17"):
            sim.integrate(sim.time + 1e3)
        assert sim.steps == 0 and sim.time == 1e17


def _negative_ids(f):
    del f["PartType1/ParticleIDs"]
    f["PartType1/ParticleIDs"] = np.array([5, 6, -7, 8, 9, 10, 11], dtype=np.int64)


def _masses_beside_the_table(f):
    f["PartType1/Masses"] = np.full(7, 0.5, dtype=np.float32)  # the table says 0.25


def _fractional_count(f):
    for k in ["NumPart_ThisFile", "NumPart_Total"]:
        f["Header"].attrs[k] = np.array([5, 7.5, 0, 0, 0, 0])


def _external_link(f, other):
    with h5py.File(other, "w") as o:
        o["x"] = np.zeros((7, 3), dtype=np.float32)
    del f["PartType1/Coordinates"]
    f["PartType1/Coordinates"] = h5py.ExternalLink(str(other), "/x")


def _never_written(f):
    del f["PartType1/Velocities"]
    f.create_dataset("PartType1/Velocities", shape=(7, 3), dtype=np.float32)  # fill value only


@pytest.mark.parametrize("damage,says", [
    (_negative_ids, r"PartType1/ParticleIDs: row 2 is negative \(-7\)"),
    (_masses_beside_the_table, r"PartType1/Masses: row 0 is 0.5.* where Header/MassTable gives "
                               r"0.25.* for type 1"),
    (_fractional_count, "Header/NumPart_ThisFile: the count of type 1 is not a whole number"),
    (_external_link, "PartType1/Coordinates: a link to another file, not a dataset of this one"),
    (_never_written, r"PartType1/Velocities: never written"),
])
def test_content_that_was_taken_without_a_word_is_refused(tmp_path, damage, says):
    """Issue 42: negative int64 IDs became 0, a Masses dataset overrode a MassTable entry, a count
    of 7.5 was read as 7, an external link read another file's coordinates, and datasets never
    written loaded as bodies at rest at the origin."""
    path = tmp_path / "bad.hdf5"
    write_gadget4(path)
    with h5py.File(path, "a") as f:
        if damage is _external_link:
            damage(f, tmp_path / "other.hdf5")
        else:
            damage(f)
    with pytest.raises(ValueError, match=says) as e:
        orrery.load(path, solver="cpu")
    assert "\n" not in str(e.value)


def test_a_set_whose_files_disagree_on_their_number_is_refused(tmp_path):
    write_gadget4(tmp_path / "snap.0.hdf5", num_files=2, totals=[10, 14, 0, 0, 0, 0])
    write_gadget4(tmp_path / "snap.1.hdf5", num_files=3, totals=[10, 14, 0, 0, 0, 0], offset=1.0)
    with pytest.raises(ValueError, match="Header/NumFilesPerSnapshot is 3 where file 1 of the set "
                                         "says 2"):
        orrery.load(tmp_path / "snap.0.hdf5", solver="cpu")


def test_the_orrery_groups_text_as_h5py_writes_it(tmp_path):
    """Issue 42: h5py writes a str attribute as variable-length text, which was skipped: an
    edited integrator loaded as euler, and 'rk4' passed the same way."""
    path = tmp_path / "run.hdf5"
    orrery.Simulation(n=20, preset="plummer", solver="cpu", integrator="euler").save(path)
    with h5py.File(path, "a") as f:
        f["Orrery"].attrs["integrator"] = "leapfrog"  # h5py: variable-length
        assert h5py.check_string_dtype(f["Orrery"].attrs.get_id("integrator").dtype).length is None
    assert orrery.load(path).integrator == "leapfrog"
    with h5py.File(path, "a") as f:
        f["Orrery"].attrs["integrator"] = "rk4"
    with pytest.raises(ValueError, match="run.hdf5: Orrery: .*rk4"):
        orrery.load(path)
    with h5py.File(path, "a") as f:
        f["Orrery"].attrs["integrator"] = 3
    with pytest.raises(ValueError, match="run.hdf5: Orrery/integrator: not text"):
        orrery.load(path)
