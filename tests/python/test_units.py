"""Issue 43: units from the file to yt. Orrery's HDF5 read by the field's own reader (Debian's
python3-yt, installed by scripts/setup.sh) for three sources: GADGET-2's galaxy example, a preset
with units, and a SWIFT-layout file written here by h5py in its own units; sim.units,
sim.file_info and the arrays in named units; and bad units refused with one line."""
import os
import subprocess

import h5py
import numpy as np
import pytest

import orrery
from conftest import bench_path
# Debian's python3-yt, which scripts/setup.sh installs: the reader these tests are for (the GPU
# machine has none: skipped there with the reason).
yt = pytest.importorskip("yt")

yt.set_log_level("error")

HERE = os.path.dirname(os.path.abspath(__file__))
GALAXY = os.path.join(HERE, "..", "..", "assets", "gadget", "galaxy.dat")
KPC_CM, MSUN_G = 3.085678e21, 1.989e33


def gadget2_raw(path):
    """POS, VEL and the MassTable of a SnapFormat 1 little-endian file, as its writer left them."""
    b = open(path, "rb").read()
    npart = np.frombuffer(b, "<i4", 6, 4)
    masses = np.frombuffer(b, "<f8", 6, 4 + 24)
    n = int(npart.sum())
    at = 4 + 256 + 4
    pos = np.frombuffer(b, "<f4", 3 * n, at + 4).reshape(n, 3)
    at += 4 + 12 * n + 4
    vel = np.frombuffer(b, "<f4", 3 * n, at + 4).reshape(n, 3)
    return npart, masses, pos, vel


def test_a_gadget2_file_saved_as_hdf5_reads_in_yt_as_written(tmp_path):
    npart, masses, pos, vel = gadget2_raw(GALAXY)
    sim = orrery.load(GALAXY, solver="cpu")
    assert sim.units["name"] == "kpc, 1e10 Msun, km/s (G = 43007.1)"
    assert sim.units["velocity_factor"] == pytest.approx(np.sqrt(43007.1))
    out = tmp_path / "galaxy.hdf5"
    sim.save(out)
    ds = yt.load(str(out))
    ad = ds.all_data()
    # Today's code wrote the G = 1 velocities, which yt reads 207 times too slow.
    v = ad["PartType1", "Velocities"].to("km/s").value
    assert np.allclose(v, vel[: npart[1]], rtol=2e-6, atol=1e-5)
    assert v[0, 0] == pytest.approx(8.424, abs=1e-3)
    x = ad["PartType2", "Coordinates"].to("kpc").value
    assert np.array_equal(x.astype(np.float32), pos[npart[1]:])  # the file's floats
    m = ad["PartType2", "Masses"].to("Msun").value
    assert np.allclose(m, masses[2] * 1e10, rtol=1e-7)
    assert float(ds.current_time.to("Myr")) == 0.0
    p = yt.ParticleProjectionPlot(ds, "z", ("all", "particle_mass"), center=[0, 0, 0])
    p.save(str(tmp_path / "projection.png"))
    assert os.path.getsize(tmp_path / "projection.png") > 10000
    yt.ParticleProjectionPlot(ds, "z", ("all", "particle_mass"))  # no arguments: it draws
    # Orrery reads its own file back into the run's units.
    back = orrery.load(out, solver="cpu")
    assert back.units == sim.units
    assert np.allclose(back.velocities, sim.velocities, rtol=1e-6, atol=1e-7)


