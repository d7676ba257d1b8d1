// CUDA-OpenGL interop through the CUDA runtime (compiled only when ORRERY_HAVE_CUDA).
#include <GL/glew.h>  // before cuda_gl_interop.h, which includes GL/gl.h
// clang-format off
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>
// clang-format on

#include <cstdio>
#include <stdexcept>

#include "cuda_gl.h"
#include "gl_objects.h"
#include "orrery/device.h"

namespace orrery::gfx {
namespace {

std::string cuda_message(const char* call, cudaError_t e) {
  return std::string(call) + " failed: " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")";
}

unsigned map_flags(MapAccess a) {
  switch (a) {
    case MapAccess::read_only:
      return cudaGraphicsMapFlagsReadOnly;
    case MapAccess::write_discard:
      return cudaGraphicsMapFlagsWriteDiscard;
    case MapAccess::read_write:
      return cudaGraphicsMapFlagsNone;
  }
  return cudaGraphicsMapFlagsNone;
}

}  // namespace

struct CudaGlBuffers::Impl {
  std::vector<cudaGraphicsResource_t> resources;
  std::vector<void*> pointers;  // while mapped (a texture's: its cudaArray_t)
  bool texture = false;
  bool mapped = false;

  ~Impl() {
    if (mapped) cudaGraphicsUnmapResources(static_cast<int>(resources.size()), resources.data());
    for (cudaGraphicsResource_t r : resources) {
      const cudaError_t e = cudaGraphicsUnregisterResource(r);
      if (e != cudaSuccess)
        std::fprintf(stderr, "orrery: %s\n",
                     cuda_message("cudaGraphicsUnregisterResource", e).c_str());
    }
  }
};

CudaGlBuffers::CudaGlBuffers(const std::vector<unsigned>& gl_buffers) {
  require_device();
  auto impl = std::make_unique<Impl>();
  for (unsigned id : gl_buffers) {
    cudaGraphicsResource_t r = nullptr;
    const cudaError_t e = cudaGraphicsGLRegisterBuffer(&r, id, cudaGraphicsRegisterFlagsNone);
    if (e != cudaSuccess) {
      cudaGetLastError();  // registration errors are not sticky; clear them for later calls
      throw std::runtime_error(cuda_message("cudaGraphicsGLRegisterBuffer", e));
    }
    impl->resources.push_back(r);
  }
  m_impl = std::move(impl);
}

CudaGlBuffers CudaGlBuffers::texture(unsigned gl_texture) {
  require_device();
  auto impl = std::make_unique<Impl>();
  cudaGraphicsResource_t r = nullptr;
  const cudaError_t e =
      cudaGraphicsGLRegisterImage(&r, gl_texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsNone);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(cuda_message("cudaGraphicsGLRegisterImage", e));
  }
  impl->resources.push_back(r);
  impl->texture = true;
  CudaGlBuffers reg;
  reg.m_impl = std::move(impl);
  return reg;
}

void CudaGlBuffers::copy_rgba8_to_texture(const void* device_src, int width, int height) const {
  if (!mapped() || !m_impl->texture)
    throw std::logic_error("CudaGlBuffers::copy_rgba8_to_texture: no mapped texture");
  const std::size_t row = 4 * static_cast<std::size_t>(width);
  const cudaError_t e =
      cudaMemcpy2DToArrayAsync(static_cast<cudaArray_t>(m_impl->pointers[0]), 0, 0, device_src, row,
                               row, static_cast<std::size_t>(height), cudaMemcpyDeviceToDevice);
  if (e != cudaSuccess) throw std::runtime_error(cuda_message("cudaMemcpy2DToArrayAsync", e));
}

CudaGlBuffers::CudaGlBuffers() = default;
CudaGlBuffers::~CudaGlBuffers() = default;
CudaGlBuffers::CudaGlBuffers(CudaGlBuffers&&) noexcept = default;
CudaGlBuffers& CudaGlBuffers::operator=(CudaGlBuffers&&) noexcept = default;

