// Finding shader sources: next to the executable, in the install prefix, or $ORRERY_SHADER_DIR.
#pragma once

#include <string>
#include <vector>

namespace orrery::gfx {

// The directories searched, in order: $ORRERY_SHADER_DIR, <exe dir>/shaders,
// <exe dir>/../share/orrery/shaders, the configured install directory.
std::vector<std::string> shader_search_path();
// Reads shaders/<name> from the first directory that has it. Throws std::runtime_error naming
// the file and every directory looked in when none does.
std::string read_shader(const std::string& name);

}  // namespace orrery::gfx
