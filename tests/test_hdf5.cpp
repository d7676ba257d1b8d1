// HDF5 snapshots from C++ (the Python tests open Orrery's files with h5py): a round trip that keeps
// types and IDs, files that crash or leak inside libhdf5 (read in a child process: one error), and
// Orrery's own format carrying types and IDs; the child process that reads them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "../src/sim/io/isolated.h"
#include "bench_cli_support.h"
#include "orrery/snapshot.h"

namespace orrery {
namespace {

using test::temp_path;

const std::string k_damaged = std::string(ORRERY_SOURCE_DIR) + "/tests/data/hdf5/";

Snapshot labelled(int n) {
  Snapshot s;
  for (int i = 0; i < n; ++i) {
    s.bodies.pos.push_back(Vec4{0.5f * i, -0.25f * i, 1.0f / (i + 1), 0.01f * (i + 1)});
    s.bodies.vel.push_back(Vec4{0.1f * i, 0.2f, -0.3f * i, 0.0f});
    s.types.push_back(static_cast<std::uint8_t>(i % 6));
    s.ids.push_back(1000000000000ULL + 7ULL * static_cast<std::uint64_t>(n - i));
  }
  s.run.time = 2.5;
  s.run.steps = 40;
  return s;
}

bool hdf5_in_build() {
  try {
    encode_snapshot(labelled(1), SnapshotFormat::hdf5);
    return true;
  } catch (const SnapshotError&) {
    return false;
  }
}

// `s` saved under the temporary name `name`, and read back.
Snapshot saved_and_loaded(const Snapshot& s, const std::string& name) {
  const std::string path = temp_path(name);
  save_snapshot(path, s);
  return load_snapshot(path);
}

std::string load_error(const std::string& path) {
  try {
    load_snapshot(path);
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "";
}

TEST(Hdf5, RoundTripKeepsTypesAndIdsInBodyOrder) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  const Snapshot s = labelled(23);
  const Snapshot t = saved_and_loaded(s, "labels.hdf5");
  // The file groups bodies by type (PartType0..5): compare by ID.
  ASSERT_EQ(t.bodies.size(), s.bodies.size());
  ASSERT_EQ(t.types.size(), s.types.size());
  ASSERT_EQ(t.ids.size(), s.ids.size());
  for (std::size_t k = 0; k < t.ids.size(); ++k) {
    std::size_t i = 0;
    while (i < s.ids.size() && s.ids[i] != t.ids[k]) ++i;
    ASSERT_LT(i, s.ids.size()) << "ID " << t.ids[k] << " was not saved";
    EXPECT_EQ(t.types[k], s.types[i]);
    EXPECT_EQ(t.bodies.pos[k].x, s.bodies.pos[i].x);
    EXPECT_EQ(t.bodies.pos[k].w, s.bodies.pos[i].w);
    EXPECT_EQ(t.bodies.vel[k].z, s.bodies.vel[i].z);
  }
  EXPECT_EQ(t.run.steps, 40);
  EXPECT_DOUBLE_EQ(t.run.time, 2.5);
}

// Bodies of types 1 and 4 in turn, every value its own: the file holds them type by type.
Snapshot mixed(int n) {
  Snapshot s;
  for (int i = 0; i < n; ++i) {
    const float f = static_cast<float>(i);
    s.bodies.pos.push_back(Vec4{f, -0.5f * f, 1.0f / (f + 1), 0.001f * (i % 997 + 1)});
    s.bodies.vel.push_back(Vec4{0.25f * f, 3.0f - f, f * f, 0.01f * (i % 13)});
    s.types.push_back(i % 3 == 0 ? 1 : 4);
    s.ids.push_back(5000000000ULL + static_cast<std::uint64_t>(i));
  }
  return s;
}

TEST(Hdf5, ReadsEveryBodyExactlyAcrossItsBlocksAndTypes) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  // 65,536 rows are read at a time: type 1 takes 50,001 rows, type 4 100,000.
  const Snapshot s = mixed(150001);
  const Snapshot t = saved_and_loaded(s, "blocks.hdf5");
  std::vector<std::size_t> order;  // the file's order: type 1's bodies, then type 4's
  for (std::uint8_t type : {1, 4})
    for (std::size_t i = 0; i < s.types.size(); ++i)
      if (s.types[i] == type) order.push_back(i);
  ASSERT_EQ(t.bodies.size(), s.bodies.size());
  ASSERT_EQ(t.ids.size(), order.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    const Vec4 &p = t.bodies.pos[k], &q = s.bodies.pos[i], &v = t.bodies.vel[k],
               &u = s.bodies.vel[i];
    wrong += !(p.x == q.x && p.y == q.y && p.z == q.z && p.w == q.w && v.x == u.x && v.y == u.y &&
               v.z == u.z && v.w == u.w && t.types[k] == s.types[i] && t.ids[k] == s.ids[i]);
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(Hdf5, ABodyThatIsNotFiniteIsNamedByItsPlaceInTheFile) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  Snapshot s = mixed(150001);
  for (auto& t : s.types) t = 1;
  s.bodies.vel[131075].y = std::numeric_limits<float>::quiet_NaN();  // in the third block
  const std::string path = temp_path("nan.hdf5");
  save_snapshot(path, s);
  EXPECT_EQ(load_error(path), path + ": body 131075: its velocity is not finite");
}

TEST(Hdf5, AFileThatCrashesLibhdf5IsOneError) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  // libhdf5 reads freed memory on it: whether that faults depends on the allocator's state, so
  // either the reader dies (one line naming libhdf5) or libhdf5 misreads the header (refused).
  const std::string why = load_error(k_damaged + "libhdf5-use-after-free.hdf5");
  EXPECT_NE(why.find("libhdf5-use-after-free.hdf5: "), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
}

TEST(Isolated, PassesBackTheBytesExactly) {
  std::vector<std::uint8_t> big(50u << 20);
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
  EXPECT_EQ(run_isolated([&] { return big; }, "x", "lib"), big);
  EXPECT_TRUE(run_isolated([] { return std::vector<std::uint8_t>{}; }, "x", "lib").empty());
}

std::string isolated_error(const std::function<std::vector<std::uint8_t>()>& work) {
  try {
    run_isolated(work, "f.hdf5", "libhdf5");
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "";
}

TEST(Isolated, AnAnswerWrittenInPlaceKeepsWhatItHeldAsItGrows) {
  const AnswerView view = run_isolated(
      [](Answer& a) {
        std::uint8_t* p = a.resize(3);
        p[0] = 7, p[1] = 8, p[2] = 9;
        p = a.resize(10u << 20);
        p[(10u << 20) - 1] = 42;
      },
      "x", "lib");
  ASSERT_EQ(view.size(), 10u << 20);
  EXPECT_EQ(view.data()[0], 7);
  EXPECT_EQ(view.data()[2], 9);
  EXPECT_EQ(view.data()[3], 0);
  EXPECT_EQ(view.data()[view.size() - 1], 42);
  // A refusal after part of an answer was written is the refusal alone.
  try {
    run_isolated(
        [](Answer& a) {
          a.resize(1u << 20);
          throw SnapshotError("f.hdf5: body 3: its mass is negative or not finite");
        },
        "f.hdf5", "libhdf5");
    FAIL() << "no refusal";
  } catch (const SnapshotError& e) {
    EXPECT_STREQ(e.what(), "f.hdf5: body 3: its mass is negative or not finite");
  }
}

TEST(Isolated, AChildThatDiesIsOneLineAndTheParentGoesOn) {
  // abort(): a fatal signal that AddressSanitizer leaves alone (it reports a SIGSEGV itself).
  EXPECT_EQ(isolated_error([]() -> std::vector<std::uint8_t> { std::abort(); }),
            "f.hdf5: libhdf5 failed on it (its reader died on Aborted; the file is damaged)");
  EXPECT_EQ(isolated_error([]() -> std::vector<std::uint8_t> { _exit(7); }),
            "f.hdf5: libhdf5 failed on it (its reader stopped with status 7; the file is damaged)");
  EXPECT_EQ(isolated_error([]() -> std::vector<std::uint8_t> {
              throw SnapshotError("f.hdf5: Header/Time out of range");
            }),
            "f.hdf5: Header/Time out of range");
  EXPECT_EQ(isolated_error([]() -> std::vector<std::uint8_t> { throw std::bad_alloc(); }),
            "f.hdf5: libhdf5 failed on it (std::bad_alloc)");
  EXPECT_EQ(run_isolated([] { return std::vector<std::uint8_t>{1, 2}; }, "x", "lib").size(), 2u);
}

TEST(Hdf5, AFileThatLeaksInLibhdf5IsRefusedForItsShape) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  const std::string why = load_error(k_damaged + "libhdf5-leak.hdf5");
  EXPECT_NE(why.find("PartType1/Coordinates: shape (5, 19), expected (5, 3)"), std::string::npos)
      << why;
}

TEST(Hdf5, TheProcessGoesOnAfterADamagedFile) {
  if (!hdf5_in_build()) GTEST_SKIP() << "this build has no libhdf5";
  for (int k = 0; k < 3; ++k)
    EXPECT_FALSE(load_error(k_damaged + "libhdf5-use-after-free.hdf5").empty());
  const std::string path = temp_path("after.hdf5");
  save_snapshot(path, labelled(4));
  EXPECT_EQ(load_snapshot(path).bodies.size(), 4);
}

TEST(OrreryFormat, KeepsTypesAndIdsExactly) {
  const Snapshot s = labelled(9);
  const std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(b.size(), k_snapshot_header_bytes + 9 * (32 + 1 + 8) + 8);
  const Snapshot t = decode_snapshot(b.data(), b.size(), "labels");
  EXPECT_EQ(t.types, s.types);
  EXPECT_EQ(t.ids, s.ids);
  EXPECT_EQ(t.bodies.pos[8].y, s.bodies.pos[8].y);
}

TEST(OrreryFormat, WithoutLabelsIsTheFormatAsBefore) {
  Snapshot s = labelled(5);
  s.types.clear(), s.ids.clear();
  const std::vector<std::uint8_t> b = encode_snapshot(s, SnapshotFormat::orrery);
  EXPECT_EQ(b.size(), k_snapshot_header_bytes + 5 * 32 + 8);
  const Snapshot t = decode_snapshot(b.data(), b.size(), "plain");
  EXPECT_TRUE(t.types.empty());
  EXPECT_TRUE(t.ids.empty());
}

TEST(OrreryFormat, LabelsThatLieAreRefused) {
  std::vector<std::uint8_t> b = encode_snapshot(labelled(3), SnapshotFormat::orrery);
  // Cut the IDs short: the size no longer matches N.
  std::vector<std::uint8_t> cut(b.begin(), b.end() - 16);
  EXPECT_THROW(decode_snapshot(cut.data(), cut.size(), "cut"), SnapshotError);
  // A type past GADGET's 0-5, with the checksum redone so only the type is wrong.
  Snapshot bad = labelled(3);
  bad.types[1] = 9;
  b = encode_snapshot(bad, SnapshotFormat::orrery);
  try {
    decode_snapshot(b.data(), b.size(), "types");
    FAIL() << "type 9 was accepted";
  } catch (const SnapshotError& e) {
    EXPECT_NE(std::string(e.what()).find("particle type 9"), std::string::npos) << e.what();
  }
}

TEST(OrreryFormat, TypesSubsetWorksOnOrreryFiles) {
  const std::string path = temp_path("labels.orrery");
  save_snapshot(path, labelled(12));
  LoadOptions o;
  o.types = {2};
  const Snapshot t = load_snapshot(path, o);
  ASSERT_EQ(t.bodies.size(), 2);  // bodies 2 and 8
  EXPECT_EQ(t.types, (std::vector<std::uint8_t>{2, 2}));
  EXPECT_EQ(t.ids[0], 1000000000000ULL + 7ULL * 10);
}

}  // namespace
}  // namespace orrery