def test_a_preset_with_units_reads_in_yt_in_them(tmp_path):
    sim = orrery.Simulation(500, "plummer", seed=3, solver="cpu", units="1 pc, 1 Msun")
    sim.step(10)
    assert sim.units["physical"] and sim.units["G"] == 1.0
    assert sim.units["length_unit"] == "pc" and sim.units["mass_unit"] == "Msun"
    out = tmp_path / "cluster.hdf5"
    sim.save(out)
    ds = yt.load(str(out))
    ad = ds.all_data()
    assert np.allclose(ad["PartType1", "Coordinates"].to("pc").value, sim.positions, rtol=1e-6,
                       atol=1e-6)
    assert np.allclose(ad["PartType1", "Velocities"].to("km/s").value, sim.velocities_in("km/s"),
                       rtol=1e-6, atol=1e-12)
    assert np.allclose(ad["PartType1", "Masses"].to("Msun").value, sim.masses, rtol=1e-6)
    # One time unit of G = 1 in pc and Msun: sqrt(pc^3 / (G Msun)) = 14.9 Myr.
    assert float(ds.current_time.to("Myr")) == pytest.approx(sim.time_in("Myr"), rel=1e-6)
    assert sim.time_in("Myr") == pytest.approx(sim.time * 14.909, rel=1e-3)
    yt.ParticleProjectionPlot(ds, "z", ("all", "particle_mass")).save(str(tmp_path / "p.png"))
    # pynbody's reading: per-dataset GADGET-4 attributes say each dataset's dimensions.
    with h5py.File(out) as f:
        c = f["PartType1/Coordinates"].attrs
        assert c["length_scaling"] == 1 and c["mass_scaling"] == 0 and c["to_cgs"] == KPC_CM
        assert f["Units"].attrs["UnitVelocity_in_cm_per_s"] == 1e5
        assert f["Header"].attrs["BoxSize"] > 0
        assert f["Orrery"].attrs["steps"].dtype.kind == "i"
        assert f["Parameters"].attrs["ComovingIntegrationOn"].dtype.kind == "i"
        # pynbody: a HubbleParam in Parameters means a cosmological run; its time is Time_GYR.
        assert "HubbleParam" not in f["Parameters"].attrs and c["a_scaling"] == 0
        assert f["Parameters"].attrs["Time_GYR"] == pytest.approx(sim.time_in("Gyr"), rel=1e-9)
    back = orrery.load(out, solver="cpu")
    assert back.units["name"] == sim.units["name"]
    assert np.allclose(back.positions, sim.positions, rtol=1e-6, atol=1e-7)


def write_swift(path, n=64):
    """A SWIFT-layout snapshot in SWIFT's own units (Mpc, 1e10 Msun, km/s), as its writer lays
    them out: a Units group of U_L, U_M, U_t, and Code = SWIFT."""
    rng = np.random.default_rng(5)
    pos = rng.normal(0, 0.01, (n, 3))  # Mpc
    vel = rng.normal(0, 50, (n, 3))    # km/s
    mass = np.full(n, 0.01)            # 1e10 Msun
    with h5py.File(path, "w") as f:
        h = f.create_group("Header")
        h.attrs["NumPart_ThisFile"] = np.array([0, n, 0, 0, 0, 0], np.int32)
        h.attrs["NumPart_Total"] = np.array([0, n, 0, 0, 0, 0], np.uint32)
        h.attrs["NumFilesPerSnapshot"] = 1
        h.attrs["Time"] = 0.25
        h.attrs["BoxSize"] = np.array([1.0, 1.0, 1.0])
        h.attrs["Code"] = np.bytes_("SWIFT")
        u = f.create_group("Units")
        u.attrs["Unit length in cgs (U_L)"] = np.array([KPC_CM * 1e3])
        u.attrs["Unit mass in cgs (U_M)"] = np.array([1e10 * MSUN_G])
        u.attrs["Unit time in cgs (U_t)"] = np.array([KPC_CM * 1e3 / 1e5])
        g = f.create_group("PartType1")
        g["Coordinates"] = pos
        g["Velocities"] = vel
        g["Masses"] = mass
        g["ParticleIDs"] = np.arange(n, dtype=np.uint64)
    return pos, vel, mass


