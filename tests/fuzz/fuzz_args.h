// Turns a fuzzer's bytes into an argument vector: one argument per line (at most 64), with the
// program name first, so the command-line parsers see what a shell would hand them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace orrery::fuzz {

struct Args {
  std::vector<std::string> storage;
  std::vector<const char*> argv;
  int argc() const { return static_cast<int>(argv.size()); }
};

inline Args split_args(const char* program, const std::uint8_t* data, std::size_t size) {
  Args a;
  a.storage.emplace_back(program);
  std::string cur;
  for (std::size_t i = 0; i < size && a.storage.size() < 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      a.storage.push_back(cur);
      cur.clear();
    } else if (c != '\0') {
      cur += c;
    }
  }
  if (!cur.empty() && a.storage.size() < 64) a.storage.push_back(cur);
  for (const std::string& s : a.storage) a.argv.push_back(s.c_str());
  return a;
}

}  // namespace orrery::fuzz
