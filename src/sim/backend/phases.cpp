// PhaseTimer: marks at phase boundaries (CUDA events from a reused pool, or clock readings), summed
// per phase when taken.
#include "orrery/phases.h"

#include "orrery/device.h"
#include "stage_ops.h"

namespace orrery {

const char* phase_name(Phase p) {
  // In Phase's order; the assert keeps the two the same length.
  static constexpr const char* k_names[] = {
      "force", "integrate", "force+integrate", "bounds",  "sort",     "build",      "moments",
      "walk",  "grid",      "contacts",        "resolve", "exchange", "diagnostics"};
  static_assert(sizeof k_names / sizeof k_names[0] == k_phase_count);
  const int i = static_cast<int>(p);
  return i >= 0 && i < k_phase_count ? k_names[i] : "?";
}

double PhaseTimes::total() const {
  double t = 0;
  for (double v : ms) t += v;
  return t;
}

struct PhaseTimer::Pool {
  EventPool events;
};

PhaseTimer::PhaseTimer(bool device) : m_device(device) {
  if (device) {
    require_device();
    m_pool = std::make_unique<Pool>();
  }
}

PhaseTimer::~PhaseTimer() = default;

void PhaseTimer::mark(int phase) {
  Mark m;
  m.phase = phase;
  if (m_device)
    m.event = m_pool->events.record();
  else
    m.at = std::chrono::steady_clock::now();
  m_marks.push_back(m);
  m_current = phase;
}

void PhaseTimer::begin(Phase p) {
  if (m_current == static_cast<int>(p)) return;
  mark(static_cast<int>(p));
}

void PhaseTimer::end() {
  if (m_current >= 0) mark(-1);
}

bool PhaseTimer::ready() const {
  if (m_marks.empty() || !m_device) return true;
  return m_pool->events.done(m_marks.back().event);
}

PhaseTimes PhaseTimer::take() {
  end();
  PhaseTimes t;
  if (m_marks.empty()) return t;
  if (m_device) m_pool->events.wait(m_marks.back().event);
  for (std::size_t k = 0; k + 1 < m_marks.size(); ++k) {
    const Mark& a = m_marks[k];
    if (a.phase < 0) continue;
    const Mark& b = m_marks[k + 1];
    t.ms[static_cast<std::size_t>(a.phase)] +=
        m_device ? m_pool->events.elapsed_ms(a.event, b.event)
                 : std::chrono::duration<double, std::milli>(b.at - a.at).count();
  }
  m_marks.clear();
  if (m_device) m_pool->events.clear();
  return t;
}

}  // namespace orrery
