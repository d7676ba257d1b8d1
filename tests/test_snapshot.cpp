// Snapshots: Orrery's format and TIPSY round trips bit for bit, the exact restart on the CPU, CSV
// export, and every kind of bad file refused with one line naming the file and the fault.
#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "../src/sim/io/byte_io.h"
#include "orrery/snapshot.h"
#include "snapshot_checks.h"
#include "support.h"

namespace orrery::test {
namespace {

using ::testing::HasSubstr;

using test::TempDir;

Snapshot sample(int n = 37) {
  Snapshot s;
  s.bodies = make_preset(Preset::accretion, n, 9);
  s.bodies.pos[n - 1].x = -0.0f;
  s.bodies.vel[n / 2].y = std::numeric_limits<float>::denorm_min();
  RunState& r = s.run;
  r.time = 12.375;
  r.steps = 991;
  r.solver = "cpu-bh";
  r.block = 128;
  r.integrator = Integrator::yoshida4;
  r.params.dt = 0.003f, r.params.softening = 0.07f, r.params.damping = 1.0f;
  r.params.theta = 0.75f, r.params.gravity = true;
  // Bounces: reversed time refuses merges, in a file as at the setters.
  r.params.collisions = CollisionParams{CollisionMode::bounce, 0.25f, 40.0f};
  r.time_reversed = true;
  r.totals.energy_offset = -0.125;
  r.totals.wall_impulse = Vec3d{1.5, -2.0, 0.25};
  r.totals.contacts = 12345, r.totals.merges = 67, r.totals.wall_hits = 8, r.totals.truncated = 1;
  return s;
}

// Puts the checksum right after a deliberate change, so the check under test is the one that fires.
void reseal(std::vector<std::uint8_t>& b) {
  const std::uint64_t h = bytes::fnv1a64(b.data(), b.size() - 8);
  for (int k = 0; k < 8; ++k) b[b.size() - 8 + k] = static_cast<std::uint8_t>(h >> (8 * k));
}

void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
}

TEST(Snapshot, OrreryFormatRoundTripsBitForBit) {
  const Snapshot s = sample();
  const std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(b.size(), k_snapshot_header_bytes + 32 * s.bodies.pos.size() + 8);
  const Snapshot t = decode_snapshot(b.data(), b.size(), "x");
  EXPECT_TRUE(same_bits(t.bodies.pos, s.bodies.pos));
  EXPECT_TRUE(same_bits(t.bodies.vel, s.bodies.vel));
  EXPECT_EQ(t.format, SnapshotFormat::orrery);
  EXPECT_TRUE(t.run_recorded);
  EXPECT_EQ(t.run.time, s.run.time);
  EXPECT_EQ(t.run.steps, s.run.steps);
  EXPECT_EQ(t.run.solver, s.run.solver);
  EXPECT_EQ(t.run.block, s.run.block);
  EXPECT_EQ(t.run.integrator, s.run.integrator);
  EXPECT_EQ(t.run.params.dt, s.run.params.dt);
  EXPECT_EQ(t.run.params.softening, s.run.params.softening);
  EXPECT_EQ(t.run.params.theta, s.run.params.theta);
  EXPECT_EQ(t.run.params.gravity, s.run.params.gravity);
  EXPECT_EQ(t.run.params.collisions.mode, s.run.params.collisions.mode);
  EXPECT_EQ(t.run.params.collisions.restitution, s.run.params.collisions.restitution);
  EXPECT_EQ(t.run.params.collisions.box, s.run.params.collisions.box);
  EXPECT_EQ(t.run.time_reversed, true);
  EXPECT_EQ(t.run.totals.energy_offset, s.run.totals.energy_offset);
  EXPECT_EQ(t.run.totals.wall_impulse.y, s.run.totals.wall_impulse.y);
  EXPECT_EQ(t.run.totals.contacts, 12345);
  EXPECT_EQ(t.run.totals.truncated, 1);
  // The same content gives the same bytes.
  EXPECT_EQ(encode_snapshot(t, SnapshotFormat::orrery), b);
}

// Issue 42: a file with the adaptive step and reversed time loaded and ran backwards, though every
// setter refuses that pair; merges with reversed time likewise. Both are refused in one line.
TEST(Snapshot, APairTheSettersRefuseIsRefusedInAFile) {
  Snapshot adaptive = sample();
  adaptive.run.params.adaptive = true;
  adaptive.run.params.eta = 0.02f;
  adaptive.run.next_dt = 0.001;
  EXPECT_THAT(message_of(encode_snapshot(adaptive, SnapshotFormat::orrery)),
              HasSubstr("f.orrery: header: time cannot run backwards with the adaptive step"));
  Snapshot merging = sample();
  merging.run.params.collisions.mode = CollisionMode::merge;
  EXPECT_THAT(message_of(encode_snapshot(merging, SnapshotFormat::orrery)),
              HasSubstr("f.orrery: header: "));
  EXPECT_THAT(message_of(encode_snapshot(merging, SnapshotFormat::orrery)), HasSubstr("merge"));
  EXPECT_EQ(message_of(encode_snapshot(sample(), SnapshotFormat::orrery)), "(no error)");
}

// Issue 42: a double run naming a tree code was refused as "--precision double: ...", an option
// nobody typed. The file is named, and what it says.
TEST(Snapshot, ADoubleRunOfAModuleWithNoDoublePathIsNamedAsTheFiles) {
  Snapshot s = sample();
  s.run.params.collisions = CollisionParams{};
  s.run.params.precision = Precision::double_;
  widen_to_doubles(s.bodies);
  EXPECT_THAT(message_of(encode_snapshot(s, SnapshotFormat::orrery)),
              HasSubstr("f.orrery: header: a double-precision run of cpu-bh, which has no "
                        "double-precision path"));
  s.run.solver = "cpu";
  EXPECT_EQ(message_of(encode_snapshot(s, SnapshotFormat::orrery)), "(no error)");
}

TEST(Snapshot, SavesThroughATemporaryFileAndLoads) {
  TempDir d;
  const std::string path = d.path + "/a.orrery";
  const Snapshot s = sample();
  save_snapshot(path, s);
  EXPECT_EQ(d.entries(), 1);  // no temporary file left
  const Snapshot t = load_snapshot(path);
  EXPECT_TRUE(same_bits(t.bodies.pos, s.bodies.pos));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // A second save replaces it whole.
  Snapshot small = sample(3);
  save_snapshot(path, small);
  EXPECT_EQ(load_snapshot(path).bodies.size(), 3);
  EXPECT_EQ(d.entries(), 1);
}

TEST(Snapshot, AFailedSaveLeavesTheOldFile) {
  TempDir d;
  const std::string path = d.path + "/keep.orrery";
  save_snapshot(path, sample());
  const std::string before = read_file(path);
  Snapshot bad = sample();
  bad.run.solver = std::string(40, 'x');  // longer than the header holds
  try {
    save_snapshot(path, bad);
    ADD_FAILURE() << "saved";
  } catch (const SnapshotError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr(path));
    EXPECT_THAT(std::string(e.what()), HasSubstr("longer than"));
  }
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(d.entries(), 1);
  // A folder that does not exist: nothing made, one line naming the path (a failed write, not
  // bad input).
  try {
    save_snapshot(d.path + "/no/such/x.orrery", sample());
    ADD_FAILURE() << "saved";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("/no/such/x.orrery"));
  }
}

