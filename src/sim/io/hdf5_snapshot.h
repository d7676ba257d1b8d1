// HDF5 snapshots in the GADGET-3/4, AREPO and SWIFT layout (a Header group of attributes and a
// PartTypeN group of datasets for each particle type), read and written through libhdf5 from and
// to memory images, so the safe writer (a temporary file renamed over the target) and the strict
// size checks of the other formats apply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gadget.h"
#include "orrery/snapshot.h"

namespace orrery::hdf5 {

// Whether the bytes start with HDF5's signature.
bool looks_like(const std::uint8_t* data, std::size_t size);
// Whether this build reads and writes HDF5 (libhdf5 was found).
bool available();
// Header/NumFilesPerSnapshot (1 when absent). Throws SnapshotError naming `name`.
int files_in_set(const std::vector<std::uint8_t>& bytes, const std::string& name);
// The names of a set's files (base.0.hdf5, base.1.hdf5, ...) from any of them, or from the base.
std::vector<std::string> set_names(const std::string& path, int count);

using File = gadget::File;
// Every file's particles, type by type; types and IDs; time, redshift, box size. The units: a
// SWIFT Units group or GADGET-4's Parameters (UnitLength_in_cm, UnitMass_in_g,
// UnitVelocity_in_cm_per_s) give G in the file's units, an Orrery group says G = 1; else
// o.gadget_g. Velocities are divided by sqrt(G) and the time multiplied by it. Throws SnapshotError
// naming the file and the group, dataset or attribute.
Snapshot decode(const std::vector<File>& files, const LoadOptions& o);

// A GADGET-4-style file: Header, PartTypeN (Coordinates, Velocities, Masses, ParticleIDs) by each
// body's type (type 1 where the state has none), and an Orrery group with the run (solver,
// integrator, parameters, time, steps), in G = 1 units.
std::vector<std::uint8_t> encode(const Snapshot& s);

// An adaptive euler run's memory (RunState::last_acc): each PartTypeN group's rows of the last
// evaluation's accelerations (x, y, z, w), beside Orrery@last_eval_time.
constexpr const char* k_memory_dataset = "OrreryLastAccelerations";

}  // namespace orrery::hdf5
