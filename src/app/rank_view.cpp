// The viewer over MPI ranks (rank_view.h).
#include "rank_view.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

#include "app.h"
#include "orrery/host_memory.h"
#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/output_file.h"
#include "orrery/presets.h"

namespace orrery::app {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A body drawn, as it goes to rank 0: its place in the sample (its ID / the stride).
struct Drawn {
  std::uint64_t slot;
  Vec4 pos, vel;
};

// Every rank's first and only line of a refusal is rank 0's: the others return the same status.
int refuse(const Ranks& ranks, const std::string& line) {
  if (ranks.rank() == 0) std::fprintf(stderr, "orrery: error: %s\n", line.c_str());
  return 2;
}

// The least stride that keeps the bodies drawn under draw_max.
long long sample_stride(long long total, long long draw_max) {
  return std::max(1LL, (total + draw_max - 1) / std::max(draw_max, 1LL));
}

// Rank 0 holds the sample as the one-process viewer holds its bodies, and the rows it gathers;
// its host is asked before anything is drawn (collective). Empty when it fits.
std::string sample_too_large(Ranks& ranks, long long total, long long draw_max) {
  try {
    ranks.on_root("the sample's memory", [&] {
      const long long stride = sample_stride(total, draw_max),
                      drawn = (total + stride - 1) / stride;
      try {
        check_host_memory(drawn, k_viewer_host_bytes_per_body + sizeof(Drawn));
      } catch (const InputError& e) {
        throw InputError("--draw-max " + std::to_string(draw_max) + ": rank 0 draws " +
                         std::to_string(drawn) + " bodies: " + e.what());
      }
    });
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

RankView::RankView(Ranks& ranks, std::unique_ptr<RankRun> run, long long total, long long draw_max)
    : m_ranks(ranks),
      m_run(std::move(run)),
      m_total(total),
      m_stride(sample_stride(total, draw_max)) {}

void RankView::frame(int steps, const SimParams& p) {
  double command[k_command] = {
      static_cast<double>(std::max(steps, 0)), 0.0, p.dt, p.softening, p.damping, p.theta};
  m_ranks.sum(command, k_command, "the viewer's frame");  // the others add zeros
  run_frame(command);
}

void RankView::serve() {
  for (;;) {
    double command[k_command] = {};
    m_ranks.sum(command, k_command, "the viewer's frame");
    if (command[1] > 0) return;
    run_frame(command);
  }
}

void RankView::run_frame(const double* command) {
  Simulation& sim = m_run->simulation();
  SimParams p = sim.params();
  p.dt = command[2], p.softening = static_cast<float>(command[3]);
  p.damping = static_cast<float>(command[4]), p.theta = static_cast<float>(command[5]);
  if (p != sim.params()) sim.set_params(p);  // rank 0's panel checked them
  const int steps = static_cast<int>(command[0]);
  const auto t0 = Clock::now();
  double work = 0.0;  // this rank's interactions, then every rank's
  for (int k = 0; k < steps; ++k) {
    m_run->step();
    work += m_run->solver().interactions(m_run->size());
    if (m_series) m_series->after_step();
  }
  if (steps > 0) {
    m_ranks.sum(&work, 1, "the frame's interactions");
    m_interactions = work;
    m_fresh = false, ++m_frames, m_step_ms += ms_since(t0);
  }
  if (!m_fresh) gather();
}

void RankView::finish() {
  double command[k_command] = {0.0, 1.0};
  m_ranks.sum(command, k_command, "the viewer's end");
}

void RankView::write_series(const SeriesPlan& plan) {
  m_series = std::make_unique<RankSeries>(*m_run, plan);
}

void RankView::close_outputs(const std::string& save) {
  if (m_series) {
    m_series->finish();
    if (root())
      std::printf("orrery: series: %d outputs, the last %s\n", m_series->written(),
                  m_series->last_file().c_str());
  }
  if (save.empty()) return;
  m_run->save(save);
  if (root()) std::printf("orrery: saved %s (%lld bodies)\n", save.c_str(), m_total);
}

double RankView::time() const { return m_run->simulation().time(); }

std::string RankView::describe() const {
  return std::to_string(m_ranks.size()) + " ranks: " + std::to_string(m_total) + " bodies, " +
         (m_stride == 1 ? std::string("all drawn")
                        : "every " + std::to_string(m_stride) + "th drawn (" +
                              std::to_string(m_sample.size()) + ", body k is ID k x " +
                              std::to_string(m_stride) + ")");
}

std::string RankView::timings() const {
  if (m_frames == 0) return "no frame stepped";
  char line[160];
  const double f = static_cast<double>(m_frames), g = static_cast<double>(std::max(m_gathers, 1LL));
  std::snprintf(line, sizeof line,
                "a frame: steps %.1f ms, bodies fetched %.1f ms, sample sent %.1f ms (rank 0)",
                m_step_ms / f, m_fetch_ms / g, m_send_ms / g);
  return line;
}

void RankView::gather() {
  auto t0 = Clock::now();
  const RankBodies& b = m_run->bodies();
  m_fetch_ms += ms_since(t0);
  t0 = Clock::now();
  // This rank's bodies drawn change only when a rebalance moves bodies: their rows are kept.
  if (m_rows_of != m_run->rebalances() || m_rows_n != b.ids.size()) {
    m_rows.clear(), m_slots.clear();
    const auto stride = static_cast<std::uint64_t>(m_stride);
    for (std::size_t i = 0; i < b.ids.size(); ++i)
      if (b.ids[i] % stride == 0) m_rows.push_back(i), m_slots.push_back(b.ids[i] / stride);
    m_rows_of = m_run->rebalances(), m_rows_n = b.ids.size();
  }
  // Rank 0 places its own bodies straight into the sample; the others pack theirs for it.
  const std::size_t slots = static_cast<std::size_t>((m_total + m_stride - 1) / m_stride);
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(m_ranks.size()));
  if (root()) {
    m_sample.pos.assign(slots, Vec4{}), m_sample.vel.assign(slots, Vec4{});
    for (std::size_t k = 0; k < m_rows.size(); ++k)
      if (m_slots[k] < slots)
        m_sample.pos[m_slots[k]] = b.bodies.pos[m_rows[k]],
        m_sample.vel[m_slots[k]] = b.bodies.vel[m_rows[k]];
  } else {
    std::vector<std::uint8_t>& mine = send[0];
    mine.resize(sizeof(Drawn) * m_rows.size());
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
      const std::size_t i = m_rows[k];
      const Drawn d{m_slots[k], b.bodies.pos[i], b.bodies.vel[i]};
      std::memcpy(mine.data() + k * sizeof d, &d, sizeof d);
    }
  }
  const auto got = m_ranks.exchange(std::move(send), "the bodies drawn");
  m_fresh = true;
  if (!root()) return;
  for (const std::vector<std::uint8_t>& g : got)  // the IDs are 0 .. total - 1, each on one rank
    for (std::size_t at = 0; at + sizeof(Drawn) <= g.size(); at += sizeof(Drawn)) {
      Drawn d;
      std::memcpy(&d, g.data() + at, sizeof d);
      if (d.slot < slots) m_sample.pos[d.slot] = d.pos, m_sample.vel[d.slot] = d.vel;
    }
  m_send_ms += ms_since(t0);
  ++m_gathers;
}

int run_over_ranks(const Options& o) {
  Ranks& ranks = Ranks::world();
  const int p = ranks.size();
  if (o.n < p) return refuse(ranks, too_few_bodies(o.n, p));
  const std::string sample = sample_too_large(ranks, o.n, o.draw_max);
  if (!sample.empty()) return refuse(ranks, sample);
  const bool gpu = o.solver == "cuda-bh";
  if (gpu) {
    try {  // before anything is allocated on a GPU
      DistributedBh::bind_gpus(ranks);
    } catch (const InputError& e) {
      return refuse(ranks, e.what());
    }
  }
  std::unique_ptr<RankRun> run;
  try {
    const Preset preset = parse_preset(o.preset);
    RankBodies mine;
    if (drawn_one_by_one(preset)) {  // each rank draws its own part: none holds the whole
      mine = draw_part(ranks, preset, o.n, o.seed);
    } else {  // every rank makes the whole state and keeps its share
      mine = share_of(ranks, make_preset(preset, o.n, o.seed));
    }
    if (o.scene.radius) set_radius(mine.bodies.vel, *o.scene.radius);
    run = std::make_unique<RankRun>(ranks, std::move(mine), gpu, parse_integrator(o.integrator),
                                    o.params, o.rebalance_every);
  } catch (const InputError& e) {  // the same on every rank
    return refuse(ranks, e.what());
  }
  RankView view(ranks, std::move(run), o.n, o.draw_max);
  if (o.series_plan) {
    try {
      view.write_series(*o.series_plan);
    } catch (const InputError& e) {  // the same on every rank
      return refuse(ranks, e.what());
    }
  }
  if (!view.root()) {
    try {
      view.serve();
    } catch (const InputError&) {  // rank 0 has the same line: it ends the run with it
      view.serve();
    }
    try {
      view.close_outputs(o.save);
    } catch (const InputError& e) {
      return refuse(ranks, e.what());
    }
    return 0;
  }
  int status = 0;
  try {
    OutputFile screenshot;
    if (!o.screenshot.empty()) screenshot = OutputFile::open(o.screenshot, "--screenshot");
    Options shown = o;  // the ranks write the run; the sample rank 0 shows is not written
    shown.save.clear(), shown.series_plan.reset();
    App app(shown, std::move(screenshot), &view);
    status = app.run();
  } catch (const InputError& e) {
    ranks.abort(std::string("error: ") + e.what(), 2);
  } catch (const std::exception& e) {
    ranks.abort(std::string("error: ") + e.what(), 1);
  }
  view.finish();
  std::printf("orrery: over %s; %lld steps, t = %.6g; %s\n", view.describe().c_str(), view.steps(),
              view.time(), view.timings().c_str());
  try {
    view.close_outputs(o.save);
  } catch (const InputError& e) {
    return refuse(ranks, e.what());
  }
  return status;
}

}  // namespace orrery::app