TEST(Snapshot, CheckCanSaveRefusesBadPlacesUpFront) {
  TempDir d;
  EXPECT_NO_THROW(check_can_save(d.path + "/new.orrery", "--save"));
  EXPECT_EQ(d.entries(), 0);  // creates nothing
  try {
    check_can_save(d.path + "/missing/x.orrery", "--save");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("--save"));
    EXPECT_THAT(std::string(e.what()), HasSubstr("cannot write in"));
  }
  EXPECT_THROW(check_can_save(d.path, "--save"), InputError);  // a folder
  EXPECT_THROW(check_can_save("", "--save"), InputError);
}

TEST(Snapshot, ExactRestartOnTheCpu) {
  check_exact_restarts("cpu", 301);
  check_exact_restarts("cpu-omp", 301);
  check_exact_restarts("cpu-bh", 301);
  // Merges: the survivors' count comes back too.
  const PresetSettings ps = preset_settings(Preset::accretion);
  SimParams p;
  p.gravity = ps.gravity;
  p.collisions = ps.collisions;
  p.collisions.mode = CollisionMode::merge;
  BodyState cloud = make_preset(Preset::accretion, 400, 3);
  for (Vec4& v : cloud.vel) v.w *= 4.0f;  // bigger balls: merges within the run
  check_exact_restart("cpu", Integrator::leapfrog, p, cloud, 10, 10);
}

