// The one rule for a file's run settings under the typed ones (orrery/run_settings.h), which both
// programs' command lines and the viewer's scene loading follow.
#include <gtest/gtest.h>

#include "orrery/run_settings.h"

namespace orrery {
namespace {

RunSettings file_settings() {
  RunSettings f;
  f.solver = "cuda-fast";
  f.block = 128;
  f.integrator = Integrator::leapfrog;
  f.params.dt = 0.004f;
  f.params.softening = 0.05f;
  f.params.theta = 0.7f;
  f.params.collisions.mode = CollisionMode::bounce;
  return f;
}

TEST(RunSettings, TheFilesSettingsWhereNothingIsTyped) {
  const ResolvedSettings r = resolve_settings(file_settings(), TypedSettings{}, "snapshot");
  EXPECT_EQ(r.settings.solver, "cuda-fast");
  EXPECT_EQ(r.settings.block, 128);
  EXPECT_EQ(r.settings.integrator, Integrator::leapfrog);
  EXPECT_EQ(r.settings.params, file_settings().params);
  EXPECT_EQ(r.note, "");
}

TEST(RunSettings, TypedValuesGoOverTheFiles) {
  TypedSettings t;
  t.integrator = Integrator::yoshida4;
  t.dt = 0.01f;
  t.params["theta"] = 0.3f;
  t.scene.collisions = CollisionMode::merge;
  t.scene.box = 12.0f;
  const ResolvedSettings r = resolve_settings(file_settings(), t, "scene");
  EXPECT_EQ(r.settings.integrator, Integrator::yoshida4);
  EXPECT_EQ(r.settings.params.dt, 0.01f);
  EXPECT_EQ(r.settings.params.softening, 0.05f);  // not typed: the file's
  EXPECT_EQ(r.settings.params.theta, 0.3f);
  EXPECT_EQ(r.settings.params.collisions.mode, CollisionMode::merge);
  EXPECT_EQ(r.settings.params.collisions.box, 12.0f);
}

TEST(RunSettings, TheFilesBlockGoesWithItsSolver) {
  TypedSettings typed_solver;
  typed_solver.solver = "cpu-omp";
  const ResolvedSettings a = resolve_settings(file_settings(), typed_solver, "snapshot");
  EXPECT_EQ(a.settings.solver, "cpu-omp");
  EXPECT_EQ(a.settings.block, 0);  // not the file's 128, which belongs to cuda-fast
  TypedSettings typed_block;
  typed_block.block = 256;
  const ResolvedSettings b = resolve_settings(file_settings(), typed_block, "snapshot");
  EXPECT_EQ(b.settings.solver, "cuda-fast");
  EXPECT_EQ(b.settings.block, 256);
}

TEST(RunSettings, ASolverThatCannotRunHereGivesWayWithANote) {
  const auto cpu_only = [](const std::string& s) { return s.rfind("cpu", 0) == 0; };
  const ResolvedSettings r = resolve_settings(file_settings(), TypedSettings{}, "scene", cpu_only);
  EXPECT_EQ(r.settings.solver, "");  // the caller's default
  EXPECT_EQ(r.settings.block, 0);
  EXPECT_EQ(r.note, "the scene's solver cuda-fast cannot run here");
  EXPECT_EQ(r.settings.integrator, Integrator::leapfrog);  // the rest still comes from the file
}

TEST(RunSettings, FromASnapshotsRunAndASceneFile) {
  RunState run;
  run.solver = "cpu-bh";
  run.block = 0;
  run.integrator = Integrator::yoshida4;
  run.params.damping = 1.0f;
  const RunSettings a = settings_of(run);
  EXPECT_EQ(a.solver, "cpu-bh");
  EXPECT_EQ(a.integrator, Integrator::yoshida4);
  SceneFile sc;
  sc.solver = "cuda-bh";
  sc.block = 128;
  sc.params.dt = 0.002f;
  const RunSettings b = settings_of(sc);
  EXPECT_EQ(b.solver, "cuda-bh");
  EXPECT_EQ(b.block, 128);
  EXPECT_EQ(b.params.dt, 0.002f);
}

}  // namespace
}  // namespace orrery
