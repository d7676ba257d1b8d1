// What the HDF5 reader and writer share: identifiers closed when they go, and libhdf5 kept quiet.
#pragma once

#include <hdf5.h>

#include "orrery/no_copy.h"

namespace orrery::hdf5 {

// An HDF5 identifier closed when it goes.
class Id : NoCopy {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
  ~Id() {
    if (m_id >= 0) m_close(m_id);
  }
  operator hid_t() const { return m_id; }
  bool ok() const { return m_id >= 0; }

 private:
  hid_t m_id;
  herr_t (*m_close)(hid_t);
};

// libhdf5 prints its error stack by default: a fault here is one SnapshotError line instead.
inline void quiet() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

}  // namespace orrery::hdf5
