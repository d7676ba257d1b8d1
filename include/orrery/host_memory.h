// The host's memory as both programs check it before allocating a state.
#pragma once

#include <string>

namespace orrery {

// MemAvailable from /proc/meminfo in bytes, or less where an address-space limit (ulimit -v)
// leaves this process less; 0 when neither can be read (then no check).
double host_available_bytes();
// "3.1 GiB".
std::string gib_text(double bytes);
// Throws InputError ("N = 134217728 needs about 24.0 GiB of memory (192 bytes a body); 7.1 GiB are
// available") when n bodies at bytes_per_body do not fit in what is available now.
void check_host_memory(long long n, double bytes_per_body);

}  // namespace orrery
