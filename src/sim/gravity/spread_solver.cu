// A module spread over several GPUs of this host through NCCL (see spread_solver.h for the plan).
// One host thread a GPU: the modules may wait on their device inside a pass (a tree code reading
// its counts), and one GPU's wait must not hold back the others' launches.
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <thread>

#include "../backend/cuda_handles.cuh"
#include "cuda_solvers.h"
#include "nccl_library.h"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"
#include "orrery/no_copy.h"
#include "spread_solver.h"

namespace orrery {
namespace {

// Runs a job on every rank at once: rank 0 on the caller's thread (device 0, where the state is),
// rank r > 0 on a thread of its own that made device r its current device.
class RankThreads : NoCopy {
 public:
  explicit RankThreads(int ranks) : m_errors(static_cast<std::size_t>(ranks)) {
    for (int r = 1; r < ranks; ++r) m_threads.emplace_back([this, r] { serve(r); });
  }
  ~RankThreads() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_work.notify_all();
    for (auto& t : m_threads) t.join();
  }

  // job(r) for every rank; returns when all have finished, rethrowing the lowest rank's exception.
  void run(const std::function<void(int)>& job) {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_job = &job;
      m_pending = static_cast<int>(m_threads.size());
      for (auto& e : m_errors) e = nullptr;
      ++m_generation;
    }
    m_work.notify_all();
    try {
      job(0);
    } catch (...) {
      m_errors[0] = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [&] { return m_pending == 0; });
    m_job = nullptr;
    for (auto& e : m_errors)
      if (e) std::rethrow_exception(e);
  }

 private:
  void serve(int r) {
    const cudaError_t set = cudaSetDevice(r);
    long long seen = 0;
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      m_work.wait(lock, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
      const std::function<void(int)>* job = m_job;
      lock.unlock();
      try {
        if (set != cudaSuccess) throw_cuda_error(set, "cudaSetDevice", __FILE__, __LINE__);
        (*job)(r);
      } catch (...) {
        m_errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
      lock.lock();
      if (--m_pending == 0) m_done.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_work, m_done;
  const std::function<void(int)>* m_job = nullptr;
  long long m_generation = 0;
  int m_pending = 0;
  bool m_stop = false;
  std::vector<std::exception_ptr> m_errors;
  std::vector<std::thread> m_threads;
};

// What one GPU holds: its copy of the module, NCCL's handle and stream, and (ranks > 0) the
// positions it receives and the accelerations it sends.
struct Rank {
  std::unique_ptr<Solver> solver;
  ncclComm_t comm = nullptr;
  GpuBuffer<Vec4> pos, acc;
  CudaStream stream;
  CudaEvent inputs, sent, computed, summed;  // ordering between the two streams
  CudaEvent start, stop;                     // the part's time, for the balance
  bool timed = false;
  double last_ms = 0;
};

class SpreadSolver final : public Solver {
 public:
  SpreadSolver(const SolverInfo& info, int block, int gpus)
      : m_ranks(static_cast<std::size_t>(gpus)), m_cuts(even_cuts(gpus)) {
    const NcclLibrary& lib = nccl();
    m_nccl_version = lib.version;
    std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus));
    std::vector<int> devices(static_cast<std::size_t>(gpus));
    std::iota(devices.begin(), devices.end(), 0);
    nccl_check(lib.comm_init_all(comms.data(), gpus, devices.data()),
               "setting up the GPUs (ncclCommInitAll)");
    for (int r = 0; r < gpus; ++r) m_ranks[static_cast<std::size_t>(r)].comm = comms[r];
    m_threads = std::make_unique<RankThreads>(gpus);
    try {
      m_threads->run([&](int r) {
        Rank& k = m_ranks[static_cast<std::size_t>(r)];
        k.solver = make_solver(info.name, block);
        k.stream = CudaStream(cudaStreamNonBlocking);
        for (CudaEvent* e : {&k.inputs, &k.sent, &k.computed, &k.summed})
          *e = CudaEvent(cudaEventDisableTiming);
        k.start = CudaEvent(cudaEventDefault), k.stop = CudaEvent(cudaEventDefault);
      });
    } catch (...) {
      release();
      throw;
    }
  }
  ~SpreadSolver() override { release(); }

  const std::string& name() const override { return root().name(); }
  bool on_device() const override { return true; }
  int block_size() const override { return root().block_size(); }
  std::string config() const override {
    std::string parts;
    char buf[32];
    for (std::size_t r = 0; r + 1 < m_cuts.size(); ++r) {
      std::snprintf(buf, sizeof buf, "%s%.1f%%", r ? ", " : "",
                    100.0 * (m_cuts[r + 1] - m_cuts[r]));
      parts += buf;
    }
    const int v = m_nccl_version;  // 22803: 2.28.3
    std::snprintf(buf, sizeof buf, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    return root().config() + " on " + std::to_string(m_ranks.size()) + " GPUs (NCCL " + buf +
           "; their parts of the work " + parts + ")";
  }
  bool all_pairs() const override { return root().all_pairs(); }
  double interactions(int n) const override {
    if (root().all_pairs()) return root().interactions(n);
    double sum = 0;  // the tree codes count what each walked
    for (const Rank& k : m_ranks) sum += k.solver->interactions(n);
    return sum;
  }
  void tree_cells(int max_level, std::size_t limit, std::vector<Aabb>& out) override {
    root_solver().tree_cells(max_level, limit, out);  // every GPU builds the same whole tree
  }
  // The diagnostics' and colours' pass: rare, on GPU 0 alone.
  void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p) override {
    root_solver().potentials(pos, out, n, p);
  }

  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    if (!m_broken.empty()) throw std::runtime_error(m_broken);
    if (n < 1) throw std::invalid_argument(name() + ": N must be >= 1");
    root_solver().set_phases(m_phases);
    const std::vector<double> cuts = m_cuts;
    m_threads->run([&](int r) { pass(r, pos, acc, n, cuts, p); });
    // Each GPU read the time of its part in the previous pass (this one's are still in flight):
    // the next cuts move from that pass's.
    std::vector<double> ms;
    for (const Rank& k : m_ranks) ms.push_back(k.last_ms);
    if (!m_timed_cuts.empty()) m_cuts = balance_cuts(m_timed_cuts, ms);
    m_timed_cuts = cuts;
  }

