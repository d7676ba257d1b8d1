// orrery-bench's output: the device header and tables on stdout, and the CSV and JSON files.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "options.h"
#include "runs.h"

namespace orrery::bench {

// Prints the machine (GPU name, SMs, clock, or why there is none), the run's parameters and any
// notes from planning.
void print_header(std::FILE* out, const Plan& plan);

// Prints the table, one row as each result comes in (the config column last: it varies in width).
class TableReporter final : public Reporter {
 public:
  TableReporter(std::FILE* out, const Plan& plan) : m_out(out), m_plan(plan) {}
  void note(const std::string& line) override;
  void timing(const TimingResult& r) override;
  void compare(const CompareResult& r) override;
  void max_n(const MaxNResult& r) override;
  void convergence(const ConvergenceResult& r) override;
  void accuracy(const AccuracyResult& r) override;

 private:
  std::FILE* m_out;
  const Plan& m_plan;
  bool m_timing_header = false, m_compare_header = false, m_max_n_header = false,
       m_convergence_header = false, m_accuracy_header = false;
};

// Write the results into files opened before the run; throw std::runtime_error when the file
// cannot be written.
void write_timing_csv(OutputFile& file, const std::vector<TimingResult>& rows);
void write_compare_csv(OutputFile& file, const std::vector<CompareResult>& rows);
void write_accuracy_csv(OutputFile& file, const std::vector<AccuracyResult>& rows);
void write_convergence_csv(OutputFile& file, const std::vector<ConvergenceResult>& rows);
// --trace: one row per reading of every timed run.
void write_trace_csv(OutputFile& file, const std::vector<TimingResult>& rows);
void write_max_n_csv(OutputFile& file, const std::vector<MaxNResult>& rows);
void write_json(OutputFile& file, const Plan& plan, const std::vector<TimingResult>& timing,
                const std::vector<CompareResult>& compare,
                const std::vector<MaxNResult>& max_n = {});

}  // namespace orrery::bench
