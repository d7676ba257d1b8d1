// The solver registry: what is compiled in, what runs here, and construction by name.
#include <sstream>
#include <stdexcept>

#include "cpu_solvers.h"
#include "orrery/device.h"
#include "orrery/solver.h"
#ifdef ORRERY_HAVE_CUDA
#include "cuda_fast.h"
#include "cuda_solvers.h"
#endif

namespace orrery {
namespace {

const std::vector<int> k_tile_blocks = {32, 64, 128, 256, 512, 1024};

std::string join_names(const std::vector<SolverInfo>& v) {
  std::string s;
  for (const auto& i : v) s += (s.empty() ? "" : ", ") + i.name;
  return s;
}

}  // namespace

const std::vector<SolverInfo>& all_solvers() {
  static const std::vector<SolverInfo> list = [] {
    std::vector<SolverInfo> l;
    l.push_back({"cpu", false, {}, "CPU reference, single thread"});
    l.push_back({"cpu-omp", false, {}, "CPU, OpenMP over bodies"});
#ifdef ORRERY_HAVE_CUDA
    l.push_back({"cuda-dynamic", true, k_tile_blocks,
                 "CUDA shared-memory tiles, block size chosen at run time"});
    l.push_back(
        {"cuda-static", true, k_tile_blocks, "CUDA tiles, compile-time block size, unrolled loop"});
    l.push_back({"cuda-fast", true, fast_block_sizes(),
                 "CUDA tuned and autotuned: bodies per thread, j-split, or each pair once"});
#endif
    return l;
  }();
  return list;
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

int default_block_size(const std::string& name) {
  // cuda-fast's default 0 lets its autotuner pick the block size as well.
  return solver_info(name).gpu && name != "cuda-fast" ? 256 : 0;
}

std::unique_ptr<Solver> make_solver(const std::string& name, int block_size) {
  const SolverInfo& info = solver_info(name);
  if (!info.gpu) {
    if (block_size != 0) {
      // CPU solvers have no block size; accept none rather than ignore one silently.
      throw std::invalid_argument("solver '" + name + "' runs on the CPU and takes no block size");
    }
    return name == "cpu" ? make_cpu_solver() : make_cpu_omp_solver();
  }
  if (block_size == 0) block_size = default_block_size(name);
  bool ok = name == "cuda-fast" && block_size == 0;
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
  if (name == "cuda-dynamic") return make_cuda_dynamic_solver(block_size);
  if (name == "cuda-static") return make_cuda_static_solver(block_size);
  if (name == "cuda-fast") return make_cuda_fast_solver(block_size);
#endif
  throw std::logic_error("solver '" + name + "' is registered but has no constructor");
}

}  // namespace orrery