TEST(Snapshot, TipsyRoundTripsMassPositionVelocityAndTime) {
  const Snapshot s = sample(50);
  const std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::tipsy);
  EXPECT_EQ(b.size(), 32u + 36u * 50u);
  EXPECT_EQ(b[12], 0);  // big-endian: ndim 3 is 00 00 00 03
  EXPECT_EQ(b[15], 3);
  const Snapshot t = decode_snapshot(b.data(), b.size(), "x.tipsy");
  EXPECT_EQ(t.format, SnapshotFormat::tipsy);
  EXPECT_FALSE(t.run_recorded);
  EXPECT_EQ(t.run.time, s.run.time);
  ASSERT_EQ(t.bodies.size(), 50);
  for (int i = 0; i < 50; ++i) {
    const Vec4 &p = t.bodies.pos[i], &q = s.bodies.pos[i];
    const Vec4 &v = t.bodies.vel[i], &w = s.bodies.vel[i];
    EXPECT_TRUE(p.x == q.x && p.y == q.y && p.z == q.z && p.w == q.w) << i;
    EXPECT_TRUE(v.x == w.x && v.y == w.y && v.z == w.z) << i;
    EXPECT_EQ(v.w, 0.0f);  // TIPSY keeps no radius
  }
}

// The same file in native little-endian order, with and without the header's padding.
TEST(Snapshot, TipsyReadsLittleEndianAndUnpaddedHeaders) {
  const Snapshot s = sample(20);
  const std::vector<std::uint8_t> big = encode_snapshot(s, SnapshotFormat::tipsy);
  std::vector<std::uint8_t> little = big;
  std::reverse(little.begin(), little.begin() + 8);  // the time
  for (std::size_t at = 8; at < little.size(); at += 4)
    std::reverse(little.begin() + at, little.begin() + at + 4);
  std::vector<std::uint8_t> unpadded(big.begin(), big.begin() + 28);
  unpadded.insert(unpadded.end(), big.begin() + 32, big.end());
  for (const auto* b : {&little, &unpadded}) {
    const Snapshot t = decode_snapshot(b->data(), b->size(), "x.tipsy");
    ASSERT_EQ(t.bodies.size(), 20);
    EXPECT_TRUE(same_bits(t.bodies.pos, decode_snapshot(big.data(), big.size(), "b").bodies.pos));
    EXPECT_EQ(t.run.time, s.run.time);
  }
}

TEST(Snapshot, FormatFollowsTheName) {
  EXPECT_EQ(snapshot_format_for("a/b.tipsy"), SnapshotFormat::tipsy);
  EXPECT_EQ(snapshot_format_for("B.TIPSY"), SnapshotFormat::tipsy);
  EXPECT_EQ(snapshot_format_for("run.orrery"), SnapshotFormat::orrery);
  EXPECT_EQ(snapshot_format_for("tipsy"), SnapshotFormat::orrery);
}

TEST(Snapshot, CsvHasAHeaderAndFloatsThatRoundTrip) {
  const Snapshot s = sample(5);
  const std::string text = csv_text(s.bodies);
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "x,y,z,vx,vy,vz,mass,radius");
  int rows = 0;
  while (std::getline(in, line)) {
    float f[8];
    ASSERT_EQ(std::sscanf(line.c_str(), "%f,%f,%f,%f,%f,%f,%f,%f", &f[0], &f[1], &f[2], &f[3],
                          &f[4], &f[5], &f[6], &f[7]),
              8);
    const Vec4 &p = s.bodies.pos[rows], &v = s.bodies.vel[rows];
    EXPECT_TRUE(f[0] == p.x && f[1] == p.y && f[2] == p.z && f[6] == p.w) << rows;
    EXPECT_TRUE(f[3] == v.x && f[4] == v.y && f[5] == v.z && f[7] == v.w) << rows;
    ++rows;
  }
  EXPECT_EQ(rows, 5);
}

