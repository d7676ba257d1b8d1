// MemAvailable and the one check of a state against it.
#include "orrery/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "orrery/input.h"

namespace orrery {

namespace {

double mem_available() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  double kib = 0;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0;
}

// What an address-space limit (ulimit -v) leaves this process: the limit less its size now; -1
// where there is no limit.
double address_room() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return -1;
  std::ifstream f("/proc/self/statm");
  double pages = 0;
  if (!(f >> pages)) return -1;
  const double used = pages * static_cast<double>(sysconf(_SC_PAGESIZE));
  return std::max(0.0, static_cast<double>(r.rlim_cur) - used);
}

}  // namespace

double host_available_bytes() {
  const double available = mem_available(), room = address_room();
  if (room < 0) return available;
  return available > 0 ? std::min(available, room) : std::max(room, 1.0);
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
