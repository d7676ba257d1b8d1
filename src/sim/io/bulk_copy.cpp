#include "bulk_copy.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace orrery {

void populate_pages(void* p, std::size_t bytes) {
  constexpr std::size_t k_worth = 4u << 20;  // below this, faults cost little
  if (!p || bytes < k_worth) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t start = (at + page - 1) / page * page, end = (at + bytes) / page * page;
  if (end <= start) return;
  void* first = reinterpret_cast<void*>(start);
  // Either call may be refused (an old kernel, transparent huge pages off): a hint only.
#ifdef MADV_POPULATE_WRITE
  madvise(first, end - start, MADV_POPULATE_WRITE);
#endif
}

}  // namespace orrery
