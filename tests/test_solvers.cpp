// Tests of the CPU solvers and the factory: a double-precision oracle, cpu-omp against cpu,
// momentum conservation, parameter validation and construction by name and block size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/presets.h"
#include "orrery/solver.h"
#include "support.h"

namespace orrery {
namespace {

using test::run_host;

SimParams params(float dt = 0.01f, float softening = 0.1f, float damping = 1.0f) {
  SimParams p;
  p.dt = dt;
  p.softening = softening;
  p.damping = damping;
  return p;
}

// The model of DESIGN.md written again, independently, in double precision.
struct Body {
  double x[3], v[3], m;
};

std::vector<Body> to_double(const BodyState& s) {
  std::vector<Body> b(s.size());
  for (int i = 0; i < s.size(); ++i)
    b[i] = {{s.pos[i].x, s.pos[i].y, s.pos[i].z}, {s.vel[i].x, s.vel[i].y, s.vel[i].z}, s.pos[i].w};
  return b;
}

void oracle_step(std::vector<Body>& b, const SimParams& p) {
  const double eps2 = double(p.softening) * p.softening;
  std::vector<Body> next = b;
  for (std::size_t i = 0; i < b.size(); ++i) {
    double a[3] = {0, 0, 0};
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (i == j) continue;
      double r[3], r2 = 0;
      for (int k = 0; k < 3; ++k) r[k] = b[j].x[k] - b[i].x[k], r2 += r[k] * r[k];
      const double f = b[j].m / std::pow(r2 + eps2, 1.5);
      for (int k = 0; k < 3; ++k) a[k] += f * r[k];
    }
    for (int k = 0; k < 3; ++k) {
      next[i].v[k] = p.damping * (b[i].v[k] + a[k] * p.dt);
      next[i].x[k] = b[i].x[k] + next[i].v[k] * p.dt;
    }
  }
  b.swap(next);
}

BodyState to_float(const std::vector<Body>& b) {
  BodyState s;
  for (const Body& x : b) {
    s.pos.push_back(Vec4{float(x.x[0]), float(x.x[1]), float(x.x[2]), float(x.m)});
    s.vel.push_back(Vec4{float(x.v[0]), float(x.v[1]), float(x.v[2]), 0.0f});
  }
  return s;
}

struct OracleCase {
  Preset preset;
  int n;
  int steps;
};

TEST(CpuSolver, MatchesTheDoublePrecisionOracle) {
  // Few steps, so the float and double trajectories have not yet diverged by chaos. Measured
  // here: position errors about 1e-7, velocity errors up to about 5e-7.
  const OracleCase cases[] = {{Preset::random, 1, 5},  {Preset::random, 2, 5},
                              {Preset::random, 7, 5},  {Preset::random, 600, 5},
                              {Preset::shell, 500, 5}, {Preset::expand, 500, 5},
                              {Preset::disk, 500, 5},  {Preset::collision, 501, 5}};
  for (const OracleCase& c : cases) {
    SCOPED_TRACE(std::string(to_string(c.preset)) + " N=" + std::to_string(c.n));
    const SimParams p = params(0.01f, 0.1f, 0.995f);
    const BodyState start = make_preset(c.preset, c.n, 42);
    std::vector<Body> exact = to_double(start);
    for (int k = 0; k < c.steps; ++k) oracle_step(exact, p);
    const BodyState want = to_float(exact);
    const BodyState got = run_host("cpu", start, c.steps, p);
    EXPECT_LT(max_relative_error(got.pos, want.pos), 1e-6);
    EXPECT_LT(max_relative_error(got.vel, want.vel), 5e-6);
  }
}

TEST(CpuSolver, OmpMatchesCpu) {
  for (const std::string& name : preset_names())
    for (int n : {1, 7, 1000, 1023}) {
      SCOPED_TRACE(name + " N=" + std::to_string(n));
      const BodyState start = make_preset(parse_preset(name), n, 7);
      const BodyState a = run_host("cpu", start, 10, params());
      const BodyState b = run_host("cpu-omp", start, 10, params());
      // SIMD sums in another order with the estimated reciprocal square root (and a Newton step):
      // measured up to 1.4e-6 on the velocities.
      EXPECT_LE(max_relative_error(b.pos, a.pos), 1e-5);
      EXPECT_LE(max_relative_error(b.vel, a.vel), 1e-5);
    }
}

TEST(CpuSolver, ConservesMomentumOverAHundredSteps) {
  // Newton's third law: the pairwise forces cancel, so with damping 1 the total momentum stays
  // where it started (zero for the presets) up to float rounding.
  for (const char* name : {"cpu", "cpu-omp"})
    for (Preset preset : {Preset::random, Preset::collision}) {
      SCOPED_TRACE(std::string(name) + " " + to_string(preset));
      const BodyState start = make_preset(preset, 400, 3);
      const BodyState end = run_host(name, start, 100, params(0.005f, 0.1f, 1.0f));
      const Vec3d p0 = total_momentum(start.pos, start.vel);
      const Vec3d p1 = total_momentum(end.pos, end.vel);
      const double drift = std::sqrt((p1.x - p0.x) * (p1.x - p0.x) + (p1.y - p0.y) * (p1.y - p0.y) +
                                     (p1.z - p0.z) * (p1.z - p0.z));
      const double scale = momentum_scale(end.pos, end.vel);
      ASSERT_GT(scale, 0);
      // Measured: about 3e-8 of the scale.
      EXPECT_LT(drift / scale, 1e-6) << "drift " << drift << " scale " << scale;
    }
}

TEST(CpuSolver, ReadsItsInputOnlyAndKeepsMasses) {
  const BodyState start = make_preset(Preset::disk, 300, 5);
  for (const char* name : {"cpu", "cpu-omp"}) {
    auto solver = make_solver(name);
    EXPECT_EQ(solver->name(), name);
    EXPECT_FALSE(solver->on_device());
    EXPECT_EQ(solver->block_size(), 0);
    EXPECT_FALSE(solver->config().empty());
    std::vector<Vec4> in = start.pos, out(in.size(), Vec4{NAN, NAN, NAN, NAN});
    std::vector<Vec4> vel = start.vel;
    solver->step(in.data(), out.data(), vel.data(), start.size(), params());
    for (int i = 0; i < start.size(); ++i) {
      ASSERT_EQ(in[i].x, start.pos[i].x) << name;
      ASSERT_EQ(out[i].w, start.pos[i].w) << name << " body " << i;
      ASSERT_TRUE(std::isfinite(out[i].x)) << name << " body " << i;
    }
  }
}

TEST(CpuSolver, OneBodyMovesInAStraightLine) {
  BodyState s;
  s.pos = {{1, 2, 3, 5}};
  s.vel = {{0.5f, -0.25f, 1, 0}};
  const BodyState e = run_host("cpu", s, 4, params(0.5f));
  EXPECT_FLOAT_EQ(e.pos[0].x, 2.0f);
  EXPECT_FLOAT_EQ(e.pos[0].y, 1.5f);
  EXPECT_FLOAT_EQ(e.pos[0].z, 5.0f);
  EXPECT_FLOAT_EQ(e.vel[0].x, 0.5f);
}

TEST(Params, ValidateAcceptsGoodValues) {
  EXPECT_NO_THROW(validate(SimParams{}));
  EXPECT_NO_THROW(validate(params(1e-6f, 1e-3f, 0.0f)));
  EXPECT_NO_THROW(validate(params(1.0f, 10.0f, 1.0f)));
}

TEST(Params, ValidateRejectsBadValues) {
  const float inf = INFINITY, nan = NAN;
  for (float dt : {0.0f, -0.01f, nan, inf, -inf})
    EXPECT_THROW(validate(params(dt)), std::invalid_argument) << dt;
  for (float eps : {0.0f, -1.0f, nan, inf})
    EXPECT_THROW(validate(params(0.01f, eps)), std::invalid_argument) << eps;
  for (float d : {-0.01f, 1.01f, 2.0f, nan, inf})
    EXPECT_THROW(validate(params(0.01f, 0.1f, d)), std::invalid_argument) << d;
  try {
    validate(params(0.01f, -1.0f));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("softening"), std::string::npos) << e.what();
  }
}

