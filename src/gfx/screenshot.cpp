// Framebuffer read-back and PNG encoding with stb_image_write.
#include "screenshot.h"

#include <GL/glew.h>
#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace orrery::gfx {

void read_rgb(unsigned fbo, int width, int height, std::vector<unsigned char>& flipped) {
  if (width <= 0 || height <= 0)
    throw std::runtime_error("nothing to read: the framebuffer is empty");
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadBuffer(fbo == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR)
    throw std::runtime_error("cannot read the framebuffer back (GL error " + std::to_string(e) +
                             ")");
  flipped.resize(pixels.size());
  for (int y = 0; y < height; ++y)
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(row * (height - 1 - y)), row,
                flipped.begin() + static_cast<std::ptrdiff_t>(row * y));
}

void save_png(OutputFile& file, unsigned fbo, int width, int height) {
  const std::string& path = file.path();
  if (width <= 0 || height <= 0)
    throw std::runtime_error("nothing to save: the framebuffer is empty");
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> flipped;
  try {
    read_rgb(fbo, width, height, flipped);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + " for " + path);
  }
  std::vector<unsigned char> png;
  const auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<unsigned char>*>(context);
    const auto* bytes = static_cast<const unsigned char*>(data);
    out->insert(out->end(), bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, flipped.data(),
                              static_cast<int>(row)))
    throw std::runtime_error("cannot encode the PNG for " + path);
  file.write(png.data(), png.size());
}

}  // namespace orrery::gfx
