// orrery_snapshot_convert IN OUT: loads a snapshot (Orrery's format or TIPSY, told by the content)
// and writes it as OUT's name asks (.csv: CSV; .tipsy: TIPSY; else Orrery's format). The TIPSY
// test (tipsy_check.py) reads and writes files through it. Bad input: one line, exit 2.
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
    const std::string out = argv[2];
    if (out.size() >= 4 && out.compare(out.size() - 4, 4, ".csv") == 0)
      orrery::save_csv(out, s.bodies);
    else
      orrery::save_snapshot(out, s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery_snapshot_convert: %s\n", e.what());
    return 2;
  }
  return 0;
}
