// Private: an HDF5 snapshot's units and cosmology as its groups give them (docs/formats.md,
// "Units"), read in the reader process.
#pragma once

#include <string>

#include "hdf5_reader.h"
#include "orrery/units.h"

namespace orrery::hdf5 {

// The file's cosmology: SWIFT's Cosmology group, else GADGET-4's and AREPO's Parameters or Header
// (the first file's Time and Redshift, from its Header).
Cosmology cosmology(const Reader& r, double time, double redshift);
// The units of the file's numbers and what told them (`how`); refuses o.units and --gadget-g for
// a file that brings its own. Throws SnapshotError naming the file and the field.
UnitSystem file_units(const Reader& r, const LoadOptions& o, const Cosmology& c, std::string& how);
// The units of the run an Orrery file was written from, which its numbers are converted back
// to; `file` where it has none.
UnitSystem run_units(const Reader& r, const UnitSystem& file);

}  // namespace orrery::hdf5
