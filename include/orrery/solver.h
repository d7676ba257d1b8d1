// The Solver interface, simulation parameters and the factory that lists and builds solvers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

struct SimParams {
  float dt = 0.016f;       // time step
  float softening = 0.1f;  // eps; the interaction uses eps^2
  float damping = 1.0f;    // velocity damping per step, in [0, 1]
};

// Throws std::invalid_argument with a one-line message naming the bad value.
void validate(const SimParams& p);

// Advances the system one step, pos_in -> pos_out, velocities in place. CPU solvers take host
// pointers; GPU solvers take device pointers (plain allocations or mapped GL buffers).
// pos_in and pos_out must not overlap.
class Solver {
 public:
  virtual ~Solver() = default;
  virtual const std::string& name() const = 0;
  virtual bool on_device() const = 0;
  // Threads per block for GPU solvers; 0 for CPU solvers.
  virtual int block_size() const { return 0; }
  // A one-line description of the configuration in use (autotuned solvers report their choice).
  virtual std::string config() const;
  virtual void step(const Vec4* pos_in, Vec4* pos_out, Vec4* vel, int n, const SimParams& p) = 0;
};

struct SolverInfo {
  std::string name;
  bool gpu = false;
  std::vector<int> block_sizes;  // empty for CPU solvers
  std::string description;
};

// Every solver compiled into this build, in display order.
const std::vector<SolverInfo>& all_solvers();
// Those that can run here (GPU solvers only when a CUDA device is present).
std::vector<SolverInfo> available_solvers();
// Looks a solver up by name; throws std::invalid_argument listing the valid names.
const SolverInfo& solver_info(const std::string& name);
// Builds a solver. block_size 0 picks the solver's default (for cuda-fast: autotuned). Throws
// std::invalid_argument for an unknown name or an unsupported block size, std::runtime_error for a
// GPU solver with no device.
std::unique_ptr<Solver> make_solver(const std::string& name, int block_size = 0);
// The default block size of a GPU solver (0 for CPU solvers).
int default_block_size(const std::string& name);

}  // namespace orrery
