// Checks orrery-bench's command line and resolves it into a plan, before anything is allocated.
#include "options.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "orrery/device.h"

namespace orrery::bench {
namespace {

constexpr long long k_max_n = std::numeric_limits<std::int32_t>::max();
// Bytes per body the GPU runs need: positions twice (ping-pong), velocities, and an allowance of
// two more arrays for a solver's scratch (cuda-fast's autotuner and split-sum buffers).
constexpr double k_device_bytes_per_body = 5.0 * sizeof(Vec4);
// Host bytes per body: the initial state (positions, velocities), the output positions, and under
// --compare the reference's state as well.
constexpr double k_host_bytes_per_body = 3.0 * sizeof(Vec4);
constexpr double k_host_compare_bytes_per_body = 6.0 * sizeof(Vec4);

// A whole number, the whole text; false for anything else (including out of range).
bool parse_whole(const std::string& text, long long& out) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out);
  return r.ec == std::errc() && r.ptr == end;
}

std::string gib(double bytes) {
  std::ostringstream s;
  s.precision(1);
  s << std::fixed << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string sizes(const std::vector<int>& v) {
  std::string s;
  for (int b : v) s += (s.empty() ? "" : " ") + std::to_string(b);
  return s;
}

template <class T>
void append_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// "all" must stand alone in a list.
bool is_all(const std::vector<std::string>& items, const char* option) {
  const bool any = std::find(items.begin(), items.end(), "all") != items.end();
  if (any && items.size() > 1)
    throw UsageError(std::string(option) + ": 'all' cannot be combined with other values");
  return any;
}

// MemAvailable from /proc/meminfo in bytes, or 0 when it cannot be read (then no host check).
double host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0;
}

// The solvers named by --solver: those to check options against (for `all`, every compiled one)
// and those to run (for `all`, the ones that can run here; the others get a note).
void resolve_solvers(const RawOptions& raw, std::vector<SolverInfo>& checked, Plan& plan) {
  if (raw.solvers.empty()) throw UsageError("--solver: no solver given");
  if (is_all(raw.solvers, "--solver")) {
    checked = all_solvers();
    for (const SolverInfo& s : checked) {
      if (s.gpu && !device_present())
        plan.notes.push_back("skipped " + s.name + ": " + device_info().reason);
      else
        plan.solvers.push_back({s, {}});
    }
    return;
  }
  for (const std::string& name : raw.solvers) {
    if (name.empty()) throw UsageError("--solver: empty solver name in the list");
    const SolverInfo* info = nullptr;
    try {
      info = &solver_info(name);
    } catch (const std::invalid_argument& e) {
      if (!cuda_compiled() && name.rfind("cuda", 0) == 0)  // a CUDA solver in a CPU-only build
        throw UsageError("--solver " + name + ": not in this build; " + device_info().reason);
      throw UsageError(std::string("--solver: ") + e.what());
    }
    if (std::any_of(checked.begin(), checked.end(),
                    [&](const SolverInfo& s) { return s.name == name; }))
      continue;
    if (info->gpu) {
      try {
        require_device();
      } catch (const std::exception& e) {
        throw UsageError("--solver " + name + ": " + e.what());
      }
    }
    checked.push_back(*info);
    plan.solvers.push_back({*info, {}});
  }
}

// Fills each solver's block list from --block (nothing: defaults; `all`: each one's set).
void resolve_blocks(const RawOptions& raw, const std::vector<SolverInfo>& checked, Plan& plan) {
  const bool given = !raw.blocks.empty();
  if (!given || is_all(raw.blocks, "--block")) {
    for (SolverPlan& s : plan.solvers) {
      if (!s.info.gpu)
        s.blocks = {0};
      else if (given)
        s.blocks = s.info.block_sizes;
      else
        s.blocks = {default_block_size(s.info.name)};
    }
    return;
  }
  std::vector<int> asked;
  for (const std::string& text : raw.blocks) append_unique(asked, parse_block(text));

  std::vector<std::string> supported;  // "name: sizes" of every GPU solver checked against
  for (const SolverInfo& s : checked)
    if (s.gpu) supported.push_back(s.name + ": " + sizes(s.block_sizes));
  if (supported.empty()) {
    std::vector<std::string> names;
    for (const SolverInfo& s : checked) names.push_back(s.name);
    throw UsageError("--block " + std::to_string(asked.front()) +
                     ": none of the selected solvers (" + join(names) +
                     ") takes a block size; CPU solvers have none" +
                     (cuda_compiled() ? "" : " and this build has no CUDA solvers"));
  }
  for (int b : asked) {
    const bool any = std::any_of(checked.begin(), checked.end(), [&](const SolverInfo& s) {
      return std::find(s.block_sizes.begin(), s.block_sizes.end(), b) != s.block_sizes.end();
    });
    if (!any)
      throw UsageError("--block " + std::to_string(b) +
                       ": block size not supported by any selected solver (" +
                       join(supported, "; ") + ")");
  }
  for (SolverPlan& s : plan.solvers) {
    if (!s.info.gpu) {
      s.blocks = {0};
      continue;
    }
    for (int b : asked) {
      if (std::find(s.info.block_sizes.begin(), s.info.block_sizes.end(), b) !=
          s.info.block_sizes.end())
        s.blocks.push_back(b);
      else
        plan.notes.push_back("skipped " + s.info.name + " at block " + std::to_string(b) +
                             ": not supported (it has " + sizes(s.info.block_sizes) + ")");
    }
  }
  plan.solvers.erase(std::remove_if(plan.solvers.begin(), plan.solvers.end(),
                                    [](const SolverPlan& s) { return s.blocks.empty(); }),
                     plan.solvers.end());
}

