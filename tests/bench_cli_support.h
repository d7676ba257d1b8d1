// Helpers of the orrery-bench command-line tests: run the built binary with arguments (no shell),
// capture its output and exit code, and check one-line usage errors.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "support.h"

extern char** environ;

namespace orrery::test {

struct Outcome {
  int exit_code = -1;  // 128 + signal when the process was killed by one
  std::string out, err;
};


inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "orrery_cli_" + std::to_string(getpid()) + "_" + name;
}

#ifdef ORRERY_BENCH_PATH
// The binary: $ORRERY_BENCH if set, else where CMake built it, else beside this test's build
// folder (a build tree copied to another path, as on the GPU machine).
inline std::string bench_path() {
  if (const char* env = std::getenv("ORRERY_BENCH")) return env;
  if (access(ORRERY_BENCH_PATH, X_OK) == 0) return ORRERY_BENCH_PATH;
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return ORRERY_BENCH_PATH;
  std::string dir(self, static_cast<std::size_t>(len));
  dir.erase(dir.rfind('/'));
  return dir + "/../src/bench/orrery-bench";
}

// Runs orrery-bench with args (no shell), capturing stdout and stderr; with kill_after_s > 0 the
// process is stopped (SIGTERM) after that many seconds if it is still running.
inline Outcome run_bench(const std::vector<std::string>& args, double kill_after_s = 0) {
  const std::string out_path = temp_path("stdout"), err_path = temp_path("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::vector<std::string> all = {bench_path()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  Outcome o;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "cannot start " << argv[0] << ": " << rc;
    return o;
  }
  int status = 0;
  if (kill_after_s > 0) {
    for (int k = 0; k < kill_after_s * 20 && waitpid(pid, &status, WNOHANG) == 0; ++k)
      usleep(50000);
    if (waitpid(pid, &status, WNOHANG) == 0) kill(pid, SIGTERM);
  }
  waitpid(pid, &status, 0);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.out = read_file(out_path);
  o.err = read_file(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return o;
}
#define REQUIRE_BENCH()
#else
inline Outcome run_bench(const std::vector<std::string>&, double = 0) { return {}; }
#define REQUIRE_BENCH() GTEST_SKIP() << "orrery-bench is not built (ORRERY_BUILD_BENCH=OFF)"
#endif

inline std::string join(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

inline std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

// Exit code 2 and exactly one line on stderr, "orrery-bench: error: ...", containing `names`.
inline void expect_usage_error(const std::vector<std::string>& args, const std::string& names) {
  SCOPED_TRACE("orrery-bench " + join(args));
  const Outcome o = run_bench(args);
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(count(o.err, "\n"), 1u) << "stderr: " << o.err;
  EXPECT_EQ(o.err.rfind("orrery-bench: error: ", 0), 0u) << o.err;
  EXPECT_NE(o.err.find(names), std::string::npos)
      << "stderr does not name '" << names << "': " << o.err;
}

struct BadInput {
  std::vector<std::string> args;
  std::string names;  // what the error line must mention
};

}  // namespace orrery::test
