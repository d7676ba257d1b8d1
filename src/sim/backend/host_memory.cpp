// MemAvailable and the one check of a state against it.
#include "orrery/host_memory.h"

#include <cstdio>
#include <fstream>

#include "orrery/input.h"

namespace orrery {

double host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  double kib = 0;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0;
}

std::string gib_text(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

void check_host_memory(long long n, double bytes_per_body) {
  const double available = host_available_bytes();
  const double need = bytes_per_body * static_cast<double>(n);
  if (available <= 0 || need <= available) return;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "N = %lld needs about %s of memory (%.0f bytes a body); %s are available", n,
                gib_text(need).c_str(), bytes_per_body, gib_text(available).c_str());
  throw InputError(buf);
}

}  // namespace orrery
