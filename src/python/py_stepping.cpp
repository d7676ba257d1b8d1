// Stepping from Python: steps in short runs with the GIL released between looks at Ctrl-C, the
// interpreter's exit and an integrate() call's progress reports.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "orrery/runner.h"
#include "py_simulation.h"
#include "values.h"

namespace orrery::python {
namespace {

// A series' output that could not be written (the place, the disk, a file in the way).
struct SeriesFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A call steps in runs of about this long between looks at Ctrl-C.
constexpr double k_chunk_s = 0.05;
// How often progress is told: a line on stderr, or the caller's function.
constexpr double k_print_every_s = 2.0, k_call_every_s = 1.0;

}  // namespace

PySimulation::Progress::Progress(const py::object& how, double target)
    : m_call(py::isinstance<py::bool_>(how) ? py::none() : how),
      m_target(target),
      m_start(std::chrono::steady_clock::now()),
      m_last(m_start) {}

void PySimulation::Progress::report(PySimulation& sim) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - m_last).count();
  if (since < (m_call.is_none() ? k_print_every_s : k_call_every_s)) return;
  m_last = now;
  const double time = sim.time();
  if (!m_call.is_none()) {
    m_call(time, m_target, sim.steps());  // its exception ends the call, the state whole
    return;
  }
  const double run = std::chrono::duration<double>(now - m_start).count();
  std::fprintf(stderr, "orrery: integrate: t = %.6g of %.6g, step %lld, %.0f s\n", time, m_target,
               sim.steps(), run);
}

// Steps in runs of about k_chunk_s, each ending with the device idle (its phases taken), so
// Ctrl-C is seen between runs and the pending GPU work stays short.
void PySimulation::run_steps(long long k, std::optional<double> until, Progress* progress) {
  if (k < 0) throw InputError("k=" + std::to_string(k) + ": must be >= 0");
  m_last_steps = 0;
  m_last_seconds = m_last_interactions = 0;
  m_last_phases = PhaseTimes{};
  long long chunk = 1;
  while (m_last_steps < k && !(until && m_sim->time() >= *until)) {
    const int now = static_cast<int>(std::min<long long>(chunk, k - m_last_steps));
    RunResult r;
    double seconds = 0;
    {
      py::gil_scoped_release free;
      const auto t0 = std::chrono::steady_clock::now();
      RunPlan plan;
      plan.steps = now;
      plan.phases = PhaseCollection::whole;
      plan.until = until;
      if (m_series) {
        // An output is written only of a finite state (one save() and --load take): the run
        // stops at a step that leaves a non-finite value, and the caller's check names it.
        plan.finite = FiniteCheck::every_step;
        plan.after_step = [this](Simulation& sim, const Bodies& b) {
          try {
            m_series->after_step(sim, b);
          } catch (const std::bad_alloc&) {
            throw;
          } catch (const std::exception& e) {
            throw SeriesFailure(e.what());
          }
        };
      }
      try {
        r = Runner::run(*m_sim, plan);
      } catch (const std::bad_alloc&) {
        py::gil_scoped_acquire held;
        PyErr_SetString(PyExc_MemoryError,
                        ("out of host memory in step " + std::to_string(m_sim->step_count() + 1) +
                         " (" + std::to_string(n()) + " bodies, " + m_solver +
                         "): the state is that of the last whole step; fewer bodies, or a "
                         "solver that needs less (cpu-omp, or a GPU solver), may fit")
                            .c_str());
        throw py::error_already_set();
      }
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    m_last_steps += r.steps;
    m_last_seconds += seconds;
    if (!r.finite()) break;  // a series' run (FiniteCheck::every_step): check_finite() tells
    m_last_interactions += r.interactions;
    for (int p = 0; p < k_phase_count; ++p) m_last_phases.ms[p] += r.phases.ms[p];
    if (seconds < 0.5 * k_chunk_s)
      chunk = std::min<long long>(chunk * 2, 1 << 20);
    else if (seconds > 2 * k_chunk_s)
      chunk = std::max<long long>(chunk / 2, 1);
    if (progress) progress->report(*this);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // KeyboardInterrupt
    if (stopping_runs()) {  // the interpreter is exiting: a worker thread's run ends here
      PyErr_SetString(PyExc_SystemExit,
                      "the interpreter is exiting: the run stopped between steps");
      throw py::error_already_set();
    }
  }
}

void PySimulation::check_finite() {
  const long long bad = m_sim->first_nonfinite(m_sim->bodies());
  if (bad < 0) return;
  const Simulation::BodyReading b = m_sim->read_body(m_sim->bodies(), static_cast<int>(bad));
  throw std::runtime_error("the state became non-finite by step " +
                           std::to_string(m_sim->step_count()) + " (body " + std::to_string(bad) +
                           ": " + nonfinite_parts(b.pos, b.vel) +
                           "); a smaller dt or a larger softening may hold it");
}

void PySimulation::step(long long k) {
  run_steps(k);
  check_finite();
}

namespace {

// save_every's Python forms as --save-every's text: an int is steps, a float an interval of time.
std::string series_text(const py::object& v) {
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::bool_>(v))
    throw py::type_error("save_every: expected steps (an int), a time (a float) or a text");
  if (py::isinstance<py::int_>(v))
    return std::to_string(python::as_integer(v, "save_every", 1, k_max_series_steps));
  if (py::isinstance<py::float_>(v))
    return "time=" + number_text(python::as_number(v, "save_every"));
  throw py::type_error("save_every: expected steps (an int), a time (a float) or a text");
}

}  // namespace

