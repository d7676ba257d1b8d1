// Saving what was drawn to a PNG file.
#pragma once

#include <string>

#include "orrery/input.h"

namespace orrery::gfx {

// Reads width x height RGB pixels from framebuffer `fbo` (0: the window's back buffer, read
// before the swap), flips the rows to top-down order and writes them as a PNG into `file`
// (opened before the run). Throws std::runtime_error when reading or writing fails.
void save_png(OutputFile& file, unsigned fbo, int width, int height);

// "orrery-YYYYmmdd-HHMMSS.png" for the current local time.
std::string timestamped_png_name();

}  // namespace orrery::gfx
