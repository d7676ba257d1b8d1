// The formats' registry (orrery/formats.h): a name's extension picks the format written, an
// extension no format writes is refused, every format read tells its own content, and each keeps
// what its record says it keeps.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "bench_cli_support.h"
#include "orrery/formats.h"
#include "orrery/presets.h"

namespace orrery {
namespace {

using test::expect_usage_error;
using test::Outcome;
using test::run_bench;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "orrery_formats_" + std::to_string(getpid()) + "_" + name;
}

Snapshot sample() {
  Snapshot s;
  s.bodies = make_preset(Preset::plummer, 33, 4);
  s.run.time = 3.25;
  s.run.steps = 17;
  s.run.solver = "cpu";
  s.run.integrator = Integrator::leapfrog;
  s.run.params.softening = 0.03f;
  for (int i = 0; i < 33; ++i) {
    s.types.push_back(static_cast<std::uint8_t>(1 + i % 2));
    s.ids.push_back(1000 + 3 * static_cast<std::uint64_t>(i));
  }
  return s;
}

bool hdf5_here() {
  try {
    encode_snapshot(sample(), SnapshotFormat::hdf5);
    return true;
  } catch (const SnapshotError&) {
    return false;
  }
}

TEST(Formats, EveryRecordIsWholeAndFoundByItsNumber) {
  std::set<std::string> names, extensions;
  for (const FormatInfo& f : format_table()) {
    SCOPED_TRACE(f.name);
    EXPECT_EQ(&format_info(f.id), &f);
    EXPECT_TRUE(names.insert(f.name).second);
    EXPECT_STREQ(to_string(f.id), f.name);
    EXPECT_TRUE(f.encode || f.looks_like) << "neither read nor written";
    EXPECT_TRUE(f.decode || !f.looks_like) << "told by content but not read";
    EXPECT_EQ(f.set_size == nullptr, f.set_names == nullptr);
    for (const std::string& e : f.extensions) {
      EXPECT_TRUE(extensions.insert(e).second) << e << " claimed twice";
      EXPECT_EQ(e[0], '.');
    }
  }
}

// A name's extension, in any case, picks its format; none is Orrery's; others are refused with
// the list of the extensions written.
TEST(Formats, TheNamePicksTheFormatWrittenAndAnUnknownExtensionIsRefused) {
  for (const FormatInfo& f : format_table())
    for (const std::string& e : f.extensions) {
      std::string upper = e;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      for (const std::string& name : {"run" + e, "dir.v2/run" + upper}) {
        if (f.encode)
          EXPECT_EQ(format_for_writing(name).id, f.id) << name;
        else
          EXPECT_THROW(format_for_writing(name), InputError) << name;
      }
    }
  for (const char* bare : {"run", "/dev/null", "dir.d/run", ".hidden", "a/.hidden"})
    EXPECT_EQ(format_for_writing(bare).id, SnapshotFormat::orrery) << bare;
  try {
    format_for_writing("run.out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'.out'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(written_extensions()), std::string::npos) << e.what();
  }
  const Snapshot s = sample();
  const std::string path = temp("kept.orrery");
  save_snapshot(path, s);
  EXPECT_THROW(save_snapshot(temp("x.dat"), s), SnapshotError);
  EXPECT_NE(access(temp("x.dat").c_str(), F_OK), 0) << "a refused name was written";
}

// Each format written is told by its own content, and keeps what its record says.
TEST(Formats, EachWrittenFormatReadsBackWithWhatItKeeps) {
  const Snapshot s = sample();
  for (const FormatInfo& f : format_table()) {
    if (!f.encode || f.extensions.empty()) continue;
    if (f.id == SnapshotFormat::hdf5 && !hdf5_here()) continue;
    SCOPED_TRACE(f.name);
    const std::string path = temp("round" + f.extensions.front());
    save_snapshot(path, s);
    if (!f.looks_like) continue;  // written, not read (CSV: checked below)
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(format_of(bytes.data(), bytes.size()), &f);
    const Snapshot back = load_snapshot(path);
    EXPECT_EQ(back.format, f.id);
    ASSERT_EQ(back.bodies.size(), s.bodies.size());
    if (f.keeps_run) {
      EXPECT_EQ(back.run.params.softening, s.run.params.softening);
      EXPECT_EQ(back.run.integrator, s.run.integrator);
      EXPECT_EQ(back.run.steps, s.run.steps);
    }
    if (f.keeps_types) {
      EXPECT_EQ(std::multiset<std::uint64_t>(back.ids.begin(), back.ids.end()),
                std::multiset<std::uint64_t>(s.ids.begin(), s.ids.end()));
    } else {
      EXPECT_TRUE(back.ids.empty());
    }
  }
  const std::string csv = temp("round.csv");
  save_snapshot(csv, s);
  std::ifstream in(csv);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), csv_text(s.bodies));
  EXPECT_EQ(format_of(reinterpret_cast<const std::uint8_t*>(text.str().data()), text.str().size()),
            nullptr);
}

TEST(Formats, TheBenchRefusesASaveNameNoFormatWrites) {
  REQUIRE_BENCH();
  expect_usage_error({"--solver", "cpu", "--n", "8", "--steps", "1", "--save", temp("x.out")},
                     "--save");
  const std::string csv = temp("bench.csv");
  const Outcome o =
      run_bench({"--solver", "cpu", "--n", "8", "--steps", "1", "--warmup", "0", "--save", csv});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "x,y,z,vx,vy,vz,mass,radius");
}

}  // namespace
}  // namespace orrery
