// GADGET-2 binary snapshots: the real example files GADGET-2 ships (../shared/data, and the copy in
// assets/gadget), SnapFormat 2, both byte orders, double precision and multi-file sets written
// here, the unit conversion, --types, and damaged or lying files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "../src/sim/io/byte_io.h"
#include "bench_cli_support.h"
#include "gadget_writer.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using test::gadget_file;
using test::Spec;
using test::temp_path;
using test::write;

const std::string k_galaxy = std::string(ORRERY_SOURCE_DIR) + "/assets/gadget/galaxy.dat";
const std::string k_shared = std::string(ORRERY_SOURCE_DIR) + "/../shared/data/";

// Three gas particles with their own masses and two halo particles of the table's mass.
Spec small_spec() {
  Spec s;
  s.npart = {3, 2, 0, 0, 0, 0};
  s.mass_table = {0, 0.5, 0, 0, 0, 0};
  for (int i = 0; i < 5; ++i) {
    s.pos.insert(s.pos.end(), {1.0 * i, 2.0 * i, -1.0 * i});
    s.vel.insert(s.vel.end(), {10.0 * i, 0.0, 1.0});
    s.ids.push_back(100 + static_cast<std::uint32_t>(i));
  }
  s.masses = {0.1, 0.2, 0.3};
  return s;
}

LoadOptions g1() {
  LoadOptions o;
  o.gadget_g = 1.0;
  o.gadget_g_given = true;
  return o;
}

TEST(Gadget, TheGalaxyExampleHasItsCountsMassesAndTypes) {
  const Snapshot s = load_snapshot(k_galaxy);
  ASSERT_EQ(s.bodies.size(), 60000);
  EXPECT_EQ(s.format, SnapshotFormat::gadget2);
  EXPECT_FALSE(s.run_recorded);
  ASSERT_EQ(s.types.size(), 60000u);
  double total = 0;
  for (int i = 0; i < 60000; ++i) {
    const int t = s.types[static_cast<std::size_t>(i)];
    EXPECT_EQ(t, i < 40000 ? 1 : 2);
    EXPECT_FLOAT_EQ(s.bodies.pos[static_cast<std::size_t>(i)].w,
                    i < 40000 ? 1.0463387e-3f : 2.3251971e-4f);
    total += s.bodies.pos[static_cast<std::size_t>(i)].w;
  }
  EXPECT_NEAR(total, 40000 * 1.0463387006893754e-3 + 20000 * 2.3251971288118511e-4, 1e-6);
  // IDs as written: 1 to 60000 in order.
  EXPECT_EQ(s.ids.front(), 1u);
  EXPECT_EQ(s.ids.back(), 60000u);
  EXPECT_NE(s.units_note.find("43007.1"), std::string::npos) << s.units_note;
}

TEST(Gadget, VelocitiesAreScaledSoThatGIsOne) {
  const Snapshot standard = load_snapshot(k_galaxy);
  const Snapshot raw = load_snapshot(k_galaxy, g1());
  const double k = std::sqrt(43007.1);
  for (std::size_t i : {0u, 12345u, 59999u}) {
    EXPECT_EQ(standard.bodies.pos[i].x, raw.bodies.pos[i].x);  // lengths and masses as in the file
    EXPECT_EQ(standard.bodies.pos[i].w, raw.bodies.pos[i].w);
    EXPECT_NEAR(standard.bodies.vel[i].y, raw.bodies.vel[i].y / k,
                1e-6 * std::fabs(raw.bodies.vel[i].y / k) + 1e-9);
  }
}

TEST(Gadget, TheGasSphereReadsTheSameInBothByteOrders) {
  if (!std::ifstream(k_shared + "gassphere_bigendian.dat"))
    GTEST_SKIP() << "no " << k_shared << " (the shared data beside the repository)";
  const Snapshot le = load_snapshot(k_shared + "gassphere_littleendian.dat", g1());
  const Snapshot be = load_snapshot(k_shared + "gassphere_bigendian.dat", g1());
  ASSERT_EQ(le.bodies.size(), 1472);
  ASSERT_EQ(be.bodies.size(), 1472);
  double total = 0;
  for (std::size_t i = 0; i < 1472; ++i) {
    EXPECT_EQ(le.types[i], 0);
    EXPECT_EQ(std::memcmp(&le.bodies.pos[i], &be.bodies.pos[i], sizeof(Vec4)), 0) << i;
    EXPECT_EQ(std::memcmp(&le.bodies.vel[i], &be.bodies.vel[i], sizeof(Vec4)), 0) << i;
    EXPECT_GT(le.bodies.pos[i].w, 0.0f);  // from the MASS block: the table's is 0
    total += le.bodies.pos[i].w;
  }
  EXPECT_NEAR(total, 1.0, 1e-4);  // the example's sphere has unit mass
}

