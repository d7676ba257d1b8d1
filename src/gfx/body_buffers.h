// The bodies' drawable storage: two position VBOs (ping-pong) and a velocity VBO, fed by one of
// three paths: zero-copy CUDA interop, a staged copy from device arrays, or a host upload.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda_gl.h"
#include "gl_objects.h"
#include "orrery/device.h"
#include "orrery/physics.h"
#include "orrery/system.h"

namespace orrery::gfx {

// How steps on the device reach the VBOs; chosen once at start-up.
enum class DevicePath {
  interop,  // the VBOs are registered with CUDA and solved in place (no copy)
  staged,   // registration failed: solve in device arrays, copy through the host into the VBOs
  none      // no CUDA device or a CPU-only build: CPU solvers only
};
const char* to_string(DevicePath p);

// Runs every step of a frame: a -> b -> a -> ... (velocities in place). The newest positions end
// in b after an odd number of steps, in a after an even one.
using StepRun = std::function<void(Vec4* a, Vec4* b, Vec4* vel)>;
// Reads the newest state in place: device pointers to the positions and velocities.
using DeviceView = std::function<void(const Vec4* pos, const Vec4* vel)>;

// Work that reads the newest state on the device and writes other registered GL buffers (the
// CUDA splat's image, the trails): on the interop path `regs` are mapped in the same call as the
// VBOs, and `view` runs after the steps, before the unmap (mapped_values() is valid there).
struct Companion {
  CudaGlBuffers::Group regs;
  DeviceView view;
};

// The VBOs are also the System's body storage (orrery/system.h): its steps run in the frame's
// mapping, with the companion set for the frame.
class BodyBuffers final : public BodyStorage {
 public:
  explicit BodyBuffers(DevicePath path) : m_path(path) {}

  // (Re)creates every buffer for pos.size() bodies holding this state (and re-registers them).
  void load(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
  // Where the next steps run: on the device (GPU solvers) or the host; moves the state across.
  void set_on_device(bool on_device);
  bool on_device() const override { return m_on_device; }
  // Maps or selects the storage, calls run for `steps` steps, then publishes the newest positions
  // and the velocities to GL (unmap, or copy). With one step the interop maps the read buffer
  // read-only and the write buffer write-discard; with more, both read-write. A companion runs
  // after the steps (interop path only), mapped with the VBOs when the solver is on the device.
  void advance(int steps, const StepRun& run, const Companion* companion = nullptr);
  // The host path in two halves, so CPU steps can run on another thread while the frame loop goes
  // on drawing the published state: the arrays to step (the newest positions in `a`), then,
  // after `steps` steps on them, publish the newest state to GL. Nothing else may touch the
  // buffers in between.
  struct HostArrays {
    Vec4* a;
    Vec4* b;
    Vec4* vel;
  };
  HostArrays host_arrays();
  void publish_host(int steps, const Companion* companion = nullptr);
  // Interop path only: maps the VBOs read-only for CUDA and the companion's buffer in one call,
  // runs the companion on the newest state, and unmaps. Whichever side the solver runs.
  void view_on_device(const Companion& companion);
  // Copies the current state to the host.
  void download(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const;

  // BodyStorage: advance() with the companion set by set_companion(); view() maps read-only on
  // the interop path.
  void set_companion(const Companion* companion) { m_companion = companion; }
  void run(int steps, const StepArrays& run) override { advance(steps, run, m_companion); }
  void view(const StateView& view) override;
  BodyState download() override;
  // The first n bodies stay (merges); the buffers keep their size.
  void set_count(int n) override;

  // The per-body values the sprites read for a stored colour quantity (attribute 2): while the
  // interop path's buffers are mapped (in a companion), their device pointer; else set through GL.
  float* mapped_values() const;
  void upload_values(const float* values, int n);
  void download_values(std::vector<float>& out) const;
  // The published state as GL holds it (the VBOs; safe while a CPU run writes the host arrays):
  // every position, or one body.
  void read_published_positions(std::vector<Vec4>& pos) const;
  void read_published_body(int i, Vec4& pos, Vec4& vel) const;
  // Whether host_pos() and host_vel() hold the newest state (CPU solvers; the staged path's copy).
  bool host_current() const;
  const Vec4* host_pos() const { return m_host_pos[m_cur].data(); }
  const Vec4* host_vel() const { return m_host_vel.data(); }

  GLuint vertex_array() const { return m_vao[m_cur].id(); }
  // Changes whenever what the VBOs hold may have changed (load, steps, publish); never 0.
  std::uint64_t version() const { return m_version; }
  int count() const override { return m_count; }
  DevicePath path() const { return m_path; }
  // The path the bodies take now: "zero-copy interop", "staged copy" or "CPU".
  const char* path_name() const;

 private:
  void upload_to_gl(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel);
  void read_gl(std::vector<Vec4>& pos, std::vector<Vec4>& vel) const;
  void advance_interop(int steps, const StepRun& run, const Companion* companion);

  DevicePath m_path;
  const Companion* m_companion = nullptr;
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
