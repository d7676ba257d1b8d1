// The motion between two outputs on the device (hermite_between_device) against the host's
// (hermite_between), bodies shuffled between the outputs and one missing from the later.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "orrery/device.h"
#include "orrery/gpu_buffer.h"
#include "orrery/playback.h"
#include "orrery/presets.h"

namespace orrery {
namespace {

TEST(GpuPlayback, TheDevicesMotionIsTheHosts) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const int n = 70001;  // no multiple of the block
  PlaybackFrame a, b;
  a.index = 0, b.index = 1, a.time = 1.5, b.time = 2.25;
  a.bodies = make_preset(Preset::plummer, n, 3);
  b.bodies = make_preset(Preset::plummer, n, 4);
  for (int i = 0; i < n; ++i) a.ids.push_back(i), b.ids.push_back(i);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(2));
  PlaybackFrame c = b;
  for (int j = 0; j < n; ++j)
    c.ids[j] = b.ids[order[j]], c.bodies.pos[j] = b.bodies.pos[order[j]],
    c.bodies.vel[j] = b.bodies.vel[order[j]];
  c.ids.pop_back(), c.bodies.pos.pop_back(), c.bodies.vel.pop_back();
  const std::vector<int> m = match_bodies(a, c);
  GpuBuffer<Vec4> ap(n), av(n), bp(n), bv(n), op(n), ov(n);
  GpuBuffer<int> dm(n);
  ap.upload(a.bodies.pos.data(), n), av.upload(a.bodies.vel.data(), n);
  bp.upload(c.bodies.pos.data(), n - 1), bv.upload(c.bodies.vel.data(), n - 1);
  dm.upload(m.data(), n);
  for (double t : {1.5, 1.9, 2.25}) {
    BodyState want;
    hermite_between(a, c, m, t, want);
    hermite_between_device(ap.data(), av.data(), bp.data(), bv.data(), dm.data(), n, a.time, c.time,
                           t, op.data(), ov.data());
    std::vector<Vec4> pos(n), vel(n);
    op.download(pos.data(), n), ov.download(vel.data(), n);
    for (int i = 0; i < n; i += 97) {
      EXPECT_NEAR(pos[i].x, want.pos[i].x, 1e-5f * (1 + std::fabs(want.pos[i].x))) << i << " " << t;
      EXPECT_NEAR(vel[i].y, want.vel[i].y, 1e-5f * (1 + std::fabs(want.vel[i].y))) << i << " " << t;
      EXPECT_EQ(pos[i].w, want.pos[i].w);
    }
    const int gone = order[n - 1];  // a's body with no match stays as it was
    EXPECT_EQ(pos[gone].x, a.bodies.pos[gone].x);
  }
  // No later output: a as it is.
  hermite_between_device(ap.data(), av.data(), nullptr, nullptr, nullptr, n, a.time, a.time, a.time,
                         op.data(), ov.data());
  std::vector<Vec4> pos(n);
  op.download(pos.data(), n);
  EXPECT_EQ(pos[12345].z, a.bodies.pos[12345].z);
}

}  // namespace
}  // namespace orrery
