// Run under `mpirun -np K` (ctest runs K = 1 to 4): the decomposition of a Plummer sphere's bodies
// over the ranks (every body on one rank, in key ranges, balanced by count and then by measured
// work) and the distributed cpu-bh's forces and potentials against one process's cpu-bh and the
// exact double sum: within the single tree's own error at the same theta. One line a check on rank
// 0; exit 1 where any failed on any rank. With --die R or --hang R, rank R exits (killed) or stops
// answering before the first exchange (tests/mpi/faults.sh: the others must end, not wait).
// With --gpu, the same checks of cuda-bh over the ranks against one process's cuda-bh, each rank
// on its own GPU; exit 77 (skipped) where there is no GPU or fewer GPUs than ranks on the host.
// The run's snapshot (RankRun::save) against the bodies the ranks hold. --die-saving R FILE: a run
// saves FILE, then rank R dies as the next save gathers (faults.sh); --read FILE (one process):
// exit 0 where FILE holds the whole run (every ID once).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "orrery/device.h"
#include "orrery/distributed.h"
#include "orrery/gpu_buffer.h"
#include "orrery/input.h"
#include "orrery/presets.h"
#include "orrery/snapshot.h"
#include "orrery/solver.h"

using namespace orrery;

namespace {

int g_failed = 0;

void check(Ranks& r, bool ok, const std::string& what) {
  double bad = ok ? 0.0 : 1.0;
  r.max(&bad, 1, "a check");
  if (r.rank() == 0) std::printf("%s: %s\n", bad > 0 ? "FAIL" : "ok", what.c_str());
  g_failed += bad > 0;
}

// Every rank's (id, value) pairs, on every rank, indexed by ID.
std::vector<Vec4> by_id(Ranks& r, const RankBodies& mine, const std::vector<Vec4>& v, int n) {
  std::vector<std::uint8_t> bytes(mine.ids.size() * (8 + sizeof(Vec4)));
  for (std::size_t i = 0; i < mine.ids.size(); ++i) {
    std::memcpy(bytes.data() + i * (8 + sizeof(Vec4)), &mine.ids[i], 8);
    std::memcpy(bytes.data() + i * (8 + sizeof(Vec4)) + 8, &v[i], sizeof(Vec4));
  }
  std::vector<Vec4> out(static_cast<std::size_t>(n), Vec4{NAN, NAN, NAN, NAN});
  for (const auto& g : r.gather_all(bytes, "the results")) {
    for (std::size_t at = 0; at + 8 + sizeof(Vec4) <= g.size(); at += 8 + sizeof(Vec4)) {
      std::uint64_t id;
      std::memcpy(&id, g.data() + at, 8);
      if (id < out.size()) std::memcpy(&out[id], g.data() + at + 8, sizeof(Vec4));
    }
  }
  return out;
}

// The exact double sums: accelerations (xyz) and potentials (w).
std::vector<Vec4> exact(const BodyState& s, float eps) {
  const int n = s.size();
  std::vector<Vec4> out(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(dynamic, 64)
  for (int i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0, phi = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = s.pos[j].x - s.pos[i].x, dy = s.pos[j].y - s.pos[i].y,
                   dz = s.pos[j].z - s.pos[i].z;
      const double r2 = dx * dx + dy * dy + dz * dz + double(eps) * eps;
      const double inv = 1.0 / std::sqrt(r2), m = s.pos[j].w;
      ax += m * dx * inv * inv * inv, ay += m * dy * inv * inv * inv,
          az += m * dz * inv * inv * inv;
      phi -= m * inv;
    }
    out[static_cast<std::size_t>(i)] = Vec4{float(ax), float(ay), float(az), float(phi)};
  }
  return out;
}

// RMS and largest relative error of the accelerations (w: the potentials) against exact ones.
struct Errors {
  double rms = 0, worst = 0;
};
Errors errors(const std::vector<Vec4>& got, const std::vector<Vec4>& want, bool potential) {
  Errors e;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double err, ref;
    if (potential) {
      err = std::fabs(double(got[i].w) - want[i].w), ref = std::fabs(double(want[i].w));
    } else {
      const double dx = got[i].x - want[i].x, dy = got[i].y - want[i].y, dz = got[i].z - want[i].z;
      err = std::sqrt(dx * dx + dy * dy + dz * dz);
      ref = std::sqrt(double(want[i].x) * want[i].x + double(want[i].y) * want[i].y +
                      double(want[i].z) * want[i].z);
    }
    const double rel = std::isfinite(err) ? err / ref : INFINITY;
    e.rms += rel * rel, e.worst = std::max(e.worst, rel);
  }
  e.rms = std::sqrt(e.rms / want.size());
  return e;
}