void check_params(const SimParams& p) {
  // Checked one at a time so the message names the option.
  const struct {
    const char* option;
    float SimParams::*field;
  } fields[] = {{"--dt", &SimParams::dt},
                {"--softening", &SimParams::softening},
                {"--damping", &SimParams::damping}};
  for (const auto& f : fields) {
    SimParams one;
    one.*(f.field) = p.*(f.field);
    try {
      validate(one);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string(f.option) + ": " + e.what());
    }
  }
}

void check_output_path(const std::string& path, const char* option) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UsageError(std::string(option) + " " + path + ": directory " + dir.string() +
                     " does not exist");
  if (fs::is_directory(p, ec))
    throw UsageError(std::string(option) + " " + path + ": is a directory");
  const bool exists = fs::exists(p, ec);
  if (access(exists ? p.c_str() : dir.c_str(), W_OK) != 0)
    throw UsageError(std::string(option) + " " + path + ": not writable");
}

// Rejects an N whose buffers cannot fit, before anything is allocated.
void check_memory(const Plan& plan) {
  const bool gpu = std::any_of(plan.solvers.begin(), plan.solvers.end(),
                               [](const SolverPlan& s) { return s.info.gpu; });
  const double host_free = host_available_bytes();
  const double device_free = gpu ? static_cast<double>(device_free_memory()) : 0.0;
  const double host_per_body = plan.compare ? k_host_compare_bytes_per_body : k_host_bytes_per_body;
  for (int n : plan.ns) {
    // GPU runs only happen in timing mode or, under --compare, up to --cpu-max-n.
    const bool gpu_runs = gpu && (!plan.compare || n <= plan.cpu_max_n);
    const double device_need = k_device_bytes_per_body * n;
    if (gpu_runs && device_need > device_free)
      throw UsageError("--n " + std::to_string(n) +
                       ": too large for the GPU's memory (needs about " + gib(device_need) + ", " +
                       gib(device_free) + " free on " + device_info().name + ")");
    // Host state exists only for the runs that happen: CPU ones up to --cpu-max-n, GPU ones.
    const double host_need = host_per_body * n;
    if ((gpu_runs || n <= plan.cpu_max_n) && host_free > 0 && host_need > host_free)
      throw UsageError("--n " + std::to_string(n) + ": needs about " + gib(host_need) +
                       " of host memory, only " + gib(host_free) + " available");
  }
}

}  // namespace

int parse_body_count(const std::string& text) {
  long long v = 0;
  if (!parse_whole(text, v)) {
    const bool digits = !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos;
    if (digits && text.size() > 1)  // a whole number too long for 64 bits
      throw UsageError("--n " + text + ": more than the largest supported N (" +
                       std::to_string(k_max_n) + ")");
    throw UsageError("--n '" + text + "': not a whole number");
  }
  if (v < 1) throw UsageError("--n " + text + ": the number of bodies must be at least 1");
  if (v > k_max_n)
    throw UsageError("--n " + text + ": more than the largest supported N (" +
                     std::to_string(k_max_n) + ")");
  return static_cast<int>(v);
}

int parse_block(const std::string& text) {
  long long v = 0;
  if (!parse_whole(text, v))
    throw UsageError("--block '" + text + "': not a whole number or 'all'");
  if (v < 1 || v > std::numeric_limits<int>::max())
    throw UsageError("--block " + text + ": a block size must be a positive number of threads");
  return static_cast<int>(v);
}

Plan make_plan(const RawOptions& raw) {
  Plan plan;
  if (raw.ns.empty()) throw UsageError("--n: no body count given");
  for (const std::string& text : raw.ns) append_unique(plan.ns, parse_body_count(text));
  if (raw.steps < 1)
    throw UsageError("--steps " + std::to_string(raw.steps) + ": must be at least 1");
  if (raw.warmup < 0)
    throw UsageError("--warmup " + std::to_string(raw.warmup) + ": must be at least 0");
  if (raw.cpu_max_n < 0 || raw.cpu_max_n > k_max_n)
    throw UsageError("--cpu-max-n " + std::to_string(raw.cpu_max_n) + ": must be in [0, " +
                     std::to_string(k_max_n) + "]");
  try {
    plan.preset = parse_preset(raw.preset);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--preset: ") + e.what());
  }
  check_params(raw.params);
  check_output_path(raw.csv, "--csv");
  check_output_path(raw.json, "--json");
  if (!raw.csv.empty() && raw.csv == raw.json)
    throw UsageError("--csv and --json name the same file");

  plan.steps = raw.steps;
  plan.warmup = raw.warmup;
  plan.params = raw.params;
  const char* seed_end = raw.seed.data() + raw.seed.size();
  const auto seed = std::from_chars(raw.seed.data(), seed_end, plan.seed);
  if (seed.ec != std::errc() || seed.ptr != seed_end)
    throw UsageError("--seed '" + raw.seed + "': not a whole number in [0, 2^64)");
  plan.csv = raw.csv;
  plan.json = raw.json;
  plan.compare = raw.compare;
  plan.cpu_max_n = static_cast<int>(raw.cpu_max_n);

  std::vector<SolverInfo> checked;
  resolve_solvers(raw, checked, plan);
  resolve_blocks(raw, checked, plan);
  if (plan.compare) {
    const bool other = std::any_of(plan.solvers.begin(), plan.solvers.end(),
                                   [](const SolverPlan& s) { return s.info.name != "cpu"; });
    if (!other)
      throw UsageError("--compare: select a solver other than cpu (cpu is the reference)");
  }
  check_memory(plan);
  return plan;
}

}  // namespace orrery::bench