TEST(Gadget, FormatTwoBigEndianAndDoublesGiveTheSameBodies) {
  const Spec base = small_spec();
  std::vector<Snapshot> read;
  for (int variant = 0; variant < 4; ++variant) {
    Spec s = base;
    s.format2 = variant & 1;
    s.big = variant & 2;
    s.doubles = variant == 3;
    const std::string path = temp_path("small" + std::to_string(variant) + ".gadget");
    write(path, gadget_file(s));
    read.push_back(load_snapshot(path, g1()));
    std::remove(path.c_str());
  }
  for (const Snapshot& s : read) {
    ASSERT_EQ(s.bodies.size(), 5);
    EXPECT_EQ(s.types, (std::vector<std::uint8_t>{0, 0, 0, 1, 1}));
    EXPECT_EQ(s.ids, (std::vector<std::uint64_t>{100, 101, 102, 103, 104}));
    EXPECT_FLOAT_EQ(s.bodies.pos[1].w, 0.2f);  // MASS block
    EXPECT_FLOAT_EQ(s.bodies.pos[4].w, 0.5f);  // MassTable
    EXPECT_FLOAT_EQ(s.bodies.pos[4].y, 8.0f);
    EXPECT_FLOAT_EQ(s.bodies.vel[2].x, 20.0f);
  }
}

TEST(Gadget, ASetOfFilesOpensFromAnyOfItsNames) {
  Spec a = small_spec(), b = small_spec();
  a.num_files = b.num_files = 2;
  a.total = b.total = {6, 4, 0, 0, 0, 0};
  const std::string base = temp_path("snap_005");
  write(base + ".0", gadget_file(a));
  write(base + ".1", gadget_file(b));
  for (const std::string& name : {base, base + ".0", base + ".1"}) {
    const Snapshot s = load_snapshot(name, g1());
    EXPECT_EQ(s.bodies.size(), 10) << name;
    EXPECT_EQ(s.types[5], 0);  // the second file's first gas particle
    EXPECT_FLOAT_EQ(s.bodies.pos[6].w, 0.2f);
  }
  std::remove((base + ".1").c_str());
  try {
    load_snapshot(base + ".0", g1());
    FAIL() << "a set with a file missing was read";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find(base + ".1: cannot open"), std::string::npos) << e.what();
  }
  // A header total that the files do not hold.
  a.total = {9, 4, 0, 0, 0, 0};
  write(base + ".0", gadget_file(a));
  write(base + ".1", gadget_file(b));
  EXPECT_THROW(load_snapshot(base, g1()), SnapshotError);
  std::remove((base + ".0").c_str());
  std::remove((base + ".1").c_str());
}

TEST(Gadget, TypesPicksASubset) {
  LoadOptions o;
  o.types = {2};
  const Snapshot disk = load_snapshot(k_galaxy, o);
  EXPECT_EQ(disk.bodies.size(), 20000);
  for (std::uint8_t t : disk.types) EXPECT_EQ(t, 2);
  o.types = {5};
  EXPECT_THROW(load_snapshot(k_galaxy, o), SnapshotError);
  EXPECT_THROW(parse_load_options(std::string("1,7"), std::nullopt), InputError);
  EXPECT_THROW(parse_load_options(std::nullopt, std::string("0")), InputError);
  EXPECT_THROW(parse_load_options(std::nullopt, std::string("-1")), InputError);
  EXPECT_EQ(parse_load_options(std::string("0,4"), std::string("1")).types,
            (std::vector<int>{0, 4}));
}

