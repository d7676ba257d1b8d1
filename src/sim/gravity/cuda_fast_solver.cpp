// The `cuda-fast` solver and its autotuner: times the candidate configurations once per (N, block)
// on scratch buffers with CUDA events, caches the winner for the process and reports it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "cuda_fast.h"
#include "cuda_solvers.h"
#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {

std::vector<FastConfig> fast_candidates(int n, int sm_count, int block) {
  std::vector<FastConfig> out;
  const long long full = static_cast<long long>(std::max(1, sm_count)) * 2048;  // resident threads
  for (int b : fast_block_sizes()) {
    if (block != 0 && b != block) continue;
    for (int r : fast_bodies_per_thread()) {
      const long long blocks_x =
          (n + static_cast<long long>(b) * r - 1) / (static_cast<long long>(b) * r);
      // Splits from 1 up to the first count that puts two full waves of threads in flight, while
      // each split still gets at least one whole tile of bodies.
      for (int s = 1; s <= 64; s *= 2) {
        if (s > 1 && static_cast<long long>(s) * b > n) break;
        out.push_back({b, r, s});
        if (blocks_x * s * b >= 2 * full) break;
      }
    }
  }
  for (const FastConfig& c : fast_pair_configs())
    if ((block == 0 || c.block == block) &&
        fast_pair_blocks(n, c.block * c.bodies_per_thread) <= k_max_grid_x)
      out.push_back(c);
  return out;
}

namespace {

// Timed stand-ins for large N: a truncated j-range (the rate per tile is the same), and in pair
// mode the first bodies alone, enough of them to fill the GPU with tile pairs.
constexpr int k_tune_j = 32768;
constexpr int k_tune_pairs = 131072;

// rows: one-sided kernels only (a pass with test particles: pair mode sums every pair both ways).
struct TuneKey {
  int n, block;
  bool rows;
  bool operator<(const TuneKey& o) const {
    return std::tie(n, block, rows) < std::tie(o.n, o.block, o.rows);
  }
};

// The winners for this process (one GPU): tuning costs up to a second at large N, so a solver
// re-created by the viewer or the benchmark for the same N reuses the earlier choice.
struct TuneCache {
  std::mutex mutex;
  std::map<TuneKey, FastConfig> winners;
};

TuneCache& tune_cache() {
  static TuneCache cache;
  return cache;
}

// The faster of two timed runs of `run`, after an untimed one (the first launch pays for loading).
template <class Run>
float best_of_two_ms(GpuTimer& timer, Run run) {
  run();
  float ms = 0;
  for (int rep = 0; rep < 2; ++rep) {
    timer.start();
    run();
    timer.stop();
    const float t = timer.elapsed_ms();
    ms = rep == 0 ? t : std::min(ms, t);
  }
  return ms;
}

FastConfig autotune(const Vec4* pos_in, const Vec4* vel, int n, int block, bool rows,
                    const SimParams& p) {
  TuneCache& cache = tune_cache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.winners.find({n, block, rows});
    if (it != cache.winners.end()) return it->second;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<FastConfig> cands = fast_candidates(n, device_info().sm_count, block);
  if (rows)
    cands.erase(
        std::remove_if(cands.begin(), cands.end(), [](const FastConfig& c) { return c.pairs; }),
        cands.end());
  std::size_t partial_size = 0;
  for (const auto& c : cands) partial_size = std::max(partial_size, fast_partial_size(c, n));
  // Scratch copies, so tuning never touches the caller's state; real bodies, never zeros.
  GpuBuffer<Vec4> out(n), v(n), partial(partial_size);
  if (vel) {
    gpu_memory::copy(v.data(), vel, sizeof(Vec4) * n);
  } else {  // tuning for the acceleration pass, which has no velocities
    const std::vector<Vec4> zero(static_cast<std::size_t>(n), Vec4{0.0f, 0.0f, 0.0f, 0.0f});
    v.upload(zero.data(), zero.size());
  }
  const int n_j = std::min(n, k_tune_j), n_p = std::min(n, k_tune_pairs);
  // The stand-ins cost n_j/n of a step, or (n_p/n)^2 in pair mode: scale them back to a full
  // step before comparing.
  const double ratio_j = static_cast<double>(n) / n_j, ratio_p = static_cast<double>(n) / n_p;
  GpuTimer timer;
  FastConfig best = cands.front();
  float best_ms = 0;
  for (const FastConfig& c : cands) {
    const int m = c.pairs ? n_p : n_j;
    const float ms = best_of_two_ms(
        timer, [&] { launch_fast(c, pos_in, out.data(), v.data(), partial.data(), n, m, p); });
    const float full = static_cast<float>(ms * (c.pairs ? ratio_p * ratio_p : ratio_j));
    if (&c == &cands.front() || full < best_ms) best = c, best_ms = full;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cuda-fast: autotuned N=%d%s over %zu configurations in %.2f s: %s\n", n,
              rows ? " (test particles: one-sided)" : "", cands.size(), secs,
              to_string(best).c_str());
  std::fflush(stdout);
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.winners[{n, block, rows}] = best;
  return best;
}

// Pair mode in double from this N on: there it pays, and below it the one-sided kernels keep the
// sums' order fixed (pair mode adds with atomics, so its last bits vary from run to run).
constexpr int k_double_pairs_from = 65536;

// The fastest double-precision kernel at n, timed into acc (the caller's output, written again
// after) on the stand-ins float uses (scaled back to a full step), the best of two runs each.
FastConfig autotune_double(const Vec4d* pos, Vec4d* acc, int n, bool rows, double eps2) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<FastConfig> cands = fast_double_configs();
  if (n >= k_double_pairs_from && !rows)
    for (const FastConfig& c : fast_pair_double_configs()) cands.push_back(c);
  const int n_j = std::min(n, k_tune_j / 4), n_p = std::min(n, k_tune_pairs / 2);
  const double ratio_j = static_cast<double>(n) / n_j, ratio_p = static_cast<double>(n) / n_p;
  GpuTimer timer;
  FastConfig best = cands.front();
  double best_ms = 0;
  for (const FastConfig& c : cands) {
    // Pair mode's stand-in is its first n_p bodies alone.
    const float ms = best_of_two_ms(timer, [&] {
      if (c.pairs)
        launch_fast_double(c, pos, acc, n_p, n_p, eps2);
      else
        launch_fast_double(c, pos, acc, n, n_j, eps2);
    });
    const double full = ms * (c.pairs ? ratio_p * ratio_p : ratio_j);
    if (&c == &cands.front() || full < best_ms) best = c, best_ms = full;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cuda-fast: autotuned double precision for N=%d in %.2f s: %s\n", n, secs,
              to_string(best).c_str());
  std::fflush(stdout);
  return best;
}