def test_a_swift_file_in_its_own_units_reads_in_yt_after_orrery(tmp_path):
    pos, vel, mass = write_swift(tmp_path / "swift.hdf5")
    sim = orrery.load(tmp_path / "swift.hdf5", solver="cpu")
    assert sim.units["length_unit"] == "Mpc"
    info = sim.file_info
    assert info["format"] == "HDF5" and info["counts"]["halo"] == 64
    assert "SWIFT's Units group" in info["note"]
    assert np.allclose(sim.positions_in("kpc"), pos * 1e3, rtol=1e-6)
    assert np.allclose(sim.velocities_in("km/s"), vel, rtol=1e-5)
    out = tmp_path / "after.hdf5"
    sim.save(out)
    ds = yt.load(str(out))
    ad = ds.all_data()
    assert np.allclose(ad["PartType1", "Coordinates"].to("Mpc").value, pos, rtol=1e-6)
    assert np.allclose(ad["PartType1", "Velocities"].to("km/s").value, vel, rtol=1e-5)
    assert np.allclose(ad["PartType1", "Masses"].to("Msun").value, mass * 1e10, rtol=1e-6)
    # Time 0.25 in SWIFT's unit (Mpc / (km/s) = 977.8 Gyr).
    assert float(ds.current_time.to("Gyr")) == pytest.approx(0.25 * 977.8, rel=1e-3)
    yt.ParticleProjectionPlot(ds, "z", ("all", "particle_mass"))
    # Orrery's own reading gives the run back in Mpc.
    back = orrery.load(out, solver="cpu")
    assert back.units["length_unit"] == "Mpc"
    assert np.allclose(back.positions, sim.positions, rtol=1e-6)


def test_units_name_the_state_and_refuse_what_they_cannot_say(tmp_path):
    sim = orrery.Simulation(20, "plummer", solver="cpu")
    assert sim.units["name"] == "N-body units (G = 1, no physical scale)"
    assert sim.units["length_cm"] is None and sim.file_info is None
    with pytest.raises(ValueError, match=r"positions_in\('kpc'\): the state is in N-body units"):
        sim.positions_in("kpc")
    kpc = orrery.Simulation(20, "plummer", solver="cpu", units="1 kpc, 1e10 Msun")
    with pytest.raises(ValueError, match=r"velocities_in\('furlong/fortnight'\): 'furlong/fortnight' "
                                         r"is not a velocity"):
        kpc.velocities_in("furlong/fortnight")
    for bad, message in [("1 furlong, 1 Msun", "units: '1 furlong' is not a length"),
                         ("0 pc, 1 Msun", "is not a number > 0"),
                         ("1 pc", "LENGTH, MASS"), ("", "units: empty")]:
        with pytest.raises(ValueError, match=message):
            orrery.Simulation(20, "plummer", solver="cpu", units=bad)
    with pytest.raises(ValueError, match="units='henon' rescales a preset"):
        orrery.load(GALAXY, units="henon")
    with pytest.raises(ValueError, match="gadget_g with units"):
        orrery.load(GALAXY, units="1 kpc, 1e10 Msun", gadget_g=1.0)
    sim.save(tmp_path / "a.orrery")
    with pytest.raises(ValueError, match="units='1 kpc, 1 Msun': .*a.orrery is Orrery's format"):
        orrery.load(tmp_path / "a.orrery", units="1 kpc, 1 Msun")


def test_henon_units_for_a_preset():
    sim = orrery.Simulation(2000, "plummer", solver="cpu", units="henon", softening=1e-6)
    d = sim.diagnostics()
    assert d["mass"] == pytest.approx(1.0, abs=1e-6)
    assert d["energy"] == pytest.approx(-0.25, abs=1e-5)
    assert d["potential"] == pytest.approx(-0.5, abs=1e-5)  # virial radius 1
    with pytest.raises(ValueError, match="henon"):
        orrery.Simulation.from_arrays(np.zeros((2, 3)), None, 1.0, units="henon")


