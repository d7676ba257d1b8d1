// Units (issue 43): --units' grammar and its refusals, the factors between unit systems, the
// GADGET-2 file's units and their round trip through Orrery's format and HDF5, and Henon's
// scaling.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "../src/sim/io/byte_io.h"
#include "bench_cli_support.h"
#include "orrery/diagnostics.h"
#include "orrery/formats.h"
#include "orrery/presets.h"
#include "orrery/snapshot.h"
#include "orrery/units.h"
#include "orrery/version.h"

namespace orrery {
namespace {

using test::temp_path;

const std::string k_galaxy = std::string(ORRERY_SOURCE_DIR) + "/assets/gadget/galaxy.dat";

TEST(Units, ALengthAndAMassGiveTheVelocityThatMakesGOne) {
  const UnitSystem u = parse_units("1 pc, 1 Msun", "--units").units;
  EXPECT_TRUE(u.physical());
  EXPECT_EQ(u.g, 1.0);
  EXPECT_DOUBLE_EQ(u.length_cm, 3.085678e18);
  EXPECT_DOUBLE_EQ(u.mass_g, 1.989e33);
  // sqrt(G Msun / pc) = 0.0656 km/s
  EXPECT_NEAR(u.velocity_cm_s, std::sqrt(k_g_cgs * 1.989e33 / 3.085678e18), 1e-9);
  EXPECT_NEAR(u.velocity_cm_s / 1e5, 0.06557, 1e-4);
  EXPECT_NEAR(u.g_cgs(), k_g_cgs, 1e-20);
}

TEST(Units, GadgetsUnitsHaveGadgetsG) {
  const UnitSystem u = parse_units("1 kpc, 1e10 Msun, 1 km/s", "--units").units;
  // CODATA's G (43021.9); GADGET-2's own 6.672e-8 gives 43007.1.
  EXPECT_NEAR(u.g, k_g_cgs * 1.989e43 / (3.085678e21 * 1e10), 1e-9);
  EXPECT_NEAR(u.g, 43021.9, 0.1);
  const UnitSystem g = parse_units("gadget", "--units").units;
  EXPECT_EQ(g.g, k_gadget_g);
  EXPECT_NEAR(g.g_cgs(), k_gadget_g_cgs, 1e-11);
  EXPECT_EQ(describe(g), "kpc, 1e10 Msun, km/s (G = 43007.1)");
  EXPECT_EQ(time_name(g), "977.8 Myr");
  EXPECT_EQ(time_text(g, std::sqrt(k_gadget_g)), "977.8 Myr");  // one time unit of the file's
  EXPECT_EQ(time_text(g, std::sqrt(k_gadget_g) * 2e-3), "1.956 Myr");
  EXPECT_EQ(time_text(nbody_units(), 5.0), "");
  EXPECT_EQ(length_text(g, 50.0), "50 kpc");
  EXPECT_EQ(length_text(g, 0.2), "200 pc");
  EXPECT_EQ(length_text(g, 2000.0), "2 Mpc");
  EXPECT_EQ(length_text(nbody_units(), 5.0), "");
  EXPECT_FALSE(parse_units("nbody", "--units").units.physical());
  EXPECT_TRUE(parse_units("henon", "--units").henon);
}

TEST(Units, BadUnitsAreOneLineNamingThePart) {
  const auto refused = [](const std::string& text, const std::string& part) {
    try {
      parse_units(text, "--units");
      ADD_FAILURE() << text << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  };
  refused("", "--units: empty");
  refused("1 furlong, 1 Msun", "'1 furlong' is not a length");
  refused("1 kpc, 1 stone", "'1 stone' is not a mass");
  refused("1 kpc, 1 Msun, 3 knots", "'3 knots' is not a velocity");
  refused("0 kpc, 1 Msun", "is not a number > 0");
  refused("-1 kpc, 1 Msun", "is not a number > 0");
  refused("nan kpc, 1 Msun", "--units (the length)");
  refused("1e999 kpc, 1 Msun", "--units (the length)");
  refused("1 kpc", "'LENGTH, MASS[, VELOCITY]'");
  refused("1 kpc, 1 Msun, 1 km/s, 1 s", "'LENGTH, MASS[, VELOCITY]'");
  refused("parsecs", "'LENGTH, MASS[, VELOCITY]'");
  EXPECT_THROW(parse_load_options(std::nullopt, std::string("5"), std::string("1 kpc, 1 Msun")),
               InputError);
  EXPECT_THROW(parse_load_options(std::nullopt, std::nullopt, std::string("henon")), InputError);
  // nbody with --gadget-g: G in a scale-free file's units.
  const LoadOptions o = parse_load_options(std::nullopt, std::string("5"), std::string("nbody"));
  ASSERT_TRUE(o.units);
  EXPECT_EQ(o.units->g, 5.0);
}

TEST(Units, FactorsKeepGInCgs) {
  const UnitSystem pc = parse_units("1 pc, 1 Msun", "u").units;
  const UnitSystem out = rebased(pc, gadget_units());
  const UnitFactors f = factors(pc, out);
  EXPECT_DOUBLE_EQ(f.length, 1e-3);
  EXPECT_DOUBLE_EQ(f.mass, 1e-10);
  EXPECT_NEAR(out.g_cgs(), pc.g_cgs(), 1e-20);
  EXPECT_NEAR(f.velocity, pc.velocity_cm_s / 1e5, 1e-15);
}

TEST(Units, AGadgetFileBringsGadgetsUnitsThroughEveryFormat) {
  const Snapshot g = load_snapshot(k_galaxy);
  EXPECT_EQ(g.run.units, gadget_units());
  EXPECT_NE(g.units_note.find("kpc, 1e10 Msun, km/s (G = 43007.1)"), std::string::npos)
      << g.units_note;
  Snapshot s = g;
  s.run.solver = "cpu";
  for (const char* ext : {".orrery", ".hdf5"}) {
    const std::string path = temp_path(std::string("units") + ext);
    save_snapshot(path, s);
    const Snapshot back = load_snapshot(path);
    LoadOptions other;  // the file's own units refuse others
    other.units = gadget_units();
    EXPECT_THROW(load_snapshot(path, other), SnapshotError) << ext;
    std::remove(path.c_str());
    EXPECT_EQ(back.run.units, gadget_units()) << ext;
    for (std::size_t i : {0u, 777u, 59999u}) {
      EXPECT_EQ(back.bodies.pos[i].x, g.bodies.pos[i].x) << ext;  // kpc both ways: as written
      EXPECT_EQ(back.bodies.pos[i].w, g.bodies.pos[i].w) << ext;
      EXPECT_NEAR(back.bodies.vel[i].y, g.bodies.vel[i].y, 1e-6 * std::fabs(g.bodies.vel[i].y))
          << ext;
    }
  }
}

TEST(Units, HdfHoldsVelocitiesInKmPerSecondNot207TimesLess) {
  // The case: a GADGET-2 file saved as HDF5 kept the run's G = 1 velocities, which every
  // GADGET reader took for km/s (207 times too slow). Read back with GADGET's default units (as
  // a reader with no unit knowledge does: gadget_g left as it is, the Orrery group ignored), the
  // velocities must be the file's.
  const Snapshot g = load_snapshot(k_galaxy);
  LoadOptions raw;
  raw.gadget_g = 1.0, raw.gadget_g_given = true;
  const Snapshot file = load_snapshot(k_galaxy, raw);  // the numbers as written, km/s
  Snapshot s = g;
  s.run.solver = "cpu";
  const std::string path = temp_path("kms.hdf5");
  save_snapshot(path, s);
  // Orrery reads its own file back into G = 1 units: the engine's values again.
  const Snapshot back = load_snapshot(path);
  std::remove(path.c_str());
  for (std::size_t i : {0u, 4321u, 59999u}) {
    const double written = back.bodies.vel[i].x * std::sqrt(back.run.units.g);
    EXPECT_NEAR(written, file.bodies.vel[i].x, 2e-6 * std::fabs(file.bodies.vel[i].x) + 1e-6);
  }
}

TEST(Units, HenonsUnitsAreExact) {
  BodyState s = make_preset(Preset::plummer, 3000, 7);
  scale_to_henon(s);
  double m = 0, t = 0;
  for (std::size_t i = 0; i < s.pos.size(); ++i) {
    m += s.pos[i].w;
    const Vec4& v = s.vel[i];
    t += 0.5 * s.pos[i].w * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  }
  const double w = potential_energy(s.pos, 0.0f);
  EXPECT_NEAR(m, 1.0, 1e-6);
  EXPECT_NEAR(t + w, -0.25, 1e-6);
  EXPECT_NEAR(-m * m / (2 * w), 1.0, 1e-6);  // the virial radius
  BodyState cold = make_preset(Preset::plummer, 10, 1);
  for (Vec4& v : cold.vel) v.x = v.y = v.z = 0;
  EXPECT_THROW(scale_to_henon(cold), InputError);
  BodyState one = make_preset(Preset::plummer, 1, 1);
  EXPECT_THROW(scale_to_henon(one), InputError);
}

TEST(Units, OrrerysFormatRefusesDamagedUnits) {
  Snapshot s;
  s.bodies = make_preset(Preset::plummer, 5, 1);
  s.run.units = parse_units("1 pc, 1 Msun", "u").units;
  std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(decode_snapshot(b.data(), b.size(), "u.orrery").run.units, s.run.units);
  // The units block sits before the checksum: a negative length with its checksum fixed.
  const std::size_t at = b.size() - 8 - 72;
  const double bad = -1.0;
  std::memcpy(b.data() + at, &bad, 8);
  const std::uint64_t h = bytes::fnv1a64(b.data(), b.size() - 8);
  std::memcpy(b.data() + b.size() - 8, &h, 8);
  try {
    decode_snapshot(b.data(), b.size(), "u.orrery");
    ADD_FAILURE() << "a negative length unit was taken";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("units: a unit or G"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace orrery

namespace orrery {
namespace {

// Issue 46's one version: --version prints it and exits 0; the files record it.
TEST(Version, BothProgramsAndTheFilesSayTheOneVersion) {
  const std::string v = version_description();
  EXPECT_EQ(v.rfind(version_number(), 0), 0u) << v;
  const test::Outcome o = test::run_bench({"--version"});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.out, "orrery-bench " + v + "\n");
  Snapshot s;
  s.bodies = make_preset(Preset::plummer, 4, 1);
  const std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data()) + 216), v.substr(0, 39));
  const std::string pep = version_pep440();
  EXPECT_EQ(pep.rfind(version_number(), 0), 0u);
  for (char c : pep.substr(std::string(version_number()).size()))
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+') << pep;
}

}  // namespace
}  // namespace orrery
