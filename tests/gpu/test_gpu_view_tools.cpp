// The watching tools on the GPU against their CPU references: colour by each quantity in the CUDA
// splat, per-body quantities from the Simulation, the density grid, picking, trails' append and splat,
// one body's acceleration and the centre of mass. Sizes are not multiples of any block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "../splat_support.h"
#include "../support.h"
#include "gfx/splat.h"
#include "gfx/trails_picking.h"
#include "orrery/device.h"
#include "orrery/fields.h"
#include "orrery/gpu_buffer.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"

namespace orrery {
namespace {

#define NEED_DEVICE() \
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason

// Device floats with host copies in and out.
struct DeviceFloats {
  GpuBuffer<float> a;
  explicit DeviceFloats(std::size_t n) : a(n + 1) {}
  float* data() const { return a.data(); }
  void upload(const std::vector<float>& v) { a.upload(v.data(), v.size()); }
  std::vector<float> download(std::size_t n) const {
    std::vector<float> v(n);
    a.download(v.data(), n);
    return v;
  }
};

GpuBuffer<Vec4> to_device(const std::vector<Vec4>& v) {
  GpuBuffer<Vec4> d(std::max<std::size_t>(v.size(), 1));
  if (!v.empty()) d.upload(v.data(), v.size());
  return d;
}

TEST(GpuViewTools, SplatColoursEveryQuantityAsTheCpu) {
  NEED_DEVICE();
  std::vector<Vec4> pos, vel;
  test::make_scene(3001, 320, 200, pos, vel);
  std::vector<float> values(pos.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.01f * static_cast<float>(i % 97);
  const GpuBuffer<Vec4> dpos = to_device(pos), dvel = to_device(vel);
  DeviceFloats dval(values.size());
  dval.upload(values);
  for (int q = 0; q < static_cast<int>(quantity_table().size()); ++q)
    for (int pal = 0; pal < 3; ++pal) {
      gfx::SpriteParams p = test::camera_params(320, 200);
      p.color = gfx::color_map_of(quantity_info(static_cast<Quantity>(q)));
      p.color.palette = pal;
      p.color.log_scale = q == 1 || q == 2;
      p.color.lo = p.color.log_scale ? 0.01f : 0.0f;
      p.color.hi = 0.9f;
      const std::size_t px = 320 * 200;
      GpuBuffer<Vec4> img(px);
      gfx::splat_device(dpos.data(), dvel.data(), static_cast<int>(pos.size()), p,
                        reinterpret_cast<float*>(img.data()), dval.data());
      std::vector<float> gpu(4 * px), cpu(4 * px);
      img.download(reinterpret_cast<Vec4*>(gpu.data()), px);
      gfx::splat_cpu(pos.data(), vel.data(), static_cast<int>(pos.size()), p, cpu.data(),
                     values.data());
      const test::ImageDiff d = test::compare_images(gpu, cpu);
      EXPECT_LE(d.max_abs, 1e-4f * std::max(d.max_value, 1e-3f))
          << "quantity " << q << " palette " << pal;
    }
}

TEST(GpuViewTools, SimulationQuantitiesMatchTheCpu) {
  NEED_DEVICE();
  const BodyState s = make_preset(Preset::plummer, 10007, 3);
  const int n = s.size();
  auto host = test::make_simulation("cpu", s, SimParams{}, Integrator::euler);
  auto dev = test::make_simulation("cuda-static", s, SimParams{}, Integrator::euler);
  std::vector<float> want(static_cast<std::size_t>(n)), got(want.size());
  for (Quantity q : {Quantity::speed, Quantity::acceleration, Quantity::density, Quantity::mass,
                     Quantity::potential}) {
    host->quantity(q, host->bodies(), want.data());
    dev->quantity_to_host(q, dev->bodies(), got.data());
    int off = 0;
    for (int i = 0; i < n; ++i) {
      const float tol = q == Quantity::density ? 0.0f : 2e-4f * std::fabs(want[i]) + 1e-6f;
      if (!(std::fabs(got[i] - want[i]) <= tol)) ++off;
    }
    // The density's grid comes from sums in another order: a body on a cell's face may move.
    EXPECT_LE(off, q == Quantity::density ? n / 1000 : 0) << to_string(q);
    // A strided sample (a colour fit's) is those bodies' own values (the density's sums are in
    // no fixed order).
    if (q == Quantity::density) continue;
    std::vector<float> sample((n + 6) / 7, -1.0f);
    dev->quantity_to_host(q, dev->bodies(), sample.data(), 7);
    for (std::size_t k = 0; k < sample.size(); ++k) ASSERT_EQ(sample[k], got[k * 7]) << k;
  }
}

TEST(GpuViewTools, PickingMatchesTheCpuAtAMillionBodies) {
  NEED_DEVICE();
  const BodyState s = make_preset(Preset::collision, 1048577, 9);
  const GpuBuffer<Vec4> dpos = to_device(s.pos);
  gfx::SpriteParams p = test::camera_params(1280, 720, 80.0f);
  int found = 0;
  for (int k = 0; k < 40; ++k) {
    const float x = 37.0f + 31.0f * k, y = 20.0f + 17.0f * k;
    const int cpu = gfx::pick_cpu(s.pos.data(), s.size(), p, x, y, 8.0f);
    const int gpu = gfx::pick_device(dpos.data(), s.size(), p, x, y, 8.0f);
    EXPECT_EQ(gpu, cpu) << "click " << x << ", " << y;
    found += cpu >= 0;
  }
  EXPECT_GT(found, 10);  // most clicks land near a body
}

TEST(GpuViewTools, TrailsAppendAndSplatAsTheCpu) {
  NEED_DEVICE();
  const int n = 5003, k = 6, m = 1001;
  std::vector<int> sample(m);
  for (int b = 0; b < m; ++b) sample[b] = (b * 7919) % n;
  std::vector<Vec4> packed((m + 3) / 4);
  std::memcpy(packed.data(), sample.data(), sizeof(int) * m);
  const GpuBuffer<Vec4> dsample = to_device(packed);
  GpuBuffer<Vec4> dring(static_cast<std::size_t>(k) * m);
  std::vector<Vec4> ring(static_cast<std::size_t>(k) * m);
  gfx::ColorMap c;
  c.lo = 0.0f, c.hi = 3.0f;
  int head = 0;
  BodyState s = make_preset(Preset::collision, n, 4);
  for (int step = 0; step < k + 3; ++step) {
    for (Vec4& q : s.pos) q.x += 0.05f, q.y += 0.02f * step;
    const GpuBuffer<Vec4> dpos = to_device(s.pos), dvel = to_device(s.vel);
    gfx::trail_append_device(dpos.data(), dvel.data(), nullptr, n,
                             reinterpret_cast<const int*>(dsample.data()), c, dring.data(), m,
                             head);
    gfx::trail_append_cpu(s.pos.data(), s.vel.data(), nullptr, n, sample.data(), c, ring.data(), m,
                          head);
    head = (head + 1) % k;
  }
  std::vector<Vec4> got(ring.size());
  dring.download(got.data(), got.size());
  for (std::size_t i = 0; i < ring.size(); ++i) {  // positions exact; the speed to float accuracy
    ASSERT_EQ(std::memcmp(&got[i], &ring[i], 3 * sizeof(float)), 0) << i;
    ASSERT_NEAR(got[i].w, ring[i].w, 1e-5f * std::fabs(ring[i].w) + 1e-7f) << i;
  }
  const gfx::SpriteParams p = test::camera_params(400, 300, 60.0f);
  const std::size_t px = 400 * 300;
  GpuBuffer<Vec4> img(px);
  std::vector<Vec4> zero(px, Vec4{0, 0, 0, 0});
  img.upload(zero.data(), px);
  gfx::TrailRing dt{dring.data(), m, k, head, k};
  gfx::trail_splat_device(dt, p, 0.3f, reinterpret_cast<float*>(img.data()));
  std::vector<float> gpu(4 * px), cpu(4 * px, 0.0f);
  img.download(reinterpret_cast<Vec4*>(gpu.data()), px);
  gfx::TrailRing ct{ring.data(), m, k, head, k};
  gfx::trail_splat_cpu(ct, p, 0.3f, cpu.data());
  const test::ImageDiff d = test::compare_images(gpu, cpu);
  EXPECT_GT(d.max_value, 0.0f);
  EXPECT_LE(d.max_abs, 1e-4f * d.max_value);
}

TEST(GpuViewTools, OneBodysAccelerationAndTheCentreOfMass) {
  NEED_DEVICE();
  const BodyState s = make_preset(Preset::plummer, 65537, 8);
  auto host = test::make_simulation("cpu", s, SimParams{}, Integrator::euler);  // softening 0.1
  auto dev = test::make_simulation("cuda-static", s, SimParams{}, Integrator::euler);
  for (int i : {0, 4097, 65536}) {
    const Vec3 want = host->read_body(host->bodies(), i).acc;
    const Vec3 got = dev->read_body(dev->bodies(), i).acc;
    const float scale = std::sqrt(want.x * want.x + want.y * want.y + want.z * want.z);
    EXPECT_NEAR(got.x, want.x, 1e-5f * scale);
    EXPECT_NEAR(got.y, want.y, 1e-5f * scale);
    EXPECT_NEAR(got.z, want.z, 1e-5f * scale);
  }
  const Vec3d want = host->centre_of_mass(host->bodies());
  const Vec3d got = dev->centre_of_mass(dev->bodies());
  EXPECT_NEAR(got.x, want.x, 1e-5f);
  EXPECT_NEAR(got.y, want.y, 1e-5f);
  EXPECT_NEAR(got.z, want.z, 1e-5f);
  const Simulation::BodyReading r = dev->read_body(dev->bodies(), 4097);
  EXPECT_EQ(std::memcmp(&r.pos, &s.pos[4097], sizeof r.pos), 0);
  EXPECT_EQ(std::memcmp(&r.vel, &s.vel[4097], sizeof r.vel), 0);
}

}  // namespace
}  // namespace orrery
