// The memory image behind hdf5_reader.h: callbacks that lend libhdf5 the caller's bytes.
#include "hdf5_reader.h"

namespace orrery::hdf5 {
namespace {

// File-image callbacks that lend libhdf5 the caller's bytes, read-only and never copied. They
// hold no heap state: H5LTopen_file_image allocates its bookkeeping and leaks it when the open
// fails, which a damaged file makes happen on every load.
void* image_malloc(size_t size, H5FD_file_image_op_t, void* udata) {
  auto* image = static_cast<Image*>(udata);
  return size == image->size ? image->bytes : nullptr;
}
void* image_memcpy(void* dest, const void* src, size_t, H5FD_file_image_op_t, void*) {
  return dest == src ? dest : nullptr;  // the "copy" is the same bytes; anything else is refused
}
void* image_realloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t image_free(void*, H5FD_file_image_op_t, void*) { return 0; }
void* image_udata_copy(void* udata) { return udata; }
herr_t image_udata_free(void*) { return 0; }

}  // namespace

hid_t open_image(Image& image) {
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5FD_file_image_callbacks_t callbacks{image_malloc, image_memcpy,     image_realloc,
                                        image_free,   image_udata_copy, image_udata_free,
                                        &image};
  if (!fapl.ok() || H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 ||
      H5Pset_file_image_callbacks(fapl, &callbacks) < 0 ||
      H5Pset_file_image(fapl, image.bytes, image.size) < 0)
    return -1;
  return H5Fopen("orrery-image.hdf5", H5F_ACC_RDONLY, fapl);
}

}  // namespace orrery::hdf5
