// Saving what was drawn to a PNG file.
#pragma once

#include <string>
#include <vector>

#include "orrery/input.h"
#include "orrery/output_file.h"

namespace orrery::gfx {

// Reads width x height RGB pixels from framebuffer `fbo` (0: the window's back buffer, read
// before the swap), flips the rows to top-down order and writes them as a PNG into `file`
// (opened before the run). Throws std::runtime_error when reading or writing fails.
void save_png(OutputFile& file, unsigned fbo, int width, int height);

// Reads the width x height RGB pixels at the bottom left of framebuffer `fbo` (0: the window's
// back buffer) into `top_down`, rows flipped to top-down order. Throws std::runtime_error.
void read_rgb(unsigned fbo, int width, int height, std::vector<unsigned char>& top_down);

}  // namespace orrery::gfx