namespace orrery {
namespace {

TEST(LoadProgress, CountsTheBytesAndSaysWhenDecoding) {
  const std::string path = test::temp_path("progress.orrery");
  Snapshot s = labelled(300000);  // 12 MiB: two chunks
  save_snapshot(path, s);
  LoadProgress p;
  int ticks = 0;
  p.tick = [&](const LoadProgress&) { ++ticks; };
  LoadOptions o;
  o.progress = &p;
  const Snapshot t = load_snapshot(path, o);
  EXPECT_EQ(t.bodies.size(), 300000);
  EXPECT_EQ(p.read.load(), static_cast<long long>(k_snapshot_header_bytes + 300000 * 41 + 8));
  EXPECT_EQ(p.total.load(), p.read.load());
  EXPECT_TRUE(p.decoding.load());
  EXPECT_GE(ticks, 2);
}

TEST(LoadProgress, ACancelStopsTheLoad) {
  const std::string path = test::temp_path("cancel.orrery");
  save_snapshot(path, labelled(300000));
  LoadProgress p;
  p.tick = [](const LoadProgress& q) { const_cast<LoadProgress&>(q).cancel = true; };
  LoadOptions o;
  o.progress = &p;
  try {
    load_snapshot(path, o);
    FAIL() << "a cancelled load finished";
  } catch (const LoadCancelled& e) {
    EXPECT_EQ(std::string(e.what()), path + ": loading cancelled");
  }
  EXPECT_LT(p.read.load(), p.total.load());  // it stopped after the first chunk
}

TEST(LoadProgress, ACancelKillsTheReaderProcess) {
  LoadProgress p;
  int ticks = 0;
  p.tick = [&](const LoadProgress& q) {
    if (++ticks == 3) const_cast<LoadProgress&>(q).cancel = true;
  };
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(run_isolated(
                   []() -> std::vector<std::uint8_t> {
                     sleep(30);  // a reader that would hang
                     return {};
                   },
                   "slow.hdf5", "libhdf5", &p),
               LoadCancelled);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

}  // namespace
}  // namespace orrery
