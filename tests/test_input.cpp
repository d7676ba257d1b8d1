// The shared input rules (orrery/input.h) and the softening bound: decimal integers only, full
// range checks, finite floats, lists without empty items, output files opened up front and compared
// by identity.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "orrery/input.h"
#include "orrery/output_file.h"
#include "orrery/solver.h"
#include "support.h"

namespace orrery {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "orrery_input_" + std::to_string(getpid()) + "_" + name;
}

TEST(Input, IntegersAreDecimalWholeAndInRange) {
  EXPECT_EQ(parse_integer("10", "--n", 1, 100), 10);
  EXPECT_EQ(parse_integer("010", "--n", 1, 100), 10);  // decimal: never octal (defect 3)
  EXPECT_EQ(parse_integer("+7", "--n", 1, 100), 7);
  EXPECT_EQ(parse_integer("-3", "--x", -5, 5), -3);
  EXPECT_EQ(parse_integer("2147483647", "--n", 1, 2147483647), 2147483647);
  for (const char* bad : {"", "--", "-", "0x10", "1e3", "1.0", " 1", "1 ", "abc", "1,2", "٣"})
    EXPECT_THROW(parse_integer(bad, "--n", 1, 100), InputError) << "'" << bad << "'";
  EXPECT_NE(message_of([] { parse_integer("--", "--n", 1, 100); }).find("not a number"),
            std::string::npos);
  EXPECT_NE(message_of([] { parse_integer("", "--warmup", 0, 9); }).find("--warmup: empty"),
            std::string::npos);
  // Out of range is an error naming the range, also far beyond 64 bits (no saturation).
  for (const char* big : {"101", "0", "-1", "99999999999999999999999", "9223372036854775808"})
    EXPECT_NE(
        message_of([&] { parse_integer(big, "--n", 1, 100); }).find("out of range (1 to 100)"),
        std::string::npos)
        << big;
}

TEST(Input, SeedsCoverAllOf64BitsAndNoMore) {
  EXPECT_EQ(parse_u64("0", "--seed"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615", "--seed"), std::numeric_limits<std::uint64_t>::max());
  // Defect 4: 2^64 used to saturate silently.
  for (const char* bad : {"18446744073709551616", "-1", "", "1e3", "99999999999999999999999"})
    EXPECT_THROW(parse_u64(bad, "--seed"), InputError) << bad;
}

TEST(Input, FloatsAreFiniteDecimalsAFloatHolds) {
  EXPECT_FLOAT_EQ(parse_float("0.016", "--dt"), 0.016f);
  EXPECT_FLOAT_EQ(parse_float("1e-3", "--dt"), 1e-3f);
  EXPECT_FLOAT_EQ(parse_float("-2.5E+2", "--x"), -250.0f);
  EXPECT_FLOAT_EQ(parse_float(".5", "--x"), 0.5f);
  EXPECT_FLOAT_EQ(parse_float("5.", "--x"), 5.0f);
  EXPECT_EQ(parse_float("0", "--x"), 0.0f);
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", "0x1p3", "", ".", "e5", "1e",
                          "1e+", "1.2.3", "1,5", " 1", "--"})
    EXPECT_THROW(parse_float(bad, "--dt"), InputError) << "'" << bad << "'";
  EXPECT_NE(message_of([] { parse_float("1e39", "--dt"); }).find("range of a float"),
            std::string::npos);
  EXPECT_NE(message_of([] { parse_float("1e-50", "--dt"); }).find("round to 0"), std::string::npos);
  EXPECT_NE(message_of([] {
              parse_float_in("nan", "--point-radius", 0.01f, 5.0f);
            }).find("--point-radius 'nan'"),
            std::string::npos);  // defect 4
  EXPECT_THROW(parse_float_in("6", "--point-radius", 0.01f, 5.0f), InputError);
  EXPECT_FLOAT_EQ(parse_float_in("5", "--point-radius", 0.01f, 5.0f), 5.0f);
}

