// One run over the ranks (orrery/distributed.h: RankRun): a preset drawn a part a rank, the steps
// with a distributed tree's forces, the decompositions by measured work, and the readings summed
// over the ranks. orrery-bench --decompose and Python's orrery.RankRun are both this.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "orrery/distributed.h"
#include "orrery/host_memory.h"
#include "orrery/input.h"
#include "orrery/presets.h"

namespace orrery {

std::string too_few_bodies(long long n, int ranks) {
  return std::to_string(n) + " bodies on " + std::to_string(ranks) +
         " ranks: a decomposed run needs at least one body a rank";
}

RankBodies share_of(const Ranks& ranks, const BodyState& all) {
  RankBodies mine;
  for (int i = ranks.rank(); i < all.size(); i += ranks.size()) {
    mine.bodies.pos.push_back(all.pos[static_cast<std::size_t>(i)]);
    mine.bodies.vel.push_back(all.vel[static_cast<std::size_t>(i)]);
    mine.ids.push_back(static_cast<std::uint64_t>(i));
  }
  return mine;
}

RankBodies draw_part(Ranks& ranks, Preset preset, int n, std::uint64_t seed) {
  const int p = ranks.size(), me = ranks.rank();
  if (n < p) throw InputError(too_few_bodies(n, p));
  RankBodies mine;
  mine.bodies = make_preset_part(preset, n, seed, me, p);
  const long long first = static_cast<long long>(n / p) * me + std::min(me, n % p);
  mine.ids.resize(mine.bodies.pos.size());
  for (std::size_t i = 0; i < mine.ids.size(); ++i)
    mine.ids[i] = static_cast<std::uint64_t>(first) + i;
  double sums[7] = {};  // mass, mass-weighted position and velocity
  for (std::size_t i = 0; i < mine.bodies.pos.size(); ++i) {
    const Vec4 &x = mine.bodies.pos[i], &v = mine.bodies.vel[i];
    sums[0] += x.w;
    sums[1] += x.w * x.x, sums[2] += x.w * x.y, sums[3] += x.w * x.z;
    sums[4] += x.w * v.x, sums[5] += x.w * v.y, sums[6] += x.w * v.z;
  }
  ranks.sum(sums, 7, "the centre of mass");
  if (!(sums[0] > 0)) return mine;
  for (std::size_t i = 0; i < mine.bodies.pos.size(); ++i) {
    Vec4 &x = mine.bodies.pos[i], &v = mine.bodies.vel[i];
    x.x -= static_cast<float>(sums[1] / sums[0]), x.y -= static_cast<float>(sums[2] / sums[0]);
    x.z -= static_cast<float>(sums[3] / sums[0]);
    v.x -= static_cast<float>(sums[4] / sums[0]), v.y -= static_cast<float>(sums[5] / sums[0]);
    v.z -= static_cast<float>(sums[6] / sums[0]);
  }
  return mine;
}

RankRun::RankRun(Ranks& ranks, RankBodies mine, bool gpu, Integrator integrator,
                 const SimParams& params, int rebalance_every)
    : m_ranks(ranks), m_mine(std::move(mine)), m_rebalance_every(rebalance_every) {
  m_last = decompose(m_ranks, m_mine);
  // A refusal is every rank's (the same line on each); any other failure is this rank's alone,
  // and the others would wait for it in the next exchange: it ends the run on every rank.
  try {
    std::unique_ptr<Solver> solver =
        gpu ? DistributedBh::make_device(m_ranks) : DistributedBh::make(m_ranks);
    m_forces = solver.get();
    m_sim = std::make_unique<Simulation>(m_mine.bodies, std::move(solver), integrator, params);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    m_ranks.abort(e.what(), 2);
  }
}

RankRun::~RankRun() = default;

template <typename Fn>
auto RankRun::or_abort(Fn&& fn) -> decltype(fn()) {
  // A GPU that fails (or runs out of memory) throws on its rank alone: unwinding would leave the
  // other ranks waiting on it inside NCCL, and its own NCCL teardown waiting on them.
  try {
    return fn();
  } catch (const std::exception& e) {
    m_ranks.abort(e.what(), 1);
  }
}

void RankRun::rebalance_if_due() {
  or_abort([this] { rebalance(); });
}

void RankRun::rebalance() {
  // One rank has nothing to balance (and would forget its bodies' |a| for nothing).
  if (m_ranks.size() > 1 && m_steps > 0 && m_rebalance_every > 0 &&
      m_steps % m_rebalance_every == 0 && m_balanced_at != m_steps) {
    m_balanced_at = m_steps;
    m_mine.bodies = m_sim->state();
    m_mine.work = DistributedBh::work(*m_forces);
    if (m_mine.work.size() != m_mine.ids.size()) m_mine.work.clear();
    m_last = decompose(m_ranks, m_mine);
    // The same run on other bodies: its clock goes on (set_state() starts a new run at 0).
    RunState progress;
    progress.time = m_sim->time(), progress.steps = m_steps;
    progress.time_reversed = m_sim->time_reversed(), progress.units = m_sim->units();
    m_sim->set_state(m_mine.bodies);
    m_sim->resume(progress);
    DistributedBh::moved(*m_forces);
    ++m_rebalances;
    m_moved += static_cast<double>(m_last.bodies_moved);
    m_worst_balance =
        std::max(m_worst_balance, m_last.work_mean > 0 ? m_last.work_max / m_last.work_mean : 1.0);
  }
}

void RankRun::step() {
  rebalance_if_due();
  or_abort([this] { m_sim->step(1); });
  ++m_steps;
}

Diagnostics RankRun::diagnostics() {
  Diagnostics d = or_abort([this] { return m_sim->measure(); });
  double v[10] = {d.mass,
                  d.kinetic,
                  d.potential,
                  d.momentum.x,
                  d.momentum.y,
                  d.momentum.z,
                  d.angular_momentum.x,
                  d.angular_momentum.y,
                  d.angular_momentum.z,
                  d.momentum_scale};
  m_ranks.sum(v, 10, "the diagnostics");
  d.mass = v[0], d.kinetic = v[1], d.potential = v[2];
  d.momentum = {v[3], v[4], v[5]}, d.angular_momentum = {v[6], v[7], v[8]};
  d.momentum_scale = v[9];
  return d;
}

const RankBodies& RankRun::bodies() {
  or_abort([this] { m_sim->state_into(m_mine.bodies); });
  return m_mine;
}

namespace {

// A body on its way to rank 0's snapshot.
struct Row {
  std::uint64_t id;
  Vec4 pos, vel;
};

}  // namespace

Snapshot RankRun::snapshot() {
  const RankBodies& mine = bodies();
  double total = static_cast<double>(mine.ids.size());
  m_ranks.sum(&total, 1, "the snapshot's bodies");
  const auto n = static_cast<std::size_t>(total);
  m_ranks.on_root("the snapshot's room", [n] {
    try {  // the rows as MPI lands them and as the exchange returns them, then in ID order
      check_host_memory(static_cast<long long>(n), 2 * sizeof(Row) + 2 * sizeof(Vec4) + 8);
    } catch (const InputError& e) {
      throw InputError(std::string("a snapshot of the run: rank 0 gathers every body: ") +
                       e.what());
    }
  });
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(m_ranks.size()));
  std::vector<std::uint8_t>& rows = send[0];
  rows.resize(sizeof(Row) * mine.ids.size());
  for (std::size_t i = 0; i < mine.ids.size(); ++i) {
    const Row r{mine.ids[i], mine.bodies.pos[i], mine.bodies.vel[i]};
    std::memcpy(rows.data() + i * sizeof r, &r, sizeof r);
  }
  const auto got = m_ranks.exchange(std::move(send), "the snapshot's bodies");
  Snapshot s;
  if (m_ranks.rank() != 0) return s;
  s.bodies.pos.resize(n), s.bodies.vel.resize(n), s.ids.resize(n);
  std::vector<bool> placed(n, false);
  for (const std::vector<std::uint8_t>& g : got)
    for (std::size_t at = 0; at + sizeof(Row) <= g.size(); at += sizeof(Row)) {
      Row r;
      std::memcpy(&r, g.data() + at, sizeof r);
      // The IDs are 0 .. N - 1, each on one rank: anything else is a bug, not bad input.
      if (r.id >= n || placed[r.id]) throw std::logic_error("RankRun::snapshot: IDs not 0..N-1");
      placed[r.id] = true;
      s.bodies.pos[r.id] = r.pos, s.bodies.vel[r.id] = r.vel, s.ids[r.id] = r.id;
    }
  s.run = m_sim->run_state();
  return s;
}

void RankRun::save(const std::string& path) {
  const Snapshot s = snapshot();
  m_ranks.on_root("the snapshot's writing", [&] { save_snapshot(path, s); });
}

}  // namespace orrery
