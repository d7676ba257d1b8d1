// GADGET-2 binary snapshots (SnapFormat 1 and 2, either byte order, one file or several), for
// snapshot.cpp. The format: Fortran records (a 4-byte length before and after each block); a
// 256-byte header (particles of each of 6 types in this file and in all files, the mass of each
// type where all its particles weigh the same, time, redshift, box size, files in the set); then
// POS, VEL and ID for every particle, MASS for the types whose header mass is 0, and gas blocks
// (U, RHO, HSML, ...) that Orrery does not use. SnapFormat 2 puts an 8-byte record with a
// 4-character label before each block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "orrery/formats.h"

namespace orrery::gadget {

constexpr int k_types = 6;  // gas, halo, disk, bulge, stars, boundary

// Whether the bytes start like a GADGET-2 file: a 256-byte header record (SnapFormat 1) or a
// "HEAD" label record (SnapFormat 2), in either byte order.
bool looks_like(const std::uint8_t* data, std::size_t size);
// The header's NumFilesPerSnapshot (0 and 1: one file). Throws SnapshotError naming `name`.
int files_in_set(const std::uint8_t* data, std::size_t size, const std::string& name);
// The names of a set's files, base.0 to base.(count - 1), from the name of any of them (a name
// without a numeric suffix is the base itself).
std::vector<std::string> set_names(const std::string& path, int count);

using File = SnapshotFile;
// The header's totals of each type against what the files held (a total of 0: not filled in).
// Throws SnapshotError naming `name`.
void check_counts(const std::string& name, const std::int64_t (&total)[k_types],
                  const std::int64_t (&seen)[k_types]);
// What the GADGET-2 reader ends with: check_counts (not for a `lone` file: NumFilesPerSnapshot 0
// or 1, read by its own counts as AMUSE and yt read it), at least one particle, every body
// checked, and the file's time, redshift and box. Throws SnapshotError naming `name`.
void finish(Snapshot& s, const std::string& name, const std::int64_t (&total)[k_types],
            const std::int64_t (&seen)[k_types], double time, double redshift, double box,
            bool lone);
// The bodies of every file of a set, in file order and by type within each; their types and IDs;
// the time, redshift and box size. Velocities are divided by sqrt(o.gadget_g) and the time
// multiplied by it, so that the run's G is 1 (positions and masses as in the file). Every block
// marker is checked against its pair and against the header's counts before anything is read:
// throws SnapshotError naming the file and the block.
Snapshot decode(const std::vector<File>& files, const LoadOptions& o);

}  // namespace orrery::gadget
