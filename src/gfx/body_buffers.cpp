// Body buffers: creation, residency moves, per-frame stepping through the chosen path.
#include "body_buffers.h"

#include <algorithm>
#include <stdexcept>

#include "orrery/gpu_buffer.h"

namespace orrery::gfx {
namespace {

constexpr GLsizeiptr k_stride = sizeof(Vec4);

void fill_buffer(GLuint id, const Vec4* data, int count, GLenum usage) {
  glBindBuffer(GL_ARRAY_BUFFER, id);
  glBufferData(GL_ARRAY_BUFFER, k_stride * count, data, usage);
}

void update_buffer(GLuint id, const Vec4* data, int count) {
  glBindBuffer(GL_ARRAY_BUFFER, id);
  glBufferSubData(GL_ARRAY_BUFFER, 0, k_stride * count, data);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

// The VBOs' group entry, with the extra buffers after it.
CudaGlBuffers::Group map_group(CudaGlBuffers& vbos, std::vector<MapAccess> access,
                               const CudaGlBuffers::Group& extra) {
  CudaGlBuffers::Group group{{&vbos, std::move(access)}};
  for (const auto& entry : extra) group.push_back(entry);
  return group;
}

}  // namespace

const char* to_string(DevicePath p) {
  switch (p) {
    case DevicePath::interop:
      return "zero-copy interop";
    case DevicePath::staged:
      return "staged copy";
    case DevicePath::none:
      return "CPU";
  }
  return "?";
}

const char* BodyBuffers::path_name() const {
  return m_on_device ? to_string(m_path) : to_string(DevicePath::none);
}

void BodyBuffers::load(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  if (pos.empty() || pos.size() != vel.size())
    throw std::invalid_argument("BodyBuffers::load: positions and velocities must match, n >= 1");
  m_interop = CudaGlBuffers();  // unregister before the buffers go
  ++m_version;
  m_count = static_cast<int>(pos.size());
  m_cur = 0;
  // On the interop path the bodies go to the VBOs through CUDA, once, and are copied on the device
  // to the second position buffer: GL's own uploads took 1.4 s of a 16M-body file's load.
  const bool through_cuda = m_path == DevicePath::interop;
  for (int k = 0; k < 2; ++k) {
    m_pos_vbo[k] = make_buffer();
    fill_buffer(m_pos_vbo[k].id(), through_cuda ? nullptr : pos.data(), m_count, GL_DYNAMIC_DRAW);
  }
  m_vel_vbo = make_buffer();
  fill_buffer(m_vel_vbo.id(), through_cuda ? nullptr : vel.data(), m_count, GL_DYNAMIC_DRAW);
  m_value_vbo = make_buffer();
  glBindBuffer(GL_ARRAY_BUFFER, m_value_vbo.id());
  const std::vector<float> zeros(through_cuda ? 0 : pos.size(), 0.0f);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(sizeof(float) * pos.size()),
               through_cuda ? nullptr : zeros.data(), GL_DYNAMIC_DRAW);
  for (int k = 0; k < 2; ++k) {
    m_vao[k] = make_vertex_array();
    glBindVertexArray(m_vao[k].id());
    glBindBuffer(GL_ARRAY_BUFFER, m_pos_vbo[k].id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, k_stride, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, m_vel_vbo.id());
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, k_stride, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, m_value_vbo.id());
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(float), nullptr);
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("creating the body buffers");
  if (through_cuda) {
    m_interop =
        CudaGlBuffers({m_pos_vbo[0].id(), m_pos_vbo[1].id(), m_vel_vbo.id(), m_value_vbo.id()});
    const std::vector<void*> p = m_interop.map(std::vector<MapAccess>(4, MapAccess::write_discard));
    const std::size_t bytes = sizeof(Vec4) * pos.size();
    gpu_memory::upload(p[0], pos.data(), bytes);
    gpu_memory::copy(p[1], p[0], bytes);
    gpu_memory::upload(p[2], vel.data(), bytes);
    gpu_memory::zero(p[3], sizeof(float) * pos.size());
    m_interop.unmap();
  }
  if (m_path == DevicePath::staged) {
    for (auto& d : m_dev_pos) d = GpuBuffer<Vec4>(pos.size());
    m_dev_vel = GpuBuffer<Vec4>(vel.size());
    m_dev_pos[0].upload(pos.data(), pos.size());
    m_dev_vel.upload(vel.data(), vel.size());
  }
  // The host arrays hold the state on the CPU path and stage it on the staged path; interop on the
  // device never reads them (set_on_device(false) fills them from the VBOs).
  if (m_on_device && through_cuda) {
    for (auto& h : m_host_pos) std::vector<Vec4>().swap(h);
    std::vector<Vec4>().swap(m_host_vel);
    return;
  }
  m_host_pos[0] = pos;
  m_host_pos[1].assign(pos.size(), Vec4{});
  m_host_vel = vel;
}

