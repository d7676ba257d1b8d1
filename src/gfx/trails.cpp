// Trails' ring buffer: configuration, the random sample, appends from the device or the host.
#include "trails.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include "orrery/gpu_buffer.h"

namespace orrery::gfx {

void Trails::configure(int k, int m, int n) {
  if (k < 2 || k > k_max_trail)
    throw std::invalid_argument("a trail keeps 2 to " + std::to_string(k_max_trail) +
                                " positions, got " + std::to_string(k));
  if (n < 1) throw std::invalid_argument("trails need bodies");
  const int bodies = m <= 0 || m >= n ? n : m;
  m_reg = CudaGlBuffers();
  m_k = k;
  m_m = bodies;
  m_n = n;
  clear();
  m_sample.clear();
  m_host.clear();
  if (bodies < n) {  // a random sample: a partial Fisher-Yates shuffle, then sorted for locality
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
    std::mt19937_64 rng(0x7261696c73ull ^ static_cast<unsigned long long>(n));
    for (int i = 0; i < bodies; ++i) {
      std::uniform_int_distribution<int> pick(i, n - 1);
      std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(pick(rng))]);
    }
    m_sample.assign(all.begin(), all.begin() + bodies);
    std::sort(m_sample.begin(), m_sample.end());
  }
  m_buffer = make_buffer();
  glBindBuffer(GL_TEXTURE_BUFFER, m_buffer.id());
  glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(bytes()), nullptr, GL_DYNAMIC_DRAW);
  m_tex = make_texture();
  glBindTexture(GL_TEXTURE_BUFFER, m_tex.id());
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, m_buffer.id());
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  check_gl("creating the trail buffer");
  m_device_sample = GpuBuffer<int>();
  if (m_interop) {
    m_reg = CudaGlBuffers({m_buffer.id()});
    if (!m_sample.empty()) {
      m_device_sample.resize(m_sample.size());
      m_device_sample.upload(m_sample.data(), m_sample.size());
    }
  }
}

void Trails::advance_head() {
  m_head = (m_head + 1) % m_k;
  m_filled = std::min(m_filled + 1, m_k);
}

void Trails::append_device(const Vec4* pos, const Vec4* vel, const float* values, int n,
                           const ColorMap& c) {
  if (m_k == 0) return;
  const int* sample =
      m_sample.empty() ? nullptr : m_device_sample.data();
  trail_append_device(pos, vel, values, n, sample, c, device_ring().ring, m_m, m_head);
  advance_head();
}

void Trails::append_host(const Vec4* pos, const Vec4* vel, const float* values, int n,
                         const ColorMap& c) {
  if (m_k == 0) return;
  m_host.resize(static_cast<std::size_t>(m_k) * m_m);
  trail_append_cpu(pos, vel, values, n, m_sample.empty() ? nullptr : m_sample.data(), c,
                   m_host.data(), m_m, m_head);
  glBindBuffer(GL_TEXTURE_BUFFER, m_buffer.id());
  glBufferSubData(GL_TEXTURE_BUFFER, static_cast<GLintptr>(16ll * m_head * m_m),
                  static_cast<GLsizeiptr>(16ll * m_m),
                  m_host.data() + static_cast<long>(m_head) * m_m);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  advance_head();
}

TrailRing Trails::device_ring() const {
  if (!m_reg.registered() || !m_reg.mapped())
    throw std::logic_error("Trails::device_ring: the trail buffer is not mapped");
  return {static_cast<Vec4*>(m_reg.pointer(0)), m_m, m_k, m_head, m_filled};
}

TrailRing Trails::host_ring() { return {m_host.data(), m_m, m_k, m_head, m_filled}; }

}  // namespace orrery::gfx
