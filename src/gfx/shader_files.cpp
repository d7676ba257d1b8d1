// Shader lookup relative to /proc/self/exe and the install prefix.
#include "shader_files.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef ORRERY_SHADER_INSTALL_DIR
#define ORRERY_SHADER_INSTALL_DIR ""
#endif

namespace orrery::gfx {
namespace {

std::string executable_dir() {
  char buf[4096];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len <= 0) return ".";
  std::string path(buf, static_cast<std::size_t>(len));
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

std::vector<std::string> shader_search_path() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ORRERY_SHADER_DIR"); env && *env) dirs.push_back(env);
  const std::string exe = executable_dir();
  dirs.push_back(exe + "/shaders");
  dirs.push_back(exe + "/../share/orrery/shaders");
  if (*ORRERY_SHADER_INSTALL_DIR) dirs.push_back(ORRERY_SHADER_INSTALL_DIR);
  return dirs;
}

std::string read_shader(const std::string& name) {
  std::string looked;
  for (const std::string& dir : shader_search_path()) {
    std::ifstream in(dir + "/" + name);
    if (in) {
      std::ostringstream s;
      s << in.rdbuf();
      return s.str();
    }
    looked += (looked.empty() ? "" : ", ") + dir;
  }
  throw std::runtime_error("shader '" + name + "' not found (looked in " + looked + ")");
}

}  // namespace orrery::gfx
