// Helpers of the GPU tests: the parameters, the cached `cpu` reference and a ping-pong run of a
// GPU solver on device buffers whose output starts as NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "../support.h"
#include "orrery/device.h"
#include "orrery/presets.h"
#include "orrery/solver.h"

namespace orrery::test {

// Damping below 1, so the damping path is compared too.
inline SimParams gpu_check_params() {
  SimParams p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.damping = 0.999f;
  return p;
}

// `cpu` after `steps` steps of gpu_check_params() from make_preset(preset, n, seed), computed
// once per argument set.
inline const BodyState& cpu_reference(Preset preset, int n, std::uint64_t seed, int steps) {
  static std::map<std::tuple<Preset, int, std::uint64_t, int>, BodyState> cache;
  const auto key = std::make_tuple(preset, n, seed, steps);
  auto it = cache.find(key);
  if (it == cache.end()) {
    auto cpu = make_solver("cpu");
    it = cache.emplace(key, run_host(*cpu, make_preset(preset, n, seed), steps, gpu_check_params()))
             .first;
  }
  return it->second;
}

struct DeviceRun {
  BodyState end;                     // positions and velocities after the steps
  bool input_untouched_after_first;  // the first step left its input positions as they were
};

// Runs `steps` steps of a GPU solver from `start` on device buffers, positions ping-ponging.
// The first output buffer starts as NaN, so a body the kernel leaves unwritten cannot pass.
inline DeviceRun run_on_device(Solver& solver, const BodyState& start, int steps,
                               const SimParams& p) {
  const int n = start.size();
  DeviceArray a(n), b(n), vel(n);
  a.upload(start.pos.data(), n);
  vel.upload(start.vel.data(), n);
  const std::vector<Vec4> poison(n, Vec4{NAN, NAN, NAN, NAN});
  b.upload(poison.data(), n);
  DeviceRun r{BodyState{std::vector<Vec4>(n), std::vector<Vec4>(n)}, true};
  for (int k = 0; k < steps; ++k) {
    solver.step(a.data(), b.data(), vel.data(), n, p);
    if (k == 0) {
      a.download(r.end.pos.data(), n);
      r.input_untouched_after_first =
          std::memcmp(r.end.pos.data(), start.pos.data(), n * sizeof(Vec4)) == 0;
    }
    std::swap(a, b);
  }
  device_synchronize();
  a.download(r.end.pos.data(), n);
  vel.download(r.end.vel.data(), n);
  return r;
}

}  // namespace orrery::test
