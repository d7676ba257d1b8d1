// CUDA-OpenGL interop in a build without CUDA: nothing registers, the probe says why.
#include <stdexcept>

#include "cuda_gl.h"

namespace orrery::gfx {

struct CudaGlBuffers::Impl {};

CudaGlBuffers::CudaGlBuffers(const std::vector<unsigned>&) {
  throw std::runtime_error("CUDA-GL interop: this build has no CUDA");
}
CudaGlBuffers::CudaGlBuffers() = default;
CudaGlBuffers::~CudaGlBuffers() = default;
CudaGlBuffers::CudaGlBuffers(CudaGlBuffers&&) noexcept = default;
CudaGlBuffers& CudaGlBuffers::operator=(CudaGlBuffers&&) noexcept = default;
std::vector<void*> CudaGlBuffers::map(const std::vector<MapAccess>&) {
  throw std::logic_error("CudaGlBuffers::map: this build has no CUDA");
}
void CudaGlBuffers::unmap() noexcept {}
CudaGlBuffers CudaGlBuffers::texture(unsigned) {
  throw std::runtime_error("CUDA-GL interop: this build has no CUDA");
}
void CudaGlBuffers::copy_rgba8_to_texture(const void*, int, int) const {
  throw std::logic_error("CudaGlBuffers::copy_rgba8_to_texture: this build has no CUDA");
}
void* CudaGlBuffers::pointer(std::size_t) const {
  throw std::logic_error("CudaGlBuffers::pointer: this build has no CUDA");
}
void CudaGlBuffers::map_all(const Group&) {
  throw std::logic_error("CudaGlBuffers::map_all: this build has no CUDA");
}
void CudaGlBuffers::unmap_all(const std::vector<CudaGlBuffers*>&) noexcept {}
bool CudaGlBuffers::mapped() const { return false; }

std::string cuda_gl_probe() { return "this build has no CUDA (CPU solvers only)"; }

}  // namespace orrery::gfx