// A solver's accelerations and potentials of `pos`, through device copies for a GPU solver.
// The accelerations and potentials of `pos`; returns the interactions of the potentials' pass.
double field(Solver& s, const std::vector<Vec4>& pos, std::vector<Vec4>& acc,
             std::vector<Vec4>& pot, const SimParams& params) {
  const int m = static_cast<int>(pos.size());
  if (!s.on_device()) {
    s.accelerations(pos.data(), acc.data(), m, params);
    s.potentials(pos.data(), pot.data(), m, params);
    return s.interactions(m);
  }
  GpuBuffer<Vec4> p(pos.size()), a(pos.size()), u(pos.size());
  p.upload(pos.data(), pos.size());
  s.accelerations(p.data(), a.data(), m, params);
  s.potentials(p.data(), u.data(), m, params);
  a.download(acc.data(), acc.size());
  u.download(pot.data(), pot.size());
  return s.interactions(m);
}

// FILE holds n bodies, IDs 0 .. n - 1 in order, all finite.
bool whole_run(const char* path, int n) {
  try {
    const Snapshot s = load_snapshot(path);
    // A file without IDs (Orrery's format keeps them with types) holds the bodies in ID order.
    bool ok =
        s.bodies.size() == n && (s.ids.empty() || s.ids.size() == static_cast<std::size_t>(n));
    for (int i = 0; ok && i < n; ++i)
      ok = (s.ids.empty() || s.ids[static_cast<std::size_t>(i)] == static_cast<std::uint64_t>(i)) &&
           std::isfinite(s.bodies.pos[static_cast<std::size_t>(i)].x);
    std::printf("%s: %s (%d bodies)\n", path, ok ? "whole" : "NOT whole", s.bodies.size());
    return ok;
  } catch (const std::exception& e) {
    std::printf("%s: %s\n", path, e.what());
    return false;
  }
}

// The run written by rank 0 as one snapshot holds what every rank holds, by ID, to the bit; a
// file that cannot be written is the same line on every rank.
void check_snapshot(Ranks& ranks, const BodyState& all, int n) {
  SimParams params;
  params.theta = 0.5f;
  params.softening = 0.01f;
  RankRun run(ranks, share_of(ranks, all), false, Integrator::leapfrog, params, 2);
  for (int k = 0; k < 3; ++k) run.step();
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/orrery_mpi_check_" +
                           std::to_string(static_cast<long long>(getpid())) + ".orrery";
  run.save(path);  // rank 0's name is the one written
  const RankBodies& mine = run.bodies();
  const std::vector<Vec4> pos = by_id(ranks, mine, mine.bodies.pos, n);
  const std::vector<Vec4> vel = by_id(ranks, mine, mine.bodies.vel, n);
  bool same = true;
  std::string line;
  if (ranks.rank() == 0) {
    const Snapshot s = load_snapshot(path);
    std::remove(path.c_str());
    same = s.bodies.size() == n && s.run.steps == 3 && s.run.time == run.simulation().time() &&
           std::memcmp(s.bodies.pos.data(), pos.data(), sizeof(Vec4) * pos.size()) == 0 &&
           std::memcmp(s.bodies.vel.data(), vel.data(), sizeof(Vec4) * vel.size()) == 0;
    for (std::size_t i = 0; same && i < s.ids.size(); ++i) same = s.ids[i] == i;
    line = std::to_string(s.bodies.size()) + " bodies, step " + std::to_string(s.run.steps);
  }
  check(ranks, same,
        "the run's snapshot holds every rank's bodies by ID, bit for bit (" + line + ")");
  std::string why;
  try {
    run.save("/nonexistent-orrery-folder/run.orrery");
  } catch (const InputError& e) {
    why = e.what();
  }
  std::vector<std::uint8_t> bytes(why.begin(), why.end());
  const auto all_why = ranks.gather_all(bytes, "the refusals");
  bool one = !why.empty();
  for (const auto& w : all_why) one = one && w == all_why[0];
  check(ranks, one, "a snapshot that cannot be written is one line on every rank: " + why);
}

}  // namespace

