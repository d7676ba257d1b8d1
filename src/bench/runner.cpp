// Runs the solvers for orrery-bench: ping-pong buffers from a real preset, CUDA events for GPU
// solvers and steady_clock for CPU ones, and the comparison with the `cpu` reference.
#include "runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>

#include "orrery/device.h"
#include "orrery/diagnostics.h"

namespace orrery::bench {
namespace {

// One run's state: host vectors for a CPU solver, device arrays for a GPU one. Positions
// ping-pong between two buffers, so every step reads the previous step's output (never zeros).
class Stepper {
 public:
  Stepper(const BodyState& initial, bool on_device) : m_n(initial.size()), m_device(on_device) {
    // The first output buffer starts as NaN, so a body a solver fails to write cannot pass.
    const std::vector<Vec4> poison(m_n, Vec4{NAN, NAN, NAN, NAN});
    if (m_device) {
      for (DeviceArray& a : m_dev_pos) a = DeviceArray(m_n);
      m_dev_vel = DeviceArray(m_n);
      m_dev_pos[0].upload(initial.pos.data(), m_n);
      m_dev_pos[1].upload(poison.data(), m_n);
      m_dev_vel.upload(initial.vel.data(), m_n);
      m_timer.emplace();
      m_probe = std::make_unique<FiniteProbe>();
    } else {
      m_host_pos[0] = initial.pos;
      m_host_pos[1] = poison;
      m_host_vel = initial.vel;
    }
  }

  // One step; returns its time in milliseconds.
  double step(Solver& solver, const SimParams& p) {
    const int in = m_current, out = 1 - m_current;
    m_current = out;
    if (m_device) {
      m_timer->start();
      solver.step(m_dev_pos[in].data(), m_dev_pos[out].data(), m_dev_vel.data(), m_n, p);
      m_timer->stop();
      return m_timer->elapsed_ms();
    }
    const auto t0 = std::chrono::steady_clock::now();
    solver.step(m_host_pos[in].data(), m_host_pos[out].data(), m_host_vel.data(), m_n, p);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  // The first body whose position or velocity is not finite now, or -1 (a kernel on the device).
  long long first_nonfinite() {
    if (!m_device)
      return orrery::first_nonfinite(m_host_pos[m_current].data(), m_host_vel.data(), m_n);
    return m_probe->check(m_dev_pos[m_current].data(), m_dev_vel.data(), m_n);
  }

  // The current positions and velocities, on the host.
  BodyState state() const {
    if (!m_device) return BodyState{m_host_pos[m_current], m_host_vel};
    BodyState s{std::vector<Vec4>(m_n), std::vector<Vec4>(m_n)};
    m_dev_pos[m_current].download(s.pos.data(), m_n);
    m_dev_vel.download(s.vel.data(), m_n);
    return s;
  }

 private:
  int m_n;
  bool m_device;
  int m_current = 0;
  std::vector<Vec4> m_host_pos[2], m_host_vel;
  DeviceArray m_dev_pos[2], m_dev_vel;
  std::optional<GpuTimer> m_timer;
  std::unique_ptr<FiniteProbe> m_probe;
};

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

std::string run_label(const std::string& solver, int n, int block) {
  return solver + " at N=" + std::to_string(n) +
         (block > 0 ? " block " + std::to_string(block) : std::string());
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Runs the comparison's steps, checking the state after each; says where it first became
// non-finite ("became non-finite at step 2 (body 17)"), or returns "" when it stayed finite.
std::string run_checked(Stepper& st, Solver& solver, const SimParams& p) {
  for (int k = 0; k < k_compare_steps; ++k) {
    st.step(solver, p);
    const long long bad = st.first_nonfinite();
    if (bad >= 0)
      return "became non-finite at step " + std::to_string(k + 1) + " (body " +
             std::to_string(bad) + ")";
  }
  return "";
}

std::string cpu_skip_line(const std::string& what, const std::string& solver, int n, int max_n) {
  std::ostringstream s;
  s << "skipped " << what << solver << " at N=" << n << ": above --cpu-max-n " << max_n << " ("
    << static_cast<double>(n) * n << " interactions per step); raise --cpu-max-n to run it";
  return s.str();
}

// The block a result reports: what the solver runs at after its steps (an autotuned solver
// reports its choice), 0 for CPU solvers.
int shown_block(const Solver& solver) { return solver.on_device() ? solver.block_size() : 0; }

}  // namespace

double TimingResult::interactions_per_s() const {
  return ms_median > 0 ? static_cast<double>(n) * n / (ms_median * 1e-3) : 0.0;
}

double TimingResult::gflops() const {
  return interactions_per_s() * k_flops_per_interaction * 1e-9;
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
      if (!initial) initial = make_preset(plan.preset, n, plan.seed);
      for (int block : sp.blocks) {
        auto solver = make_solver(sp.info.name, block);
        Stepper st(*initial, solver->on_device());
        TimingResult r;
        // Every step is checked for non-finite values (outside the timed region), so a run that
        // blows up is stopped at the step where it started.
        const long long total = static_cast<long long>(plan.warmup) + plan.steps;
        Progress progress(run_label(sp.info.name, n, block), total);
        std::vector<double> ms;
        for (long long k = 0; k < total; ++k) {
          const double t = st.step(*solver, plan.params);
          if (k >= plan.warmup) ms.push_back(t);
          const long long bad = st.first_nonfinite();
          if (bad >= 0) {
            r.nonfinite_step = k + 1;
            r.nonfinite_body = bad;
            break;
          }
          progress.step_done(k + 1);
        }
        r.solver = sp.info.name;
        r.config = solver->config();
        r.n = n;
        r.block = shown_block(*solver);
        r.steps = plan.steps;
        r.warmup = plan.warmup;
        r.ms_median = median(ms);
        r.ms_min = ms.empty() ? NAN : *std::min_element(ms.begin(), ms.end());
        r.ms_max = ms.empty() ? NAN : *std::max_element(ms.begin(), ms.end());
        r.finite = r.nonfinite_step == 0;
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
    const BodyState initial = make_preset(plan.preset, n, plan.seed);
    auto cpu = make_solver("cpu");
    Stepper ref_run(initial, false);
    const std::string ref_problem = run_checked(ref_run, *cpu, plan.params);
    const BodyState ref = ref_run.state();
    for (const SolverPlan& sp : plan.solvers) {
      if (sp.info.name == "cpu") continue;  // the reference itself
      for (int block : sp.blocks) {
        auto solver = make_solver(sp.info.name, block);
        Stepper st(initial, solver->on_device());
        const std::string problem = run_checked(st, *solver, plan.params);
        const BodyState got = st.state();
        CompareResult r;
        r.solver = sp.info.name;
        r.config = solver->config();
        r.n = n;
        r.block = shown_block(*solver);
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

}  // namespace orrery::bench
