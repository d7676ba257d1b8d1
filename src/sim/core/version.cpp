// The version strings, from the header cmake/version.cmake writes at every build.
#include "orrery/version.h"

#include "orrery_version_data.h"

namespace orrery {

const char* version_number() { return ORRERY_VERSION_NUMBER; }
const char* version_git() { return ORRERY_VERSION_GIT; }

std::string version_description() {
  const std::string git = version_git();
  return std::string(version_number()) + (git.empty() ? "" : " (git " + git + ")");
}

std::string version_pep440() {
  std::string git = version_git();
  if (git.empty()) return version_number();
  // A local version label: letters, digits and dots ("g702cc34.dirty").
  for (char& c : git)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) c = '.';
  if (git.find(".g") == std::string::npos) git = "g" + git;  // a bare hash (no tag to describe)
  return std::string(version_number()) + "+" + git;
}

}  // namespace orrery
