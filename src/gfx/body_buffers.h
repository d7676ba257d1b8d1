// The bodies' drawable storage: two position VBOs (ping-pong) and a velocity VBO, fed by one of
// three paths: zero-copy CUDA interop, a staged copy from device arrays, or a host upload.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda_gl.h"
#include "gl_objects.h"
#include "orrery/bodies.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/physics.h"
#include "orrery/presets.h"

namespace orrery::gfx {

// How steps on the device reach the VBOs; chosen once at start-up.
enum class DevicePath {
  interop,  // the VBOs are registered with CUDA and solved in place (no copy)
  staged,   // registration failed: solve in device arrays, copy through the host into the VBOs
  none      // no CUDA device or a CPU-only build: CPU solvers only
};
const char* to_string(DevicePath p);

// The bodies' arrays as the frame lends them to the simulation (orrery/bodies.h): on the interop
// path the VBOs mapped for CUDA, with other registered buffers (the CUDA splat's picture, the
// trails' ring) in the same map call; on the staged path the device arrays; on the host the host
// arrays. The frame steps them, draws its overlays on them, and the mapping goes (unmapping).
class BodyBuffers;
class Mapping {
 public:
  Mapping(Mapping&& o) noexcept;
  Mapping& operator=(Mapping&&) = delete;
  Mapping(const Mapping&) = delete;
  ~Mapping();
  // The arrays: bodies().pos holds the newest positions.
  Bodies& bodies() { return m_bodies; }
  // Makes the newest positions (bodies().pos after steps) and the count current, and publishes
  // them (staged: copied into the VBOs); called once after steps.
  void commit();
  // The per-body values VBO while mapped (interop path only; else null).
  float* values() const { return m_values; }

 private:
  friend class BodyBuffers;
  Mapping(BodyBuffers& owner, Bodies b, std::vector<CudaGlBuffers*> mapped, float* values);
  BodyBuffers* m_owner;
  Bodies m_bodies;
  std::vector<CudaGlBuffers*> m_mapped;
  float* m_values;
};

class BodyBuffers final {
 public:
  explicit BodyBuffers(DevicePath path) : m_path(path) {}

  // (Re)creates every buffer for pos.size() bodies holding this state (and re-registers them).
  void load(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
  // Where the next steps run: on the device (GPU solvers) or the host; moves the state across.
  void set_on_device(bool on_device);
  bool on_device() const { return m_on_device; }
  // The arrays of the side the state is on for `steps` steps (0: to read). Interop path: the VBOs
  // mapped (one step: the read buffer read-only, the write buffer write-discard; more: both
  // read-write; reading: read-only, the values read-write) with `extra` in the same call.
  Mapping map(int steps, const CudaGlBuffers::Group& extra = {});
  // Interop path only: the VBOs mapped read-only for CUDA with `extra`, whichever side the solver
  // runs (the CUDA splat of a CPU run's published state).
  Mapping map_for_drawing(const CudaGlBuffers::Group& extra);
  // The host path: the host arrays (stepped in place, or read), and the newest state published
  // to GL - the arrays host_bodies() gave, stepped, or another owner's arrays (a CPU run's own
  // state on its worker), copied in.
  Bodies host_bodies();
  void publish_host(const Bodies& b);
  // Copies the current state to the host.
  void download(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const;
  BodyState download() const;

  // The per-body values the sprites read for a stored colour quantity (attribute 2), set through
  // GL (a Mapping's values() on the interop path).
  void upload_values(const float* values, int n);
  void download_values(std::vector<float>& out) const;
  // Whether host_pos() and host_vel() hold the newest state (CPU solvers; the staged path's copy).
  bool host_current() const;
  const Vec4* host_pos() const { return m_host_pos[m_cur].data(); }
  const Vec4* host_vel() const { return m_host_vel.data(); }

  GLuint vertex_array() const { return m_vao[m_cur].id(); }
  // The VBOs the vertex array reads: positions (xyz, w mass), velocities (xyz, w radius), and the
  // stored colour quantity (a float a body).
  GLuint position_buffer() const { return m_pos_vbo[m_cur].id(); }
  GLuint velocity_buffer() const { return m_vel_vbo.id(); }
  GLuint value_buffer() const { return m_value_vbo.id(); }
  // Changes whenever what the VBOs hold may have changed (load, steps, publish); never 0.
  std::uint64_t version() const { return m_version; }
  int count() const { return m_count; }
  DevicePath path() const { return m_path; }
  // The path the bodies take now: "zero-copy interop", "staged copy" or "CPU".
  const char* path_name() const;

 private:
  friend class Mapping;
  void commit(const Bodies& b);
  void upload_to_gl(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
  void read_gl(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const;
  Mapping map_interop(std::vector<MapAccess> access, const CudaGlBuffers::Group& extra);

  DevicePath m_path;
  bool m_on_device = false;
  int m_count = 0;
  int m_cur = 0;  // which position buffer holds the newest positions
  std::uint64_t m_version = 1;
  GlBuffer m_pos_vbo[2], m_vel_vbo, m_value_vbo;
  GlVertexArray m_vao[2];
  CudaGlBuffers m_interop;
  GpuBuffer<Vec4> m_dev_pos[2], m_dev_vel;          // staged path
  std::vector<Vec4> m_host_pos[2], m_host_vel;  // CPU path, and the staging copy
};

}  // namespace orrery::gfx