// Every damaged file is one SnapshotError naming the file and what is wrong, never a read past its
// end or an allocation the file cannot back.
TEST(Gadget, DamagedAndLyingFilesAreRefused) {
  const std::vector<std::uint8_t> good = gadget_file(small_spec());
  struct Case {
    std::string what, says;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<Case> cases;
  auto with = [&](std::size_t at, std::uint32_t v) {
    std::vector<std::uint8_t> b = good;
    std::memcpy(&b[at], &v, 4);
    return b;
  };
  cases.push_back({"truncated in POS", "past the end", {good.begin(), good.begin() + 300}});
  cases.push_back({"truncated after a block", "truncated", {good.begin(), good.begin() + 262}});
  cases.push_back({"closing marker differs", "markers disagree", with(260, 255)});
  cases.push_back(
      {"2^31 - 1 gas particles", "particles, more than Orrery holds", with(4, 0x7fffffffu)});
  cases.push_back({"a million particles in a tiny file", "but the file has", with(4, 1000000u)});
  cases.push_back({"a negative count", "negative count", with(8, 0xffffffffu)});
  {
    Spec s = small_spec();
    s.pos[4] = NAN;
    cases.push_back({"a NaN position", "body 1", gadget_file(s)});
  }
  {
    // SnapFormat 2 only: in SnapFormat 1 the block after ID is the MASS block by its place.
    Spec s = small_spec();
    s.masses.clear();
    s.format2 = true;
    cases.push_back({"no MASS block", "no MASS block", gadget_file(s)});
  }
  {
    // SnapFormat 1 finds blocks by place: without MASS the gas's U (3 floats, as many as the
    // masses) would sit in its place; without ID the MASS block would be read as the IDs.
    Spec s = small_spec();
    s.masses.clear();
    cases.push_back({"format 1 with U but no MASS", "one is missing", gadget_file(s)});
    Spec t = small_spec();
    t.id_block = false;
    cases.push_back(
        {"format 1 with no ID block", "asks for POS, VEL, ID, MASS, U", gadget_file(t)});
  }
  {
    Spec s = small_spec();
    s.pos.pop_back();
    s.pos.pop_back();
    s.pos.pop_back();
    cases.push_back({"POS of 4 particles", "POS: 48 bytes for 5 particles", gadget_file(s)});
  }
  {
    Spec s = small_spec();
    s.num_files = 3;
    cases.push_back({"a set of 3 with no others", "cannot open", gadget_file(s)});
  }
  for (const Case& c : cases) {
    const std::string path = temp_path("bad.gadget");
    write(path, c.bytes);
    try {
      load_snapshot(path, g1());
      ADD_FAILURE() << c.what << ": read";
    } catch (const SnapshotError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(c.says), std::string::npos) << c.what << ": " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << c.what;
    }
    std::remove(path.c_str());
  }
}

// Issue 43: a lone file whose header's totals disagree with its own counts (as cut-down test files
// and some writers leave them) is read by its own counts, as AMUSE and yt read it, and says so;
// a file that says it is one of a set still has its totals checked.
TEST(Gadget, ALoneFileIsReadByItsOwnCounts) {
  Spec s = small_spec();
  s.total = {7, 9, 0, 0, 0, 0};
  for (int files : {0, 1}) {
    s.num_files = files;
    const std::string path = temp_path("lone.gadget");
    write(path, gadget_file(s));
    const Snapshot snap = load_snapshot(path, g1());
    EXPECT_EQ(snap.bodies.size(), 5);
    EXPECT_NE(
        snap.units_note.find("header's totals (16 particles) disagree with this lone file's own "
                             "counts (5)"),
        std::string::npos)
        << snap.units_note;
    std::remove(path.c_str());
  }
  {
    // Totals past 2^62 through the high words (byte 168 of the header, after the record's
    // marker): the note's sum must not overflow (the fuzzer found it).
    s.num_files = 1;
    std::vector<std::uint8_t> b = gadget_file(s);
    for (int t : {1, 2}) b[4 + 168 + 4 * t + 3] = 0x40;
    const std::string path = temp_path("huge.gadget");
    write(path, b);
    const Snapshot snap = load_snapshot(path, g1());
    EXPECT_EQ(snap.bodies.size(), 5);
    EXPECT_NE(snap.units_note.find("disagree"), std::string::npos) << snap.units_note;
    std::remove(path.c_str());
  }
  s.total = {3, 2, 0, 0, 0, 0};  // agreeing totals: nothing to say
  s.num_files = 1;
  const std::string path = temp_path("agree.gadget");
  write(path, gadget_file(s));
  EXPECT_EQ(load_snapshot(path, g1()).units_note.find("disagree"), std::string::npos);
  std::remove(path.c_str());
}

TEST(Gadget, TheBenchLoadsItAndRefusesBadTypes) {
  REQUIRE_BENCH();
  const test::Outcome o = test::run_bench(
      {"--load", k_galaxy, "--types", "2", "--solver", "cpu-bh", "--steps", "1", "--warmup", "0"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("loaded: GADGET-2 snapshot, 20000 bodies"), std::string::npos) << o.out;
  test::expect_usage_error({"--load", k_galaxy, "--types", "5", "--steps", "1"},
                           "no particle of those types");
  test::expect_usage_error({"--types", "1", "--n", "8", "--steps", "1"},
                           "--types: only with --load");
  test::expect_usage_error({"--load", k_galaxy, "--gadget-g", "0", "--steps", "1"},
                           "--gadget-g '0': must be > 0");
}

}  // namespace
}  // namespace orrery