int main(int argc, char** argv) {
  Ranks& ranks = Ranks::world();
  const int p = ranks.size(), me = ranks.rank();
  const bool gpu = argc == 2 && std::strcmp(argv[1], "--gpu") == 0;
  if (gpu) {
    if (!device_present()) {
      if (me == 0) std::printf("skipped: no CUDA device (%s)\n", device_info().reason.c_str());
      return 77;
    }
    // NCCL takes one rank a GPU (two ranks of a communicator on one GPU are "invalid usage").
    if (ranks.local_size() > device_count()) {
      if (me == 0)
        std::printf("skipped: %d ranks on a host with %d GPUs (NCCL takes one rank a GPU)\n",
                    ranks.local_size(), device_count());
      return 77;
    }
    use_device(ranks.local_rank());
  }
  if (argc == 3 && std::atoi(argv[2]) == me) {
    if (std::strcmp(argv[1], "--die") == 0) std::raise(SIGKILL);
    if (std::strcmp(argv[1], "--hang") == 0) std::this_thread::sleep_for(std::chrono::hours(1));
  }
  const int n = 20011;  // no multiple of any rank count or group
  if (argc == 3 && std::strcmp(argv[1], "--read") == 0) return whole_run(argv[2], n) ? 0 : 1;
  const BodyState all = make_preset(Preset::plummer, n, 7);
  if (argc == 4 && std::strcmp(argv[1], "--die-saving") == 0) {
    SimParams params;
    RankRun run(ranks, share_of(ranks, all), false, Integrator::leapfrog, params, 0);
    run.step();
    run.save(argv[3]);
    run.step();
    if (std::atoi(argv[2]) == me) std::raise(SIGKILL);
    run.save(std::string(argv[3]) +
             ".next");  // the others wait in its gather until mpirun ends them
    return 1;
  }
  RankBodies mine;  // scattered to start with: body i on rank i % p
  for (int i = me; i < n; i += p) {
    mine.bodies.pos.push_back(all.pos[static_cast<std::size_t>(i)]);
    mine.bodies.vel.push_back(all.vel[static_cast<std::size_t>(i)]);
    mine.ids.push_back(static_cast<std::uint64_t>(i));
  }
  Decomposition d = decompose(ranks, mine);
  // Every body on exactly one rank.
  std::vector<Vec4> owner(mine.ids.size(), Vec4{float(me), 0, 0, 0});
  const std::vector<Vec4> owners = by_id(ranks, mine, owner, n);
  bool once = true;
  double count = static_cast<double>(mine.ids.size());
  ranks.sum(&count, 1, "the count");
  for (const Vec4& o : owners) once = once && std::isfinite(o.x);
  check(ranks, once && count == n, "every body is on one rank after the decomposition");
  check(ranks,
        d.splits.size() == static_cast<std::size_t>(p + 1) &&
            std::is_sorted(d.splits.begin(), d.splits.end()),
        "the split keys are in order");
  check(
      ranks, d.work_max - d.work_min <= 2.0,
      "equal counts by body: " + std::to_string(d.work_min) + " to " + std::to_string(d.work_max));

  SimParams params;
  params.theta = 0.5f;
  params.softening = 0.01f;
  const char* name = gpu ? "cuda-bh" : "cpu-bh";
  std::unique_ptr<Solver> solver =
      gpu ? DistributedBh::make_device(ranks) : DistributedBh::make(ranks);
  std::unique_ptr<Solver> one = make_solver(name, 0);
  const std::vector<Vec4> want = me == 0 ? exact(all, params.softening) : std::vector<Vec4>();
  for (int pass = 0; pass < 3; ++pass) {
    // Pass 0: the first (a walk with the box test, then with the relative test); 1: the next, from
    // the last accelerations; 2: after a decomposition by the bodies' measured work.
    if (pass == 2) {
      mine.work = DistributedBh::work(*solver);
      d = decompose(ranks, mine);
      DistributedBh::moved(*solver);
      check(ranks, d.work_max <= 1.05 * d.work_mean,
            "balanced by work: the busiest rank " + std::to_string(d.work_max / d.work_mean) +
                " of the mean");
    }
    const int m = static_cast<int>(mine.ids.size());
    std::vector<Vec4> acc(static_cast<std::size_t>(m)), pot(acc.size());
    double interactions = field(*solver, mine.bodies.pos, acc, pot, params);
    ranks.sum(&interactions, 1, "the interactions");
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i].w = pot[i].w;
    const std::vector<Vec4> got = by_id(ranks, mine, acc, n);
    bool ok = true;
    std::string line;
    if (me == 0) {
      std::vector<Vec4> single(static_cast<std::size_t>(n)), phi(single.size());
      if (pass != 1) one = make_solver(name, 0);  // pass 2: both learn afresh (moved)
      const double one_interactions = field(*one, all.pos, single, phi, params);
      for (int i = 0; i < n; ++i)
        single[static_cast<std::size_t>(i)].w = phi[static_cast<std::size_t>(i)].w;
      const Errors da = errors(got, want, false), sa = errors(single, want, false);
      const Errors dp = errors(got, want, true), sp = errors(single, want, true);
      // Within the single tree's own error: RMS at most 1.25 times it, the worst body 2 times.
      ok = da.rms <= 1.25 * sa.rms + 1e-7 && da.worst <= 2.0 * sa.worst + 1e-6 &&
           dp.rms <= 1.25 * sp.rms + 1e-7 && dp.worst <= 2.0 * sp.worst + 1e-6;
      char b[320];
      std::snprintf(
          b, sizeof b,
          "pass %d: |a| RMS %.3g (one rank %.3g), worst %.3g (%.3g); phi RMS %.3g (%.3g), "
          "worst %.3g (%.3g); interactions %.4gx one rank's",
          pass, da.rms, sa.rms, da.worst, sa.worst, dp.rms, sp.rms, dp.worst, sp.worst,
          interactions / one_interactions);
      line = b;
      // One rank is the one process's tree, to the bit.
      if (p == 1)
        for (int i = 0; i < n; ++i)
          ok = ok && std::memcmp(&got[static_cast<std::size_t>(i)],
                                 &single[static_cast<std::size_t>(i)], sizeof(Vec4)) == 0;
    }
    check(ranks, ok,
          std::string(name) + " forces within one tree's error on " + std::to_string(p) + " ranks" +
              (p == 1 ? " (and the one process's, bit for bit)" : "") + ", " + line);
  }
  // Fewer bodies than ranks: one line.
  if (p > 1) {
    RankBodies few;
    if (me == 0) {
      few.bodies.pos.push_back(all.pos[0]), few.bodies.vel.push_back(all.vel[0]);
      few.ids.push_back(0);
    }
    std::string why;
    try {
      decompose(ranks, few);
    } catch (const InputError& e) {
      why = e.what();
    }
    check(ranks, why.find("at least one body a rank") != std::string::npos,
          "fewer bodies than ranks is refused: " + why);
  }
  if (!gpu) check_snapshot(ranks, all, n);
  // The ranks' GPUs as bind_gpus gathers them: mixed models are one line, as is a rank without
  // one (a host of one model cannot show the first for real).
  {
    auto verdict = [](const std::vector<DistributedBh::RankGpu>& gpus) {
      try {
        DistributedBh::check_gpus(gpus);
      } catch (const InputError& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    const std::string h200 = "NVIDIA H200", h100 = "NVIDIA H100 80GB HBM3";
    const std::string same = verdict({{h200, ""}, {h200, ""}, {h200, ""}});
    const std::string mixed = verdict({{h200, ""}, {h200, ""}, {h100, ""}});
    const std::string none = verdict({{h200, ""}, {"", "rank 1 finds no CUDA device"}});
    check(ranks,
          same.empty() &&
              mixed.find("not one model (rank 0: " + h200 + ", rank 2: " + h100) !=
                  std::string::npos &&
              none == "rank 1 finds no CUDA device",
          "the ranks' GPUs: one model passes, mixed models are refused (" + mixed +
              "), a rank without one is named");
  }
  return g_failed > 0 ? 1 : 0;
}
