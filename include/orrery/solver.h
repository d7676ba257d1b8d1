// The Solver interface (a solver) and the factory that lists and builds solvers.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "orrery/params.h"
#include "orrery/phases.h"
#include "orrery/physics.h"

namespace orrery {

// Lets a long CPU step report progress and stop early (the viewer runs CPU steps on a worker
// thread). A cancelled step returns with its outputs partly written: the caller discards them.
struct StepControl {
  std::atomic<long long> bodies_done{0};  // bodies finished in the current run of steps
  std::atomic<bool> cancel{false};
};

// Bodies [first, first + count).
struct BodyRange {
  int first = 0;
  int count = 0;
  int end() const { return first + count; }
};

// A part of a module's work, [from, to) of it (0 <= from <= to <= 1), for spreading it over
// several GPUs. Each module cuts its own units: bodies in index order (cuda-fast's rows), blocks of
// bodies in index order (cuda-static, cuda-dynamic), tile pairs (cuda-fast's pair mode), bodies in
// the tree's Morton order (the tree codes).
struct Part {
  double from = 0.0, to = 1.0;
  // Units [first, end) of `units`: parts that meet at a cut meet at the same unit.
  long long first(long long units) const;
  long long end(long long units) const;
  BodyRange bodies(int n) const {
    return {static_cast<int>(first(n)), static_cast<int>(end(n) - first(n))};
  }
};

// A solver (a gravity module, in REBOUND's words): the accelerations (and potentials) of every
// body, and optionally the seed's fused force + Euler launch, which the `euler` integrator uses
// where a module has it. CPU modules take host pointers; GPU modules take device pointers (plain
// allocations or mapped GL buffers).
class Solver {
 public:
  virtual ~Solver() = default;
  virtual const std::string& name() const = 0;
  virtual bool on_device() const = 0;
  // Threads per block for GPU solvers; 0 for CPU solvers.
  virtual int block_size() const { return 0; }
  // A one-line description of the configuration in use (autotuned solvers report their choice).
  virtual std::string config() const;
  // The fused step, where has_fused_step(): forces and the seed's damped Euler in one pass,
  // pos_in -> pos_out, velocities in place. pos_in and pos_out must not overlap. Modules without
  // one (the tree codes) leave it: the Simulation then runs accelerations() and an Euler pass.
  virtual bool has_fused_step() const { return false; }
  virtual void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p);
  // acc[i] = (the acceleration of body i at positions pos, 0).
  virtual void accelerations(const Vec4* pos, Vec4* acc, int n, const SimParams& p) = 0;
  // out[i] = (0, 0, 0, phi_i), phi_i = -sum_{j != i} m_j / sqrt(|r_ij|^2 + eps^2): each body's
  // softened potential, for the energy. The default is the exact all-pairs sum on the module's
  // side (host or device).
  virtual void potentials(const Vec4* pos, Vec4* out, int n, const SimParams& p);
  // Whether the module sums every pair exactly (no approximation): its potential energy is then
  // the all-pairs sum, which the diagnostics compute on the device pair by pair (half the work
  // of per-body potentials). Tree codes say false: their potentials come from potentials().
  virtual bool all_pairs() const { return true; }
  // Modules that can be spread over several GPUs (spread_solver.h gives each GPU a part): the
  // forces of one part of the work, from all n bodies, added into acc, which the caller zeroes
  // before the first part. Once parts that cover [0, 1) without overlap have run, acc holds what
  // accelerations() gives. A part's forces may land on any body (pair mode: both bodies of each
  // pair), and a tree code builds its whole tree for each part.
  virtual bool can_spread() const { return false; }
  virtual void accelerations_part(const Vec4* pos, Vec4* acc, int n, Part part,
                                  const SimParams& p);
  // Double precision (--precision double): whether the module has a double path, and its
  // accelerations in double, acc[i] = (a_i, 0), arrays on the module's side. Modules without one
  // (the tree codes, whose approximation errs far above float's rounding) throw std::logic_error.
  virtual bool has_double() const { return false; }
  virtual void accelerations_double(const Vec4d* pos, Vec4d* acc, int n, const SimParams& p);
  // Body-body interactions of one force evaluation at n bodies (all-pairs: n^2, NVIDIA's
  // convention, the self term included).
  virtual double interactions(int n) const {
    return static_cast<double>(n) * static_cast<double>(n);
  }
  // Tree codes: the boxes of the cells of the tree their last pass built (to inspect the tree),
  // down to octree level max_level (0: the root), at most `limit` of them; other modules leave
  // `out` empty. Waits for the device.
  virtual void tree_cells(int max_level, std::size_t limit, std::vector<Aabb>& out) {
    (void)max_level, (void)limit;
    out.clear();
  }
  // Test particles: bodies [0, sources) hold every body with mass, and the rest are massless, so
  // they feel the others and pull on nothing. Modules that say takes_sources() then sum over the
  // sources alone, which is exact (a massless body's term is zero) and costs N x sources; the
  // others sum over every body, as exactly. The Simulation sets it before each force pass from its
  // state (all bodies unless the last ones are massless); it holds for passes at n bodies only,
  // and a caller that never sets it gets sums over all N.
  void set_sources(int sources, int n) { m_sources = sources, m_sources_n = n; }
  virtual bool takes_sources() const { return false; }
  // CPU solvers honour a control (progress, cancel) while one is set; GPU solvers ignore it.
  void set_control(StepControl* control) { m_control = control; }
  // The Simulation's phase timer: modules with stages of their own (the tree codes) mark them on it
  // during their acceleration passes (not during potentials(), which the diagnostics time).
  void set_phases(PhaseTimer* phases) { m_phases = phases; }

