// CUDA-OpenGL buffer interop behind a header with no CUDA types: register GL buffers once, map
// them all in one call, unmap. Compiled from cuda_gl.cpp with CUDA, cuda_gl_none.cpp without.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace orrery::gfx {

enum class MapAccess { read_write, read_only, write_discard };

// Move-only registration of GL buffer objects with CUDA. Needs the GL context current and on the
// CUDA device; throws std::runtime_error with CUDA's message when registration fails.
class CudaGlBuffers {
 public:
  CudaGlBuffers();
  explicit CudaGlBuffers(const std::vector<unsigned>& gl_buffers);
  ~CudaGlBuffers();
  CudaGlBuffers(CudaGlBuffers&&) noexcept;
  CudaGlBuffers& operator=(CudaGlBuffers&&) noexcept;
  CudaGlBuffers(const CudaGlBuffers&) = delete;
  CudaGlBuffers& operator=(const CudaGlBuffers&) = delete;

  bool registered() const { return m_impl != nullptr; }
  // Sets each buffer's access flag, maps every buffer in one cudaGraphicsMapResources call and
  // returns their device pointers in registration order.
  std::vector<void*> map(const std::vector<MapAccess>& access);
  // Unmaps everything mapped by map(); a no-op when nothing is mapped. Never throws.
  void unmap() noexcept;
  bool mapped() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Whether a GL buffer of the current context can be registered with CUDA: empty when it can,
// otherwise the reason (no CUDA in this build, no device, or CUDA's registration error).
std::string cuda_gl_probe();

}  // namespace orrery::gfx
