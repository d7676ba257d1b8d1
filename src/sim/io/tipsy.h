// TIPSY particle files (the gas, dark and star records of the standard format, big-endian as
// written by the standard tools, or native little-endian), for snapshot.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "orrery/snapshot.h"

namespace orrery {

// Every body finite, with mass and radius >= 0; else SnapshotError "<name>: body i: its ...".
void check_bodies(const BodyState& b, const std::string& name);
// The same for bodies [first, first + n) of a snapshot, at pos and vel.
void check_bodies(const Vec4* pos, const Vec4* vel, std::size_t n, std::size_t first,
                  const std::string& name);

namespace tipsy {

// Big-endian, a 32-byte header (28 bytes and the standard tools' 4 of padding), every body a dark
// particle (eps: the run's softening, phi: 0).
std::vector<std::uint8_t> encode(const Snapshot& s);
// Whether the bytes start with a TIPSY header (either byte order, with or without the padding)
// whose counts add up and match the size exactly.
bool looks_like(const std::uint8_t* data, std::size_t size);
// Why a file that is laid out as TIPSY is not read ("" when it is not TIPSY-shaped): no bodies,
// or an ndim other than 3.
std::string near_miss(const std::uint8_t* data, std::size_t size);
// Gas, dark and star particles, in that order, become bodies (mass, position, velocity; radius
// 0); the header's time becomes the run's time. Throws SnapshotError naming `name`.
Snapshot decode(const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace tipsy
}  // namespace orrery
