// Private: the force sums the CPU solvers vectorise - point masses and quadrupole cells, as
// structure-of-arrays - compiled for every SIMD level Highway knows on this architecture (on x86:
// AVX-512, AVX2 with FMA, SSE4, and scalar), the widest the CPU has chosen at the first call. The
// reciprocal square root is the hardware's estimate and one Newton step.
#pragma once

#include <cstdint>
#include <vector>

#include "orrery/physics.h"

namespace orrery {

// Arrays are padded with zeros to a multiple of this many entries, so every vector load is whole
// whatever the width: a padded entry is massless at the origin, and with softening > 0 it adds
// exactly zero (r^2 >= eps^2 keeps every factor finite).
constexpr int k_simd_pad = 16;

inline int simd_padded(int n) { return (n + k_simd_pad - 1) / k_simd_pad * k_simd_pad; }

// Point masses: x, y, z, m.
struct PointArrays {
  std::vector<float> x, y, z, m;
  int count = 0;  // real entries; the arrays hold simd_padded(count)

  void clear() { count = 0; }
  // Adds one point (the padding is redone by pad()).
  void push(const Vec4& p) {
    if (count >= capacity()) grow();
    const std::size_t k = static_cast<std::size_t>(count++);
    x[k] = p.x, y[k] = p.y, z[k] = p.z, m[k] = p.w;
  }
  void pad();                           // zeros up to simd_padded(count)
  void assign(const Vec4* pos, int n);  // parallel over OpenMP threads when n is large

 private:
  int capacity() const { return static_cast<int>(x.size()) - k_simd_pad; }
  void grow();
};

// Tree cells: centre of mass, mass, traceless quadrupole (xx yy zz xy xz yz) and te = T eps^2
// (cell_field in octree.h).
struct CellArrays {
  std::vector<float> x, y, z, m, q[6], te;
  int count = 0;

  void clear() { count = 0; }
  void push(float cx, float cy, float cz, float mass, const float* quad, float t) {
    if (count >= capacity()) grow();
    const std::size_t k = static_cast<std::size_t>(count++);
    x[k] = cx, y[k] = cy, z[k] = cz, m[k] = mass, te[k] = t;
    for (int j = 0; j < 6; ++j) q[j][k] = quad[j];
  }
  void pad();

 private:
  int capacity() const { return static_cast<int>(x.size()) - k_simd_pad; }
  void grow();
};

// What a point at (x, y, z) feels from every point: acceleration (xyz) and, with `potential`,
// potential (w; the point itself counts too if it is one of them: eps^2 keeps that term finite,
// -m / eps).
Vec4 sum_points(const PointArrays& s, float x, float y, float z, float eps2, bool potential);
// The same from every cell (cell_field).
Vec4 sum_cells(const CellArrays& c, float x, float y, float z, float eps2, bool potential);
// sum_points and sum_cells for two points at[0] and at[1] in one pass over the arrays: out[k] is
// what at[k] feels, the same to the bit as the one-point sums give.
void sum_points_pair(const PointArrays& s, const Vec4* at, float eps2, bool potential, Vec4* out);
void sum_cells_pair(const CellArrays& c, const Vec4* at, float eps2, bool potential, Vec4* out);

// The all-pairs accelerations of bodies [first, first + count) of `s` from its first `sources`
// (the rest massless), tile by tile (each tile of sources stays in cache for the whole block):
// acc[k] for body first + k.
void all_pairs_block(const PointArrays& s, int sources, int first, int count, float eps2,
                     Vec3* acc);

}  // namespace orrery