 private:
  const Solver& root() const { return *m_ranks.front().solver; }
  Solver& root_solver() { return *m_ranks.front().solver; }

  void exchange(ncclResult_t result, const char* what) {
    if (result == ncclSuccess) return;
    try {
      nccl_check(result, what);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(m_broken_mutex);
      m_broken = std::string(e.what()) + " (the GPUs cannot be used together any more)";
      throw std::runtime_error(m_broken);
    }
  }

  // Rank r's share of a pass. Its two collectives are always enqueued, even when its part fails,
  // so the other GPUs never wait forever for this one.
  void pass(int r, const Vec4* pos, Vec4* acc, int n, const std::vector<double>& cuts,
            const SimParams& p) {
    Rank& k = m_ranks[static_cast<std::size_t>(r)];
    const NcclLibrary& lib = nccl();
    k.last_ms = 0;
    if (k.timed && cudaEventQuery(k.stop.get()) == cudaSuccess) {
      float ms = 0;
      if (cudaEventElapsedTime(&ms, k.start.get(), k.stop.get()) == cudaSuccess) k.last_ms = ms;
    }
    cudaGetLastError();  // a query that found the event not ready is not an error
    Vec4* my_pos = const_cast<Vec4*>(pos);  // the root sends from the state, in place
    Vec4* my_acc = acc;
    if (r > 0) {
      k.pos.enlarge(static_cast<std::size_t>(n)), k.acc.enlarge(static_cast<std::size_t>(n));
      my_pos = k.pos.data(), my_acc = k.acc.data();
    }
    const std::size_t floats = 4 * static_cast<std::size_t>(n);
    cudaStream_t s = k.stream.get();
    CUDA_CHECK_THROW(cudaEventRecord(k.inputs.get(), 0));
    CUDA_CHECK_THROW(cudaStreamWaitEvent(s, k.inputs.get(), 0));
    exchange(lib.broadcast(my_pos, my_pos, floats, ncclFloat, 0, k.comm, s),
             "sending the positions (ncclBroadcast)");
    if (r > 0) {  // GPU 0 has its positions already and starts at once
      CUDA_CHECK_THROW(cudaEventRecord(k.sent.get(), s));
      CUDA_CHECK_THROW(cudaStreamWaitEvent(0, k.sent.get(), 0));
    }
    std::exception_ptr failed;
    try {
      CUDA_CHECK_THROW(cudaMemsetAsync(my_acc, 0, sizeof(Vec4) * static_cast<std::size_t>(n), 0));
      CUDA_CHECK_THROW(cudaEventRecord(k.start.get(), 0));
      const Part part{cuts[static_cast<std::size_t>(r)], cuts[static_cast<std::size_t>(r) + 1]};
      k.solver->accelerations_part(my_pos, my_acc, n, part, p);
      CUDA_CHECK_THROW(cudaEventRecord(k.stop.get(), 0));
      k.timed = true;
    } catch (...) {
      failed = std::current_exception();
      k.timed = false;
    }
    // The wait for the slowest GPU and the sum show up as GPU 0's exchange phase.
    if (r == 0 && m_phases) m_phases->begin(Phase::exchange);
    CUDA_CHECK_THROW(cudaEventRecord(k.computed.get(), 0));
    CUDA_CHECK_THROW(cudaStreamWaitEvent(s, k.computed.get(), 0));
    exchange(lib.reduce(my_acc, my_acc, floats, ncclFloat, ncclSum, 0, k.comm, s),
             "summing the accelerations (ncclReduce)");
    CUDA_CHECK_THROW(cudaEventRecord(k.summed.get(), s));
    CUDA_CHECK_THROW(cudaStreamWaitEvent(0, k.summed.get(), 0));
    if (failed) std::rethrow_exception(failed);
  }

  // Each GPU's resources are released by its own thread (on its device), then the pool stops.
  void release() noexcept {
    if (m_threads) {
      try {
        m_threads->run([&](int r) {
          Rank& k = m_ranks[static_cast<std::size_t>(r)];
          cudaDeviceSynchronize();
          if (k.comm) nccl().comm_destroy(k.comm);
          k = Rank{};
        });
      } catch (const std::exception& e) {
        std::fprintf(stderr, "orrery: releasing the GPUs: %s\n", e.what());
      }
      m_threads.reset();
    }
    for (Rank& k : m_ranks)  // what no thread could release (a failed setup)
      if (k.comm) nccl().comm_destroy(k.comm), k.comm = nullptr;
  }

  std::vector<Rank> m_ranks;
  std::unique_ptr<RankThreads> m_threads;
  std::vector<double> m_cuts;        // GPU r's part of the work is [cuts[r], cuts[r + 1])
  std::vector<double> m_timed_cuts;  // the cuts of the last pass (whose times come next)
  int m_nccl_version = 0;
  std::mutex m_broken_mutex;
  std::string m_broken;  // set once a collective failed: the communicator is unusable
};

}  // namespace

std::unique_ptr<Solver> make_spread_solver(const SolverInfo& info, int block, int gpus) {
  return std::make_unique<SpreadSolver>(info, block, gpus);
}

}  // namespace orrery
