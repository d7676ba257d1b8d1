// orrery-bench's output: the header and the tables on stdout, CSV and JSON files.
#include "report.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "orrery/device.h"
#include "orrery/output_file.h"
#include "orrery/param_table.h"
#include "orrery/simd.h"

namespace orrery::bench {
namespace {

std::string block_text(int block) { return block > 0 ? std::to_string(block) : "-"; }
// "cuda-fast", or "cuda-fast x2" spread over two GPUs.
std::string solver_text(const std::string& solver, int gpus) {
  return gpus > 1 ? solver + " x" + std::to_string(gpus) : solver;
}

std::string device_line() {
  const DeviceInfo& d = device_info();
  if (!d.present) return d.reason;  // begins "no CUDA device: "
  std::ostringstream s;
  s.precision(1);
  s << d.name << ", " << d.sm_count << " SMs, " << d.clock_mhz << " MHz, compute " << d.cc_major
    << "." << d.cc_minor << ", " << std::fixed << d.total_mem / (1024.0 * 1024.0 * 1024.0)
    << " GiB";
  return s.str();
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string json_string(const std::string& s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      q += buf;
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// A float parameter as the user wrote it (7 significant digits), not its double widening.
std::string json_float(float v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

// The plain parameter rows but the sweep's (each run has its own): ', "name": value' each.
std::string plain_params_json(const SimParams& p) {
  std::string s;
  for (const ParamRow* r : param_rows(ParamForm::plain))
    if (!r->sweep) s += ", " + json_string(r->name) + ": " + json_float(r->get(p));
  return s;
}

// The phases a timing row shows under --phases: the step's, and the tree codes' stages when a
// tree code runs.
std::vector<Phase> step_phases(const Plan& plan) {
  std::vector<Phase> v = {Phase::force_integrate, Phase::force, Phase::integrate};
  for (const SolverPlan& s : plan.solvers)
    if (s.info.approximate) {
      for (Phase p : {Phase::bounds, Phase::sort, Phase::build, Phase::moments, Phase::walk})
        v.push_back(p);
      break;
    }
  const CollisionParams& c = plan.params.collisions;
  if (c.mode != CollisionMode::off || c.box > 0.0f)
    for (Phase p : {Phase::grid, Phase::contacts, Phase::resolve}) v.push_back(p);
  for (const SolverPlan& s : plan.solvers)
    if (std::any_of(s.gpus.begin(), s.gpus.end(), [](int g) { return g > 1; })) {
      v.push_back(Phase::exchange);
      break;
    }
  return v;
}

// The sweep row's value, "0.5", or "-" for a solver that does not read it.
std::string swept_text(float value) {
  if (std::isnan(value)) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(value));
  return buf;
}

// The sweep row's name, for the tables' and files' column ("theta").
std::string swept_name() { return sweep_row().name; }

std::string vec_json(const Vec3d& v) {
  return "[" + json_number(v.x) + ", " + json_number(v.y) + ", " + json_number(v.z) + "]";
}

std::string diagnostics_json(const Diagnostics& d) {
  return "{\"kinetic\": " + json_number(d.kinetic) +
         ", \"potential\": " + json_number(d.potential) + ", \"total\": " + json_number(d.total()) +
         ", \"virial\": " + json_number(d.virial()) + ", \"momentum\": " + vec_json(d.momentum) +
         ", \"angular_momentum\": " + vec_json(d.angular_momentum) +
         ", \"centre_of_mass\": " + vec_json(d.centre_of_mass) +
         ", \"momentum_scale\": " + json_number(d.momentum_scale) +
         ", \"ms\": " + json_number(d.ms) + "}";
}

}  // namespace

void print_header(std::FILE* out, const Plan& plan) {
  std::fprintf(out, "GPU: %s\n", device_line().c_str());
  std::fprintf(out, "CPU: %d OpenMP threads, SIMD %s (of %s)\n", omp_get_max_threads(),
               simd_level().c_str(), join(simd_levels()).c_str());
  if (plan.loaded)
    std::fprintf(out, "loaded: %s snapshot, %d bodies, step %lld, time %.9g%s\n",
                 to_string(plan.loaded->format), plan.loaded->bodies.size(), plan.loaded->run.steps,
                 plan.loaded->run.time,
                 plan.loaded->run_recorded ? "" : " (no run settings: the options' apply)");
  if (plan.loaded) {
    std::fprintf(out, "units: %s\n", describe(plan.loaded->run.units).c_str());
    const std::string caveat = cosmology_caveat(plan.loaded->run.units);
    if (!caveat.empty()) std::fprintf(out, "note: %s\n", caveat.c_str());
  } else if (plan.preset_units.henon || plan.preset_units.units.physical()) {
    std::fprintf(out, "units: %s%s\n", describe(plan.preset_units.units).c_str(),
                 plan.preset_units.henon ? ", the preset rescaled to Henon's" : "");
  }
  if (!plan.convergence) {
    char dt[96];
    if (plan.params.adaptive)
      std::snprintf(dt, sizeof dt, "dt auto (eta %g, at most %g)", plan.params.eta, plan.params.dt);
    else
      std::snprintf(dt, sizeof dt, "dt %g", plan.params.dt);
    std::fprintf(out, "preset %s, seed %llu, integrator %s, %s, %s%s\n",
                 plan.loaded ? "(--load)" : to_string(plan.preset),
                 static_cast<unsigned long long>(plan.seed), to_string(plan.integrator), dt,
                 plain_params_text(plan.params, false).c_str(),
                 plan.params.precision == Precision::double_ ? ", precision double" : "");
  }
  const CollisionParams& c = plan.params.collisions;
  if (!plan.convergence && (!plan.params.gravity || c.mode != CollisionMode::off || c.box > 0))
    std::fprintf(out, "gravity %s, collisions %s, restitution %g, walls %s%s\n",
                 plan.params.gravity ? "on" : "off", to_string(c.mode), c.restitution,
                 c.box > 0 ? "box " : "none", c.box > 0 ? std::to_string(c.box).c_str() : "");
  if (plan.accuracy)
    std::fprintf(out,
                 "accuracy: |a - a_exact| / |a_exact| of one acceleration pass against a double "
                 "sum, at every body up to N = 131072, at 8192 sampled bodies above\n");
  else if (plan.convergence)
    std::fprintf(out,
                 "convergence: two bodies on a Kepler orbit of eccentricity 0.5 (period 2 pi), "
                 "started at true anomaly 1 rad; the relative position error after one period, "
                 "over the semi-major axis (softening 1e-6)\n");
  else if (plan.max_n_fps > 0)
    std::fprintf(out,
                 "max-n: the largest N whose median step (of %d after %d warm-up) takes at most "
                 "1/%g s: doubling from 1024, then bisection to within 5%%\n",
                 plan.steps, plan.warmup, plan.max_n_fps);
  else if (plan.compare)
    std::fprintf(out,
                 "compare: %d steps from the same state against cpu; pass when the max relative "
                 "position and velocity errors are <= %g\n",
                 k_compare_steps, k_compare_tolerance);
  else
    std::fprintf(out,
                 "timing: median of %d steps after %d warm-up steps (GPU: CUDA events; CPU: "
                 "steady_clock); interactions per step from the solver (all-pairs: N^2 "
                 "per force evaluation), %g flops each\n",
                 plan.steps, plan.warmup, k_flops_per_interaction);
  for (const std::string& line : plan.notes) std::fprintf(out, "%s\n", line.c_str());
  std::fflush(out);
}

void TableReporter::note(const std::string& line) {
  std::fprintf(m_out, "%s\n", line.c_str());
  std::fflush(m_out);
}

void TableReporter::timing(const TimingResult& r) {
  if (!m_timing_header) {
    std::fprintf(m_out, "%-13s %10s %5s %12s %15s %10s", "solver", "N", "block", "ms/step",
                 "interactions/s", "GFLOP/s");
    if (m_plan.phases)
      for (Phase p : step_phases(m_plan)) std::fprintf(m_out, " %15s", phase_name(p));
    if (m_plan.diagnostics)
      std::fprintf(m_out, " %11s %11s %11s %8s %9s", "dE/|E0|", "|dP|/scale", "|dL|/|L0|", "2K/|W|",
                   "diag ms");
    std::fprintf(m_out, "  config\n");
    m_timing_header = true;
  }
  std::string flag;
  if (!r.finite)
    flag = "  [NON-FINITE from step " + std::to_string(r.nonfinite_step) + ", body " +
           std::to_string(r.nonfinite_body) + ": run stopped]";
  std::fprintf(m_out, "%-13s %10d %5s %12.4f %15.4e %10.1f", solver_text(r.solver, r.gpus).c_str(),
               r.n, block_text(r.block).c_str(), r.ms_median, r.interactions_per_s(), r.gflops());
  if (m_plan.phases)
    for (Phase p : step_phases(m_plan))
      std::fprintf(m_out, " %15.4f", r.phase_ms[static_cast<int>(p)]);
  if (m_plan.diagnostics) {
    if (r.start && r.end) {
      const Drift d = drift(*r.start, *r.end);
      std::fprintf(m_out, " %11.3e %11.3e %11.3e %8.4f %9.3f", d.energy, d.momentum,
                   d.angular_momentum, r.end->virial(), r.diagnostics_ms);
    } else {
      std::fprintf(m_out, " %11s %11s %11s %8s %9s", "-", "-", "-", "-", "-");
    }
  }
  std::string contacts;
  if (r.contacts_per_step >= 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " contacts/step %.0f", r.contacts_per_step);
    contacts = buf;
    if (r.bodies_end != r.n) contacts += " bodies left " + std::to_string(r.bodies_end);
  }
  std::string step;
  if (r.sim_time >= 0) {
    char buf[160];
    const int all = r.warmup + r.steps;
    std::snprintf(buf, sizeof buf, " dt auto: t %.6g in %d steps (mean %.3g, next %.3g)",
                  r.sim_time, all, all > 0 ? r.sim_time / all : 0.0, r.next_dt);
    step = buf;
    if (r.floor_hits > 0) step += ", floor held " + std::to_string(r.floor_hits) + " times";
  }
  std::fprintf(m_out, "  %s %s%s%s%s%s\n", r.config.c_str(), r.integrator.c_str(),
               std::isnan(r.swept) ? "" : (" " + swept_name() + " " + swept_text(r.swept)).c_str(),
               contacts.c_str(), step.c_str(), flag.c_str());
  std::fflush(m_out);
}

void TableReporter::accuracy(const AccuracyResult& r) {
  if (!m_accuracy_header) {
    std::fprintf(m_out, "%-13s %-10s %9s %6s %8s %11s %11s %11s %11s %12s  %s\n", "solver",
                 "preset", "N", swept_name().c_str(), "targets", "median", "rms", "p99", "max",
                 "inter./body", "config");
    m_accuracy_header = true;
  }
  const AccuracyStats& a = r.stats;
  std::fprintf(m_out, "%-13s %-10s %9d %6s %8d %11.3e %11.3e %11.3e %11.3e %12.1f  %s\n",
               r.solver.c_str(), r.preset.c_str(), r.n, swept_text(r.swept).c_str(), a.targets,
               a.median, a.rms, a.p99, a.max, a.interactions_per_body, r.config.c_str());
  std::fflush(m_out);
}

void write_accuracy_csv(OutputFile& file, const std::vector<AccuracyResult>& rows) {
  std::ostringstream f;
  f << "solver,config,preset,n," << swept_name()
    << ",targets,median,rms,p99,max,interactions_per_body\n";
  for (const AccuracyResult& r : rows)
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.preset << ',' << r.n << ','
      << json_number(r.swept) << ',' << r.stats.targets << ',' << json_number(r.stats.median) << ','
      << json_number(r.stats.rms) << ',' << json_number(r.stats.p99) << ','
      << json_number(r.stats.max) << ',' << json_number(r.stats.interactions_per_body) << '\n';
  file.write(f.str());
}

void TableReporter::convergence(const ConvergenceResult& r) {
  if (!m_convergence_header) {
    std::fprintf(m_out, "%-13s %-10s %10s %12s %14s\n", "solver", "integrator", "steps/orbit", "dt",
                 "period error");
    m_convergence_header = true;
  }
  std::fprintf(m_out, "%-13s %-10s %10d %12.5g %14.4e\n", r.solver.c_str(), r.integrator.c_str(),
               r.steps, r.dt, r.error);
  std::fflush(m_out);
}

void write_convergence_csv(OutputFile& file, const std::vector<ConvergenceResult>& rows) {
  std::ostringstream f;
  f << "solver,integrator,steps_per_orbit,dt,period_error\n";
  for (const ConvergenceResult& r : rows)
    f << csv_field(r.solver) << ',' << r.integrator << ',' << r.steps << ',' << json_number(r.dt)
      << ',' << json_number(r.error) << '\n';
  file.write(f.str());
}

void TableReporter::max_n(const MaxNResult& r) {
  if (!m_max_n_header) {
    std::fprintf(m_out, "%-13s %5s %8s %10s %10s %12s %10s  %s\n", "solver", "block", "FPS",
                 "max N", "ms/step", "too slow N", "ms/step", "config");
    m_max_n_header = true;
  }
  char slow_ms[32] = "-";
  if (r.too_slow_n > 0) std::snprintf(slow_ms, sizeof slow_ms, "%.3f", r.too_slow_ms);
  std::fprintf(m_out, "%-13s %5s %8g %10d %10.3f %12s %10s  %s%s\n", r.solver.c_str(),
               block_text(r.block).c_str(), r.fps, r.n, r.ms,
               r.too_slow_n > 0 ? std::to_string(r.too_slow_n).c_str() : "-", slow_ms,
               r.config.c_str(), r.limit.empty() ? "" : ("  [" + r.limit + "]").c_str());
  std::fflush(m_out);
}

void TableReporter::compare(const CompareResult& r) {
  if (!m_compare_header) {
    std::fprintf(m_out, "%-13s %10s %5s %12s %12s %6s  %s\n", "solver", "N", "block", "pos error",
                 "vel error", "result", "config");
    m_compare_header = true;
  }
  std::fprintf(m_out, "%-13s %10d %5s %12.3e %12.3e %6s  %s%s\n",
               solver_text(r.solver, r.gpus).c_str(), r.n, block_text(r.block).c_str(), r.pos_error,
               r.vel_error, r.pass() ? "ok" : "FAIL", r.config.c_str(),
               r.problem.empty() ? "" : ("  [" + r.problem + "]").c_str());
  std::fflush(m_out);
}

void write_timing_csv(OutputFile& file, const std::vector<TimingResult>& rows) {
  std::ostringstream f;
  f << "solver,config,n,block,gpus,steps,warmup,ms_median,ms_min,ms_max,interactions_per_s,"
       "gflops,finite,nonfinite_step,integrator,interactions_per_step";
  for (int p = 0; p < k_phase_count - 1; ++p) f << ",ms_" << phase_name(static_cast<Phase>(p));
  f << ",energy_start,energy_end,energy_drift,momentum_start,momentum_end,momentum_drift,"
       "angular_momentum_start,angular_momentum_end,angular_momentum_drift,virial_end,"
    << swept_name() << "\n";
  for (const TimingResult& r : rows) {
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.n << ',' << r.block << ','
      << r.gpus << ',' << r.steps << ',' << r.warmup << ',' << json_number(r.ms_median) << ','
      << json_number(r.ms_min) << ',' << json_number(r.ms_max) << ','
      << json_number(r.interactions_per_s()) << ',' << json_number(r.gflops()) << ','
      << (r.finite ? "true" : "false") << ',' << r.nonfinite_step << ',' << r.integrator << ','
      << json_number(r.interactions);
    for (int p = 0; p < k_phase_count - 1; ++p) f << ',' << json_number(r.phase_ms[p]);
    if (r.start && r.end) {
      const Drift d = drift(*r.start, *r.end);
      f << ',' << json_number(r.start->total()) << ',' << json_number(r.end->total()) << ','
        << json_number(d.energy) << ',' << json_number(length(r.start->momentum)) << ','
        << json_number(length(r.end->momentum)) << ',' << json_number(d.momentum) << ','
        << json_number(length(r.start->angular_momentum)) << ','
        << json_number(length(r.end->angular_momentum)) << ',' << json_number(d.angular_momentum)
        << ',' << json_number(r.end->virial());
    } else {
      f << ",,,,,,,,,,";
    }
    f << ',' << json_number(r.swept) << '\n';
  }
  file.write(f.str());
}

void write_compare_csv(OutputFile& file, const std::vector<CompareResult>& rows) {
  std::ostringstream f;
  f << "solver,config,n,block,gpus,steps,pos_error,vel_error,tolerance,pass,problem\n";
  for (const CompareResult& r : rows)
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.n << ',' << r.block << ','
      << r.gpus << ',' << r.steps << ',' << json_number(r.pos_error) << ','
      << json_number(r.vel_error) << ',' << json_number(k_compare_tolerance) << ','
      << (r.pass() ? "true" : "false") << ',' << csv_field(r.problem) << '\n';
  file.write(f.str());
}

void write_trace_csv(OutputFile& file, const std::vector<TimingResult>& rows) {
  std::ostringstream f;
  f << "solver,block,integrator,n,step,time,kinetic,potential,total,energy_drift,momentum_drift,"
       "angular_momentum_drift,virial\n";
  for (const TimingResult& r : rows)
    for (const TimingResult::Reading& x : r.trace) {
      const Drift d = drift(r.trace.front().d, x.d);
      f << csv_field(r.solver) << ',' << r.block << ',' << r.integrator << ',' << r.n << ','
        << x.step << ',' << json_number(x.time) << ',' << json_number(x.d.kinetic) << ','
        << json_number(x.d.potential) << ',' << json_number(x.d.total()) << ','
        << json_number(d.energy) << ',' << json_number(d.momentum) << ','
        << json_number(d.angular_momentum) << ',' << json_number(x.d.virial()) << '\n';
    }
  file.write(f.str());
}

void write_max_n_csv(OutputFile& file, const std::vector<MaxNResult>& rows) {
  std::ostringstream f;
  f << "solver,config,block,fps,max_n,ms_per_step,too_slow_n,too_slow_ms,limit\n";
  for (const MaxNResult& r : rows)
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.block << ','
      << json_number(r.fps) << ',' << r.n << ',' << json_number(r.ms) << ',' << r.too_slow_n << ','
      << json_number(r.too_slow_ms) << ',' << csv_field(r.limit) << '\n';
  file.write(f.str());
}

void write_json(OutputFile& file, const Plan& plan, const std::vector<TimingResult>& timing,
                const std::vector<CompareResult>& compare, const std::vector<MaxNResult>& max_n) {
  const DeviceInfo& d = device_info();
  std::ostringstream f;
  f << "{\n  \"tool\": \"orrery-bench\",\n  \"date\": "
    << json_string(clock_text("%Y-%m-%dT%H:%M:%SZ", true)) << ",\n";
  f << "  \"mode\": "
    << json_string(plan.max_n_fps > 0 ? "max-n"
                   : plan.compare     ? "compare"
                                      : "timing")
    << ",\n";
  f << "  \"device\": {\"present\": " << (d.present ? "true" : "false")
    << ", \"name\": " << json_string(d.present ? d.name : "") << ", \"sm_count\": " << d.sm_count
    << ", \"clock_mhz\": " << d.clock_mhz << ", \"reason\": " << json_string(d.reason) << "},\n";
  f << "  \"cpu_threads\": " << omp_get_max_threads() << ",\n";
  f << "  \"params\": {\"preset\": " << json_string(to_string(plan.preset))
    << ", \"seed\": " << plan.seed
    << ", \"integrator\": " << json_string(to_string(plan.integrator))
    << ", \"precision\": " << json_string(to_string(plan.params.precision))
    << ", \"dt\": " << json_float(plan.params.dt)
    << ", \"adaptive\": " << (plan.params.adaptive ? "true" : "false")
    << ", \"eta\": " << json_float(plan.params.eta) << plain_params_json(plan.params)
    << ", \"steps\": " << (plan.compare ? k_compare_steps : plan.steps)
    << ", \"warmup\": " << (plan.compare ? 0 : plan.warmup) << ", \"cpu_max_n\": " << plan.cpu_max_n
    << ", \"flops_per_interaction\": " << json_number(k_flops_per_interaction) << "},\n";
  f << "  \"notes\": [";
  for (std::size_t i = 0; i < plan.notes.size(); ++i)
    f << (i ? ", " : "") << json_string(plan.notes[i]);
  f << "],\n  \"results\": [";
  const char* sep = "\n    ";
  for (const TimingResult& r : timing) {
    f << sep << "{\"solver\": " << json_string(r.solver)
      << ", \"config\": " << json_string(r.config) << ", \"n\": " << r.n
      << ", \"block\": " << r.block << ", \"gpus\": " << r.gpus
      << ", \"ms_median\": " << json_number(r.ms_median)
      << ", \"ms_min\": " << json_number(r.ms_min) << ", \"ms_max\": " << json_number(r.ms_max)
      << ", \"interactions_per_s\": " << json_number(r.interactions_per_s())
      << ", \"gflops\": " << json_number(r.gflops())
      << ", \"finite\": " << (r.finite ? "true" : "false")
      << ", \"nonfinite_step\": " << r.nonfinite_step
      << ", \"integrator\": " << json_string(r.integrator)
      << ", \"interactions_per_step\": " << json_number(r.interactions) << ", "
      << json_string(swept_name()) << ": " << json_number(r.swept) << ", \"phases_ms\": {";
    for (int p = 0; p < k_phase_count - 1; ++p)
      f << (p ? ", " : "") << json_string(phase_name(static_cast<Phase>(p))) << ": "
        << json_number(r.phase_ms[p]);
    f << "}";
    if (r.start && r.end) {
      const Drift d = drift(*r.start, *r.end);
      f << ", \"diagnostics\": {\"start\": " << diagnostics_json(*r.start)
        << ", \"end\": " << diagnostics_json(*r.end)
        << ", \"energy_drift\": " << json_number(d.energy)
        << ", \"momentum_drift\": " << json_number(d.momentum)
        << ", \"angular_momentum_drift\": " << json_number(d.angular_momentum)
        << ", \"ms\": " << json_number(r.diagnostics_ms) << "}";
    }
    if (r.sim_time >= 0)
      f << ", \"adaptive_step\": {\"time\": " << json_number(r.sim_time)
        << ", \"next_dt\": " << json_number(r.next_dt) << ", \"floor_hits\": " << r.floor_hits
        << "}";
    f << "}";
    sep = ",\n    ";
  }
  for (const CompareResult& r : compare) {
    f << sep << "{\"solver\": " << json_string(r.solver)
      << ", \"config\": " << json_string(r.config) << ", \"n\": " << r.n
      << ", \"block\": " << r.block << ", \"gpus\": " << r.gpus << ", \"steps\": " << r.steps
      << ", \"pos_error\": " << json_number(r.pos_error)
      << ", \"vel_error\": " << json_number(r.vel_error)
      << ", \"tolerance\": " << json_number(k_compare_tolerance)
      << ", \"pass\": " << (r.pass() ? "true" : "false")
      << ", \"problem\": " << json_string(r.problem) << "}";
    sep = ",\n    ";
  }
  for (const MaxNResult& r : max_n) {
    f << sep << "{\"solver\": " << json_string(r.solver)
      << ", \"config\": " << json_string(r.config) << ", \"block\": " << r.block
      << ", \"fps\": " << json_number(r.fps) << ", \"max_n\": " << r.n
      << ", \"ms_per_step\": " << json_number(r.ms) << ", \"too_slow_n\": " << r.too_slow_n
      << ", \"too_slow_ms\": " << json_number(r.too_slow_ms)
      << ", \"limit\": " << json_string(r.limit) << "}";
    sep = ",\n    ";
  }
  f << (timing.empty() && compare.empty() && max_n.empty() ? "]\n}\n" : "\n  ]\n}\n");
  file.write(f.str());
}

}  // namespace orrery::bench