// The GPU names a scene file may use on any build are exactly a CUDA build's GPU solvers.
TEST(Factory, CudaSolverNamesAreTheGpuRowsOfACudaBuild) {
  std::vector<std::string> gpu;
  for (const SolverInfo& s : all_solvers())
    if (s.gpu) gpu.push_back(s.name);
  if (cuda_compiled())
    EXPECT_EQ(gpu, cuda_solver_names());
  else
    EXPECT_TRUE(gpu.empty());
  for (const std::string& n : cuda_solver_names()) EXPECT_TRUE(known_solver_name(n)) << n;
  EXPECT_TRUE(known_solver_name("cpu-bh"));
  EXPECT_FALSE(known_solver_name("cuda-warp"));
}

TEST(Factory, ListsTheSolversOfThisBuild) {
  const auto& all = all_solvers();
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all[0].name, "cpu");
  EXPECT_EQ(all[1].name, "cpu-omp");
  for (const SolverInfo& s : all) {
    EXPECT_EQ(solver_info(s.name).name, s.name);
    EXPECT_EQ(s.gpu, !s.block_sizes.empty()) << s.name;
    EXPECT_FALSE(s.description.empty()) << s.name;
    if (!s.gpu) {
      EXPECT_EQ(default_block_size(s.name), 0);
    }
  }
  if (cuda_compiled()) {
    for (const char* name : {"cuda-dynamic", "cuda-static"}) {
      const SolverInfo& s = solver_info(name);
      EXPECT_TRUE(s.gpu);
      EXPECT_EQ(s.block_sizes, (std::vector<int>{32, 64, 128, 256, 512, 1024})) << name;
    }
  }
  for (const SolverInfo& s : available_solvers()) {
    EXPECT_TRUE(!s.gpu || device_present()) << s.name;
    EXPECT_TRUE(
        std::any_of(all.begin(), all.end(), [&](const SolverInfo& a) { return a.name == s.name; }));
  }
  if (!device_present()) {
    EXPECT_EQ(available_solvers().size(),
              static_cast<std::size_t>(std::count_if(all.begin(), all.end(),
                                                     [](const SolverInfo& s) { return !s.gpu; })));
  }
}

