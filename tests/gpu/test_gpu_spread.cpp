// Spreading a module over several GPUs (--gpus): each module's parts against its whole pass on
// one GPU, and, where the machine has two or more GPUs, the spread module against one GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../../src/sim/gravity/cuda_fast.h"
#include "gpu_support.h"
#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/gpu_buffer.h"
#include "orrery/input.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "orrery/solver.h"

namespace orrery {
namespace {

const char* const k_spreading[] = {"cuda-dynamic", "cuda-static", "cuda-fast", "cuda-bh"};
constexpr int k_n = 10007;  // no multiple of any block size

SimParams spread_params() {
  SimParams p;
  p.dt = 0.005f;
  p.softening = 0.05f;
  p.theta = 0.5f;
  return p;
}

// The accelerations of pos, from the whole pass (its output starting as NaN, so a body it left
// unwritten cannot pass) or, given parts, from one call a part into zeros, as the parts add.
std::vector<Vec4> accelerations(Solver& s, const std::vector<Vec4>& pos, const SimParams& p,
                                const std::vector<Part>* parts = nullptr) {
  const int n = static_cast<int>(pos.size());
  GpuBuffer<Vec4> dpos(pos.size()), dacc(pos.size());
  dpos.upload(pos.data(), pos.size());
  const std::vector<Vec4> start(pos.size(),
                                parts ? Vec4{0.0f, 0.0f, 0.0f, 0.0f} : Vec4{NAN, NAN, NAN, NAN});
  dacc.upload(start.data(), start.size());
  if (parts)
    for (const Part& r : *parts) s.accelerations_part(dpos.data(), dacc.data(), n, r, p);
  else
    s.accelerations(dpos.data(), dacc.data(), n, p);
  std::vector<Vec4> out(pos.size());
  dacc.download(out.data(), out.size());
  return out;
}

TEST(SpreadParts, EveryModuleSumsItsPartsAsItsWhole) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const BodyState s = make_preset(Preset::plummer, k_n, 7);
  // Uneven, one of them empty, and covering the work once.
  const std::vector<Part> parts = {{0.0, 0.3}, {0.3, 0.3}, {0.3, 0.8123}, {0.8123, 1.0}};
  for (const char* name : k_spreading) {
    std::unique_ptr<Solver> whole = make_solver(name), split = make_solver(name);
    ASSERT_TRUE(split->can_spread()) << name;
    const std::vector<Vec4> want = accelerations(*whole, s.pos, spread_params());
    const std::vector<Vec4> got = accelerations(*split, s.pos, spread_params(), &parts);
    // The same sums, in another order where parts add (pair mode).
    EXPECT_LT(max_relative_error(got, want), 1e-5) << name << " " << split->config();
  }
}

// The tiled modules cut whole blocks and run a part that does not start at body 0 on a rotated
// copy of the bodies: every block size, with the last part ending in a partial block.
TEST(SpreadParts, TiledModulesSumTheirPartsAtEveryBlockSize) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const BodyState s = make_preset(Preset::plummer, k_n, 11);
  const std::vector<Part> parts = {{0.0, 0.05}, {0.05, 0.5}, {0.5, 0.5}, {0.5, 0.97}, {0.97, 1.0}};
  for (const char* name : {"cuda-static", "cuda-dynamic"})
    for (int block : {32, 64, 128, 256, 512, 1024}) {
      std::unique_ptr<Solver> whole = make_solver(name, block), split = make_solver(name, block);
      const std::vector<Vec4> want = accelerations(*whole, s.pos, spread_params());
      const std::vector<Vec4> got = accelerations(*split, s.pos, spread_params(), &parts);
      EXPECT_LT(max_relative_error(got, want), 1e-5) << name << " block " << block;
    }
}