 protected:
  // Throws std::invalid_argument unless 0 <= part.from <= part.to <= 1 and n >= 1.
  void check_part(Part part, int n) const;
  // The sources of a pass at n bodies (set_sources), at least 1 and at most n.
  int sources(int n) const {
    if (n != m_sources_n) return n;
    return m_sources < 1 ? 1 : (m_sources < n ? m_sources : n);
  }
  StepControl* m_control = nullptr;
  PhaseTimer* m_phases = nullptr;
  int m_sources = 0, m_sources_n = -1;
};

using SolverMaker = std::unique_ptr<Solver> (*)(int block_size);

// One row of the solver registry.
struct SolverInfo {
  std::string name;
  bool gpu = false;
  std::vector<int> block_sizes;  // empty for CPU solvers
  int default_block = 0;         // 0: none (CPU) or chosen by the solver (cuda-fast autotunes)
  std::string description;
  SolverMaker make = nullptr;  // given a supported block size (0 = the solver's choice)
  bool approximate = false;    // a tree code: its result depends on the opening angle theta
  // Device memory a body costs when this solver runs: the state (positions twice, velocities),
  // the Simulation's scratch (accelerations, potentials) and the solver's own (0 for CPU solvers).
  double device_bytes_per_body = 0;
  bool spreads = false;  // can run over several GPUs (make_solver's gpus)
  bool doubles = false;  // has a double-precision path (Solver::has_double())
  // Host memory a body costs at the peak of a step, all told (the state, the Simulation's scratch,
  // the solver's own), in single and in double precision: measured (docs/robustness.md, "Clear
  // limits") for the CPU solvers; for the GPU ones the host holds the state and its copies.
  double host_bytes_per_body = 128;
  double host_bytes_per_body_double = 128;
};

// The host's bytes a body with this solver in that precision (SolverInfo::host_bytes_per_body).
double host_bytes_per_body(const SolverInfo& info, Precision p);
// What the solver adds on the host beyond a state stepped by `cpu` (its trees), for callers that
// hold more copies of the state themselves (the viewer).
double host_scratch_bytes_per_body(const SolverInfo& info, Precision p);

// Throws InputError naming the memory needed when `n` bodies of a GPU solver cannot fit in the
// device's free memory now (for a CPU solver, or with no device, it does nothing).
void check_device_memory(const SolverInfo& info, long long n);

// Every solver compiled into this build, in display order.
const std::vector<SolverInfo>& all_solvers();
// Those that can run here (GPU solvers only when a CUDA device is present).
std::vector<SolverInfo> available_solvers();
// The GPU solvers of a CUDA build, whether or not this build has them (a scene file may name one
// on a machine without CUDA).
const std::vector<std::string>& cuda_solver_names();
// A solver of this build, or a GPU solver of a CUDA build.
bool known_solver_name(const std::string& name);
// Looks a solver up by name; throws std::invalid_argument listing the valid names.
const SolverInfo& solver_info(const std::string& name);
// The GPUs a solver runs on when `asked` are asked for: 0 means the default, every visible GPU
// for a solver that spreads and 1 for the others; 1 is today's one-GPU (or CPU) module. Throws
// InputError for a count below 0, above the GPUs visible, or above 1 for a solver that does not
// spread (the callers put their option and value before the reason).
int resolve_gpus(const SolverInfo& info, int asked);
// The solvers that spread over several GPUs, by name ("cuda-dynamic, cuda-static, ...").
std::string spreading_solver_names();
// The solvers of this build with a double-precision path, by name ("cpu, cpu-omp, ...").
std::string double_solver_names();
// Builds a solver. block_size 0 picks the solver's default (for cuda-fast: autotuned); gpus as
// resolve_gpus() takes it (more than one: the module spread over that many GPUs through NCCL).
// Throws std::invalid_argument for an unknown name, an unsupported block size or GPU count,
// std::runtime_error for a GPU solver with no device or NCCL that cannot be loaded.
std::unique_ptr<Solver> make_solver(const std::string& name, int block_size = 0, int gpus = 1);
// The solver a run starts with when none was named: the first that runs here of cuda-fast,
// cuda-static, cuda-dynamic and cpu-omp.
std::string default_solver_name();
// The default block size of a GPU solver (0 for CPU solvers).
int default_block_size(const std::string& name);

}  // namespace orrery
