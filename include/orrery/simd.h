// The SIMD level of the CPU solvers' sums (cpu-omp, cpu-bh): the widest this CPU supports by
// default (on x86: AVX3 is AVX-512, then AVX2, SSE4, SSSE3, SCALAR), or one chosen to compare.
#pragma once

#include <string>
#include <vector>

namespace orrery {

// The level the sums run at now.
std::string simd_level();
// The levels compiled in that this CPU supports, widest first.
std::vector<std::string> simd_levels();
// Runs the sums at `name` from now on (one of simd_levels()); false, changing nothing, if it is
// not one. An empty name goes back to the widest.
bool use_simd_level(const std::string& name);

}  // namespace orrery
