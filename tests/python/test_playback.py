"""orrery.Series: series written by Orrery in each format, by h5py in GADGET-4's and SWIFT's
layouts with the particles shuffled between outputs, and as multi-file GADGET-2 sets; the state
between outputs (a cubic Hermite curve, bodies matched by ID) against the motion that made them;
and bad input in one line."""
import math
import struct

import numpy as np
import pytest

import orrery
from conftest import HAVE_HDF5

h5py = pytest.importorskip("h5py", reason="h5py is not installed (Debian: python3-h5py)")

FORMATS = [".orrery", ".tipsy"] + ([".hdf5"] if HAVE_HDF5 else [])


@pytest.mark.parametrize("ext", FORMATS)
def test_a_series_orrery_wrote_plays_back_in_each_format(tmp_path, ext):
    sim = orrery.Simulation(200, "plummer", solver="cpu", integrator="leapfrog", dt=0.01,
                            softening=0.05, seed=2)
    sim.integrate(0.4, save_every=10, pattern=str(tmp_path / f"out_%03d{ext}"))
    series = orrery.Series(str(tmp_path / f"out_*{ext}"))
    assert len(series) == 5
    assert np.allclose(series.times, [0, 0.1, 0.2, 0.3, 0.4], atol=1e-6)
    last = series[-1]
    assert last.time == pytest.approx(0.4) and np.array_equal(last.positions, sim.positions)
    assert [s.time for s in series[1:3]] == pytest.approx([0.1, 0.2])
    # Between outputs: a run stepped to the same time, within what 10 steps of curve allow.
    again = orrery.Simulation(200, "plummer", solver="cpu", integrator="leapfrog", dt=0.01,
                              softening=0.05, seed=2)
    again.integrate(0.25)
    mid = series.at(0.25)
    assert mid["time"] == 0.25 and mid["positions"].shape == (200, 3)
    err = np.abs(mid["positions"] - again.positions).max()
    line = np.abs(0.5 * (series.read(2)["positions"] + series.read(3)["positions"])
                  - again.positions).max()
    assert err < 2e-4 and err < line / 10


def shuffled_outputs(rng, n, times, x0, v):
    """Each output's bodies in an order of its own: (order, positions, velocities, ids) at each t,
    for bodies moving in straight lines x0 + v t."""
    for t in times:
        order = rng.permutation(n)
        yield order, (x0 + v * t)[order], v[order], np.arange(n, dtype=np.uint64)[order] + 7


@pytest.mark.skipif(not HAVE_HDF5, reason="this build has no HDF5")
@pytest.mark.parametrize("layout", ["gadget4", "swift"])
def test_hdf5_series_with_ids_shuffled_between_outputs(tmp_path, layout):
    rng = np.random.default_rng(3)
    n, times = 300, [0.0, 0.5, 1.0, 1.5]
    x0, v = rng.normal(size=(n, 3)), rng.normal(size=(n, 3))
    for k, (order, x, u, ids) in enumerate(shuffled_outputs(rng, n, times, x0, v)):
        with h5py.File(tmp_path / f"snap_{k:03d}.hdf5", "w") as f:
            h = f.create_group("Header")
            h.attrs["NumPart_ThisFile"] = np.array([0, n, 0, 0, 0, 0], np.int32)
            h.attrs["NumPart_Total"] = np.array([0, n, 0, 0, 0, 0], np.uint32)
            h.attrs["NumFilesPerSnapshot"] = 1
            h.attrs["Time"] = times[k]
            h.attrs["MassTable"] = np.array([0, 0.01, 0, 0, 0, 0])
            if layout == "swift":  # SWIFT's own units: the motion must come out the same
                h.attrs["Code"] = np.bytes_("SWIFT")
                u_group = f.create_group("Units")
                u_group.attrs["Unit length in cgs (U_L)"] = np.array([3.085678e24])
                u_group.attrs["Unit mass in cgs (U_M)"] = np.array([1.98841e43])
                u_group.attrs["Unit time in cgs (U_t)"] = np.array([3.085678e19])
            g = f.create_group("PartType1")
            g["Coordinates"], g["Velocities"], g["ParticleIDs"] = x, u, ids
    series = orrery.Series(tmp_path, gadget_g=None if layout == "swift" else 1.0)
    assert len(series) == 4
    # SWIFT's file is in its own units: the run's time unit differs by one factor (velocities by
    # its inverse), positions stay in the file's length unit.
    clock = series.times[1] / times[1]
    assert np.allclose(series.times, np.array(times) * clock)
    assert layout == "swift" or clock == pytest.approx(1.0)
    for t in [0.25, 0.8, 1.2]:
        state = series.at(t * clock)
        by_id = np.argsort(state["ids"])
        assert np.allclose(state["positions"][by_id], x0 + v * t, atol=2e-5)  # lines: exact
    # Each output is read in the order of its IDs: row i is the same body in every output.
    for k in range(4):
        out = series.read(k)
        assert np.array_equal(out["ids"], np.arange(n, dtype=np.uint64) + 7)
        assert np.allclose(out["positions"], x0 + v * times[k], atol=2e-5)