TEST(Snapshot, BadOrreryFilesAreRefusedWithTheirFault) {
  const std::vector<std::uint8_t> good = encode_snapshot(sample(10), SnapshotFormat::orrery);
  auto with = [&](auto change) {
    std::vector<std::uint8_t> b = good;
    change(b);
    return message_of(b);
  };
  // Truncated anywhere.
  for (std::size_t cut :
       {std::size_t{0}, std::size_t{5}, std::size_t{100}, std::size_t{300}, good.size() - 1}) {
    const std::string m = message_of(std::vector<std::uint8_t>(good.begin(), good.begin() + cut));
    EXPECT_THAT(m, HasSubstr("f.orrery")) << cut;
    EXPECT_TRUE(m.find("truncated") != std::string::npos || m.find("empty") != std::string::npos ||
                m.find("neither") != std::string::npos)
        << cut << ": " << m;
  }
  EXPECT_THAT(with([](auto& b) { b[0] = 'X'; }), HasSubstr("wrong magic"));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 8, 7), reseal(b); }),
              HasSubstr("unknown format version 7"));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 12, 0x11223344u); }), HasSubstr("byte-order mark"));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 24, 11), reseal(b); }),
              HasSubstr("truncated: the header's N 11 needs"));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 28, 1), reseal(b); }),
              HasSubstr("more than this build reads"));
  EXPECT_THAT(with([](auto& b) { b[300] ^= 1; }), HasSubstr("checksum mismatch"));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_THAT(with([&](auto& b) { std::memcpy(&b[256 + 16 * 4], &nan, 4), reseal(b); }),
              HasSubstr("body 4: its position is not finite"));
  EXPECT_THAT(with([&](auto& b) { std::memcpy(&b[256 + 160 + 16 * 2 + 4], &inf, 4), reseal(b); }),
              HasSubstr("body 2: its velocity is not finite"));
  EXPECT_THAT(with([&](auto& b) {
                const float neg = -1.0f;
                std::memcpy(&b[256 + 160 + 16 * 3 + 12], &neg, 4), reseal(b);
              }),
              HasSubstr("body 3: its radius is negative"));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 84, 9), reseal(b); }),
              HasSubstr("unknown integrator 9"));
  EXPECT_THAT(with([&](auto& b) { std::memcpy(&b[88], &nan, 4), reseal(b); }),
              HasSubstr("header: "));
  EXPECT_THAT(with([](auto& b) { put_u32(b, 104, 5), reseal(b); }),
              HasSubstr("unknown collision mode 5"));
  EXPECT_THAT(with([](auto& b) { b[48 + 2] = 0x07, reseal(b); }), HasSubstr("not text"));
  EXPECT_THAT(with([](auto& b) { b.insert(b.end() - 8, 32, 0), reseal(b); }),
              HasSubstr("longer than its header says"));
  // Issue 21: a header alone is not "shorter than a header".
  EXPECT_THAT(message_of(std::vector<std::uint8_t>(good.begin(), good.begin() + 256)),
              HasSubstr("256 bytes, a header (256 bytes) with no bodies and no checksum"));
}

TEST(Snapshot, BadTipsyFilesAreRefusedWithTheirFault) {
  std::vector<std::uint8_t> b = encode_snapshot(sample(10), SnapshotFormat::tipsy);
  // Absurd counts: not taken for TIPSY at all (the counts do not match the size).
  std::vector<std::uint8_t> absurd = b;
  absurd[8] = 0x7f;  // nbodies about 2^31
  EXPECT_THAT(message_of(absurd, "x.tipsy"), HasSubstr("x.tipsy: neither"));
  // A NaN in a record.
  std::vector<std::uint8_t> nan = b;
  nan[32 + 36 * 2 + 4] = 0x7f, nan[32 + 36 * 2 + 5] = 0xc0;  // body 2's x, big-endian NaN
  EXPECT_THAT(message_of(nan, "x.tipsy"), HasSubstr("x.tipsy: body 2: its position"));
  // Truncated by one record.
  std::vector<std::uint8_t> cut(b.begin(), b.end() - 36);
  EXPECT_THAT(message_of(cut, "x.tipsy"), HasSubstr("neither"));
  // Issue 21: counts that match the size, but two dimensions or no bodies, say that (they were
  // told "no header whose counts match the size").
  std::vector<std::uint8_t> flat = b;
  flat[15] = 2;  // ndim, big-endian, after the 8-byte time and nbodies
  EXPECT_THAT(message_of(flat, "x.tipsy"),
              HasSubstr("x.tipsy: a TIPSY file of 2 dimensions (its header's ndim)"));
  std::vector<std::uint8_t> none(b.begin(), b.begin() + 32);
  for (int k : {8, 9, 10, 11, 20, 21, 22, 23}) none[static_cast<std::size_t>(k)] = 0;  // N, dark
  EXPECT_THAT(message_of(none, "x.tipsy"), HasSubstr("x.tipsy: a TIPSY file with no bodies"));
}

