// Reading HDF5 files from memory: the caller's bytes lent to libhdf5's core driver (never copied),
// a Reader for the file's attributes, and Rows for a dataset read a block of rows at a time, each
// check failing with one SnapshotError line that names the file.
#pragma once

#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hdf5_id.h"
#include "hdf5_snapshot.h"

namespace orrery::hdf5 {

// The bytes an image lends.
struct Image {
  void* bytes;
  size_t size;
};
// Opens the image read-only; a negative id where libhdf5 refuses it.
hid_t open_image(Image& image);

class Reader {
 public:
  explicit Reader(const File& f) : Reader(f.name, f.bytes) {}
  Reader(const std::string& name, const std::vector<std::uint8_t>& bytes)
      : m_name(name), m_image{const_cast<std::uint8_t*>(bytes.data()), bytes.size()} {
    quiet();
    m_file = open_image(m_image);
    if (m_file < 0) fail("not a readable HDF5 file");
  }
  ~Reader() {
    if (m_file >= 0) H5Fclose(m_file);
  }
  [[noreturn]] void fail(const std::string& why) const { throw SnapshotError(m_name + ": " + why); }
  const std::string& name() const { return m_name; }

  bool has(const std::string& path) const {
    return H5Lexists(m_file, path.c_str(), H5P_DEFAULT) > 0;
  }
  // Whether the link at `path` (which has() found) stays in this file.
  bool local(const std::string& path) const {
    H5L_info_t info{};
    return H5Lget_info(m_file, path.c_str(), &info, H5P_DEFAULT) >= 0 &&
           info.type != H5L_TYPE_EXTERNAL;
  }
  bool has_attr(const std::string& group, const std::string& attr) const {
    return has(group) && H5Aexists_by_name(m_file, group.c_str(), attr.c_str(), H5P_DEFAULT) > 0;
  }
  // A numeric attribute's values (as double), `count` of them (0: any number).
  std::vector<double> attr(const std::string& group, const std::string& name,
                           std::size_t count) const {
    const std::string what = group + "/" + name;
    if (!has_attr(group, name)) fail("no attribute " + what);
    Id a(H5Aopen_by_name(m_file, group.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    const H5T_class_t c = H5Tget_class(type);
    if (c != H5T_INTEGER && c != H5T_FLOAT) fail(what + ": not a number");
    Id space(H5Aget_space(a), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space);
    if (n < 1 || (count > 0 && static_cast<std::size_t>(n) != count))
      fail(what + ": " + std::to_string(n) + " values, expected " + std::to_string(count));
    std::vector<double> v(static_cast<std::size_t>(n));
    if (H5Aread(a, H5T_NATIVE_DOUBLE, v.data()) < 0) fail(what + ": cannot be read");
    for (double x : v)
      if (!std::isfinite(x)) fail(what + ": not finite");
    return v;
  }
  // The first number of an attribute, which must lie in [lo, hi] (NaN never does).
  double attr1(const std::string& group, const std::string& name, double fallback, double lo,
               double hi) const {
    if (!has_attr(group, name)) return fallback;
    const double v = attr(group, name, 0)[0];
    if (!(v >= lo && v <= hi)) fail(group + "/" + name + " out of range");
    return v;
  }
  // A text attribute, fixed-length (as Orrery writes it) or variable-length (as h5py writes a
  // str); "" when absent. One that is not a single string of text is refused, not skipped.
  std::string text(const std::string& group, const std::string& name) const {
    if (!has_attr(group, name)) return "";
    const std::string what = group + "/" + name;
    Id a(H5Aopen_by_name(m_file, group.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    Id type(a.ok() ? H5Aget_type(a) : -1, H5Tclose);
    Id space(a.ok() ? H5Aget_space(a) : -1, H5Sclose);
    if (!type.ok() || !space.ok() || H5Tget_class(type) != H5T_STRING) fail(what + ": not text");
    if (H5Sget_simple_extent_npoints(space) != 1) fail(what + ": not a single string");
    std::string s;
    if (H5Tis_variable_str(type) > 0) {
      Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(mem, H5T_VARIABLE);
      H5Tset_cset(mem, H5Tget_cset(type));  // h5py's are UTF-8: no conversion from ASCII
      char* v = nullptr;
      if (H5Aread(a, mem, &v) < 0 || !v) fail(what + ": cannot be read");
      s = std::string(v, strnlen(v, 4097));
      H5free_memory(v);
    } else {
      const std::size_t size = H5Tget_size(type);
      if (size == 0 || size > 4096) fail(what + ": text of " + std::to_string(size) + " bytes");
      s.assign(size, '\0');
      if (H5Aread(a, type, s.data()) < 0) fail(what + ": cannot be read");
      s.resize(std::strlen(s.c_str()));
    }
    if (s.size() > 4096) fail(what + ": text of more than 4096 bytes");
    return s;
  }
  hid_t file() const { return m_file; }

 private:
  std::string m_name;
  Image m_image;  // lent to libhdf5 while the file is open
  hid_t m_file = -1;
};

// A dataset of n rows of `cols` numbers (cols 1: shape (n,) or (n, 1)), its class and shape
// checked when it opens, read a block of rows at a time: the rows go from libhdf5 into a small
// buffer that stays in cache and from there into place, never through a whole-dataset copy.
class Rows {
 public:
  Rows(const Reader& r, const std::string& path, std::size_t n, int cols)
      : m_d(r.has(path) && r.local(path) ? H5Dopen2(r.file(), path.c_str(), H5P_DEFAULT) : -1,
            H5Dclose),
        m_space(m_d.ok() ? H5Dget_space(m_d) : -1, H5Sclose),
        m_cols(static_cast<hsize_t>(cols)) {
    if (!r.has(path)) r.fail("no dataset " + path);
    // A link to another file would read data the file only names (and that may change).
    if (!r.local(path)) r.fail(path + ": a link to another file, not a dataset of this one");
    if (!m_d.ok() || !m_space.ok()) r.fail(path + ": not a dataset");
    Id type(H5Dget_type(m_d), H5Tclose);
    const H5T_class_t c = H5Tget_class(type);
    if (c != H5T_INTEGER && c != H5T_FLOAT) r.fail(path + ": not numbers");
    const int ndims = H5Sget_simple_extent_ndims(m_space);
    hsize_t dims[4] = {};
    if (ndims < 1 || ndims > 2) r.fail(path + ": " + std::to_string(ndims) + " dimensions");
    H5Sget_simple_extent_dims(m_space, dims, nullptr);
    m_ndims = ndims;
    const bool ok = dims[0] == n && (ndims == 1 ? cols == 1 : dims[1] == m_cols);
    if (!ok)
      r.fail(path + ": shape (" + std::to_string(dims[0]) +
             (ndims == 2 ? ", " + std::to_string(dims[1]) : std::string(",")) + "), expected (" +
             std::to_string(n) + (cols == 1 ? ",)" : ", " + std::to_string(cols) + ")"));
    // A dataset never written holds only its fill value: as many bodies at the origin at rest.
    if (n > 0 && H5Dget_storage_size(m_d) == 0)
      r.fail(path + ": never written (the file holds no values for it)");
    m_signed = c == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_2;
  }
  // An integer dataset of a signed type (IDs: negative ones would be read as 0).
  bool is_signed() const { return m_signed; }
  // Rows [first, first + count) into `into`, converted to `mem_type`. False when libhdf5 fails.
  bool read(std::size_t first, std::size_t count, hid_t mem_type, void* into) const {
    const hsize_t start[2] = {first, 0}, size[2] = {count, m_cols};
    Id mem(H5Screate_simple(m_ndims, size, nullptr), H5Sclose);
    return mem.ok() &&
           H5Sselect_hyperslab(m_space, H5S_SELECT_SET, start, nullptr, size, nullptr) >= 0 &&
           H5Dread(m_d, mem_type, mem, m_space, H5P_DEFAULT, into) >= 0;
  }

 private:
  Id m_d, m_space;
  hsize_t m_cols;
  int m_ndims = 1;
  bool m_signed = false;
};

}  // namespace orrery::hdf5