TEST(Factory, RejectsUnknownNames) {
  for (const char* name : {"nope", "", "CPU", "cuda"}) {
    EXPECT_THROW(solver_info(name), std::invalid_argument) << name;
    EXPECT_THROW(make_solver(name), std::invalid_argument) << name;
  }
  try {
    make_solver("nope");
  } catch (const std::invalid_argument& e) {
    // The message lists the valid names.
    EXPECT_NE(std::string(e.what()).find("cpu-omp"), std::string::npos) << e.what();
  }
}

TEST(Factory, RejectsBadBlockSizes) {
  EXPECT_THROW(make_solver("cpu", 128), std::invalid_argument);
  EXPECT_THROW(make_solver("cpu-omp", 1), std::invalid_argument);
  for (const SolverInfo& s : all_solvers()) {
    if (!s.gpu) continue;
    // Rejected for the block size before any device is needed, on any machine.
    for (int b : {-1, 1, 100, 2048, 4096})
      EXPECT_THROW(make_solver(s.name, b), std::invalid_argument) << s.name << " " << b;
  }
}

TEST(Factory, GpuSolversNeedADevice) {
  if (device_present()) GTEST_SKIP() << "a CUDA device is present: " << device_info().name;
  EXPECT_THROW(require_device(), std::runtime_error);
  for (const SolverInfo& s : all_solvers()) {
    if (!s.gpu) continue;
    try {
      make_solver(s.name);
      ADD_FAILURE() << s.name << " was built with no device";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("CUDA device"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace orrery
