// The motion between two outputs on the device (hermite_between_device) against the host's
// (hermite_between), bodies shuffled between the outputs and one missing from the later; and
// DevicePlayback, which uploads and matches outputs on a thread of its own, against the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
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

// Output k of a series: n bodies (one fewer where `merged`), IDs shuffled, put in ID order as the
// reader puts them.
std::shared_ptr<const PlaybackFrame> output(int k, int n, bool merged = false, bool ids = true) {
  auto f = std::make_shared<PlaybackFrame>();
  f->index = k, f->time = 0.5 * k;
  f->bodies = make_preset(Preset::plummer, n, 10 + k);
  if (ids) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(k));
    for (int i = 0; i < n; ++i) f->ids.push_back(static_cast<std::uint64_t>(order[i]));
  }
  if (merged) f->ids.pop_back(), f->bodies.pos.pop_back(), f->bodies.vel.pop_back();
  put_in_id_order(*f);
  return f;
}

std::vector<Vec4> moved(DevicePlayback& dp, double t, int n) {
  GpuBuffer<Vec4> op(n), ov(n);
  dp.move(t, op.data(), ov.data());
  std::vector<Vec4> pos(n);
  op.download(pos.data(), n);
  return pos;
}

TEST(GpuPlayback, UploadsOnItsOwnThreadAndMovesAsTheHost) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const int n = 50001;
  const auto f0 = output(0, n), f1 = output(1, n), f2 = output(2, n, true), f3 = output(3, n - 1);
  const auto raw = output(4, n - 1, false, false);
  DevicePlayback dp;
  // Not waited for: asked, then ready once the thread has uploaded both (and the next).
  bool up = dp.ready(f0, f1, f2);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!up && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    up = dp.ready(f0, f1, f2);
  }
  ASSERT_TRUE(up);
  auto check = [&](const PlaybackFrame& a, const PlaybackFrame& b, double t) {
    BodyState want;
    hermite_between(a, b, match_bodies(a, b), t, want);
    const std::vector<Vec4> got = moved(dp, t, static_cast<int>(a.bodies.pos.size()));
    for (std::size_t i = 0; i < got.size(); i += 53) {
      EXPECT_NEAR(got[i].x, want.pos[i].x, 1e-5f * (1 + std::fabs(want.pos[i].x))) << i << " " << t;
      EXPECT_EQ(got[i].w, want.pos[i].w);
    }
  };
  check(*f0, *f1, 0.2);  // the same IDs: no matching on the device
  ASSERT_TRUE(dp.ready(f1, f2, f3, true));
  check(*f1, *f2, 0.8);  // one body merged away: a matching uploaded
  ASSERT_TRUE(dp.ready(f2, f3, nullptr, true));
  check(*f2, *f3, 1.2);
  EXPECT_TRUE(dp.take_unmatched().empty());
  // Backwards, and a seek far away: the slots are taken again.
  ASSERT_TRUE(dp.ready(f0, f1, nullptr, true));
  check(*f0, *f1, 0.45);
  // An output with IDs against one without: shown as the earlier output, said once.
  ASSERT_TRUE(dp.ready(f3, raw, nullptr, true));
  const std::vector<Vec4> still = moved(dp, 1.7, n - 1);
  EXPECT_EQ(still[99].x, f3->bodies.pos[99].x);
  const auto told = dp.take_unmatched();
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].first, 4);
  EXPECT_NE(told[0].second.find("particle IDs"), std::string::npos) << told[0].second;
  // One output alone: as it is.
  ASSERT_TRUE(dp.ready(f2, nullptr, nullptr, true));
  EXPECT_EQ(moved(dp, 1.0, n - 1)[321].y, f2->bodies.pos[321].y);
}

}  // namespace
}  // namespace orrery
