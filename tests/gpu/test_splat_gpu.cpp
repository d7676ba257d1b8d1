// The CUDA splat kernel against the CPU splatter: scenes of 1 to 4097 bodies (not multiples of the
// 8 bodies a block takes), and the viewer's collision preset with its dense, overlapping cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "../splat_support.h"
#include "gfx/splat.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"

namespace orrery {
namespace {

// Splats on the device into an image that starts as NaN, so an unwritten pixel cannot pass.
std::vector<float> splat_on_device(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel,
                                   const gfx::SpriteParams& p) {
  const std::size_t n = pos.size(), pixels = static_cast<std::size_t>(p.width) * p.height;
  GpuBuffer<Vec4> dpos(n > 0 ? n : 1), dvel(n > 0 ? n : 1), image(pixels);
  if (n > 0) {
    dpos.upload(pos.data(), n);
    dvel.upload(vel.data(), n);
  }
  const std::vector<Vec4> poison(pixels, Vec4{NAN, NAN, NAN, NAN});
  image.upload(poison.data(), pixels);
  gfx::splat_device(dpos.data(), dvel.data(), static_cast<int>(n), p,
                    reinterpret_cast<float*>(image.data()));
  device_synchronize();
  std::vector<float> out(4 * pixels);
  image.download(reinterpret_cast<Vec4*>(out.data()), pixels);
  return out;
}

void expect_matches_cpu(const std::vector<Vec4>& pos, const std::vector<Vec4>& vel,
                        const gfx::SpriteParams& p) {
  const std::vector<float> gpu = splat_on_device(pos, vel, p);
  std::vector<float> cpu(gpu.size());
  gfx::splat_cpu(pos.data(), vel.data(), static_cast<int>(pos.size()), p, cpu.data());
  for (float v : gpu) ASSERT_FALSE(std::isnan(v)) << "a pixel the splat did not clear";
  const test::ImageDiff d = test::compare_images(gpu, cpu);
  std::printf("n %zu: max |gpu - cpu| %.3g of peak %.3g, %ld pixels with another count\n",
              pos.size(), d.max_abs, d.max_value, d.alpha_mismatch);
  EXPECT_LE(d.max_abs, 1e-4f * std::max(d.max_value, 1e-3f));
  // Pixels whose centre sits on a sprite's rim (glow ~ 0 there) may land either side.
  EXPECT_LE(d.alpha_mismatch, static_cast<long>(pos.size()) / 50 + 2);
}

TEST(SplatGpu, MatchesCpuOnScenesOfAnySize) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  for (int n : {0, 1, 7, 1000, 4097}) {
    std::vector<Vec4> pos, vel;
    test::make_scene(n, 333, 211, pos, vel);
    expect_matches_cpu(pos, vel, test::camera_params(333, 211));
  }
}

TEST(SplatGpu, MatchesCpuOnTheCollisionPreset) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const BodyState s = make_preset(Preset::collision, 20001, 1);
  gfx::SpriteParams p = test::camera_params(1280, 720);
  p.intensity = 0.6f * std::sqrt(16384.0f / 20001.0f);  // as the viewer scales it
  double mass = 0.0;
  for (const Vec4& b : s.pos) mass += b.w;
  p.mass_ref = static_cast<float>(mass / s.size());
  expect_matches_cpu(s.pos, s.vel, p);
}

TEST(SplatGpu, ToneMapMatchesCpu) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  constexpr int w = 321, h = 77;  // rows not a multiple of the kernel's 256 threads
  std::vector<float> hdr(4 * w * h);
  for (int k = 0; k < w * h; ++k)
    for (int c = 0; c < 4; ++c) hdr[4 * k + c] = 0.001f * static_cast<float>((k * (c + 3)) % 4000);
  GpuBuffer<Vec4> dhdr(w * h), dout((w * h + 3) / 4);
  dhdr.upload(reinterpret_cast<const Vec4*>(hdr.data()), w * h);
  const std::vector<Vec4> poison((w * h + 3) / 4, Vec4{NAN, NAN, NAN, NAN});
  dout.upload(poison.data(), poison.size());
  auto* bytes = reinterpret_cast<std::uint8_t*>(dout.data());
  gfx::tonemap_device(reinterpret_cast<const float*>(dhdr.data()), w, h, 1.7f, bytes);
  device_synchronize();
  std::vector<Vec4> back(poison.size());
  dout.download(back.data(), back.size());
  const auto* gpu = reinterpret_cast<const std::uint8_t*>(back.data());
  std::vector<std::uint8_t> cpu(4 * w * h);
  gfx::tonemap_cpu(hdr.data(), w, h, 1.7f, cpu.data());
  int worst = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k) worst = std::max(worst, std::abs(gpu[k] - cpu[k]));
  EXPECT_LE(worst, 1) << "fast-math exp and pow may round one level apart, no more";
}

TEST(SplatGpu, BadInputThrows) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  GpuBuffer<Vec4> a(4), image(16);
  gfx::SpriteParams p = test::camera_params(4, 4);
  p.height = 0;
  EXPECT_THROW(gfx::splat_device(a.data(), a.data(), 4, p, reinterpret_cast<float*>(image.data())),
               std::invalid_argument);
}

}  // namespace
}  // namespace orrery
