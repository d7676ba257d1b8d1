// Snapshots: Orrery's own format (the complete state of a run, for an exact restart), TIPSY,
// GADGET-2, HDF5 and CSV (orrery/formats.h has their records). Every file is written to a temporary
// file beside it and renamed over it, so a failed write never leaves half a file where a good one
// was. The formats are documented in docs/formats.md.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "orrery/input.h"
#include "orrery/integrators.h"
#include "orrery/output_file.h"
#include "orrery/presets.h"
#include "orrery/run_state.h"
#include "orrery/solver.h"
#include "orrery/units.h"

namespace orrery {

// A file that cannot be read as a snapshot (or written): the message names the file and what is
// wrong, in one line. An InputError, so the programs exit with code 2.
class SnapshotError : public InputError {
 public:
  using InputError::InputError;
};

// The formats (their records: orrery/formats.h). GADGET-2 is read, not written; CSV written, not
// read.
enum class SnapshotFormat { orrery, tipsy, gadget2, hdf5, csv };
// The format a name is written in, by its extension (format_for_writing). Throws InputError for an
// extension no format writes.
SnapshotFormat snapshot_format_for(const std::string& path);
const char* to_string(SnapshotFormat f);

struct Snapshot {
  BodyState bodies;
  RunState run;  // TIPSY keeps the time alone: the rest is the defaults, and run_recorded is false
  bool run_recorded = true;
  SnapshotFormat format = SnapshotFormat::orrery;
  // GADGET files: each body's particle type (0 gas, 1 halo, 2 disk, 3 bulge, 4 stars, 5 boundary)
  // and ID, in body order; the file's own time, redshift and periodic box (0: none, in the file's
  // length unit), and how its units were taken (a line for the panel and the terminal). Other
  // formats leave them empty. The units themselves are the run's (run.units), for every format.
  std::vector<std::uint8_t> types;
  std::vector<std::uint64_t> ids;
  double file_time = 0, redshift = 0, box_size = 0;
  std::string units_note;
};

// How a file is read. A file that brings no units (TIPSY, GADGET-2, an HDF5 file with no Units
// group) takes `units` where given. Else GADGET-2 and such HDF5 files are in GADGET's units (kpc,
// 1e10 solar masses and km/s, G = gadget_g = 43007.1), unless `gadget_g_given`: G is then
// gadget_g in units with no physical scale (1: a file made in G = 1 units); TIPSY is in N-body
// units. `types`: the particle types to keep (empty: all); a file without types refuses a subset.
struct LoadProgress;
struct LoadOptions {
  double gadget_g = k_gadget_g;
  bool gadget_g_given = false;
  std::optional<UnitSystem> units;
  std::string gadget_g_option = "--gadget-g", units_option = "--units";  // as refusals name them
  std::vector<int> types;
  LoadProgress* progress = nullptr;  // where a long load reports, and is told to stop
};
// Throws SnapshotError naming `name` where a file that brings its own units (`format`) was given
// other units (o.units or --gadget-g).
void refuse_other_units(const LoadOptions& o, const std::string& name, const char* format);
// The units of a file that brings none, by those options, with the file's cosmology.
UnitSystem units_for_file(const LoadOptions& o, const Cosmology& c);
// Takes a units text (--units, Python's units=) into o, after any G given (o.gadget_g_given):
// refuses henon, which rescales a preset, and units with a scale beside a G (which they fix);
// nbody with a G keeps that G. `name` is the option as typed ("--units", shown --units 'x'; or
// Python's "units", shown units='x'), `gadget_g_name` the G option's. Throws InputError.
void take_units_text(LoadOptions& o, const std::string& text, const std::string& name,
                     const std::string& gadget_g_name);

// A load as another thread (the viewer's panel) or a terminal line watches it: bytes read of
// those to read (a set's total grows as its files open), then decoding. Setting `cancel` stops
// it at the next chunk (or kills HDF5's reader process): the load throws LoadCancelled. `tick`,
// when set, is called on the loading thread after each chunk and while decoding waits.
struct LoadProgress {
  std::atomic<long long> read{0}, total{0};
  std::atomic<bool> decoding{false};
  std::atomic<bool> cancel{false};
  std::function<void(const LoadProgress&)> tick;
  // Cancelled: throws LoadCancelled naming `path`; else calls tick.
  void check(const std::string& path);
};

class LoadCancelled : public SnapshotError {
 public:
  using SnapshotError::SnapshotError;
};
// Sets p.tick to print a line to stderr every `every_s` seconds of a long load:
// "<program>: loading <path>: 45% of 660 MB (4 s)", or "... decoding (6 s)".
void print_load_progress(LoadProgress& p, const std::string& program, const std::string& path,
                         double every_s = 2.0);
// --types, --gadget-g and --units as typed (none: not given): InputError naming the option (both
// --gadget-g and --units; henon, which rescales a preset, for a file).
LoadOptions parse_load_options(const std::optional<std::string>& types,
                               const std::optional<std::string>& gadget_g,
                               const std::optional<std::string>& units = std::nullopt);
// The six GADGET particle types' names: gas, halo, disk, bulge, stars, boundary.
const std::vector<std::string>& particle_type_names();

// Version 2 adds a double-precision run's bodies in f64 (flag bit 3), version 3 the adaptive step
// (flag bit 4: eta and the next step's size in the header), version 4 euler's adaptive memory
// (bit 5) and a dt that is not a float (bit 6), version 5 the run's units where they are not
// N-body units (bit 7), version 6 the parameter rows the fixed header has no place for (bit 8: a
// row added to the table is kept by name). A file is written in the oldest version that holds it,
// which every build since reads; all six load.
constexpr std::uint32_t k_snapshot_version = 6;
constexpr std::size_t k_snapshot_header_bytes = 256;
constexpr std::size_t k_snapshot_solver_chars = 31;  // the longest solver name the header holds

// The file's bytes. Throws SnapshotError (a body count beyond the format, a solver name too long).
std::vector<std::uint8_t> encode_snapshot(const Snapshot& s, SnapshotFormat f);
// Reads either format, detected from the content (Orrery's magic, else a TIPSY header that matches
// the size). Throws SnapshotError with a message naming `name` ("run.orrery: truncated: ...").
Snapshot decode_snapshot(const std::uint8_t* data, std::size_t size, const std::string& name);

// Writes in the format the name asks for (snapshot_format_for), through a temporary file renamed
// over `path`. Throws SnapshotError naming the file (and, for an extension no format writes, the
// ones written); the old file, if any, is left as it was.
void save_snapshot(const std::string& path, const Snapshot& s);
// Throws SnapshotError naming the file (missing, unreadable, or bad content).
// A GADGET-2 set of several files opens from any of its names (snap_005.0, snap_005.1) or from
// their base (snap_005).
Snapshot load_snapshot(const std::string& path, const LoadOptions& o = {});
// The whole content of an input file (a snapshot, a scene). Refuses a folder, a device or a pipe
// (/dev/zero would never end, a FIFO would block), and a read that fails part-way, with a
// SnapshotError naming the file.
// `progress`: bytes are counted in it, and its cancel is checked, every 8 MiB.
std::vector<std::uint8_t> read_input_file(const std::string& path,
                                          LoadProgress* progress = nullptr);

// "x,y,z,vx,vy,vz,mass,radius", then one line a body (9 significant digits: floats round-trip):
// the CSV format's content.
std::string csv_text(const BodyState& s);

}  // namespace orrery
