// Density maps on the GPU against the CPU's (gfx/density_map.h): the same smoothing lengths bit
// for bit, and the same map to float rounding (the GPU adds its pixels in another order), at
// sizes that are not multiples of a block or a warp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "../splat_support.h"
#include "gfx/density_map.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

std::vector<Vec4> clustered(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<Vec4> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const float s = i % 3 == 0 ? 0.2f : 2.0f;  // a dense core in a wide halo
    out[i] = {s * g(rng) + (i % 3 == 0 ? 1.5f : 0.0f), s * g(rng), s * g(rng), 1.0f / n};
    if (i % 1000 == 999) out[i].w = 100.0f / n;  // central masses: points on both
  }
  return out;
}

TEST(DensityMapGpu, MatchesTheCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  for (int n : {1, 2, 33, 97, 10007, 100003}) {
    SCOPED_TRACE(n);
    const std::vector<Vec4> b = clustered(n, 4);
    GpuBuffer<Vec4> pos(b.size());
    pos.upload(b.data(), b.size());
    GpuBuffer<float> hd(b.size());
    gfx::DeviceDensityMap device;
    device.smoothing_lengths(pos.data(), n, hd.data());
    std::vector<float> h_gpu(b.size()), h_cpu(b.size());
    hd.download(h_gpu.data(), b.size());
    gfx::smoothing_lengths_cpu(b.data(), n, h_cpu.data());
    int differ = 0;
    for (int i = 0; i < n; ++i) differ += h_gpu[i] != h_cpu[i];
    EXPECT_EQ(differ, 0);
    const gfx::SpriteParams p = test::camera_params(301, 187, 25.0f);
    std::vector<float> map_gpu, map_cpu(301 * 187);
    device.make(pos.data(), n, p, map_gpu);
    gfx::density_map_cpu(b.data(), h_cpu.data(), n, p, map_cpu.data());
    ASSERT_EQ(map_gpu.size(), map_cpu.size());
    const float peak = *std::max_element(map_cpu.begin(), map_cpu.end());
    float worst = 0.0f;
    for (std::size_t k = 0; k < map_cpu.size(); ++k)
      worst = std::max(worst, std::abs(map_gpu[k] - map_cpu[k]));
    EXPECT_LE(worst, 1e-4f * peak);
    const double total_gpu = std::accumulate(map_gpu.begin(), map_gpu.end(), 0.0);
    const double total_cpu = std::accumulate(map_cpu.begin(), map_cpu.end(), 0.0);
    EXPECT_NEAR(total_gpu, total_cpu, 1e-5 * total_cpu + 1e-12);
  }
}

}  // namespace
}  // namespace orrery

#include "gfx/bloom.h"

namespace orrery {
namespace {

TEST(BloomGpu, MatchesTheCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const int w = 517, h = 293;
  std::vector<float> img(4 * w * h, 0.0f);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& v : img) v = u(rng) < 0.01f ? 30.0f * u(rng) : 0.5f * u(rng);
  GpuBuffer<float> dev(img.size()), scratch(6 * gfx::bloom_size(w) * gfx::bloom_size(h));
  dev.upload(img.data(), img.size());
  gfx::bloom_device(dev.data(), w, h, 1.3f, 0.9f, scratch.data());
  std::vector<float> got(img.size()), scratch_cpu(scratch.size());
  dev.download(got.data(), got.size());
  gfx::bloom_cpu(img.data(), w, h, 1.3f, 0.9f, scratch_cpu.data());
  float worst = 0.0f;
  for (std::size_t k = 0; k < img.size(); ++k) worst = std::max(worst, std::abs(got[k] - img[k]));
  EXPECT_LT(worst, 1e-4f);
}

}  // namespace
}  // namespace orrery