TEST(Input, ListsHaveNoEmptyItems) {
  EXPECT_EQ(split_list("64,128", "--n"), (std::vector<std::string>{"64", "128"}));
  EXPECT_EQ(split_list("cpu", "--solver"), (std::vector<std::string>{"cpu"}));
  // Defect 6: empty items used to be dropped.
  for (const char* bad : {"64,,128", "cpu,", ",cpu", ",", ""})
    EXPECT_THROW(split_list(bad, "--n"), InputError) << "'" << bad << "'";
  EXPECT_NE(message_of([] { split_list("64,,128", "--n"); }).find("empty item"), std::string::npos);
}

TEST(Input, TheSofteningBoundKeepsTheSelfTermFinite) {
  SimParams p;
  p.softening = k_min_softening;
  EXPECT_NO_THROW(validate(p));
  p.softening = 9e-11f;
  EXPECT_THROW(validate(p), InputError);
  p.softening = 1e-13f;  // defect 8: passed validation, then 0 x inf = NaN
  EXPECT_THROW(validate(p), InputError);
  // At the bound, a heavy body's own term is still exactly zero: a lone body of mass 1e8 at rest
  // stays put and finite.
  BodyState s;
  s.pos = {{1.0f, 2.0f, 3.0f, 1e8f}};
  s.vel = {{0.0f, 0.0f, 0.0f, 0.0f}};
  SimParams at_bound;
  at_bound.softening = k_min_softening;
  const BodyState e = test::run_host("cpu", s, 3, at_bound);
  EXPECT_EQ(e.pos[0].x, 1.0f);
  EXPECT_EQ(e.vel[0].x, 0.0f);
  // parse_param names the option and keeps the rule.
  SimParams q;
  EXPECT_NE(message_of([&] {
              parse_param("1e-20", "--softening", "softening", q);
            }).find("--softening '1e-20'"),
            std::string::npos);
  EXPECT_FLOAT_EQ(q.softening, SimParams{}.softening);  // unchanged after a refusal
  parse_param("5", "--dt", "dt", q);                    // honoured, not clamped (defect 2)
  EXPECT_FLOAT_EQ(q.dt, 5.0f);
}

TEST(OutputFile, OpensUpFrontAndRemovesWhatItCreatedButNeverWrote) {
  const std::string path = temp("unwritten.csv");
  {
    OutputFile f = OutputFile::open(path, "--csv");
    EXPECT_TRUE(f.is_open());
    EXPECT_TRUE(exists(path));
  }
  EXPECT_FALSE(exists(path));
  {
    OutputFile f = OutputFile::open(path, "--csv");
    f.write("first, longer content\n");
    f.write("second\n");  // replaces
  }
  EXPECT_EQ(test::read_file(path), "second\n");
  {
    OutputFile f = OutputFile::open(path, "--csv");  // existed: kept when not written
  }
  EXPECT_EQ(test::read_file(path), "second\n");
  std::remove(path.c_str());
}

TEST(OutputFile, BadPathsFailAtOpenNamingTheOption) {
  // Defect 7: these used to fail only after the run.
  for (const char* bad : {"/nonexistent-dir/x.png", "/proc/x.csv", "/", ""}) {
    const std::string m = message_of([&] { OutputFile::open(bad, "--screenshot"); });
    EXPECT_EQ(m.rfind("--screenshot", 0), 0u) << bad << ": " << m;
  }
}

TEST(OutputFile, OneFileNamedTwoWaysIsDetectedByIdentity) {
  const std::string path = temp("same.csv");
  const std::string other = ::testing::TempDir() + "./" + path.substr(::testing::TempDir().size());
  OutputFile a = OutputFile::open(path, "--csv");
  OutputFile b = OutputFile::open(other, "--json");
  EXPECT_TRUE(a.same_file(b));
  EXPECT_NE(message_of([&] { require_distinct(a, "--csv", b, "--json"); }).find("same file"),
            std::string::npos);  // defect 5
  OutputFile c = OutputFile::open(temp("other.json"), "--json");
  EXPECT_FALSE(a.same_file(c));
  EXPECT_NO_THROW(require_distinct(a, "--csv", c, "--json"));
}

TEST(OutputFile, AWriteFailureIsAClearError) {
  if (!exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  OutputFile f = OutputFile::open("/dev/full", "--csv");
  try {
    f.write("x\n");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace orrery
