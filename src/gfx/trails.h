// Trails' storage: a ring of the last K positions of M bodies (every body, or a random sample) in
// a GL buffer that the GL trail pass reads as a buffer texture and that CUDA appends to and
// splats from through interop (no host copy); on the CPU path a host mirror writes one slot a
// frame into it.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_gl.h"
#include "gl_objects.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "trails_picking.h"

namespace orrery::gfx {

class Trails {
 public:
  // `interop`: register the buffer with CUDA (the zero-copy path).
  explicit Trails(bool interop) : m_interop(interop) {}

  // K positions (2..k_max_trail) of m of the n bodies (m 0 or >= n: every body; else a random
  // sample, the same for the same n and m); empties the ring. Throws std::invalid_argument for a
  // bad K, and runtime_error when the device cannot hold it.
  void configure(int k, int m, int n);
  void clear() { m_head = m_filled = 0; }
  int length() const { return m_k; }
  int bodies() const { return m_m; }
  int filled() const { return m_filled; }
  std::uint64_t bytes() const { return 16ull * static_cast<std::uint64_t>(m_k) * m_m; }

  // The interop registration to map with the body buffers (null off the interop path).
  CudaGlBuffers* registration() { return m_reg.registered() ? &m_reg : nullptr; }
  // Appends the newest state: on the device while registration() is mapped (device pointers), or
  // from host arrays (uploads the slot through GL).
  void append_device(const Vec4* pos, const Vec4* vel, const float* values, int n,
                     const ColorMap& c);
  void append_host(const Vec4* pos, const Vec4* vel, const float* values, int n, const ColorMap& c);
  // The ring while mapped (device pointer), for the CUDA splat.
  TrailRing device_ring() const;
  // The host mirror (the CPU path's), for tests.
  TrailRing host_ring();
  // The GL buffer texture (GL_RGBA32F) over the ring and the slot to write next.
  GLuint texture() const { return m_tex.id(); }
  GLuint buffer() const { return m_buffer.id(); }  // the ring itself (k * m Vec4)
  int head() const { return m_head; }

 private:
  void advance_head();

  bool m_interop;
  int m_k = 0, m_m = 0, m_n = 0, m_head = 0, m_filled = 0;
  GlBuffer m_buffer;
  GlTexture m_tex;
  CudaGlBuffers m_reg;
  std::vector<int> m_sample;    // empty: every body
  GpuBuffer<int> m_device_sample;  // the sample's indices
  std::vector<Vec4> m_host;     // the host mirror (only when appending from the host)
};

}  // namespace orrery::gfx
