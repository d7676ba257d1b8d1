// Orrery's own snapshot format (snapshot.cpp), for the formats' registry (formats.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "orrery/snapshot.h"

namespace orrery::orrery_format {

// Whether the bytes start with the format's magic.
bool looks_like(const std::uint8_t* data, std::size_t size);
std::vector<std::uint8_t> encode(const Snapshot& s);
// Throws SnapshotError naming `name`.
Snapshot decode(const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace orrery::orrery_format