def gadget2_file(path, t, pos, vel, ids, num_files, totals):
    """One file of a GADGET-2 set (SnapFormat 1, little-endian, halo particles of mass 0.5)."""
    n = len(ids)

    def record(payload):
        return struct.pack("<i", len(payload)) + payload + struct.pack("<i", len(payload))

    head = struct.pack("<6i", 0, n, 0, 0, 0, 0) + struct.pack("<6d", 0, 0.5, 0, 0, 0, 0)
    head += struct.pack("<dd", t, 0.0) + struct.pack("<ii", 0, 0)
    head += struct.pack("<6I", 0, totals, 0, 0, 0, 0) + struct.pack("<ii", 0, num_files)
    head += struct.pack("<d", 0.0)
    head += b"\0" * (256 - len(head))
    body = record(head) + record(pos.astype("<f4").tobytes()) + record(vel.astype("<f4").tobytes())
    body += record(ids.astype("<u4").tobytes())
    path.write_bytes(body)


def write_sets(tmp_path, seed, n, times, write_part):
    """Outputs of bodies on straight lines, each in two files of a set (write_part(k, part, s, x,
    u, ids) writes one), the bodies shuffled between outputs; the lines' x0 and v."""
    rng = np.random.default_rng(seed)
    x0, v = rng.normal(size=(n, 3)), rng.normal(size=(n, 3))
    for k, (order, x, u, ids) in enumerate(shuffled_outputs(rng, n, times, x0, v)):
        for part in range(2):
            s = slice(part * n // 2, (part + 1) * n // 2)
            write_part(k, part, s, x, u, ids)
    return x0, v


def check_lines(series, n, t, x0, v):
    assert series[1].n == n
    state = series.at(t)
    by_id = np.argsort(state["ids"])
    assert np.allclose(state["positions"][by_id], x0 + v * t, atol=2e-5)


def test_multi_file_gadget2_sets_are_one_output_each(tmp_path):
    n, times = 40, [0.0, 1.0, 2.0]

    def part_file(k, part, s, x, u, ids):
        gadget2_file(tmp_path / f"snapshot_{k:03d}.{part}", times[k], x[s], u[s], ids[s], 2, n)

    x0, v = write_sets(tmp_path, 4, n, times, part_file)
    series = orrery.Series(str(tmp_path / "snapshot_*"), gadget_g=1.0)
    assert len(series) == 3 and series.files[1].endswith("snapshot_001")
    check_lines(series, n, 1.5, x0, v)


@pytest.mark.skipif(not HAVE_HDF5, reason="this build has no HDF5")
def test_multi_file_hdf5_sets_are_one_output_each(tmp_path):
    """GADGET-4 writes a snapshot in several files, snap_005.0.hdf5, snap_005.1.hdf5: one output."""
    n, times = 30, [0.0, 1.0]

    def part_file(k, part, s, x, u, ids):
        with h5py.File(tmp_path / f"snap_{k:03d}.{part}.hdf5", "w") as f:
            h = f.create_group("Header")
            h.attrs["NumPart_ThisFile"] = np.array([0, n // 2, 0, 0, 0, 0], np.int32)
            h.attrs["NumPart_Total"] = np.array([0, n, 0, 0, 0, 0], np.uint32)
            h.attrs["NumFilesPerSnapshot"] = 2
            h.attrs["Time"] = times[k]
            h.attrs["MassTable"] = np.array([0, 0.01, 0, 0, 0, 0])
            g = f.create_group("PartType1")
            g["Coordinates"], g["Velocities"], g["ParticleIDs"] = x[s], u[s], ids[s]

    x0, v = write_sets(tmp_path, 6, n, times, part_file)
    series = orrery.Series(str(tmp_path / "snap_*.hdf5"), gadget_g=1.0)
    assert len(series) == 2 and series.files[0].endswith("snap_000")
    check_lines(series, n, 0.5, x0, v)


def test_bad_series_are_one_line_each(tmp_path):
    with pytest.raises(ValueError, match="no file matches"):
        orrery.Series(str(tmp_path / "none_*.hdf5"))
    with pytest.raises(ValueError, match="no snapshot file in this folder"):
        orrery.Series(tmp_path)
    sim = orrery.Simulation(20, "plummer", solver="cpu", dt=0.01)
    sim.integrate(0.05, save_every=1, pattern=str(tmp_path / "s_%d.orrery"))
    sim.save(tmp_path / "s_9.tipsy")
    with pytest.raises(ValueError, match="a series is in one format"):
        orrery.Series([tmp_path / "s_1.orrery", tmp_path / "s_9.tipsy"])
    (tmp_path / "s_9.tipsy").unlink()
    (tmp_path / "s_3.orrery").write_bytes(b"damaged")  # a damaged output stays one, a gap
    series = orrery.Series(str(tmp_path / "s_*.orrery"))
    assert len(series) == 6
    with pytest.raises(ValueError, match="s_3.orrery"):
        series.read(3)
    assert math.isnan(series.times[3]) and series.times[4] == pytest.approx(0.04)
    with pytest.raises(ValueError, match="unreadable"):
        series.at(0.025)
    assert series.at(0.045)["time"] == 0.045
    with pytest.raises(ValueError, match="outside the series' times"):
        series.at(1.0)
    with pytest.raises(IndexError):
        series[6]
    with pytest.raises(TypeError):
        series["1"]
    with pytest.raises(ValueError, match="memory"):
        orrery.Series(str(tmp_path / "s_*.orrery"), memory=10)