void BodyBuffers::set_on_device(bool on_device) {
  if (on_device && m_path == DevicePath::none)
    throw std::runtime_error("no CUDA device path here: GPU solvers cannot run");
  if (on_device == m_on_device) return;
  if (m_count > 0) {
    if (on_device) {  // host -> device: the VBOs mirror the host state already
      if (m_path == DevicePath::staged) {
        m_dev_pos[m_cur].upload(m_host_pos[m_cur].data(), m_count);
        m_dev_vel.upload(m_host_vel.data(), m_count);
      }
    } else {  // device -> host
      download(m_host_pos[m_cur], m_host_vel);
      m_host_pos[1 - m_cur].resize(static_cast<std::size_t>(m_count));
    }
  }
  m_on_device = on_device;
}

Mapping::Mapping(BodyBuffers& owner, Bodies b, std::vector<CudaGlBuffers*> mapped, float* values)
    : m_owner(&owner), m_bodies(b), m_mapped(std::move(mapped)), m_values(values) {}

Mapping::Mapping(Mapping&& o) noexcept
    : m_owner(o.m_owner),
      m_bodies(o.m_bodies),
      m_mapped(std::move(o.m_mapped)),
      m_values(o.m_values) {
  o.m_mapped.clear();
}

Mapping::~Mapping() { CudaGlBuffers::unmap_all(m_mapped); }

void Mapping::commit() { m_owner->commit(m_bodies); }

Mapping BodyBuffers::map(int steps, const CudaGlBuffers::Group& extra) {
  if (m_count == 0) throw std::logic_error("BodyBuffers::map: no bodies");
  if (!m_on_device) return Mapping(*this, host_bodies(), {}, nullptr);
  if (m_path == DevicePath::staged)
    return Mapping(*this,
                   Bodies{m_dev_pos[m_cur].data(), m_dev_pos[1 - m_cur].data(), m_dev_vel.data(),
                          m_count, true},
                   {}, nullptr);
  const int a = m_cur, b = 1 - m_cur;
  std::vector<MapAccess> access(4, MapAccess::read_write);
  if (steps == 1) {
    access[a] = MapAccess::read_only;
    access[b] = MapAccess::write_discard;
  } else if (steps == 0) {
    access = {MapAccess::read_only, MapAccess::read_only, MapAccess::read_only,
              MapAccess::read_write};
  }
  return map_interop(std::move(access), extra);
}

Mapping BodyBuffers::map_for_drawing(const CudaGlBuffers::Group& extra) {
  if (m_path != DevicePath::interop || !m_interop.registered())
    throw std::logic_error("BodyBuffers::map_for_drawing: the VBOs are not registered with CUDA");
  return map_interop({MapAccess::read_only, MapAccess::read_only, MapAccess::read_only,
                      MapAccess::read_write},
                     extra);
}

