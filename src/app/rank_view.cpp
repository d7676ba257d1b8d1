// The viewer over MPI ranks (rank_view.h).
#include "rank_view.h"

#include <algorithm>
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

// A body drawn, as it goes to rank 0.
struct Drawn {
  std::uint64_t id;
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
  std::string why;
  if (ranks.rank() == 0) {
    const long long stride = sample_stride(total, draw_max), drawn = (total + stride - 1) / stride;
    try {
      check_host_memory(drawn, k_viewer_host_bytes_per_body + sizeof(Drawn));
    } catch (const InputError& e) {
      why = "--draw-max " + std::to_string(draw_max) + ": rank 0 draws " + std::to_string(drawn) +
            " bodies: " + e.what();
    }
  }
  double bad = why.empty() ? 0.0 : 1.0;
  ranks.max(&bad, 1, "the sample's memory");
  return bad > 0 ? (why.empty() ? std::string("rank 0's sample does not fit") : why) : "";
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
  for (int k = 0; k < steps; ++k) m_run->step();
  if (steps > 0) m_fresh = false;
  if (!m_fresh) gather();
}

void RankView::finish() {
  double command[k_command] = {0.0, 1.0};
  m_ranks.sum(command, k_command, "the viewer's end");
}

double RankView::time() const { return m_run->simulation().time(); }

std::string RankView::describe() const {
  return std::to_string(m_ranks.size()) + " ranks: " + std::to_string(m_total) + " bodies, " +
         (m_stride == 1 ? std::string("all drawn")
                        : "every " + std::to_string(m_stride) + "th drawn (" +
                              std::to_string(m_sample.size()) + ", body k is ID k x " +
                              std::to_string(m_stride) + ")");
}

void RankView::gather() {
  const RankBodies& b = m_run->bodies();
  std::vector<std::uint8_t> mine;
  for (std::size_t i = 0; i < b.ids.size(); ++i) {
    if (b.ids[i] % static_cast<std::uint64_t>(m_stride) != 0) continue;
    const Drawn d{b.ids[i], b.bodies.pos[i], b.bodies.vel[i]};
    const std::size_t at = mine.size();
    mine.resize(at + sizeof d);
    std::memcpy(mine.data() + at, &d, sizeof d);
  }
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(m_ranks.size()));
  send[0] = std::move(mine);
  const auto got = m_ranks.exchange(std::move(send), "the bodies drawn");
  m_fresh = true;
  if (!root()) return;
  // Slot id / stride: the IDs are 0 .. total - 1, each on one rank.
  const std::size_t slots = static_cast<std::size_t>((m_total + m_stride - 1) / m_stride);
  m_sample.pos.assign(slots, Vec4{}), m_sample.vel.assign(slots, Vec4{});
  for (const std::vector<std::uint8_t>& g : got)
    for (std::size_t at = 0; at + sizeof(Drawn) <= g.size(); at += sizeof(Drawn)) {
      Drawn d;
      std::memcpy(&d, g.data() + at, sizeof d);
      const std::size_t slot =
          static_cast<std::size_t>(d.id / static_cast<std::uint64_t>(m_stride));
      if (slot < slots) m_sample.pos[slot] = d.pos, m_sample.vel[slot] = d.vel;
    }
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
  if (!view.root()) {
    view.serve();
    return 0;
  }
  int status = 0;
  try {
    OutputFile screenshot;
    if (!o.screenshot.empty()) screenshot = OutputFile::open(o.screenshot, "--screenshot");
    App app(o, std::move(screenshot), &view);
    status = app.run();
  } catch (const InputError& e) {
    ranks.abort(std::string("error: ") + e.what(), 2);
  } catch (const std::exception& e) {
    ranks.abort(std::string("error: ") + e.what(), 1);
  }
  view.finish();
  std::printf("orrery: over %s; %lld steps, t = %.6g\n", view.describe().c_str(), view.steps(),
              view.time());
  return status;
}

}  // namespace orrery::app