void PySimulation::integrate(double t, bool exact, const py::object& progress,
                             const py::object& save_every, const py::object& pattern) {
  std::optional<SeriesWriter> series;
  if (save_every.is_none()) {
    if (!pattern.is_none()) throw InputError("pattern: names a series' files: give save_every too");
  } else {
    const std::string name =
        pattern.is_none() ? std::string(k_default_series_pattern) : pattern.cast<std::string>();
    SeriesPlan sp = parse_series(series_text(save_every), name, "save_every", "pattern");
    sp.block = m_block_asked;
    series.emplace(sp);
  }
  if (series) series->start(*m_sim, m_sim->bodies());
  struct Forget {
    SeriesWriter*& slot;
    ~Forget() { slot = nullptr; }
  } forget{m_series};
  m_series = series ? &*series : nullptr;
  try {
    integrate_to(t, exact, progress);
    if (series) {  // the last output, written behind the steps
      py::gil_scoped_release free;
      try {
        series->finish();
      } catch (const std::exception& e) {
        throw SeriesFailure(e.what());
      }
    }
  } catch (const SeriesFailure& e) {  // an OSError, as save()'s
    PyErr_SetString(PyExc_OSError, (std::string(e.what()) + "; the run stopped at step " +
                                    std::to_string(m_sim->step_count()) + ", its last output " +
                                    series->last_file())
                                       .c_str());
    throw py::error_already_set();
  }
}

void PySimulation::integrate_to(double t, bool exact, const py::object& progress) {
  if (!std::isfinite(t)) throw InputError("t: must be a finite time");
  const double now = m_sim->time();
  const bool back = m_sim->time_reversed();
  const double span = back ? now - t : t - now;
  if (span < 0)
    throw InputError("t=" + number_text(t) + ": " + (back ? "after" : "before") +
                     " the current time " + number_text(now) +
                     (back ? " while time runs backwards" : " (time_reversed runs backwards)"));
  std::optional<Progress> report;
  if (!progress.is_none() && !(py::isinstance<py::bool_>(progress) && !progress.cast<bool>())) {
    if (!py::isinstance<py::bool_>(progress) && !PyCallable_Check(progress.ptr()))
      throw py::type_error("progress: expected True, False, None or a callable(time, t, steps)");
    report.emplace(progress, t);
  }
  Progress* tell = report ? &*report : nullptr;
  if (m_sim->params().adaptive) {
    // Adaptive steps until the time reaches t; with exact, the last one shortened to land on it.
    if (exact) m_sim->set_stop_time(t);
    try {
      run_steps(std::numeric_limits<long long>::max(), t, tell);
    } catch (...) {
      m_sim->set_stop_time(std::nullopt);
      throw;
    }
    m_sim->set_stop_time(std::nullopt);
    check_finite();
    return;
  }
  const double dt = m_sim->fixed_step();
  // Whole steps up to t; a remainder below a millionth of dt counts as none.
  const double whole = std::floor(span / dt + 1e-6);
  const double rest = span - whole * dt;
  if (whole > 1e15) throw InputError("t=" + number_text(t) + ": more than 1e15 steps away");
  const bool shorten = exact && rest > 1e-6 * dt;
  const long long k = static_cast<long long>(whole) + (!exact && rest > 1e-6 * dt ? 1 : 0);
  run_steps(k, std::nullopt, tell);
  const long long steps = m_last_steps;
  const double seconds = m_last_seconds, interactions = m_last_interactions;
  const PhaseTimes phases = m_last_phases;
  if (shorten) {
    SimParams p = m_sim->params();
    const SimParams keep = p;
    p.dt = back ? m_sim->time() - t : t - m_sim->time();
    if (p.dt > 0.0) {
      m_sim->set_params(p);
      try {
        run_steps(1);
      } catch (...) {
        m_sim->set_params(keep);
        throw;
      }
      m_sim->set_params(keep);
    }
    m_last_steps += steps;
    m_last_seconds += seconds;
    m_last_interactions += interactions;
    for (int i = 0; i < k_phase_count; ++i) m_last_phases.ms[i] += phases.ms[i];
  }
  check_finite();
}

namespace {
std::atomic<bool> g_stop_runs{false};
}  // namespace

void stop_runs() { g_stop_runs = true; }
bool stopping_runs() { return g_stop_runs.load(std::memory_order_relaxed); }

}  // namespace orrery::python