Mapping BodyBuffers::map_interop(std::vector<MapAccess> access, const CudaGlBuffers::Group& extra) {
  CudaGlBuffers::map_all(map_group(m_interop, std::move(access), extra));  // one call for all
  std::vector<CudaGlBuffers*> regs{&m_interop};
  for (const auto& entry : extra) regs.push_back(entry.first);
  const auto pos = [&](int k) { return static_cast<Vec4*>(m_interop.pointer(k)); };
  return Mapping(*this, Bodies{pos(m_cur), pos(1 - m_cur), pos(2), m_count, true}, std::move(regs),
                 static_cast<float*>(m_interop.pointer(3)));
}

void BodyBuffers::commit(const Bodies& b) {
  if (b.n < 1 || b.n > m_count) throw std::logic_error("BodyBuffers: only fewer bodies");
  ++m_version;
  m_count = b.n;
  if (!m_on_device) return publish_host(b);
  if (m_path == DevicePath::staged) {
    if (b.pos != m_dev_pos[m_cur].data()) m_cur = 1 - m_cur;
    m_dev_pos[m_cur].download(m_host_pos[m_cur].data(), m_count);
    m_dev_vel.download(m_host_vel.data(), m_count);
    upload_to_gl(m_host_pos[m_cur], m_host_vel);
    return;
  }
  if (b.pos != m_interop.pointer(m_cur)) m_cur = 1 - m_cur;
}

Bodies BodyBuffers::host_bodies() {
  if (m_on_device) throw std::logic_error("BodyBuffers::host_bodies: the state is on the device");
  return Bodies{m_host_pos[m_cur].data(), m_host_pos[1 - m_cur].data(), m_host_vel.data(), m_count,
                false};
}

void BodyBuffers::publish_host(const Bodies& b) {
  ++m_version;
  if (b.n < 1 || b.n > m_count) throw std::logic_error("BodyBuffers: only fewer bodies");
  m_count = b.n;
  if (b.pos == m_host_pos[1 - m_cur].data()) {
    m_cur = 1 - m_cur;  // stepped in place: the newest positions are in the other buffer
  } else if (b.pos != m_host_pos[m_cur].data()) {  // another owner's arrays (a worker's copy)
    std::copy(b.pos, b.pos + b.n, m_host_pos[m_cur].begin());
    std::copy(b.vel, b.vel + b.n, m_host_vel.begin());
  }
  upload_to_gl(m_host_pos[m_cur], m_host_vel);
}

void BodyBuffers::upload_values(const float* values, int n) {
  glBindBuffer(GL_ARRAY_BUFFER, m_value_vbo.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(sizeof(float) * n), values);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void BodyBuffers::download_values(std::vector<float>& out) const {
  out.resize(m_count);
  glBindBuffer(GL_ARRAY_BUFFER, m_value_vbo.id());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(sizeof(float) * m_count),
                     out.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

bool BodyBuffers::host_current() const { return !m_on_device || m_path == DevicePath::staged; }

BodyState BodyBuffers::download() const {
  BodyState s;
  download(s.pos, s.vel);
  return s;
}

void BodyBuffers::upload_to_gl(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel) {
  update_buffer(m_pos_vbo[m_cur].id(), pos.data(), m_count);
  update_buffer(m_vel_vbo.id(), vel.data(), m_count);
}

void BodyBuffers::read_gl(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const {
  pos.resize(m_count);
  vel.resize(m_count);
  glBindBuffer(GL_ARRAY_BUFFER, m_pos_vbo[m_cur].id());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, k_stride * m_count, pos.data());
  glBindBuffer(GL_ARRAY_BUFFER, m_vel_vbo.id());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, k_stride * m_count, vel.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void BodyBuffers::download(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const {
  if (m_on_device && m_path == DevicePath::staged) {
    pos.resize(m_count);
    vel.resize(m_count);
    m_dev_pos[m_cur].download(pos.data(), m_count);
    m_dev_vel.download(vel.data(), m_count);
  } else if (m_on_device) {
    read_gl(pos, vel);  // interop: the VBOs hold the state
  } else {
    pos = m_host_pos[m_cur];
    vel = m_host_vel;
  }
}

}  // namespace orrery::gfx
