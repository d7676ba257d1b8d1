// Helpers of the GPU tests: the parameters, the cached `cpu` reference and a ping-pong run of a
// GPU solver on device buffers whose output starts as NaN.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "../support.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "orrery/solver.h"

namespace orrery::test {

// Damping below 1, so the damping path is compared too;
// theta 0: a tree code opens every cell, so it is checked against `cpu` like the exact solvers.
inline SimParams gpu_check_params() {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.damping = 0.999f;
  p.theta = 0.0f;
  return p;
}

// `cpu` after `steps` steps of gpu_check_params() from make_preset(preset, n, seed), computed
// once per argument set.
inline const BodyState& cpu_reference(Preset preset, int n, std::uint64_t seed, int steps) {
  static std::map<std::tuple<Preset, int, std::uint64_t, int>, BodyState> cache;
  const auto key = std::make_tuple(preset, n, seed, steps);
  auto it = cache.find(key);
  if (it == cache.end()) {
    it =
        cache.emplace(key, run_host("cpu", make_preset(preset, n, seed), steps, gpu_check_params()))
            .first;
  }
  return it->second;
}

struct DeviceRun {
  BodyState end;                     // positions and velocities after the steps
  bool input_untouched_after_first;  // the first step left its input positions as they were
};

// The CUDA modules that the shared integrator and Simulation checks run through, and a test name for
// each ("cuda_fast").
inline auto cuda_modules() { return ::testing::Values("cuda-dynamic", "cuda-static", "cuda-fast"); }
inline std::string module_name(const ::testing::TestParamInfo<const char*>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

// A solver the test keeps (to read its configuration after the run), lent to a Simulation.
class Lent final : public Solver {
 public:
  explicit Lent(Solver& s) : m_s(s) {}
  const std::string& name() const override { return m_s.name(); }
  bool on_device() const override { return m_s.on_device(); }
  int block_size() const override { return m_s.block_size(); }
  std::string config() const override { return m_s.config(); }
  bool has_fused_step() const override { return m_s.has_fused_step(); }
  void step(const Vec4* in, Vec4* out, Vec4* vel, int n, const SimParams& p) override {
    m_s.step(in, out, vel, n, p);
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    m_s.accelerations(pos, acc, n, p);
  }
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    m_s.potentials(pos, out, n, p);
  }

 private:
  Solver& m_s;
};

// Runs `steps` steps of a GPU solver from `start` through a Simulation (the `euler` integrator: the
// module's fused launch) on device buffers. The first output buffer starts as NaN, so a body the
// kernel leaves unwritten cannot pass.
inline DeviceRun run_on_device(Solver& solver, const BodyState& start, int steps,
                               const SimParams& p) {
  int n = start.size();
  GpuBuffer<Vec4> a(n), b(n), vel(n);
  a.upload(start.pos.data(), n);
  vel.upload(start.vel.data(), n);
  const std::vector<Vec4> poison(n, Vec4{NAN, NAN, NAN, NAN});
  b.upload(poison.data(), n);
  DeviceRun r{BodyState{}, true};
  r.end.pos.resize(n), r.end.vel.resize(n);
  Simulation system(std::make_unique<Lent>(solver), Integrator::euler, p);
  Bodies lent{a.data(), b.data(), vel.data(), n, true};
  system.step(1, lent);
  device_synchronize();
  a.download(r.end.pos.data(), n);
  r.input_untouched_after_first =
      std::memcmp(r.end.pos.data(), start.pos.data(), n * sizeof(Vec4)) == 0;
  // The rest from b, the newest positions; they end in a after an odd number of steps.
  const int rest = steps - 1;
  if (rest > 0) system.step(rest, lent);
  device_synchronize();
  (rest % 2 ? a : b).download(r.end.pos.data(), n);
  vel.download(r.end.vel.data(), n);
  return r;
}

}  // namespace orrery::test
