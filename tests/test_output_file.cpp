// Where a run's files land (issue 21's "saves replace what they should not"): a save writes a
// symbolic link's target and keeps the link, keeps a file's mode, writes a device in place and
// never turns it into a file, reports a full disk; two names of one file are one place; a place
// is checked by creating a file there, which root cannot bypass.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "orrery/output_file.h"
#include "support.h"

namespace orrery {
namespace {

using test::TempDir;

std::string content(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  write_file_replacing(path, text.data(), text.size());
}

TEST(OutputFiles, ASaveOntoALinkWritesItsTargetAndKeepsTheLink) {
  TempDir d;
  const std::string target = d.path + "/real.orrery", link = d.path + "/link.orrery";
  write_text(target, "old");
  ASSERT_EQ(::symlink("real.orrery", link.c_str()), 0);
  write_text(link, "new");
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(content(target), "new");
  EXPECT_EQ(d.entries(), 2);  // no temporary file left
  // A dangling link: its target is created.
  ::unlink(target.c_str());
  write_text(link, "made");
  EXPECT_EQ(content(target), "made");
}

TEST(OutputFiles, ASaveKeepsTheFilesMode) {
  TempDir d;
  const std::string path = d.path + "/private.csv";
  write_text(path, "a");
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  write_text(path, "b");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(content(path), "b");
}

TEST(OutputFiles, DevicesAreWrittenInPlaceNeverReplaced) {
  if (::access("/dev/null", W_OK) != 0) GTEST_SKIP() << "no writable /dev/null";
  write_text("/dev/null", "discarded");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no writable /dev/full";
  try {
    write_text("/dev/full", "no room");
    ADD_FAILURE() << "a write to /dev/full succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::strerror(ENOSPC)), std::string::npos) << e.what();
  }
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFiles, TwoNamesOfOneFileAreOnePlace) {
  TempDir d;
  const std::string a = d.path + "/x.out", b = d.path + "/./x.out", c = d.path + "/y.out";
  EXPECT_EQ(output_place(a), output_place(b));  // not there yet: by real folder and name
  EXPECT_NE(output_place(a), output_place(c));
  ASSERT_EQ(::symlink("x.out", (d.path + "/l.out").c_str()), 0);
  EXPECT_EQ(output_place(d.path + "/l.out"), output_place(a));
  write_text(a, "1");
  EXPECT_EQ(output_place(b), output_place(a));  // there: by inode
  EXPECT_THROW(require_distinct_outputs({{"--save", a}, {"--export-csv", b}}), InputError);
  EXPECT_THROW(require_distinct_outputs({{"--csv", d.path + "/l.out"}, {"--save", a}}), InputError);
  EXPECT_NO_THROW(require_distinct_outputs({{"--save", a}, {"--export-csv", c}, {"--csv", ""}}));
  try {
    require_distinct_outputs({{"--save", a}, {"--export-csv", b}});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--save and --export-csv name the same file"),
              std::string::npos)
        << e.what();
  }
}

TEST(OutputFiles, APlaceIsCheckedByCreatingAFileThere) {
  TempDir d;
  EXPECT_NO_THROW(check_can_save(d.path + "/ok.orrery", "--save"));
  EXPECT_EQ(d.entries(), 0);  // the check's file is gone
  EXPECT_THROW(check_can_save(d.path + "/no/such/x.orrery", "--save"), InputError);
  EXPECT_THROW(check_can_save(d.path, "--save"), InputError);  // a folder
  EXPECT_THROW(check_can_save("", "--save"), InputError);
  // /proc takes no new file, whatever the permission bits say (root passes them all).
  struct stat st {};
  if (::stat("/proc/self", &st) != 0) GTEST_SKIP() << "no /proc";
  EXPECT_THROW(check_can_save("/proc/orrery-x.orrery", "--save"), InputError);
}

}  // namespace
}  // namespace orrery
