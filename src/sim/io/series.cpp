// A run's snapshot series: the pattern's grammar, when an output is due, and writing it.
#include "orrery/series.h"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <exception>

#include "orrery/formats.h"
#include "orrery/input.h"
#include "orrery/output_file.h"

namespace orrery {
namespace {

// How many outputs the constructor looks for before the run (a series never overwrites one).
constexpr int k_outputs_checked = 1000;

// The pattern's one number conversion: where it starts and its text ("%05d"); throws InputError.
struct Conversion {
  std::size_t at = 0, length = 0;
};
Conversion find_conversion(const std::string& pattern, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    return InputError(what + " '" + pattern + "': " + why);
  };
  Conversion c;
  int found = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') continue;
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < pattern.size() && j - i <= 3 && pattern[j] >= '0' && pattern[j] <= '9') ++j;
    if (j >= pattern.size() || pattern[j] != 'd' || j - i > 3)
      throw bad("a '%' must start %d, %Nd or %0Nd (N up to 99), or be %%");
    c = Conversion{i, j + 1 - i};
    ++found;
    i = j;
  }
  if (found != 1)
    throw bad(found == 0 ? "no %d for the output's number (e.g. snapshot_%03d.hdf5)"
                         : "more than one %d");
  return c;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

SeriesPlan parse_series(const std::string& every, const std::string& pattern,
                        const std::string& every_name, const std::string& pattern_name) {
  SeriesPlan p;
  const std::string what = every_name + " '" + every + "'";
  if (every.rfind("time=", 0) == 0) {
    p.every_time = parse_number(every.substr(5), what);
    if (!(p.every_time > 0)) throw InputError(what + ": the interval must be a time > 0");
  } else {
    const std::string steps = every.rfind("steps=", 0) == 0 ? every.substr(6) : every;
    try {
      p.every_steps = parse_integer(steps, what, 1, k_max_series_steps);
    } catch (const InputError&) {
      throw InputError(what + ": give K or steps=K (a whole number of steps >= 1), or time=T");
    }
  }
  if (pattern.empty()) throw InputError(pattern_name + ": empty file pattern");
  find_conversion(pattern, pattern_name);
  p.pattern = pattern;
  p.pattern_name = pattern_name;
  check_save_format(series_file(p, 0), pattern_name);
  return p;
}

std::string series_file(const SeriesPlan& p, int k) {
  const Conversion c = find_conversion(p.pattern, "series");
  char number[32];
  std::snprintf(number, sizeof number, ("%" + p.pattern.substr(c.at + 1, c.length - 1)).c_str(), k);
  std::string out;
  const auto literal = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      out += p.pattern[i];
      if (p.pattern[i] == '%') ++i;  // "%%"
    }
  };
  literal(0, c.at);
  out += number;
  literal(c.at + c.length, p.pattern.size());
  return out;
}

Snapshot snapshot_of(Simulation& sim, const Bodies& b, int block) {
  Snapshot s;
  s.bodies = sim.state(b);
  s.run = sim.run_state();
  s.run.block = block;
  s.types = sim.types();
  s.ids = sim.ids();
  return s;
}

SeriesWriter::SeriesWriter(SeriesPlan plan) : m_plan(std::move(plan)), m_clock(m_plan) {
  check_can_save(series_file(m_plan, 0), m_plan.pattern_name);
  for (int k = 0; k < k_outputs_checked; ++k)
    if (exists(series_file(m_plan, k)))
      throw InputError(m_plan.pattern_name + " '" + m_plan.pattern +
                       "': " + series_file(m_plan, k) +
                       " exists already (a series overwrites no file: choose another pattern "
                       "or folder)");
}

SeriesWriter::~SeriesWriter() {
  if (m_writing.joinable()) m_writing.join();
}

void SeriesWriter::finish() {
  if (m_writing.joinable()) m_writing.join();
  if (m_failed) std::rethrow_exception(m_failed);  // as the write threw it (a full disk: exit 1)
  if (!m_writing_path.empty()) m_last = m_writing_path, ++m_written, m_writing_path.clear();
}

// The state is copied first (the caller's snapshot), while the output before is still being
// written: the run waits only where the disk is slower than the steps between outputs.
void SeriesWriter::write(Snapshot s) {
  const std::string path = series_file(m_plan, m_begun);
  finish();
  if (m_begun > 0 && exists(path))  // made by someone else since the run started
    throw SnapshotError(path + ": exists already; the series stops here (its outputs before " +
                        "it are whole)");
  m_writing_path = path;
  ++m_begun;
  m_writing = std::thread([this, path, s = std::move(s)] {
    try {
      save_snapshot(path, s);
    } catch (...) {
      m_failed = std::current_exception();
    }
  });
}

void SeriesWriter::start(Simulation& sim, const Bodies& b) {
  m_clock.start(sim);
  write(snapshot_of(sim, b, m_plan.block));
  finish();  // output 0 whole before any step: a series that cannot be written is told at once
}

bool SeriesWriter::after_step(Simulation& sim, const Bodies& b) {
  if (!m_clock.due(sim)) return false;
  write(snapshot_of(sim, b, m_plan.block));
  return true;
}

void SeriesClock::start(const Simulation& sim) {
  m_step0 = sim.step_count();
  m_time0 = sim.time();
  m_elapsed = 0;
  m_next = 1;
}

bool SeriesClock::due(const Simulation& sim) {
  if (m_every_steps > 0) return (sim.step_count() - m_step0) % m_every_steps == 0;
  const double elapsed = std::fabs(sim.time() - m_time0);
  const double half_step = 0.5 * (elapsed - m_elapsed);
  m_elapsed = elapsed;
  const double T = m_every_time;
  if (elapsed < static_cast<double>(m_next) * T - half_step) return false;
  m_next = static_cast<long long>(std::floor((elapsed + half_step) / T)) + 1;
  return true;
}

}  // namespace orrery