class CudaFastSolver final : public Solver {
 public:
  CudaFastSolver(int block, const FastConfig* forced) : m_fixed_block(block) {
    if (forced) m_cfg = *forced, m_forced = true;
  }
  const std::string& name() const override { return m_name; }
  bool on_device() const override { return true; }
  int block_size() const override {
    if (m_forced) return m_cfg.block;
    return m_float[m_last].n > 0 ? m_float[m_last].cfg.block : m_fixed_block;
  }
  std::string config() const override {
    if (m_forced) return m_name + " " + to_string(m_cfg) + " (fixed)";
    const Tuned& t = m_float[m_last];
    if (t.n == 0) return m_name + " (autotunes on its first step)";
    return m_name + " " + to_string(t.cfg) + " (autotuned for N=" + std::to_string(t.n) +
           (m_last ? ", one-sided for test particles)" : ")");
  }

  bool takes_sources() const override { return true; }
  double interactions(int n) const override {
    return double(n) * (m_forced ? j_range(m_cfg, n) : sources(n));
  }
  bool has_fused_step() const override { return true; }
  void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) override {
    const FastConfig& c = prepare(pos_in, vel, n, p);
    launch_fast(c, pos_in, pos_out, vel, m_partial.data(), n, j_range(c, n), p);
  }
  void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) override {
    const FastConfig& c = prepare(pos, nullptr, n, p);
    launch_fast(c, pos, nullptr, nullptr, m_partial.data(), n, j_range(c, n), p, acc);
  }
  // Double precision: its own kernels, tuned on the first call for an N (as above) by timing each
  // over a truncated j-range.
  bool has_double() const override { return true; }
  void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p) override {
    if (n < 1) throw std::invalid_argument("cuda-fast: N must be >= 1");
    const double eps2 = double(p.softening) * p.softening;
    const bool rows = sources(n) < n;
    Tuned& t = m_double[rows];
    if (retune(t.n, n)) t.cfg = autotune_double(pos, acc, n, rows, eps2), t.n = n;
    launch_fast_double(t.cfg, pos, acc, n, j_range(t.cfg, n), eps2);
  }
  // The configuration tuned for all n runs the part: at the sizes where spreading pays it is
  // pair mode, whose tile pairs split evenly.
  bool can_spread() const override { return true; }
  void accelerations_part(const Vec4* pos, Vec4* acc, int n, Part part,
                          const SimParams& p) override {
    check_part(part, n);
    const FastConfig& c = prepare(pos, nullptr, n, p);  // first: it may grow m_partial
    launch_fast_part(c, pos, acc, m_partial.data(), n, part, p);
  }

 private:
  // The sources a pass sums: pair mode (a forced configuration's) takes every body, exactly too.
  int j_range(const FastConfig& c, int n) const { return c.pairs ? n : sources(n); }
  // A configuration and the N it was tuned for (0: none yet).
  struct Tuned {
    int n = 0;
    FastConfig cfg;
  };
  // Tunes again when N has moved more than a quarter away from the N it was tuned for (merges
  // shrink N a little most steps: tuning costs 0.4 s, and a configuration runs at any N).
  static bool retune(int tuned_n, int n) {
    const long long gap = std::abs(static_cast<long long>(n) - tuned_n);
    return tuned_n == 0 || 4 * gap > tuned_n;
  }
  // The configuration of a pass at n bodies, autotuned on its first use: the same for both
  // passes, one-sided (`rows`) while the last bodies are test particles. Grows the scratch buffer
  // to what it needs.
  const FastConfig& prepare(const Vec4* pos, const Vec4* vel, int n, const SimParams& p) {
    if (n < 1) throw std::invalid_argument("cuda-fast: N must be >= 1");
    const bool rows = sources(n) < n && !m_forced;
    Tuned& t = m_float[rows];
    if (m_forced) {
      t.cfg = m_cfg;
    } else if (retune(t.n, n)) {
      t.cfg = autotune(pos, vel, n, m_fixed_block, rows, p);
      t.n = n;
    }
    m_last = rows;
    const std::size_t need = fast_partial_size(t.cfg, n);
    if (m_partial.size() < need) m_partial = GpuBuffer<Vec4>(need);
    return t.cfg;
  }

  std::string m_name = "cuda-fast";
  int m_fixed_block = 0;
  bool m_forced = false;
  FastConfig m_cfg;               // the forced configuration
  Tuned m_float[2], m_double[2];  // [rows]
  bool m_last = false;            // whether the last float pass was one-sided
  GpuBuffer<Vec4> m_partial;
};

}  // namespace

std::unique_ptr<Solver> make_cuda_fast_solver(int block, const FastConfig* forced) {
  require_device();
  return std::make_unique<CudaFastSolver>(block, forced);
}

}  // namespace orrery
