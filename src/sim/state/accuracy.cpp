// measure_accuracy: one pass of the module, the exact double sum at the targets, the statistics.
#include "orrery/accuracy.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/simulation.h"

namespace orrery {
namespace {

// One pass of the module over host positions into host accelerations, through device memory for
// a GPU module.
template <class V>
void module_pass(Solver& gravity, const std::vector<V>& pos, std::vector<V>& acc,
                 const SimParams& p, void (Solver::*pass)(const V*, V*, int, const SimParams&)) {
  const int n = static_cast<int>(pos.size());
  if (gravity.on_device()) {
    GpuBuffer<V> in(pos.size()), out(pos.size());
    in.upload(pos.data(), pos.size());
    (gravity.*pass)(in.data(), out.data(), n, p);
    device_synchronize();
    out.download(acc.data(), acc.size());
  } else {
    (gravity.*pass)(pos.data(), acc.data(), n, p);
  }
}

}  // namespace

AccuracyStats measure_accuracy(Solver& gravity, const BodyState& s, const SimParams& p,
                               int all_up_to, int sample, std::uint64_t seed) {
  const int n = s.size();
  // The pass of the run's precision: a double run's module sums in double, from the state's
  // doubles (and the float errors would say nothing of it).
  const bool doubles = p.precision == Precision::double_;
  if (doubles) check_precision(gravity, p);
  // The positions the exact sum runs over: a double state's own, else the floats widened.
  std::vector<Vec4d> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    x[static_cast<std::size_t>(i)] = doubles && s.pos64.size() == s.pos.size()
                                         ? s.pos64[static_cast<std::size_t>(i)]
                                         : to_double(s.pos[static_cast<std::size_t>(i)]);
  std::vector<Vec4d> acc(static_cast<std::size_t>(n));
  if (doubles) {
    module_pass(gravity, x, acc, p, &Solver::accelerations_double);
  } else {
    std::vector<Vec4> out(static_cast<std::size_t>(n));
    module_pass(gravity, s.pos, out, p, &Solver::accelerations);
    for (int i = 0; i < n; ++i)
      acc[static_cast<std::size_t>(i)] = to_double(out[static_cast<std::size_t>(i)]);
  }
  std::vector<int> targets;
  if (n <= all_up_to) {
    targets.resize(static_cast<std::size_t>(n));
    std::iota(targets.begin(), targets.end(), 0);
  } else {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pick(0, n - 1);
    for (int k = 0; k < sample; ++k) targets.push_back(pick(rng));
  }
  const double eps2 = static_cast<double>(p.softening) * p.softening;
  std::vector<double> err(targets.size(), -1.0);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const int i = targets[t];
    const Vec4d& pi = x[static_cast<std::size_t>(i)];
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      const Vec4d& pj = x[static_cast<std::size_t>(j)];
      const double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double f = pj.w / (r2 * std::sqrt(r2));
      ax += f * dx, ay += f * dy, az += f * dz;
    }
    const double norm = std::sqrt(ax * ax + ay * ay + az * az);
    if (norm == 0.0) continue;
    const Vec4d& a = acc[static_cast<std::size_t>(i)];
    const double ex = a.x - ax, ey = a.y - ay, ez = a.z - az;
    err[t] = std::sqrt(ex * ex + ey * ey + ez * ez) / norm;
  }
  err.erase(std::remove(err.begin(), err.end(), -1.0), err.end());
  AccuracyStats r;
  r.targets = static_cast<int>(err.size());
  r.interactions_per_body = n > 0 ? gravity.interactions(n) / n : 0.0;
  if (err.empty()) return r;
  std::sort(err.begin(), err.end());
  const std::size_t m = err.size();
  r.median = m % 2 ? err[m / 2] : 0.5 * (err[m / 2 - 1] + err[m / 2]);
  r.p99 = err[std::min(m - 1, static_cast<std::size_t>(std::ceil(0.99 * m)) - 1)];
  r.max = err.back();
  double sq = 0;
  for (double e : err) sq += e * e;
  r.rms = std::sqrt(sq / static_cast<double>(m));
  return r;
}

}  // namespace orrery
