// The solver registry: one table of every solver compiled in, what runs here, and
// construction by name.
#include "orrery/solver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "cpu_solvers.h"
#include "orrery/device.h"
#include "orrery/input.h"
#include "orrery/solver.h"
#ifdef ORRERY_HAVE_CUDA
#include "cuda_fast.h"
#include "cuda_solvers.h"
#include "spread_solver.h"
#endif

namespace orrery {
namespace {

std::string join_names(const std::vector<SolverInfo>& v) {
  std::string s;
  for (const auto& i : v) s += (s.empty() ? "" : ", ") + i.name;
  return s;
}

// Host bytes a body at the peak of a step of `cpu`, measured (docs/robustness.md): the state, its
// float view and the Simulation's scratch (109 and 290 measured at 32,768 bodies).
constexpr double k_cpu_host_bytes = 112, k_cpu_host_bytes_double = 296;

#ifdef ORRERY_HAVE_CUDA
// State and Simulation scratch, per body: positions twice, velocities, accelerations, potentials.
constexpr double k_state_bytes = 5.0 * sizeof(Vec4);
const std::vector<int> k_tile_blocks = {32, 64, 128, 256, 512, 1024};
std::unique_ptr<Solver> make_fast(int block) { return make_cuda_fast_solver(block); }
#endif

}  // namespace

void Solver::step(const Vec4*, Vec4*, Vec4*, int, const SimParams&) {
  throw std::logic_error(name() + " has no fused step (the Simulation runs its accelerations)");
}

long long Part::first(long long units) const {
  return std::clamp(std::llround(from * static_cast<double>(units)), 0LL, units);
}
long long Part::end(long long units) const {
  return std::clamp(std::llround(to * static_cast<double>(units)), first(units), units);
}

void Solver::accelerations_part(const Vec4*, Vec4*, int, Part, const SimParams&) {
  throw std::logic_error(name() + " cannot compute a part of its work (it does not spread)");
}

void Solver::accelerations_double(const Vec4d*, Vec4d*, int, const SimParams&) {
  throw std::logic_error(name() + " has no double-precision path");
}

void Solver::check_part(Part part, int n) const {
  if (n < 1) throw std::invalid_argument(name() + ": N must be >= 1");
  if (!(part.from >= 0.0 && part.from <= part.to && part.to <= 1.0))
    throw std::invalid_argument(name() + ": [" + std::to_string(part.from) + ", " +
                                std::to_string(part.to) + ") is not a part of the work");
}

std::string Solver::config() const {
  std::ostringstream s;
  s << name();
  if (block_size() > 0) s << " block " << block_size();
  return s.str();
}

const std::vector<SolverInfo>& all_solvers() {
  static const std::vector<SolverInfo> table = {
      {"cpu",
       false,
       {},
       0,
       "CPU reference, single thread",
       &make_cpu_solver,
       false,
       0,
       false,
       true,
       k_cpu_host_bytes,
       k_cpu_host_bytes_double},
      {"cpu-omp",
       false,
       {},
       0,
       "CPU, OpenMP over bodies",
       &make_cpu_omp_solver,
       false,
       0,
       false,
       true,
       136,  // 134 measured at 32,768 bodies: the threads' own scratch
       328},
      {"cpu-bh",
       false,
       {},
       0,
       "CPU Barnes-Hut: octree of Morton-sorted bodies with quadrupoles, rebuilt every step, "
       "OpenMP walk a group at a time, box and relative opening tests; opening angle theta",
       &make_cpu_bh_solver,
       true,
       0,
       false,
       false,
       256,  // its octree, the Morton keys and the sorted copy: 249 at 1M, 208 at 4M
       256},
#ifdef ORRERY_HAVE_CUDA
      {"cuda-dynamic", true, k_tile_blocks, 256,
       "CUDA shared-memory tiles, block size chosen at run time", &make_cuda_dynamic_solver, false,
       k_state_bytes, true, true},
      {"cuda-static", true, k_tile_blocks, 256,
       "CUDA tiles, compile-time block size, unrolled loop", &make_cuda_static_solver, false,
       k_state_bytes, true, true},
      // Block 0 lets its autotuner pick the block size as well.
      {"cuda-fast", true, fast_block_sizes(), 0,
       "CUDA tuned and autotuned: bodies per thread, j-split, or each pair once", &make_fast, false,
       k_state_bytes + 2.0 * sizeof(Vec4), true, true},  // its split sums and autotuner's copies
      // Its block is the walk's: four warps, each serving 32 bodies.
      {"cuda-bh",
       true,
       {128},
       128,
       "CUDA Barnes-Hut, the whole pass on the device: Morton keys, CUB radix sort, radix tree, "
       "quadrupoles, a warp walk per 32 bodies, box and relative opening tests; opening angle "
       "theta",
       &make_cuda_bh_solver,
       true,
       // Its scratch is about 204 bytes a body (keys, indices, the sorted copy, eleven arrays of
       // tree nodes, the groups, the retry frontier, CUB's sort space, the last pass's |a|); 240
       // leaves a margin.
       k_state_bytes + 240.0,
       true},
#endif
  };
  return table;
}

const std::vector<std::string>& cuda_solver_names() {
  static const std::vector<std::string> names = {"cuda-dynamic", "cuda-static", "cuda-fast",
                                                 "cuda-bh"};
  return names;
}

bool known_solver_name(const std::string& name) {
  for (const auto& s : all_solvers())
    if (s.name == name) return true;
  for (const auto& n : cuda_solver_names())
    if (n == name) return true;
  return false;
}

std::vector<SolverInfo> available_solvers() {
  std::vector<SolverInfo> out;
  for (const auto& s : all_solvers())
    if (!s.gpu || device_present()) out.push_back(s);
  return out;
}

const SolverInfo& solver_info(const std::string& name) {
  for (const auto& s : all_solvers())
    if (s.name == name) return s;
  throw std::invalid_argument("unknown solver '" + name +
                              "' (this build has: " + join_names(all_solvers()) + ")");
}

double host_bytes_per_body(const SolverInfo& info, Precision p) {
  return p == Precision::double_ ? info.host_bytes_per_body_double : info.host_bytes_per_body;
}

double host_scratch_bytes_per_body(const SolverInfo& info, Precision p) {
  const double cpu = p == Precision::double_ ? k_cpu_host_bytes_double : k_cpu_host_bytes;
  return std::max(0.0, host_bytes_per_body(info, p) - cpu);
}

void check_device_memory(const SolverInfo& info, long long n) {
  if (!info.gpu || !device_present()) return;
  const double need = info.device_bytes_per_body * static_cast<double>(n);
  const double free_bytes = static_cast<double>(device_free_memory());
  if (need <= free_bytes) return;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s with N = %lld needs about %.1f GiB of GPU memory (%.0f bytes a body); %.1f GiB "
                "are free on %s",
                info.name.c_str(), n, need / 1073741824.0, info.device_bytes_per_body,
                free_bytes / 1073741824.0, device_info().name.c_str());
  throw InputError(buf);
}

