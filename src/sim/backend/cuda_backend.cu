// The CUDA backend: the Simulation's arrays in device memory (GpuBuffer), the passes as kernels on
// the default stream.
#include <vector>

#include "backend.h"
#include "device_passes.h"
#include "element_kernels.cuh"
#include "orrery/cuda_check.cuh"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

class CudaBackend final : public DevicePasses<Backend, Vec4> {
 public:
  CudaBackend() { require_device(); }
  void reserve(int n) override {
    const std::size_t count = static_cast<std::size_t>(n);
    if (m_acc.size() >= count) return;
    m_acc.resize(count);
    // The potentials and the last accelerations only when asked for: at 268M bodies a rank each
    // is 4.3 GB that a run without diagnostics or a kick-drift-kick would hold for nothing.
    if (m_pot.size() > 0) m_pot.resize(count);
    if (m_prev.size() > 0) m_prev.resize(count);
  }
  Vec4* acc() override { return m_acc.data(); }
  Vec4* pot() override {
    if (m_pot.size() < m_acc.size()) m_pot.resize(m_acc.size());
    return m_pot.data();
  }
  Vec4* prev_acc() override {
    if (m_prev.size() < m_acc.size()) m_prev.resize(m_acc.size());
    return m_prev.data();
  }
  void swap_acc() override {
    prev_acc();
    std::swap(m_acc, m_prev);
  }

  Sums sums(const Vec4* pos, const Vec4* vel, const Vec4* pot, int n) override {
    return m_reducer.sums(pos, vel, pot, n);
  }
  std::optional<double> pair_potential_energy(const Vec4* pos, int n, float eps) override {
    return m_reducer.pair_potential_energy(pos, n, eps);
  }

  void speeds(const Vec4* vel, int n, float* out) override { device_speeds(vel, n, out); }
  void masses(const Vec4* pos, int n, float* out) override { device_masses(pos, n, out); }
  void magnitudes(const Vec4* acc, int n, float* out) override { device_magnitudes(acc, n, out); }
  void depths(const Vec4* pot, int n, float* out) override { device_depths(pot, n, out); }
  void density(const Vec4* pos, int n, float* out) override { fields().density(pos, n, out); }
  Vec3 body_acceleration(const Vec4* pos, int n, int i, float softening) override {
    return fields().body_acceleration(pos, n, i, softening);
  }
  void read_body(const Vec4* pos, const Vec4* vel, int i, Vec4& p, Vec4& v) override {
    device_read_body(pos, vel, i, p, v);
  }
  void read_positions(const Vec4* pos, int n, int stride, Vec4* out) override {
    device_read_positions(pos, n, stride, out);
  }
  long long first_nonfinite(const Vec4* pos, const Vec4* vel, int n) override {
    if (!m_probe) m_probe = std::make_unique<FiniteProbe>();
    return m_probe->check(pos, vel, n);
  }

  Bodies hold(const BodyState& s) override {
    const std::size_t n = s.pos.size();
    for (GpuBuffer<Vec4>& p : m_pos) p.resize(n);
    m_vel.resize(n);
    const std::vector<Vec4> poison(n, Vec4{NAN, NAN, NAN, NAN});
    m_pos[0].upload(s.pos.data(), n);
    m_pos[1].upload(poison.data(), n);
    m_vel.upload(s.vel.data(), n);
    return Bodies{m_pos[0].data(), m_pos[1].data(), m_vel.data(), s.size(), true};
  }
  void fetch(const Bodies& b, BodyState& into) override {
    const std::size_t n = static_cast<std::size_t>(b.n);
    into.pos.resize(n), into.vel.resize(n);
    device_synchronize();
    gpu_memory::download(into.pos.data(), b.pos, sizeof(Vec4) * n);
    gpu_memory::download(into.vel.data(), b.vel, sizeof(Vec4) * n);
  }
  void fetch(const float* src, float* host, int n, int stride) override {
    if (stride == 1) {
      gpu_memory::download(host, src, sizeof(float) * static_cast<std::size_t>(n));
    } else if (n > 0) {  // one float a row: the copy engine gathers the sample
      CUDA_CHECK_THROW(cudaMemcpy2D(host, sizeof(float), src, sizeof(float) * stride, sizeof(float),
                                    static_cast<std::size_t>(n), cudaMemcpyDeviceToHost));
    }
  }
  float* float_scratch(int n) override {
    m_floats.enlarge(static_cast<std::size_t>(n));
    return m_floats.data();
  }

 private:
  DeviceFields& fields() {
    if (!m_fields) m_fields = std::make_unique<DeviceFields>();
    return *m_fields;
  }
  GpuBuffer<Vec4> m_acc, m_pot, m_prev, m_pos[2], m_vel;
  GpuBuffer<float> m_floats;
  DeviceReducer m_reducer;
  std::unique_ptr<DeviceFields> m_fields;  // made on first use (density, one body's acceleration)
  std::unique_ptr<FiniteProbe> m_probe;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace orrery
