// The ranks of a run over MPI and the decomposition of its bodies (orrery/distributed.h).
#include "orrery/distributed.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numeric>
#include <thread>

#include "orrery/input.h"
#include "orrery/morton.h"

namespace orrery {
namespace {

// Ends the run where an exchange outlives its timeout: a collective has no timeout of its own, and
// a rank that died (or loops) leaves the others waiting in it for ever. The line names the rank
// and the exchange; the exit makes mpirun end the other ranks.
class Watchdog {
 public:
  static Watchdog& get() {
    static Watchdog* w = new Watchdog;  // never destroyed: its thread outlives static destruction
    return *w;
  }
  void arm(int rank, const char* what, double seconds) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_rank = rank, m_what = what, m_seconds = seconds;
    m_deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(seconds));
    m_armed = true;
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_armed = false;
  }

 private:
  Watchdog() {
    std::thread([this] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_armed && std::chrono::steady_clock::now() > m_deadline) {
          std::fprintf(stderr,
                       "orrery: rank %d: the exchange '%s' took more than %g s (a rank stopped "
                       "or hangs): the run ends\n",
                       m_rank, m_what, m_seconds);
          std::fflush(stderr);
          std::_Exit(3);
        }
      }
    }).detach();
  }
  std::mutex m_mutex;
  bool m_armed = false;
  int m_rank = 0;
  const char* m_what = "";
  double m_seconds = 0;
  std::chrono::steady_clock::time_point m_deadline;
};

struct Guard {
  Guard(const Ranks& r, const char* what) { Watchdog::get().arm(r.rank(), what, r.timeout_s()); }
  ~Guard() { Watchdog::get().disarm(); }
};

void finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}

}  // namespace

Ranks::Ranks() {
  int started = 0;
  MPI_Initialized(&started);
  if (!started) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    std::atexit(finalize);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m_size);
  MPI_Comm host;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &host) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(host, &m_local_rank);
    MPI_Comm_size(host, &m_local_size);
    MPI_Comm_free(&host);
  }
  if (const char* t = std::getenv("ORRERY_MPI_TIMEOUT")) {
    char* end = nullptr;
    const double s = std::strtod(t, &end);
    if (end != t && *end == '\0' && s > 0) m_timeout_s = s;
  }
}

Ranks& Ranks::world() {
  static Ranks* w = new Ranks;
  return *w;
}

void Ranks::guarded(const char* what, const std::function<void()>& wait) {
  Guard g(*this, what);
  wait();
}

