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
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

#if defined(__GLIBCXX__) && defined(_OPENMP)
#include <parallel/algorithm>
#endif

#include "orrery/input.h"
#include "orrery/morton.h"

namespace orrery {
namespace {

// memcpy on every core for the large copies: a rank's bodies are gigabytes.
void copy_bytes(void* to, const void* from, std::size_t bytes) {
  constexpr std::size_t k_piece = std::size_t{1} << 24;
  const long long pieces = static_cast<long long>((bytes + k_piece - 1) / k_piece);
#pragma omp parallel for schedule(static) if (pieces > 4)
  for (long long k = 0; k < pieces; ++k) {
    const std::size_t at = static_cast<std::size_t>(k) * k_piece;
    std::memcpy(static_cast<char*>(to) + at, static_cast<const char*>(from) + at,
                std::min(k_piece, bytes - at));
  }
}

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

void Ranks::agree(const std::string& why, const char* what) {
  const auto all = gather_all(std::vector<std::uint8_t>(why.begin(), why.end()), what);
  for (const std::vector<std::uint8_t>& w : all)
    if (!w.empty()) throw InputError(std::string(w.begin(), w.end()));
}

void Ranks::on_root(const char* what, const std::function<void()>& work) {
  std::string why;
  if (m_rank == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  agree(why, what);
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

std::vector<std::vector<std::uint8_t>> Ranks::exchange(std::vector<std::vector<std::uint8_t>> send,
                                                       const char* what) {
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
    if (whole > 0)
      copy_bytes(out.data() + static_cast<std::size_t>(sd[r]) * k_block, send[r].data(), whole);
    std::copy(send[r].begin() + static_cast<std::ptrdiff_t>(whole), send[r].end(),
              rest_out.begin() + srd[r]);
    send[r] = std::vector<std::uint8_t>();  // copied: a rank's bodies are gigabytes
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
      got[r] = std::move(send[r]);
      continue;
    }
    const auto at =
        in.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(rd[r]) * k_block);
    const std::size_t whole = static_cast<std::size_t>(rb[r]) * k_block;
    got[r].resize(in_n[r]);
    if (whole > 0) copy_bytes(got[r].data(), &*at, whole);
    std::copy(rest_in.begin() + rrd[r], rest_in.begin() + rrd[r] + rr[r],
              got[r].begin() + static_cast<std::ptrdiff_t>(whole));
  }
  return got;
}

std::vector<std::vector<std::uint8_t>> Ranks::gather_all(const std::vector<std::uint8_t>& mine,
                                                         const char* what) {
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(m_size), mine);
  return exchange(std::move(send), what);
}