// cuda-fast's pair mode (each pair once, forces to both bodies) split into parts of its tile
// pairs: every pair-mode configuration, at N where it runs.
TEST(SpreadParts, PairModeSumsItsPartsAsItsWhole) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const BodyState s = make_preset(Preset::plummer, k_n, 5);
  const std::vector<Part> parts = {{0.0, 0.49}, {0.49, 0.5}, {0.5, 1.0}};
  for (const FastConfig& c : fast_pair_configs()) {
    std::unique_ptr<Solver> whole = make_cuda_fast_solver(c.block, &c);
    std::unique_ptr<Solver> split = make_cuda_fast_solver(c.block, &c);
    const std::vector<Vec4> want = accelerations(*whole, s.pos, spread_params());
    const std::vector<Vec4> got = accelerations(*split, s.pos, spread_params(), &parts);
    EXPECT_LT(max_relative_error(got, want), 1e-5) << to_string(c);
  }
}

TEST(SpreadParts, APartOutsideTheBodiesIsRefused) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  const BodyState s = make_preset(Preset::plummer, 100, 7);
  for (const char* name : k_spreading) {
    std::unique_ptr<Solver> g = make_solver(name);
    for (const Part& bad : {Part{0.5, 0.4}, Part{-0.1, 0.5}, Part{0.5, 1.5}, Part{NAN, 1.0}}) {
      const std::vector<Part> one = {bad};
      EXPECT_THROW(accelerations(*g, s.pos, spread_params(), &one), std::invalid_argument)
          << name;
    }
  }
}

TEST(SpreadGpus, TooManyGpusAreRefused) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device: " << device_info().reason;
  try {
    make_solver("cuda-fast", 0, device_count() + 1);
    FAIL() << "more GPUs than exist were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("this machine has " + std::to_string(device_count())),
              std::string::npos)
        << e.what();
  }
}

// The spread module's run against one GPU's: the same positions within float tolerance (cuda-fast
// and the balance may sum in another order), and an energy drift no worse.
TEST(SpreadGpus, TwoGpusMatchOne) {
  if (device_count() < 2) GTEST_SKIP() << "needs 2 GPUs; this machine has " << device_count();
  const BodyState s = make_preset(Preset::plummer, k_n, 11);
  const SimParams p = spread_params();
  for (const char* name : k_spreading) {
    Simulation one(s, make_solver(name, 0, 1), Integrator::leapfrog, p);
    Simulation two(s, make_solver(name, 0, 2), Integrator::leapfrog, p);
    EXPECT_NE(two.solver().config().find("on 2 GPUs"), std::string::npos) << two.solver().config();
    const Diagnostics start = one.measure();
    one.step(20);
    two.step(20);
    const BodyState a = one.state(), b = two.state();
    EXPECT_LT(max_relative_error(b.pos, a.pos), 1e-4) << name;
    EXPECT_LT(max_relative_error(b.vel, a.vel), 1e-3) << name;
    const double drift_one = std::abs(drift(start, one.measure()).energy);
    const double drift_two = std::abs(drift(start, two.measure()).energy);
    EXPECT_LE(drift_two, 1.5 * drift_one + 1e-6)
        << name << ": " << drift_two << " vs " << drift_one;
    EXPECT_DOUBLE_EQ(two.time(), one.time());
  }
}

// Every GPU count from 2 to all of them, with merges changing N between passes (the parts follow).
TEST(SpreadGpus, EveryCountStepsAndFollowsN) {
  if (device_count() < 2) GTEST_SKIP() << "needs 2 GPUs; this machine has " << device_count();
  BodyState s = make_preset(Preset::plummer, k_n, 3);
  for (int g = 2; g <= device_count(); ++g) {
    for (const char* name : {"cuda-fast", "cuda-bh"}) {
      std::unique_ptr<Solver> spread = make_solver(name, 0, g), one = make_solver(name);
      for (int n : {k_n, 5003, 17, 1}) {  // down to one body: some GPUs get an empty part
        const std::vector<Vec4> pos(s.pos.begin(), s.pos.begin() + n);
        const std::vector<Vec4> got = accelerations(*spread, pos, spread_params());
        const std::vector<Vec4> want = accelerations(*one, pos, spread_params());
        EXPECT_LT(max_relative_error(got, want), 1e-5) << name << " on " << g << " GPUs, N=" << n;
      }
    }
  }
}

}  // namespace
}  // namespace orrery