void Ranks::abort(const std::string& line, int code) {
  std::fprintf(stderr, "orrery: rank %d: %s\n", m_rank, line.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

namespace {

void reduce(Ranks& r, double* v, int n, MPI_Op op, const char* what) {
  Guard g(r, what);
  const int rc = MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, op, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) r.abort(std::string(what) + ": " + mpi_error(rc), 3);
}

int count_of(Ranks& r, std::size_t count, const char* what) {
  if (count > static_cast<std::size_t>(INT_MAX))
    r.abort(std::string(what) + ": " + std::to_string(count) +
                " blocks of an exchange, more than MPI counts: more ranks",
            3);
  return static_cast<int>(count);
}

}  // namespace

void Ranks::sum(double* v, int n, const char* what) { reduce(*this, v, n, MPI_SUM, what); }
void Ranks::min(double* v, int n, const char* what) { reduce(*this, v, n, MPI_MIN, what); }
void Ranks::max(double* v, int n, const char* what) { reduce(*this, v, n, MPI_MAX, what); }

std::vector<std::vector<std::uint8_t>> Ranks::exchange(
    const std::vector<std::vector<std::uint8_t>>& send, const char* what) {
  Guard g(*this, what);
  const std::size_t p = static_cast<std::size_t>(m_size);
  // MPI counts are ints: the bytes go as whole blocks of 64 KiB (a derived type), and what is
  // left of each message (under a block) in a second, small exchange. So a message may be larger
  // than 2 GB (a rank's bodies are, from 130M on).
  constexpr std::size_t k_block = 65536;
  std::vector<std::uint64_t> out_n(p), in_n(p);
  const std::size_t me = static_cast<std::size_t>(m_rank);
  for (std::size_t r = 0; r < p; ++r) out_n[r] = r == me ? 0 : send[r].size();  // own: no MPI
  int rc =
      MPI_Alltoall(out_n.data(), 1, MPI_UINT64_T, in_n.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) abort(std::string(what) + ": " + mpi_error(rc), 3);
  std::vector<int> sb(p), rb(p), sd(p), rd(p), sr(p), rr(p), srd(p), rrd(p);
  std::size_t so = 0, ro = 0, sro = 0, rro = 0;  // blocks, then remainder bytes
  for (std::size_t r = 0; r < p; ++r) {
    sb[r] = count_of(*this, out_n[r] / k_block, what), sd[r] = count_of(*this, so, what);
    rb[r] = count_of(*this, in_n[r] / k_block, what), rd[r] = count_of(*this, ro, what);
    so += static_cast<std::size_t>(sb[r]), ro += static_cast<std::size_t>(rb[r]);
    sr[r] = static_cast<int>(out_n[r] % k_block), srd[r] = count_of(*this, sro, what);
    rr[r] = static_cast<int>(in_n[r] % k_block), rrd[r] = count_of(*this, rro, what);
    sro += static_cast<std::size_t>(sr[r]), rro += static_cast<std::size_t>(rr[r]);
  }
  std::vector<std::uint8_t> out(so * k_block), in(ro * k_block), rest_out(sro), rest_in(rro);
  for (std::size_t r = 0; r < p; ++r) {
    if (r == me) continue;
    const std::size_t whole = static_cast<std::size_t>(sb[r]) * k_block;
    std::copy(send[r].begin(), send[r].begin() + static_cast<std::ptrdiff_t>(whole),
              out.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(sd[r]) * k_block));
    std::copy(send[r].begin() + static_cast<std::ptrdiff_t>(whole), send[r].end(),
              rest_out.begin() + srd[r]);
  }
  MPI_Datatype block;
  MPI_Type_contiguous(static_cast<int>(k_block), MPI_BYTE, &block);
  MPI_Type_commit(&block);
  rc = MPI_Alltoallv(out.data(), sb.data(), sd.data(), block, in.data(), rb.data(), rd.data(),
                     block, MPI_COMM_WORLD);
  MPI_Type_free(&block);
  if (rc == MPI_SUCCESS)
    rc = MPI_Alltoallv(rest_out.data(), sr.data(), srd.data(), MPI_BYTE, rest_in.data(), rr.data(),
                       rrd.data(), MPI_BYTE, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) abort(std::string(what) + ": " + mpi_error(rc), 3);
  out = std::vector<std::uint8_t>();
  std::vector<std::vector<std::uint8_t>> got(p);
  for (std::size_t r = 0; r < p; ++r) {
    if (r == me) {
      got[r] = send[r];
      continue;
    }
    const auto at =
        in.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(rd[r]) * k_block);
    got[r].reserve(in_n[r]);
    got[r].assign(at, at + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(rb[r]) * k_block));
    got[r].insert(got[r].end(), rest_in.begin() + rrd[r], rest_in.begin() + rrd[r] + rr[r]);
  }
  return got;
}

std::vector<std::vector<std::uint8_t>> Ranks::gather_all(const std::vector<std::uint8_t>& mine,
                                                         const char* what) {
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(m_size), mine);
  return exchange(send, what);
}

namespace {

// The bytes of a body as it moves between ranks.
struct Packed {
  std::uint64_t key, id;
  Vec4 pos, vel;
  float work;
  std::uint8_t type;
};

}  // namespace