TEST(Snapshot, MissingFilesAndFoldersAreOneLine) {
  TempDir d;
  try {
    load_snapshot(d.path + "/nope.orrery");
    ADD_FAILURE();
  } catch (const SnapshotError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("nope.orrery: cannot open"));
  }
  try {
    load_snapshot(d.path);
    ADD_FAILURE();
  } catch (const SnapshotError& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("is a folder"));
  }
  // Issue 21: a regular file whose read fails part-way names the file (it was a bare
  // "basic_filebuf::underflow error", exit 1).
  if (access("/proc/self/mem", F_OK) == 0) {
    try {
      load_snapshot("/proc/self/mem");
      ADD_FAILURE();
    } catch (const SnapshotError& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr("/proc/self/mem: cannot read"));
    }
  }
}

// Version 6's rows block: parameter rows the fixed header has no place for, by name. Today every
// row has a place, so the block is built here by hand, as a later build with a new row would
// write it: each row read by name, and a row this build does not know refused, not dropped.
std::vector<std::uint8_t> with_rows(const std::vector<std::pair<std::string, double>>& rows,
                                    std::uint32_t version = 6) {
  Snapshot s;
  s.bodies = make_preset(Preset::plummer, 5, 3);
  std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(b[8], 1);  // version 1: no block of its own
  put_u32(b, 8, version);
  put_u32(b, 20, b[20] | 256u);
  std::vector<std::uint8_t> block;
  for (const auto& [name, value] : rows) {
    char text[32] = {};
    std::memcpy(text, name.data(), std::min<std::size_t>(name.size(), 31));
    block.insert(block.end(), text, text + 32);
    std::uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int k = 0; k < 8; ++k) block.push_back(static_cast<std::uint8_t>(bits >> (8 * k)));
  }
  for (int k = 0; k < 4; ++k) block.push_back(static_cast<std::uint8_t>(rows.size() >> (8 * k)));
  b.insert(b.end() - 8, block.begin(), block.end());
  reseal(b);
  return b;
}

TEST(Snapshot, TheRowsBlockSetsRowsByName) {
  const std::vector<std::uint8_t> b = with_rows({{"theta", 0.375}, {"damping", 0.5}});
  const Snapshot s = decode_snapshot(b.data(), b.size(), "rows.orrery");
  EXPECT_EQ(s.run.params.theta, 0.375f);
  EXPECT_EQ(s.run.params.damping, 0.5f);
  EXPECT_EQ(s.bodies.pos.size(), 5u);
  // Rows a file written today does not need: no block, the version it always had.
  const std::vector<std::uint8_t> plain = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(plain[8], 1);
  EXPECT_EQ(plain.size(), b.size() - 2 * 40 - 4);
}

TEST(Snapshot, TheRowsBlockRefusesWhatItCannotSet) {
  const auto error_of = [](const std::vector<std::uint8_t>& b) {
    try {
      decode_snapshot(b.data(), b.size(), "rows.orrery");
    } catch (const SnapshotError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_THAT(error_of(with_rows({{"warp_factor", 9}})),
              HasSubstr("parameter 'warp_factor' is not one this build knows"));
  EXPECT_THAT(error_of(with_rows({{"fov", 40}})), HasSubstr("parameter 'fov' is not one"));
  EXPECT_THAT(error_of(with_rows({{"theta", std::nan("")}})),
              HasSubstr("parameter theta is not finite"));
  EXPECT_THAT(error_of(with_rows({{"theta", 0.5}}, 5)), HasSubstr("unknown flags"));
  std::vector<std::uint8_t> lying = with_rows({{"theta", 0.5}});
  put_u32(lying, lying.size() - 12, 1000);  // a count larger than the file
  reseal(lying);
  EXPECT_THAT(error_of(lying), HasSubstr("too few for its parameter rows"));
  put_u32(lying, lying.size() - 12, 5000);
  reseal(lying);
  EXPECT_THAT(error_of(lying), HasSubstr("5000 parameter rows"));
}

}  // namespace
}  // namespace orrery::test
