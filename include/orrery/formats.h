// The snapshot formats as a registry of records: what each is called, the names it is written
// under, how its content is told, how it is read (one file or a set) and written, and what it
// keeps. Reading, writing, the programs' --save checks and their messages go through the records:
// a new format is its reader and writer and one row in src/sim/formats.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "orrery/snapshot.h"

namespace orrery {

// One file of a snapshot (a set has several), as read.
struct SnapshotFile {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

struct FormatInfo {
  SnapshotFormat id;
  const char* name;         // as messages say it: "Orrery", "TIPSY", "GADGET-2", "HDF5", "CSV"
  const char* description;  // one phrase, for --help and the docs
  // The names it is written under, lower case with the dot (the first is the usual one). Orrery's
  // format also takes a name with no extension (a device such as /dev/null, a bare name).
  std::vector<std::string> extensions;
  // What a file of it keeps besides positions, velocities and masses.
  bool keeps_run;      // the solver, integrator, parameters, time and steps: an exact restart
  bool keeps_types;    // particle types and IDs
  bool keeps_doubles;  // a double-precision run's values in double
  // Whether bytes start like it (nullptr: never read, as CSV).
  bool (*looks_like)(const std::uint8_t* data, std::size_t size);
  // How many files the set that the first starts has (nullptr: always one file), and their names
  // from the name given (any of them, or their base).
  int (*set_size)(const std::vector<std::uint8_t>& first, const std::string& name);
  std::vector<std::string> (*set_names)(const std::string& path, int count);
  // Reads the set's files (one for single-file formats); throws SnapshotError naming the file.
  Snapshot (*decode)(const std::vector<SnapshotFile>& files, const LoadOptions& o);
  // The file's bytes (nullptr: read, not written, as GADGET-2).
  std::vector<std::uint8_t> (*encode)(const Snapshot& s);
};

// Every format, in the order their content is tried when reading.
const std::vector<FormatInfo>& format_table();
const FormatInfo& format_info(SnapshotFormat f);
// The format a content is in; nullptr where none reads it.
const FormatInfo* format_of(const std::uint8_t* data, std::size_t size);
// The format a name is written in, by its extension (any case). Throws InputError naming the
// path and the extensions that are written, for one that no format writes ("x.out").
const FormatInfo& format_for_writing(const std::string& path);
// The extensions that are written, for messages and help: ".orrery, .tipsy, .hdf5, ...".
std::string written_extensions();

// A name to save to, checked before a run: an extension no format writes is refused with
// InputError naming the option ("--save 'x.out': no format is written as '.out' ...").
void check_save_format(const std::string& path, const std::string& option);

// save_snapshot in a format chosen by the caller, whatever the name (--export-csv).
void save_snapshot(const std::string& path, const Snapshot& s, SnapshotFormat f);

}  // namespace orrery
