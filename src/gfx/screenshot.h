// Saving what was drawn to a PNG file.
#pragma once

#include <string>

namespace orrery::gfx {

// Reads width x height RGB pixels from framebuffer `fbo` (0: the window's back buffer, read
// before the swap), flips the rows to top-down order and writes a PNG. Throws std::runtime_error
// when the file cannot be written.
void save_png(const std::string& path, unsigned fbo, int width, int height);

// "orrery-YYYYmmdd-HHMMSS.png" for the current local time.
std::string timestamped_png_name();

}  // namespace orrery::gfx
