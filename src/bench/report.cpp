// orrery-bench's output: the header and the tables on stdout, CSV and JSON files.
#include "report.h"

#include <omp.h>

#include <cmath>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "orrery/device.h"

namespace orrery::bench {
namespace {

std::string block_text(int block) { return block > 0 ? std::to_string(block) : "-"; }

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

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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

}  // namespace

void print_header(std::FILE* out, const Plan& plan) {
  std::fprintf(out, "GPU: %s\n", device_line().c_str());
  std::fprintf(out, "CPU: %d OpenMP threads (cpu-omp)\n", omp_get_max_threads());
  std::fprintf(out, "preset %s, seed %llu, dt %g, softening %g, damping %g\n",
               to_string(plan.preset), static_cast<unsigned long long>(plan.seed), plan.params.dt,
               plan.params.softening, plan.params.damping);
  if (plan.compare)
    std::fprintf(out,
                 "compare: %d steps from the same state against cpu; pass when the max relative "
                 "position and velocity errors are <= %g\n",
                 k_compare_steps, k_compare_tolerance);
  else
    std::fprintf(out,
                 "timing: median of %d steps after %d warm-up steps (GPU: CUDA events; CPU: "
                 "steady_clock); N^2 interactions per step, %g flops each\n",
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
    std::fprintf(m_out, "%-13s %10s %5s %12s %15s %10s  %s\n", "solver", "N", "block", "ms/step",
                 "interactions/s", "GFLOP/s", "config");
    m_timing_header = true;
  }
  std::string flag;
  if (!r.finite)
    flag = "  [NON-FINITE from step " + std::to_string(r.nonfinite_step) + ", body " +
           std::to_string(r.nonfinite_body) + ": run stopped]";
  std::fprintf(m_out, "%-13s %10d %5s %12.4f %15.4e %10.1f  %s%s\n", r.solver.c_str(), r.n,
               block_text(r.block).c_str(), r.ms_median, r.interactions_per_s(), r.gflops(),
               r.config.c_str(), flag.c_str());
  std::fflush(m_out);
}

void TableReporter::compare(const CompareResult& r) {
  if (!m_compare_header) {
    std::fprintf(m_out, "%-13s %10s %5s %12s %12s %6s  %s\n", "solver", "N", "block", "pos error",
                 "vel error", "result", "config");
    m_compare_header = true;
  }
  std::fprintf(m_out, "%-13s %10d %5s %12.3e %12.3e %6s  %s%s\n", r.solver.c_str(), r.n,
               block_text(r.block).c_str(), r.pos_error, r.vel_error, r.pass() ? "ok" : "FAIL",
               r.config.c_str(), r.problem.empty() ? "" : ("  [" + r.problem + "]").c_str());
  std::fflush(m_out);
}

void write_timing_csv(OutputFile& file, const std::vector<TimingResult>& rows) {
  std::ostringstream f;
  f << "solver,config,n,block,steps,warmup,ms_median,ms_min,ms_max,interactions_per_s,gflops,"
       "finite,nonfinite_step\n";
  for (const TimingResult& r : rows)
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.n << ',' << r.block << ','
      << r.steps << ',' << r.warmup << ',' << json_number(r.ms_median) << ','
      << json_number(r.ms_min) << ',' << json_number(r.ms_max) << ','
      << json_number(r.interactions_per_s()) << ',' << json_number(r.gflops()) << ','
      << (r.finite ? "true" : "false") << ',' << r.nonfinite_step << '\n';
  file.write(f.str());
}

void write_compare_csv(OutputFile& file, const std::vector<CompareResult>& rows) {
  std::ostringstream f;
  f << "solver,config,n,block,steps,pos_error,vel_error,tolerance,pass,problem\n";
  for (const CompareResult& r : rows)
    f << csv_field(r.solver) << ',' << csv_field(r.config) << ',' << r.n << ',' << r.block << ','
      << r.steps << ',' << json_number(r.pos_error) << ',' << json_number(r.vel_error) << ','
      << json_number(k_compare_tolerance) << ',' << (r.pass() ? "true" : "false") << ','
      << csv_field(r.problem) << '\n';
  file.write(f.str());
}

void write_json(OutputFile& file, const Plan& plan, const std::vector<TimingResult>& timing,
                const std::vector<CompareResult>& compare) {
  const DeviceInfo& d = device_info();
  std::ostringstream f;
  f << "{\n  \"tool\": \"orrery-bench\",\n  \"date\": " << json_string(utc_now()) << ",\n";
  f << "  \"mode\": " << json_string(plan.compare ? "compare" : "timing") << ",\n";
  f << "  \"device\": {\"present\": " << (d.present ? "true" : "false")
    << ", \"name\": " << json_string(d.present ? d.name : "") << ", \"sm_count\": " << d.sm_count
    << ", \"clock_mhz\": " << d.clock_mhz << ", \"reason\": " << json_string(d.reason) << "},\n";
  f << "  \"cpu_threads\": " << omp_get_max_threads() << ",\n";
  f << "  \"params\": {\"preset\": " << json_string(to_string(plan.preset))
    << ", \"seed\": " << plan.seed << ", \"dt\": " << json_float(plan.params.dt)
    << ", \"softening\": " << json_float(plan.params.softening)
    << ", \"damping\": " << json_float(plan.params.damping)
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
      << ", \"block\": " << r.block << ", \"ms_median\": " << json_number(r.ms_median)
      << ", \"ms_min\": " << json_number(r.ms_min) << ", \"ms_max\": " << json_number(r.ms_max)
      << ", \"interactions_per_s\": " << json_number(r.interactions_per_s())
      << ", \"gflops\": " << json_number(r.gflops())
      << ", \"finite\": " << (r.finite ? "true" : "false")
      << ", \"nonfinite_step\": " << r.nonfinite_step << "}";
    sep = ",\n    ";
  }
  for (const CompareResult& r : compare) {
    f << sep << "{\"solver\": " << json_string(r.solver)
      << ", \"config\": " << json_string(r.config) << ", \"n\": " << r.n
      << ", \"block\": " << r.block << ", \"steps\": " << r.steps
      << ", \"pos_error\": " << json_number(r.pos_error)
      << ", \"vel_error\": " << json_number(r.vel_error)
      << ", \"tolerance\": " << json_number(k_compare_tolerance)
      << ", \"pass\": " << (r.pass() ? "true" : "false")
      << ", \"problem\": " << json_string(r.problem) << "}";
    sep = ",\n    ";
  }
  f << (timing.empty() && compare.empty() ? "]\n}\n" : "\n  ]\n}\n");
  file.write(f.str());
}

}  // namespace orrery::bench