namespace {

// A body's key and where it is in the rank's arrays.
struct KeyAt {
  std::uint64_t key;
  std::size_t at;
};

// std::sort on every core where the standard library has a parallel one (libstdc++'s, over
// OpenMP): a rank's keys are hundreds of millions at a billion bodies.
template <typename T, typename Less>
void parallel_sort(std::vector<T>& v, Less less) {
#if defined(__GLIBCXX__) && defined(_OPENMP)
  __gnu_parallel::sort(v.begin(), v.end(), less);
#else
  std::sort(v.begin(), v.end(), less);
#endif
}

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
  if (totals[0] < p) throw InputError(too_few_bodies(static_cast<long long>(totals[0]), p));
  const bool typed = totals[1] > 0;
  if (totals[2] > 0 || (typed && n > 0 && mine.types.size() != n))
    throw InputError("decompose: particle types on some ranks' bodies and not others'");
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  const Vec4* pos = mine.bodies.pos.data();
  const long long count = static_cast<long long>(n);
#pragma omp parallel for reduction(min : lo[:3]) reduction(max : hi[:3]) schedule(static)
  for (long long i = 0; i < count; ++i) {
    const Vec4& b = pos[i];
    lo[0] = std::min(lo[0], double(b.x)), lo[1] = std::min(lo[1], double(b.y));
    lo[2] = std::min(lo[2], double(b.z));
    hi[0] = std::max(hi[0], double(b.x)), hi[1] = std::max(hi[1], double(b.y));
    hi[2] = std::max(hi[2], double(b.z));
  }
  ranks.min(lo, 3, "the bodies' box");
  ranks.max(hi, 3, "the bodies' box");
  const double side = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-30});
  const double scale = static_cast<double>(1 << 21) / side;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const Clock::time_point sorting = Clock::now();
  // This rank's bodies in key order (ties by ID: the order is the same on any thread count), the
  // keys sorted with where each body is, then the bodies packed in that order.
  std::vector<KeyAt> order(n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < count; ++i)
    order[static_cast<std::size_t>(i)] = {morton_key63(pos[i].x, pos[i].y, pos[i].z, lo, scale),
                                          static_cast<std::size_t>(i)};
  const std::uint64_t* ids = mine.ids.data();
  parallel_sort(order, [ids](const KeyAt& a, const KeyAt& b) {
    return a.key < b.key || (a.key == b.key && ids[a.at] < ids[b.at]);
  });
  std::vector<Packed> bodies(n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < count; ++i) {
    const std::size_t j = order[static_cast<std::size_t>(i)].at;
    bodies[static_cast<std::size_t>(i)] = {order[static_cast<std::size_t>(i)].key,
                                           mine.ids[j],
                                           mine.bodies.pos[j],
                                           mine.bodies.vel[j],
                                           mine.work.empty() ? 1.0f : std::max(mine.work[j], 0.0f),
                                           typed ? mine.types[j] : std::uint8_t{0}};
  }
  order = std::vector<KeyAt>();
  mine = RankBodies();                    // packed: what it held is gigabytes at a billion bodies
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
  d.sort_s = since(sorting);
  const Clock::time_point moving = Clock::now();
  d.splits.push_back(0);
  for (int j = 0; j < splits; ++j) d.splits.push_back(hi_key[static_cast<std::size_t>(j)]);
  d.splits.push_back(~std::uint64_t{0});
  // Each body to the rank whose range holds its key.
  // The bodies are in key order, so each rank's are one run of them.
  // The bodies are in key order, so each rank's are one run of them; this rank's own stay here.
  const std::size_t me = static_cast<std::size_t>(ranks.rank());
  std::vector<std::vector<std::uint8_t>> send(static_cast<std::size_t>(p));
  std::size_t own_first = 0, own_end = 0;
  long long moved = 0;
  auto first = bodies.begin();
  for (int r = 0; r < p; ++r) {
    const auto end = r + 1 < p ? std::lower_bound(first, bodies.end(), d.splits[static_cast<std::size_t>(r + 1)],
                                                  [](const Packed& b, std::uint64_t k) { return b.key < k; })
                               : bodies.end();
    if (static_cast<std::size_t>(r) == me) {
      own_first = static_cast<std::size_t>(first - bodies.begin());
      own_end = static_cast<std::size_t>(end - bodies.begin());
    } else {
      std::vector<std::uint8_t>& s = send[static_cast<std::size_t>(r)];
      s.resize(sizeof(Packed) * static_cast<std::size_t>(end - first));
      if (!s.empty()) copy_bytes(s.data(), &*first, s.size());
      moved += end - first;
    }
    first = end;
  }
  std::vector<std::vector<std::uint8_t>> got = ranks.exchange(std::move(send), "moving the bodies");
  d.move_s = since(moving);
  const Clock::time_point merging = Clock::now();
  // Each rank's share came sorted: in rank order, then they merge, a pair of runs at a time.
  std::vector<std::size_t> runs{0};
  for (std::size_t r = 0; r < got.size(); ++r)
    runs.push_back(runs.back() + (r == me ? own_end - own_first : got[r].size() / sizeof(Packed)));
  std::vector<Packed> mine_now;
  if (p == 1) {
    mine_now = std::move(bodies);
  } else {
    mine_now.resize(runs.back());
    for (std::size_t r = 0; r < got.size(); ++r) {
      if (r == me && own_end > own_first)
        copy_bytes(mine_now.data() + runs[r], bodies.data() + own_first,
                   sizeof(Packed) * (own_end - own_first));
      else if (r != me && !got[r].empty())
        copy_bytes(mine_now.data() + runs[r], got[r].data(), got[r].size());
      got[r] = std::vector<std::uint8_t>();
    }
  }
  bodies = std::vector<Packed>();
  auto before = [](const Packed& a, const Packed& b) {
    return a.key < b.key || (a.key == b.key && a.id < b.id);
  };
  while (runs.size() > 2) {
    const long long pairs = static_cast<long long>(runs.size() - 1) / 2;
#pragma omp parallel for schedule(dynamic)
    for (long long k = 0; k < pairs; ++k) {
      const std::size_t at = static_cast<std::size_t>(2 * k);
      std::inplace_merge(mine_now.begin() + static_cast<std::ptrdiff_t>(runs[at]),
                         mine_now.begin() + static_cast<std::ptrdiff_t>(runs[at + 1]),
                         mine_now.begin() + static_cast<std::ptrdiff_t>(runs[at + 2]), before);
    }
    std::vector<std::size_t> merged;
    for (std::size_t k = 0; k < runs.size(); k += 2) merged.push_back(runs[k]);
    if (merged.back() != runs.back()) merged.push_back(runs.back());
    runs = std::move(merged);
  }
  RankBodies out;
  const std::size_t m = mine_now.size();
  out.bodies.pos.resize(m), out.bodies.vel.resize(m), out.ids.resize(m), out.work.resize(m);
  if (typed) out.types.resize(m);
  double work = 0;
#pragma omp parallel for reduction(+ : work) schedule(static)
  for (long long i = 0; i < static_cast<long long>(m); ++i) {
    const Packed& b = mine_now[static_cast<std::size_t>(i)];
    const std::size_t j = static_cast<std::size_t>(i);
    out.bodies.pos[j] = b.pos, out.bodies.vel[j] = b.vel, out.ids[j] = b.id, out.work[j] = b.work;
    if (typed) out.types[j] = b.type;
    work += b.work;
  }
  mine = std::move(out);
  d.merge_s = since(merging);
  double least = work, most = work, all[2] = {work, static_cast<double>(moved)};
  ranks.min(&least, 1, "the balance");
  ranks.max(&most, 1, "the balance");
  ranks.sum(all, 2, "the balance");
  d.work_min = least, d.work_max = most, d.work_mean = all[0] / p;
  d.bodies_moved = static_cast<long long>(all[1]);
  return d;
}

}  // namespace orrery
