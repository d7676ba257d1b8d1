// `cpu-bh`: Barnes-Hut on the CPU. The octree (octree.h) is rebuilt every force pass; the walk is
// parallel over groups (the largest cells of at most HostOctree::k_group bodies, small siblings
// packed together) with OpenMP: one interaction list a group, from the opening test of octree.h,
// summed for each of its bodies with the SIMD sums.
#include "cpu_bh.h"

#include <algorithm>

namespace orrery {

void CpuBhSolver::target_box(const SimParams& p, bool relative, int n, const Vec4* pos, float lo[3],
                             float hi[3], float& scale) const {
  lo[0] = lo[1] = lo[2] = INFINITY;
  hi[0] = hi[1] = hi[2] = -INFINITY;
  float least = INFINITY;
  for (int i = 0; i < n; ++i) {
    const Vec4& b = pos[i];
    lo[0] = std::min(lo[0], b.x), lo[1] = std::min(lo[1], b.y), lo[2] = std::min(lo[2], b.z);
    hi[0] = std::max(hi[0], b.x), hi[1] = std::max(hi[1], b.y), hi[2] = std::max(hi[2], b.z);
    if (relative) least = std::min(least, m_last[static_cast<std::size_t>(i)]);
  }
  const float alpha = k_relative * p.theta * p.theta * p.theta;
  scale = relative ? relative_scale(alpha, std::max(least, m_floor)) : 0.0f;
}

std::unique_ptr<Solver> make_cpu_bh_solver(int) { return std::make_unique<CpuBhSolver>(); }

}  // namespace orrery