std::vector<void*> CudaGlBuffers::map(const std::vector<MapAccess>& access) {
  map_all({{this, access}});
  return m_impl->pointers;
}

void CudaGlBuffers::unmap() noexcept { unmap_all({this}); }

void CudaGlBuffers::map_all(const Group& group) {
  std::vector<cudaGraphicsResource_t> all;
  for (const auto& [reg, access] : group) {
    if (!reg || !reg->m_impl) throw std::logic_error("CudaGlBuffers::map: nothing registered");
    if (reg->m_impl->mapped) throw std::logic_error("CudaGlBuffers::map: already mapped");
    auto& res = reg->m_impl->resources;
    if (access.size() != res.size())
      throw std::logic_error("CudaGlBuffers::map: one access per buffer");
    for (std::size_t i = 0; i < res.size(); ++i) {
      const cudaError_t e = cudaGraphicsResourceSetMapFlags(res[i], map_flags(access[i]));
      if (e != cudaSuccess)
        throw std::runtime_error(cuda_message("cudaGraphicsResourceSetMapFlags", e));
    }
    all.insert(all.end(), res.begin(), res.end());
  }
  cudaError_t e = cudaGraphicsMapResources(static_cast<int>(all.size()), all.data());
  if (e != cudaSuccess) throw std::runtime_error(cuda_message("cudaGraphicsMapResources", e));
  std::vector<CudaGlBuffers*> regs;
  for (const auto& entry : group) {
    entry.first->m_impl->mapped = true;
    regs.push_back(entry.first);
  }
  for (CudaGlBuffers* reg : regs) {
    Impl& impl = *reg->m_impl;
    impl.pointers.assign(impl.resources.size(), nullptr);
    for (std::size_t i = 0; i < impl.resources.size(); ++i) {
      std::size_t bytes = 0;
      cudaArray_t array = nullptr;
      e = impl.texture
              ? cudaGraphicsSubResourceGetMappedArray(&array, impl.resources[i], 0, 0)
              : cudaGraphicsResourceGetMappedPointer(&impl.pointers[i], &bytes, impl.resources[i]);
      if (impl.texture) impl.pointers[i] = array;
      if (e != cudaSuccess) {
        unmap_all(regs);
        throw std::runtime_error(cuda_message("mapping a GL resource for CUDA", e));
      }
    }
  }
}

void CudaGlBuffers::unmap_all(const std::vector<CudaGlBuffers*>& regs) noexcept {
  std::vector<cudaGraphicsResource_t> all;
  for (CudaGlBuffers* reg : regs) {
    if (!reg || !reg->m_impl || !reg->m_impl->mapped) continue;
    all.insert(all.end(), reg->m_impl->resources.begin(), reg->m_impl->resources.end());
    reg->m_impl->mapped = false;
    reg->m_impl->pointers.clear();
  }
  if (all.empty()) return;
  const cudaError_t e = cudaGraphicsUnmapResources(static_cast<int>(all.size()), all.data());
  if (e != cudaSuccess)
    std::fprintf(stderr, "orrery: %s\n", cuda_message("cudaGraphicsUnmapResources", e).c_str());
}

void* CudaGlBuffers::pointer(std::size_t i) const {
  if (!mapped() || i >= m_impl->pointers.size())
    throw std::logic_error("CudaGlBuffers::pointer: not mapped");
  return m_impl->pointers[i];
}

bool CudaGlBuffers::mapped() const { return m_impl && m_impl->mapped; }

std::string cuda_gl_probe() {
  if (!device_present()) return device_info().reason;
  GlBuffer probe = make_buffer();
  glBindBuffer(GL_ARRAY_BUFFER, probe.id());
  glBufferData(GL_ARRAY_BUFFER, 1024, nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  try {
    CudaGlBuffers reg({probe.id()});
    reg.map({MapAccess::read_write});
    reg.unmap();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace orrery::gfx
