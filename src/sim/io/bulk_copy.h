// Copies into fresh memory that ask for their pages in bulk: a 16M-body snapshot's 690 MB
// arrive from HDF5's reader process, and faulting their pages in one 4 KB at a time as a copy
// wrote them took most of the copy's time.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

namespace orrery {

// Asks the kernel for the pages of [p, p + bytes) now, as huge pages where it offers them (it
// may not: then the pages come as they are written, as before).
void populate_pages(void* p, std::size_t bytes);

// v = [first, first + n), its pages populated before the copy writes them.
template <class T>
void assign_bulk(std::vector<T>& v, const T* first, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T>().swap(v);
  v.reserve(n);
  populate_pages(v.data(), n * sizeof(T));
  v.assign(first, first + n);
}

}  // namespace orrery
