// orrery-bench --decompose: one cuda-bh (a GPU a rank) or cpu-bh run over the MPI ranks of an
// mpirun (orrery/distributed.h).
// Every rank draws its own part of the preset (random, shell, plummer, plummer-halo; the others,
// and --load or --scene: the whole state, keeping its share), and the decomposition moves the
// bodies to their key ranges; each rank then steps its own bodies, the
// forces from its tree and the others' essential trees, and the bodies are decomposed again every
// --rebalance-every steps by the work each took. Rank 0 prints the table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "orrery/collisions.h"
#include "orrery/device.h"
#include "orrery/distributed.h"
#include "orrery/gpu_buffer.h"
#include "orrery/input.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "runs.h"
#include "stop.h"

namespace orrery::bench {

namespace {

int run_over_ranks(const Plan& plan) {
  Ranks& ranks = Ranks::world();
  const int p = ranks.size(), me = ranks.rank();
  const int n = plan.ns.front();
  if (n < p) {  // every rank knows: rank 0 says it, once
    if (me == 0) throw UsageError(too_few_bodies(n, p));
    return 2;
  }
  const bool gpu = plan.solvers.front().info.name == "cuda-bh";
  if (gpu) {
    try {  // before anything is allocated on a GPU
      DistributedBh::bind_gpus(ranks);
    } catch (const InputError& e) {  // every rank has the same line: rank 0 says it
      if (me == 0) throw UsageError(e.what());
      return 2;
    }
  }
  // The set-up's two stages, each as long as its slowest rank: at a billion bodies they take
  // longer than the steps timed.
  auto seconds_since = [&ranks](std::chrono::steady_clock::time_point t0, const char* what) {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ranks.max(&s, 1, what);
    return s;
  };
  const auto drawn_from = std::chrono::steady_clock::now();
  RankBodies mine;
  const bool parts =
      !plan.loaded && !plan.scene && !plan.preset_units.henon && drawn_one_by_one(plan.preset);
  if (parts) {  // each rank draws its own part (the same bodies on any count): none holds all
    mine = draw_part(ranks, plan.preset, n, plan.seed);
    if (plan.radius) set_radius(mine.bodies.vel, *plan.radius);
  } else {  // every rank makes the whole state and keeps its share
    mine = share_of(ranks, bench_state(plan, n));
  }
  const double draw_s = seconds_since(drawn_from, "drawing the bodies");
  if (me == 0) {  // at a billion bodies the set-up takes minutes: say where it is
    std::printf("set-up: drawn in %.1f s\n", draw_s);
    std::fflush(stdout);
  }
  const auto built_from = std::chrono::steady_clock::now();
  std::unique_ptr<RankRun> run;
  try {
    run = std::make_unique<RankRun>(ranks, std::move(mine), gpu, plan.integrator, plan.params,
                                    plan.rebalance_every);
  } catch (const InputError& e) {  // every rank knows: rank 0 says it, once
    if (me == 0) throw UsageError(e.what());
    return 2;
  }
  const double build_s = seconds_since(built_from, "decomposing the bodies");
  if (me == 0) {
    const Decomposition& d = run->last();
    std::printf(
        "set-up: decomposed and the solver made in %.1f s (rank 0: keys sorted in %.1f s, "
        "bodies moved in %.1f s, merged in %.1f s)\n",
        build_s, d.sort_s, d.move_s, d.merge_s);
    std::fflush(stdout);
  }
  Solver& forces = run->solver();
  std::optional<RankSeries> series;
  if (plan.series) series.emplace(*run, *plan.series);
  std::optional<Diagnostics> start;
  if (plan.diagnostics) start = run->diagnostics();
  std::vector<double> ms;
  double interactions = 0, let_bytes = 0;
  const int total = plan.warmup + plan.steps;
  for (int k = 0; k < total; ++k) {
    run->rebalance_if_due();  // not timed: the step alone is
    const auto t0 = std::chrono::steady_clock::now();
    run->step();
    double took =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ranks.max(&took, 1, "the step's time");  // a step takes as long as its slowest rank
    if (series) series->after_step();        // not timed
    throw_if_stopped();
    if (k < plan.warmup) {
      if (me == 0) std::printf("set-up: warm-up step %d took %.1f ms\n", k + 1, took);
      std::fflush(stdout);
      continue;
    }
    ms.push_back(took);
    double counts[2] = {forces.interactions(run->size()),
                        static_cast<double>(DistributedBh::received_bytes(forces))};
    ranks.sum(counts, 2, "the step's work");
    interactions += counts[0], let_bytes += counts[1];
  }
  // The most device memory any rank's GPU holds after the steps (the context's and NCCL's
  // included), and the most the run's own buffers held at once on any rank (inside a pass).
  double gpu_bytes[2] = {
      gpu ? static_cast<double>(device_info().total_mem - device_free_memory()) : 0,
      static_cast<double>(gpu_memory::peak())};
  ranks.max(gpu_bytes, 2, "the GPUs' memory");
  std::optional<Diagnostics> end;
  if (plan.diagnostics) end = run->diagnostics();
  if (me == 0) {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? NAN : sorted[sorted.size() / 2];
    const double steps = static_cast<double>(ms.size());
    std::printf("orrery-bench: decomposed: %s\n", forces.config().c_str());
    std::printf("%-8s %10s %6s %10s %14s %12s %14s %14s %12s %12s\n", "solver", "N", "ranks",
                "ms/step", "interactions/s", "balance max", "LET MB/step", "moved/rebal.",
                "GPU GB max", "GB peak");
    std::printf("%-8s %10d %6d %10.3f %14.4e %12.4f %14.3f %14.0f %12.2f %12.2f\n",
                plan.solvers.front().info.name.c_str(), n, p, median,
                steps > 0 && median > 0 ? interactions / steps / (median * 1e-3) : 0.0,
                run->worst_balance(), steps > 0 ? let_bytes / steps / 1048576.0 : 0.0,
                run->rebalances() > 0 ? run->moved() / run->rebalances() : 0.0, gpu_bytes[0] / 1e9,
                gpu_bytes[1] / 1e9);
    if (start && end) {
      const Drift moved_by = drift(*start, *end);
      std::printf("energy %.9g -> %.9g, drift %.3e; momentum drift %.3e\n", start->total(),
                  end->total(), moved_by.energy, moved_by.momentum);
    }
  }
  // The table first: nothing measured is lost where an output fails.
  if (series) {
    series->finish();
    if (me == 0)
      std::fprintf(stderr, "orrery-bench: series: %d outputs, %s to %s\n", series->written(),
                   series_file(*plan.series, 0).c_str(), series->last_file().c_str());
  }
  if (!plan.save.empty()) {
    run->save(plan.save);
    if (me == 0)
      std::fprintf(stderr, "orrery-bench: saved %s (%s, %d bodies, step %lld, time %.9g)\n",
                   plan.save.c_str(), to_string(snapshot_format_for(plan.save)), n, run->steps(),
                   run->simulation().time());
  }
  return 0;
}

}  // namespace

// A refusal or a failed output is the same line on every rank (Ranks::agree): rank 0 says it.
int run_decomposed(const Plan& plan) {
  try {
    return run_over_ranks(plan);
  } catch (const InputError&) {
    if (Ranks::world().rank() == 0) throw;
    return 2;
  }
}

}  // namespace orrery::bench
