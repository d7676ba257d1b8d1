// Exact restart, shared by the CPU tests (CI) and the GPU tests: a run saved at step k and loaded
// into a new Simulation gives, after m more steps, the state of the run that never stopped, bit for
// bit.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "orrery/presets.h"
#include "orrery/snapshot.h"
#include "orrery/simulation.h"
#include "support.h"

namespace orrery::test {

// The SnapshotError a file's bytes give ("(no error)" where they load).
inline std::string message_of(const std::vector<std::uint8_t>& b,
                              const std::string& name = "f.orrery") {
  try {
    decode_snapshot(b.data(), b.size(), name);
  } catch (const SnapshotError& e) {
    return e.what();
  }
  return "(no error)";
}

inline bool same_bits(const std::vector<Vec4>& a, const std::vector<Vec4>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(Vec4) * a.size()) == 0;
}

// k steps, saved to a file and loaded back into a new Simulation (its settings from the file), then m
// steps; against k + m steps of one Simulation.
inline void check_exact_restart(const std::string& solver, Integrator integrator,
                                const SimParams& p, const BodyState& start, int k, int m,
                                int block = 0) {
  auto whole = make_simulation(solver, start, p, integrator, block);
  whole->step(k);
  whole->step(m);
  const BodyState expected = whole->state();

  auto first = make_simulation(solver, start, p, integrator, block);
  first->step(k);
  Snapshot saved;
  saved.bodies = first->state();
  saved.run = first->run_state();
  char dir[] = "/tmp/orrery-restart-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/run.orrery";
  save_snapshot(path, saved);
  const Snapshot loaded = load_snapshot(path);
  std::remove(path.c_str());
  ::rmdir(dir);
  ASSERT_EQ(loaded.run.solver, solver);
  ASSERT_EQ(loaded.run.steps, k);
  auto second = make_simulation(loaded.run.solver, loaded.bodies, loaded.run.params,
                            loaded.run.integrator, block);
  second->resume(loaded.run);
  second->step(m);
  const BodyState got = second->state();
  EXPECT_TRUE(same_bits(got.pos, expected.pos)) << solver << " " << to_string(integrator);
  EXPECT_TRUE(same_bits(got.vel, expected.vel)) << solver << " " << to_string(integrator);
  EXPECT_EQ(second->step_count(), whole->step_count());
  EXPECT_NEAR(second->time(), whole->time(), 1e-12 * (1.0 + std::abs(whole->time())));
  const CollisionTotals a = second->collision_totals(), b = whole->collision_totals();
  EXPECT_EQ(a.contacts, b.contacts);
  EXPECT_EQ(a.merges, b.merges);
  EXPECT_EQ(a.wall_hits, b.wall_hits);
  EXPECT_NEAR(a.energy_offset, b.energy_offset, 1e-9 * (1.0 + std::abs(b.energy_offset)));
}

// Every integrator on a small disk (gravity), and the box gas (bounces and walls).
inline void check_exact_restarts(const std::string& solver, int n, int block = 0) {
  const BodyState disk = make_preset(Preset::disk, n, 5);
  SimParams p;
  p.dt = 0.005f;
  for (Integrator i : {Integrator::euler, Integrator::leapfrog, Integrator::yoshida4})
    check_exact_restart(solver, i, p, disk, 7, 5, block);
  const BodyState box = make_preset(Preset::box, n, 6);
  const PresetSettings ps = preset_settings(Preset::box);
  SimParams q;
  q.gravity = ps.gravity;
  q.collisions = ps.collisions;
  check_exact_restart(solver, Integrator::leapfrog, q, box, 20, 20, block);
}

}  // namespace orrery::test
