// CUDA-OpenGL interop behind a header with no CUDA types: register GL buffers (or a texture) once,
// map them all in one call, unmap. Compiled from cuda_gl.cpp with CUDA, cuda_gl_none.cpp without.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "orrery/no_copy.h"

namespace orrery::gfx {

enum class MapAccess { read_write, read_only, write_discard };

// Move-only registration of GL buffer objects with CUDA. Needs the GL context current and on the
// CUDA device; throws std::runtime_error with CUDA's message when registration fails.
class CudaGlBuffers : NoCopy {
 public:
  CudaGlBuffers();
  explicit CudaGlBuffers(const std::vector<unsigned>& gl_buffers);
  ~CudaGlBuffers();
  CudaGlBuffers(CudaGlBuffers&&) noexcept;
  CudaGlBuffers& operator=(CudaGlBuffers&&) noexcept;

  // Registers one GL_TEXTURE_2D of GL_RGBA8 texels instead (the CUDA draw path's picture).
  static CudaGlBuffers texture(unsigned gl_texture);

  bool registered() const { return m_impl != nullptr; }
  // Sets each buffer's access flag, maps every buffer in one cudaGraphicsMapResources call and
  // returns their device pointers in registration order.
  std::vector<void*> map(const std::vector<MapAccess>& access);
  // Unmaps everything mapped by map(); a no-op when nothing is mapped. Never throws.
  void unmap() noexcept;
  bool mapped() const;
  // The device pointer of buffer i while mapped (by map() or map_all()).
  void* pointer(std::size_t i) const;
  // A registered texture, mapped: copies width x height RGBA8 texels (rows packed, the first row
  // the texture's bottom one) from device memory into it, on the default stream.
  void copy_rgba8_to_texture(const void* device_src, int width, int height) const;

  // Several registrations in one cudaGraphicsMapResources call (each switch between GL and CUDA
  // costs the GPU a synchronisation, so a frame maps once): one access per buffer of each.
  using Group = std::vector<std::pair<CudaGlBuffers*, std::vector<MapAccess>>>;
  static void map_all(const Group& group);
  // Unmaps them in one call; a no-op for those not mapped. Never throws.
  static void unmap_all(const std::vector<CudaGlBuffers*>& regs) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Whether a GL buffer of the current context can be registered with CUDA: empty when it can,
// otherwise the reason (no CUDA in this build, no device, or CUDA's registration error).
std::string cuda_gl_probe();

}  // namespace orrery::gfx
