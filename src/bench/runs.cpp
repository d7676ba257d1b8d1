// Runs the solvers for orrery-bench: ping-pong buffers from a real preset, CUDA events for GPU
// solvers and steady_clock for CPU ones, and the comparison with the `cpu` reference.
#include "runs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "orrery/device.h"
#include "orrery/diagnostics.h"
#include "orrery/formats.h"
#include "orrery/runner.h"
#include "orrery/series.h"
#include "stop.h"

namespace orrery::bench {
namespace {

// One run: a Simulation holding the state on its solver's side (positions ping-pong, so
// every step reads the previous step's output, never zeros), timed by its phase timer (CUDA
// events for GPU solvers, steady_clock for CPU ones).
std::unique_ptr<Simulation> make_run(const BodyState& initial, std::unique_ptr<Solver> solver,
                                     const Plan& plan) {
  throw_if_stopped();
  return std::make_unique<Simulation>(initial, std::move(solver), plan.integrator, plan.params);
}

// Progress lines on stderr for a run that turns out to take more than a few seconds: after the
// first step, the expected time of the whole run; then, every few seconds, steps done and time
// left.
class Progress {
 public:
  Progress(std::string label, long long total) : m_label(std::move(label)), m_total(total) {}

  void step_done(long long done) {
    const double s = seconds_since(m_start);
    if (done == 1) {
      m_on = s * static_cast<double>(m_total) > k_long_s && m_total > 1;
      if (m_on) print(done, s);
      return;
    }
    if (m_on && done < m_total && seconds_since(m_last) >= k_every_s) print(done, s);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr double k_long_s = 3.0, k_every_s = 2.0;
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  void print(long long done, double s) {
    const double left = s / static_cast<double>(done) * static_cast<double>(m_total - done);
    std::fprintf(stderr, "orrery-bench: %s: step %lld of %lld, about %.0f s left\n",
                 m_label.c_str(), done, m_total, left);
    std::fflush(stderr);
    m_last = Clock::now();
  }
  std::string m_label;
  long long m_total;
  bool m_on = false;
  Clock::time_point m_start = Clock::now(), m_last = m_start;
};

std::string run_label(const std::string& solver, int n, int block, int gpus) {
  return solver + " at N=" + std::to_string(n) +
         (block > 0 ? " block " + std::to_string(block) : std::string()) +
         (gpus > 1 ? " on " + std::to_string(gpus) + " GPUs" : std::string());
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Runs the comparison's steps, checking the state after each; says where it first became
// non-finite ("became non-finite at step 2 (body 17)"), or returns "" when it stayed finite.
std::string run_checked(Simulation& sim) {
  RunPlan p;
  p.steps = k_compare_steps;
  p.finite = FiniteCheck::every_step;
  p.cancel = &g_stop_requested;
  const RunResult r = Runner::run(sim, p);
  throw_if_stopped();
  if (r.finite()) return "";
  return "became non-finite at step " + std::to_string(r.nonfinite_step) + " (body " +
         std::to_string(r.nonfinite_body) + ")";
}

std::string cpu_skip_line(const std::string& what, const std::string& solver, int n, int max_n) {
  std::ostringstream s;
  s << "skipped " << what << solver << " at N=" << n << ": above --cpu-max-n " << max_n;
  // The N^2 count only for the exact sums: a tree code does far fewer.
  if (!solver_info(solver).approximate)
    s << " (" << static_cast<double>(n) * n << " interactions per step)";
  s << "; raise --cpu-max-n to run it";
  return s.str();
}

// --save and --export-csv: the run's last state. Returns why a file was not written ("" when
// all were): a failed write, or a state that became non-finite (which --load would refuse).
// The run's table row comes first either way: nothing measured is lost.
std::string keep_last_state(const Plan& plan, Simulation& sim, int block, const RunResult& run) {
  if (plan.save.empty() && plan.export_csv.empty()) return "";
  const std::string what =
      !plan.save.empty() ? "--save " + plan.save : "--export-csv " + plan.export_csv;
  if (!run.finite())
    return what + ": not saved: the state became non-finite at step " +
           std::to_string(run.nonfinite_step);
  try {
    const Snapshot s = snapshot_of(sim, sim.bodies(), block);
    if (!plan.save.empty()) {
      save_snapshot(plan.save, s);
      std::fprintf(stderr, "orrery-bench: saved %s (%s, %d bodies, step %lld, time %.9g)\n",
                   plan.save.c_str(), to_string(snapshot_format_for(plan.save)), s.bodies.size(),
                   s.run.steps, s.run.time);
    }
    if (!plan.export_csv.empty()) {
      save_snapshot(plan.export_csv, s, SnapshotFormat::csv);
      std::fprintf(stderr, "orrery-bench: wrote %s (%d bodies)\n", plan.export_csv.c_str(),
                   s.bodies.size());
    }
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The block a result reports: what the solver runs at after its steps (an autotuned solver
// reports its choice), 0 for CPU solvers.
int shown_block(const Solver& solver) { return solver.on_device() ? solver.block_size() : 0; }

}  // namespace

BodyState bench_state(const Plan& plan, int n) {
  BodyState s = plan.loaded  ? plan.loaded->bodies
                : plan.scene ? scene_bodies(*plan.scene, n)
                             : make_preset(plan.preset, n, plan.seed);
  if (plan.radius) set_radius(s.vel, *plan.radius);
  if (!plan.loaded && !plan.scene && plan.preset_units.henon) scale_to_henon(s);
  return s;
}

double TimingResult::interactions_per_s() const {
  return ms_median > 0 ? interactions / (ms_median * 1e-3) : 0.0;
}

double TimingResult::gflops() const {
  return interactions_per_s() * k_flops_per_interaction * 1e-9;
}

// Times one (solver, block) at the state's N: warm-up steps, then the timed ones; every step is
// checked for non-finite values (outside the timed region), so a run that blows up is stopped at
// the step where it started.
TimingResult time_one(const Plan& plan, const BodyState& initial, const std::string& name,
                      int block, int gpus, int warmup, int steps, bool diagnostics) {
  const int n = initial.size();
  std::unique_ptr<Simulation> sim = make_run(initial, make_solver(name, block, gpus), plan);
  if (plan.loaded) {
    RunState from = plan.loaded->run;
    if (!plan.loaded->run_recorded)
      from = RunState{}, from.time = plan.loaded->run.time, from.units = plan.loaded->run.units;
    sim->resume(from);  // another code's file: its time and units (its run is the command line's)
  } else if (plan.scene && !plan.scene->units.empty()) {
    sim->set_units(parse_units(plan.scene->units, "units").units);
  } else {
    sim->set_units(plan.preset_units.units);
  }
  // A file's types and IDs go to --save through merges (kept only when saving: no read-backs).
  if (plan.loaded && (!plan.save.empty() || plan.series))
    sim->set_labels(plan.loaded->types, plan.loaded->ids);
  const long long step0 = sim->step_count();
  const double time0 = sim->time();
  const bool tracing = !plan.trace.empty();
  RunPlan rp;
  rp.warmup = warmup;
  rp.steps = steps;
  rp.finite = FiniteCheck::every_step;
  rp.phases = PhaseCollection::per_step;
  rp.measure_start = diagnostics || tracing;
  rp.measure_every = tracing ? plan.trace_every : 0;
  rp.measure_end = diagnostics;
  Progress progress(run_label(name, n, block, gpus), static_cast<long long>(warmup) + steps);
  rp.progress = [&](long long done, long long) { progress.step_done(done); };
  rp.cancel = &g_stop_requested;
  std::optional<SeriesWriter> series;
  if (plan.series) {
    SeriesPlan sp = *plan.series;
    sp.block = block;
    series.emplace(sp);
    series->start(*sim, sim->bodies());
    rp.after_step = [&](Simulation& s, const Bodies& b) { series->after_step(s, b); };
  }
  const RunResult run = Runner::run(*sim, rp);
  if (series) series->finish();  // the last output, written behind the steps
  throw_if_stopped();
  if (series)
    std::fprintf(stderr, "orrery-bench: series: %d outputs, %s to %s\n", series->written(),
                 series_file(*plan.series, 0).c_str(), series->last_file().c_str());

  TimingResult r;
  std::size_t first = 0, last = run.readings.size();
  if (rp.measure_start) r.start = run.readings[first++].d;
  if (diagnostics && run.finite() && run.steps > 0) {
    r.end = run.readings[--last].d;
    r.diagnostics_ms = run.diagnostics_ms;
  }
  if (tracing) {
    r.trace.push_back({0, 0.0, *r.start});
    for (std::size_t i = first; i < last; ++i)
      r.trace.push_back({run.readings[i].step - step0, run.readings[i].time, run.readings[i].d});
  }
  r.nonfinite_step = run.nonfinite_step;
  r.nonfinite_body = run.nonfinite_body;
  if (!run.finite() && run.nonfinite_body >= 0 && run.nonfinite_body < sim->bodies().n) {
    const Simulation::BodyReading b =
        sim->read_body(sim->bodies(), static_cast<int>(run.nonfinite_body));
    r.nonfinite_parts = nonfinite_parts(b.pos, b.vel);
    r.nonfinite_dt = sim->last_dt();
  }
  r.output_error = keep_last_state(plan, *sim, block, run);
  std::vector<double> ms;
  std::array<std::vector<double>, k_phase_count> phase_ms;
  for (const PhaseTimes& t : run.step_phases) {
    ms.push_back(t.total());
    for (int p = 0; p < k_phase_count; ++p) phase_ms[p].push_back(t.ms[p]);
  }
  const Solver& solver = sim->solver();
  r.solver = name;
  r.config = solver.config();
  r.integrator = to_string(plan.integrator);
  r.n = n;
  r.block = shown_block(solver);
  r.gpus = gpus;
  r.steps = steps;
  r.warmup = warmup;
  r.ms_median = median(ms);
  r.ms_min = ms.empty() ? NAN : *std::min_element(ms.begin(), ms.end());
  r.ms_max = ms.empty() ? NAN : *std::max_element(ms.begin(), ms.end());
  for (int p = 0; p < k_phase_count; ++p)
    r.phase_ms[p] = phase_ms[p].empty() ? 0.0 : median(phase_ms[p]);
  r.interactions =
      run.step_interactions.empty() ? sim->interactions_per_step(n) : median(run.step_interactions);
  r.finite = run.finite();
  r.bodies_end = sim->bodies().n;
  if (plan.params.adaptive) {
    r.sim_time = sim->time() - time0;
    r.next_dt = sim->next_dt();
    r.floor_hits = sim->floor_hits();
  }
  const CollisionParams& c = plan.params.collisions;
  if (c.mode != CollisionMode::off || c.box > 0.0f)
    r.contacts_per_step = static_cast<double>(sim->collision_totals().contacts) /
                          static_cast<double>(std::max<long long>(warmup + steps, 1));
  return r;
}

// Whether a solver reads the sweep row: a solver's row (theta) is read by the tree codes alone.
bool reads_sweep(const SolverInfo& info) {
  return sweep_row().owner != ParamOwner::solver || info.approximate;
}

// The sweep row's values a solver runs at: each of the plan's where it reads the row, else the
// first.
std::vector<double> sweep_for(const Plan& plan, const SolverInfo& info) {
  return reads_sweep(info) ? plan.sweep : std::vector<double>{plan.sweep.front()};
}

std::vector<TimingResult> run_timing(const Plan& plan, Reporter& out) {
  std::vector<TimingResult> results;
  for (int n : plan.ns) {
    std::optional<BodyState> initial;  // built once per N, shared by every solver
    for (const SolverPlan& sp : plan.solvers) {
      if (!sp.info.gpu && n > plan.cpu_max_n) {
        out.note(cpu_skip_line("", sp.info.name, n, plan.cpu_max_n));
        continue;
      }
      if (!initial) {
        initial = bench_state(plan, n);
        check_box_fits(plan.params.collisions.box, initial->vel);  // before any run
      }
      for (double value : sweep_for(plan, sp.info))
        for (int block : sp.blocks)
          for (int gpus : sp.gpus) {
            Plan p = plan;
            sweep_row().set(p.params, value);
            TimingResult r = time_one(p, *initial, sp.info.name, block, gpus, plan.warmup,
                                      plan.steps, plan.diagnostics);
            if (reads_sweep(sp.info)) r.swept = static_cast<float>(value);
            out.timing(r);
            results.push_back(r);
          }
    }
  }
  return results;
}

std::vector<CompareResult> run_compare(const Plan& plan, Reporter& out) {
  std::vector<CompareResult> results;
  for (int n : plan.ns) {
    if (n > plan.cpu_max_n) {
      out.note(cpu_skip_line("the comparison with ", "cpu", n, plan.cpu_max_n));
      continue;
    }
    const BodyState initial = bench_state(plan, n);
    std::unique_ptr<Simulation> ref_run = make_run(initial, make_solver("cpu"), plan);
    const std::string ref_problem = run_checked(*ref_run);
    const BodyState ref = ref_run->state();
    for (const SolverPlan& sp : plan.solvers) {
      if (sp.info.name == "cpu") continue;  // the reference itself
      for (int block : sp.blocks)
        for (int gpus : sp.gpus) {
          std::unique_ptr<Simulation> run =
              make_run(initial, make_solver(sp.info.name, block, gpus), plan);
          const std::string problem = run_checked(*run);
          const BodyState got = run->state();
          CompareResult r;
          r.solver = sp.info.name;
          r.config = run->solver().config();
          r.n = n;
          r.block = shown_block(run->solver());
          r.gpus = gpus;
          r.steps = k_compare_steps;
          r.pos_error = max_relative_error(got.pos, ref.pos);
          r.vel_error = max_relative_error(got.vel, ref.vel);
          if (!ref_problem.empty())
            r.problem = "the cpu reference itself " + ref_problem + ": nothing to compare with";
          else if (!problem.empty())
            r.problem = r.solver + " " + problem;
          out.compare(r);
          results.push_back(r);
        }
    }
  }
  return results;
}

// --max-n: doubling from k_max_n_start (halving when that is already too slow), then bisection
// between the largest N fast enough and the smallest too slow until they are within 5%.
std::vector<MaxNResult> run_max_n(const Plan& plan, Reporter& out) {
  constexpr int k_max_n_start = 1024;
  const double budget_ms = 1000.0 / plan.max_n_fps;
  std::vector<MaxNResult> results;
  for (const SolverPlan& sp : plan.solvers) {
    for (int block : sp.blocks) {
      MaxNResult r;
      r.solver = sp.info.name;
      r.fps = plan.max_n_fps;
      auto measure = [&](int n) {
        const BodyState initial = bench_state(plan, n);
        const TimingResult t = time_one(plan, initial, sp.info.name, block, sp.gpus.front(),
                                        plan.warmup, plan.steps, false);
        if (!t.finite)
          throw std::runtime_error(sp.info.name + " at N=" + std::to_string(n) +
                                   " became non-finite at step " +
                                   std::to_string(t.nonfinite_step));
        r.config = t.config;
        r.block = t.block;
        return t.ms_median;
      };
      // What fits: the GPU's free memory (positions twice, velocities, accelerations, scratch).
      const double device_free = sp.info.gpu ? static_cast<double>(device_free_memory()) : 0.0;
      auto fits = [&](long long n) {
        return n <= std::numeric_limits<std::int32_t>::max() / 2 &&
               (!sp.info.gpu || 6.0 * sizeof(Vec4) * static_cast<double>(n) < 0.9 * device_free);
      };
      // CPU solvers stop at --cpu-max-n as they do everywhere else (cpu-bh once ran on past it).
      auto allowed = [&](long long n) { return sp.info.gpu || n <= plan.cpu_max_n; };
      if (!allowed(k_max_n_start)) {
        out.note(
            cpu_skip_line("the --max-n search of ", sp.info.name, k_max_n_start, plan.cpu_max_n));
        continue;
      }
      int lo = 0, hi = 0;
      double lo_ms = 0, hi_ms = 0;
      const double first = measure(k_max_n_start);
      if (first <= budget_ms) {
        lo = k_max_n_start, lo_ms = first;
        while (true) {
          const long long next = 2LL * lo;
          if (!fits(next)) {
            r.limit = "memory: N=" + std::to_string(next) + " would not fit";
            break;
          }
          if (!allowed(next)) {
            r.limit = "--cpu-max-n " + std::to_string(plan.cpu_max_n) +
                      ": N=" + std::to_string(next) + " not tried";
            break;
          }
          const double ms = measure(static_cast<int>(next));
          if (ms > budget_ms) {
            hi = static_cast<int>(next), hi_ms = ms;
            break;
          }
          lo = static_cast<int>(next), lo_ms = ms;
        }
      } else {
        hi = k_max_n_start, hi_ms = first;
        while (hi > 1) {
          const int next = hi / 2;
          const double ms = measure(next);
          if (ms <= budget_ms) {
            lo = next, lo_ms = ms;
            break;
          }
          hi = next, hi_ms = ms;
        }
      }
      while (lo > 0 && hi > 0 && static_cast<double>(hi - lo) > 0.05 * lo) {
        const int mid = lo + (hi - lo) / 2;
        const double ms = measure(mid);
        if (ms <= budget_ms)
          lo = mid, lo_ms = ms;
        else
          hi = mid, hi_ms = ms;
      }
      r.n = lo;
      r.ms = lo_ms;
      r.too_slow_n = hi;
      r.too_slow_ms = hi_ms;
      out.max_n(r);
      results.push_back(r);
    }
  }
  return results;
}

std::vector<ConvergenceResult> run_convergence(const Plan& plan, Reporter& out) {
  constexpr double k_two_pi = 6.283185307179586;
  const BodyState start = kepler_pair(0.5, 1.0);
  std::vector<ConvergenceResult> results;
  for (const SolverPlan& sp : plan.solvers)
    for (const std::string& name : integrator_names())
      for (int steps = 25; steps <= 6400; steps *= 2) {
        Plan p = plan;
        p.integrator = parse_integrator(name);
        p.params.dt = static_cast<float>(k_two_pi / steps);
        p.params.softening = 1e-6f;  // far below the pericentre, 0.5
        p.params.damping = 1.0f;
        std::unique_ptr<Simulation> run =
            make_run(start, make_solver(sp.info.name, sp.blocks.front(), sp.gpus.front()), p);
        RunPlan rp;
        rp.steps = steps;
        rp.cancel = &g_stop_requested;
        Runner::run(*run, rp);
        throw_if_stopped();
        const BodyState end = run->state();
        const double dx = (end.pos[1].x - end.pos[0].x) - (start.pos[1].x - start.pos[0].x);
        const double dy = (end.pos[1].y - end.pos[0].y) - (start.pos[1].y - start.pos[0].y);
        ConvergenceResult r{sp.info.name, name, steps, p.params.dt, std::sqrt(dx * dx + dy * dy)};
        out.convergence(r);
        results.push_back(r);
      }
  return results;
}

std::vector<AccuracyResult> run_accuracy(const Plan& plan, Reporter& out) {
  std::vector<AccuracyResult> results;
  for (int n : plan.ns) {
    const BodyState s = bench_state(plan, n);
    for (const SolverPlan& sp : plan.solvers)
      for (double value : sweep_for(plan, sp.info)) {
        if (!sp.info.gpu && !sp.info.approximate && n > plan.cpu_max_n) {
          out.note(cpu_skip_line("the accuracy of ", sp.info.name, n, plan.cpu_max_n));
          break;
        }
        throw_if_stopped();
        SimParams p = plan.params;
        sweep_row().set(p, value);
        std::unique_ptr<Solver> g = make_solver(sp.info.name, sp.blocks.front(), sp.gpus.front());
        AccuracyResult r;
        r.stats = measure_accuracy(*g, s, p, 131072, 8192, plan.seed);
        r.solver = sp.info.name;
        r.config = g->config();
        r.preset = to_string(plan.preset);
        r.n = n;
        if (reads_sweep(sp.info)) r.swept = static_cast<float>(value);
        out.accuracy(r);
        results.push_back(r);
      }
  }
  return results;
}

}  // namespace orrery::bench