Decomposition decompose(Ranks& ranks, RankBodies& mine) {
  const int p = ranks.size();
  const std::size_t n = mine.bodies.pos.size();
  if (mine.bodies.vel.size() != n || mine.ids.size() != n ||
      (!mine.work.empty() && mine.work.size() != n))
    throw InputError(
        "decompose: the positions, velocities, IDs and work of a rank differ in count");
  if (!mine.bodies.pos64.empty())
    throw InputError(
        "a decomposed run is in float precision (--precision double runs on one rank)");
  // The run's count, whether any rank has types, and the common box.
  double totals[3] = {static_cast<double>(n), mine.types.empty() ? 0.0 : 1.0,
                      !mine.types.empty() && mine.types.size() != n ? 1.0 : 0.0};
  ranks.sum(totals, 3, "counting the bodies");
  if (totals[0] < p)
    throw InputError(std::to_string(static_cast<long long>(totals[0])) + " bodies on " +
                     std::to_string(p) + " ranks: a decomposed run needs at least one body a rank");
  const bool typed = totals[1] > 0;
  if (totals[2] > 0 || (typed && n > 0 && mine.types.size() != n))
    throw InputError("decompose: particle types on some ranks' bodies and not others'");
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Vec4& b : mine.bodies.pos) {
    lo[0] = std::min(lo[0], double(b.x)), lo[1] = std::min(lo[1], double(b.y));
    lo[2] = std::min(lo[2], double(b.z));
    hi[0] = std::max(hi[0], double(b.x)), hi[1] = std::max(hi[1], double(b.y));
    hi[2] = std::max(hi[2], double(b.z));
  }
  ranks.min(lo, 3, "the bodies' box");
  ranks.max(hi, 3, "the bodies' box");
  const double side = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30});
  const double scale = static_cast<double>(1 << 21) / side;
  auto key_of = [&](const Vec4& b) { return morton_key63(b.x, b.y, b.z, lo, scale); };
  // This rank's bodies in key order, with the work below each key.
  std::vector<Packed> bodies(n);
  for (std::size_t i = 0; i < n; ++i)
    bodies[i] = {key_of(mine.bodies.pos[i]),
                 mine.ids[i],
                 mine.bodies.pos[i],
                 mine.bodies.vel[i],
                 mine.work.empty() ? 1.0f : std::max(mine.work[i], 0.0f),
                 typed ? mine.types[i] : std::uint8_t{0}};
  std::sort(bodies.begin(), bodies.end(), [](const Packed& a, const Packed& b) {
    return a.key < b.key || (a.key == b.key && a.id < b.id);
  });
  std::vector<double> below(n + 1, 0.0);  // work of bodies [0, i)
  for (std::size_t i = 0; i < n; ++i) below[i + 1] = below[i] + bodies[i].work;
  double total = below[n];
  ranks.sum(&total, 1, "the run's work");
  // The split keys: for each, the least key below which lies its share of the work, by a bisection
  // of the key range that every rank takes in step (63 rounds of one sum each).
  const int splits = p - 1;
  std::vector<std::uint64_t> lo_key(static_cast<std::size_t>(splits), 0),
      hi_key(static_cast<std::size_t>(splits), std::uint64_t{1} << 63);
  std::vector<double> w(static_cast<std::size_t>(splits));
  for (int round = 0; round < 64 && splits > 0; ++round) {
    for (int j = 0; j < splits; ++j) {
      const std::uint64_t mid = lo_key[j] + (hi_key[j] - lo_key[j]) / 2;
      const auto at = std::lower_bound(bodies.begin(), bodies.end(), mid,
                                       [](const Packed& b, std::uint64_t k) { return b.key < k; });
      w[static_cast<std::size_t>(j)] = below[static_cast<std::size_t>(at - bodies.begin())];
    }
    ranks.sum(w.data(), splits, "the split keys");
    for (int j = 0; j < splits; ++j) {
      const std::uint64_t mid = lo_key[j] + (hi_key[j] - lo_key[j]) / 2;
      if (lo_key[j] >= hi_key[j]) continue;
      if (w[static_cast<std::size_t>(j)] >= total * (j + 1) / p)
        hi_key[j] = mid;
      else
        lo_key[j] = mid + 1;
    }
  }
  Decomposition d;
  d.splits.push_back(0);
  for (int j = 0; j < splits; ++j) d.splits.push_back(hi_key[static_cast<std::size_t>(j)]);
  d.splits.push_back(~std::uint64_t{0});
  // Each body to the rank whose range holds its key.
  // The bodies are in key order, so each rank's are one run of them.
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(p));
  long long moved = 0;
  auto first = bodies.begin();
  for (int r = 0; r < p; ++r) {
    const auto end = r + 1 < p ? std::lower_bound(first, bodies.end(), d.splits[static_cast<std::size_t>(r + 1)],
                                                  [](const Packed& b, std::uint64_t k) { return b.key < k; })
                               : bodies.end();
    std::vector<std::uint8_t>& s = send[static_cast<std::size_t>(r)];
    s.resize(sizeof(Packed) * static_cast<std::size_t>(end - first));
    if (!s.empty()) std::memcpy(s.data(), &*first, s.size());
    if (r != ranks.rank()) moved += end - first;
    first = end;
  }
  bodies = std::vector<Packed>();
  const std::vector<std::vector<std::uint8_t>> got = ranks.exchange(send, "moving the bodies");
  std::vector<Packed> mine_now;
  for (const std::vector<std::uint8_t>& g : got) {
    if (g.empty()) continue;
    const std::size_t at = mine_now.size();
    mine_now.resize(at + g.size() / sizeof(Packed));
    std::memcpy(static_cast<void*>(mine_now.data() + at), g.data(), g.size());
  }
  std::sort(mine_now.begin(), mine_now.end(), [](const Packed& a, const Packed& b) {
    return a.key < b.key || (a.key == b.key && a.id < b.id);
  });
  RankBodies out;
  const std::size_t m = mine_now.size();
  out.bodies.pos.resize(m), out.bodies.vel.resize(m), out.ids.resize(m), out.work.resize(m);
  if (typed) out.types.resize(m);
  double work = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const Packed& b = mine_now[i];
    out.bodies.pos[i] = b.pos, out.bodies.vel[i] = b.vel, out.ids[i] = b.id, out.work[i] = b.work;
    if (typed) out.types[i] = b.type;
    work += b.work;
  }
  mine = std::move(out);
  double least = work, most = work, all[2] = {work, static_cast<double>(moved)};
  ranks.min(&least, 1, "the balance");
  ranks.max(&most, 1, "the balance");
  ranks.sum(all, 2, "the balance");
  d.work_min = least, d.work_max = most, d.work_mean = all[0] / p;
  d.bodies_moved = static_cast<long long>(all[1]);
  return d;
}

}  // namespace orrery