int default_block_size(const std::string& name) { return solver_info(name).default_block; }

std::string spreading_solver_names() {
  std::string s;
  for (const auto& i : all_solvers())
    if (i.spreads) s += (s.empty() ? "" : ", ") + i.name;
  return s.empty() ? "none in this build" : s;
}

std::string double_solver_names() {
  std::string s;
  for (const auto& i : all_solvers())
    if (i.doubles) s += (s.empty() ? "" : ", ") + i.name;
  return s;
}

int resolve_gpus(const SolverInfo& info, int asked) {
  const int visible = device_count();
  if (asked < 0) throw InputError("a GPU count must be 1 or more");
  if (asked == 0) return info.spreads && visible > 1 ? visible : 1;
  if (asked == 1) return 1;
  if (!info.spreads)  // and where there are too few GPUs anyway, that first
    throw InputError(info.name + " runs on one device" +
                     (asked > visible ? " (and this machine has " + std::to_string(visible) +
                                            (visible == 1 ? " GPU" : " GPUs") +
                                            (visible == 0 ? ": " + device_info().reason : "") + ")"
                                      : std::string()) +
                     "; the solvers that spread over several GPUs are " + spreading_solver_names());
  if (asked > visible)
    throw InputError("this machine has " + std::to_string(visible) +
                     (visible == 1 ? " GPU" : " GPUs") +
                     (visible == 0 ? " (" + device_info().reason + ")" : std::string()));
  return asked;
}

std::unique_ptr<Solver> make_solver(const std::string& name, int block_size, int gpus) {
  const SolverInfo& info = solver_info(name);
  gpus = resolve_gpus(info, gpus);
  if (!info.gpu) {
    if (block_size != 0) {
      // CPU solvers have no block size; accept none rather than ignore one silently.
      throw std::invalid_argument("solver '" + name + "' runs on the CPU and takes no block size");
    }
    return info.make(0);
  }
  if (block_size == 0) block_size = info.default_block;
  bool ok = block_size == 0;  // only where the solver's default is its own choice
  for (int b : info.block_sizes) ok = ok || b == block_size;
  if (!ok) {
    std::ostringstream s;
    s << "block size " << block_size << " is not supported by " << name << " (supported:";
    for (int b : info.block_sizes) s << " " << b;
    s << ")";
    throw std::invalid_argument(s.str());
  }
  require_device();
#ifdef ORRERY_HAVE_CUDA
  if (gpus > 1) return make_spread_solver(info, block_size, gpus);
#endif
  return info.make(block_size);
}

std::string default_solver_name() {
  const auto avail = available_solvers();
  for (const char* want : {"cuda-fast", "cuda-static", "cuda-dynamic", "cpu-omp"})
    for (const auto& s : avail)
      if (s.name == want) return s.name;
  return avail.empty() ? "cpu" : avail.front().name;
}

}  // namespace orrery
