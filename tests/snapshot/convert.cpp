// orrery_snapshot_convert IN OUT: loads a snapshot (any format read, told by the content) and
// writes it as OUT's name asks (orrery/formats.h: .csv CSV, .tipsy TIPSY, .hdf5 HDF5, .orrery). The
// TIPSY test (tipsy_check.py) reads and writes files through it. Bad input: one line, exit 2.
#include <cstdio>
#include <exception>
#include <string>

#include "orrery/snapshot.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: orrery_snapshot_convert IN OUT\n");
    return 2;
  }
  try {
    const orrery::Snapshot s = orrery::load_snapshot(argv[1]);
    orrery::save_snapshot(argv[2], s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery_snapshot_convert: %s\n", e.what());
    return 2;
  }
  return 0;
}