@pytest.mark.parametrize("group,field,value,message", [
    ("Units", "UnitMass_in_g", None, "UnitMass_in_g is missing"),
    ("Units", "UnitLength_in_cm", -1.0, "UnitLength_in_cm: not a number > 0"),
    ("Units", "UnitVelocity_in_cm_per_s", np.nan, "not finite"),
    ("Units", "Unit time in cgs (U_t)", 0.0, "not a number > 0"),
])
def test_a_units_group_with_missing_or_nonsense_fields_is_refused(tmp_path, group, field, value,
                                                                   message):
    path = tmp_path / "bad.hdf5"
    if field.startswith("Unit time"):
        write_swift(path)
    else:
        orrery.Simulation(10, "plummer", solver="cpu", units="1 kpc, 1e10 Msun").save(path)
    with h5py.File(path, "a") as f:
        if value is None:
            del f[group].attrs[field]
        else:
            f[group].attrs[field] = value
    with pytest.raises(ValueError, match=message):
        orrery.load(path, solver="cpu")


def test_the_programs_refuse_bad_units_with_exit_2_and_write_nothing(tmp_path):
    bench = bench_path()
    out = tmp_path / "x.hdf5"
    for units in ["1 furlong, 1 Msun", "-2 kpc, 1 Msun", "nan kpc, 1 Msun"]:
        r = subprocess.run([bench, "--preset", "plummer", "--n", "100", "--steps", "1",
                            "--units", units, "--save", str(out)], capture_output=True, text=True)
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("\n") == 1 and "--units" in r.stderr
        assert not out.exists()


def test_a_cosmological_snapshot_is_said_for_what_it_is(tmp_path):
    """GADGET-4's layout from a comoving run (h = 0.7, a = 0.5): opened, its units in kpc/h, a
    warning that Orrery integrates without expansion; saved, yt reads it as cosmological again."""
    path = tmp_path / "cosmo.hdf5"
    n = 50
    rng = np.random.default_rng(2)
    pos = rng.uniform(0, 1000, (n, 3))
    vel = rng.normal(0, 100, (n, 3))
    with h5py.File(path, "w") as f:
        h = f.create_group("Header")
        h.attrs["NumPart_ThisFile"] = np.array([0, n, 0, 0, 0, 0], np.int32)
        h.attrs["NumPart_Total"] = np.array([0, n, 0, 0, 0, 0], np.uint32)
        h.attrs["MassTable"] = np.array([0, 0.5, 0, 0, 0, 0])
        h.attrs["NumFilesPerSnapshot"] = 1
        h.attrs["Time"], h.attrs["Redshift"], h.attrs["BoxSize"] = 0.5, 1.0, 1000.0
        p = f.create_group("Parameters")
        p.attrs["HubbleParam"], p.attrs["Omega0"], p.attrs["OmegaLambda"] = 0.7, 0.3, 0.7
        p.attrs["ComovingIntegrationOn"] = 1
        p.attrs["UnitLength_in_cm"], p.attrs["UnitMass_in_g"] = KPC_CM, 1e10 * MSUN_G
        p.attrs["UnitVelocity_in_cm_per_s"] = 1e5
        g = f.create_group("PartType1")
        g["Coordinates"], g["Velocities"] = pos, vel
        g["ParticleIDs"] = np.arange(n, dtype=np.uint64)
    with pytest.warns(UserWarning, match="cosmological snapshot .*without expansion"):
        sim = orrery.load(path, solver="cpu")
    c = sim.units["cosmology"]
    assert c["comoving"] and c["hubble"] == 0.7 and c["scale_factor"] == 0.5
    assert sim.units["length_cm"] == pytest.approx(KPC_CM / 0.7)
    assert sim.time == 0.0 and sim.file_info["redshift"] == 1.0
    out = tmp_path / "out.hdf5"
    sim.save(out)
    ds = yt.load(str(out))
    assert ds.cosmological_simulation and ds.hubble_constant == pytest.approx(0.7)
    x = ds.all_data()["PartType1", "Coordinates"].to("kpccm/h").value
    assert np.allclose(x, pos, rtol=1e-6)
    bench = bench_path()
    r = subprocess.run([bench, "--load", str(path), "--steps", "1", "--solver", "cpu"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "note: a cosmological snapshot" in r.stdout and "without expansion" in r.stdout
