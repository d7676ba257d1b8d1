// A run over the ranks written as a snapshot series (orrery/distributed.h: RankSeries).
#include <utility>

#include "orrery/distributed.h"

namespace orrery {

RankSeries::RankSeries(RankRun& run, const SeriesPlan& plan) : m_run(run), m_clock(plan) {
  Ranks& ranks = Ranks::world();
  ranks.on_root("the series' names", [&] { m_writer = std::make_unique<SeriesWriter>(plan); });
  m_clock.start(m_run.simulation());
  Snapshot s = m_run.snapshot();
  ranks.on_root("the series' first output", [&] {
    m_writer->write(std::move(s));
    m_writer->finish();  // output 0 whole before any step: a series that cannot be written is told
  });
}

RankSeries::~RankSeries() = default;

void RankSeries::after_step() {
  if (!m_clock.due(m_run.simulation())) return;  // the same on every rank: one clock, one dt
  Snapshot s = m_run.snapshot();
  Ranks::world().on_root("the series' output", [&] { m_writer->write(std::move(s)); });
}

void RankSeries::finish() {
  Ranks::world().on_root("the series' last output", [&] { m_writer->finish(); });
}

int RankSeries::written() const { return m_writer ? m_writer->written() : 0; }

std::string RankSeries::last_file() const { return m_writer ? m_writer->last_file() : ""; }

}  // namespace orrery
