"""Snapshot series from Python: integrate(t, save_every=..., pattern=...) writes the state now and
then every K steps or every interval of time; yt opens the HDF5 series as a DatasetSeries, Orrery's
format restarts from any output; a series overwrites no file and a bad value writes nothing."""
import glob
import os

import numpy as np
import pytest

import orrery
from conftest import needs_hdf5


def sim():
    return orrery.Simulation(n=300, preset="plummer", solver="cpu-omp", dt=0.01,
                             integrator="leapfrog")


def test_every_k_steps_in_orrerys_format_restarts_from_any_output(tmp):
    s = sim()
    s.integrate(0.5, save_every=10, pattern=str(tmp / "run_%02d.orrery"))
    files = sorted(glob.glob(str(tmp / "run_*.orrery")))
    assert [os.path.basename(f) for f in files] == [f"run_{k:02d}.orrery" for k in range(6)]
    steps = [orrery.load(f).steps for f in files]
    assert steps == [0, 10, 20, 30, 40, 50]
    # Output 2, run on to step 50, is output 5 to the bit.
    again = orrery.load(files[2])
    again.step(30)
    last = orrery.load(files[5])
    np.testing.assert_array_equal(again.positions, last.positions)
    np.testing.assert_array_equal(again.velocities, last.velocities)


@pytest.fixture
def in_tmp(tmp, monkeypatch):
    monkeypatch.chdir(tmp)
    return tmp


@needs_hdf5
def test_the_default_pattern_is_gadget4s_and_yt_reads_the_times(in_tmp):
    s = sim()
    s.integrate(1.0, save_every=0.25)
    files = sorted(glob.glob("snapshot_*.hdf5"))
    assert files == [f"snapshot_{k:03d}.hdf5" for k in range(5)]
    # Debian's python3-yt (scripts/setup.sh): the reader GADGET-4's names are for.
    yt = pytest.importorskip("yt")
    series = yt.DatasetSeries("snapshot_???.hdf5")
    times = [float(ds.current_time.to("code_time")) for ds in series]
    assert len(times) == 5
    assert times == sorted(times)
    # The step nearest each multiple of 0.25 (dt 0.01 in float32 is a little under 0.01).
    np.testing.assert_allclose(times, [0, 0.25, 0.5, 0.75, 1.0], atol=0.006)
    assert int(series[3].all_data()["all", "particle_mass"].size) == 300


def test_a_series_overwrites_no_file_and_bad_values_write_nothing(tmp):
    s = sim()
    (tmp / "x_3.hdf5").write_text("someone's")
    with pytest.raises(ValueError, match="x_3.hdf5 exists already"):
        s.integrate(0.1, save_every=1, pattern=str(tmp / "x_%d.hdf5"))
    assert s.time == 0 and sorted(os.listdir(tmp)) == ["x_3.hdf5"]
    with pytest.raises(ValueError, match="pattern"):
        s.integrate(0.1, save_every=1, pattern=str(tmp / "y.hdf5"))
    with pytest.raises(ValueError, match="pattern"):
        s.integrate(0.1, save_every=1, pattern=str(tmp / "y_%d.out"))
    with pytest.raises(ValueError, match="save_every"):
        s.integrate(0.1, save_every=0, pattern=str(tmp / "y_%d.hdf5"))
    with pytest.raises(ValueError, match="save_every"):
        s.integrate(0.1, save_every=-0.5, pattern=str(tmp / "y_%d.hdf5"))
    with pytest.raises(TypeError, match="save_every"):
        s.integrate(0.1, save_every=True, pattern=str(tmp / "y_%d.hdf5"))
    with pytest.raises(ValueError, match="give save_every"):
        s.integrate(0.1, pattern=str(tmp / "y_%d.hdf5"))
    assert s.time == 0 and sorted(os.listdir(tmp)) == ["x_3.hdf5"]


def test_a_file_in_the_way_during_the_run_stops_it_with_the_outputs_before_whole(tmp):
    # The names are checked up front for the first thousand outputs; a file further on (another
    # program's, or one made during the run) stops the run where it stands, the outputs before it
    # whole and the state that of the last output written.
    s = orrery.Simulation(n=20, preset="disk", solver="cpu", dt=0.01)
    (tmp / "z_1003.orrery").write_text("in the way")
    with pytest.raises(OSError, match="z_1003.orrery: exists already"):
        s.integrate(20.0, save_every=1, pattern=str(tmp / "z_%d.orrery"))
    assert s.steps == 1003
    assert (tmp / "z_1003.orrery").read_text() == "in the way"
    assert len(list(tmp.glob("z_*.orrery"))) == 1004
    assert orrery.load(str(tmp / "z_1002.orrery")).steps == 1002


def test_a_state_that_blows_up_ends_the_series_before_a_file_load_would_refuse(tmp):
    s = orrery.Simulation(n=50, preset="plummer", solver="cpu", dt=1e30)
    with pytest.raises(RuntimeError, match="non-finite by step 1"):
        s.integrate(3e30, save_every=1, pattern=str(tmp / "nf_%d.orrery"))
    assert sorted(os.listdir(tmp)) == ["nf_0.orrery"]
    assert orrery.load(str(tmp / "nf_0.orrery")).steps == 0
