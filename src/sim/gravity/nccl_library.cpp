// Opens NCCL with dlopen and checks its calls.
#include "nccl_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

namespace orrery {
namespace {

template <class F>
void bind(void* lib, const char* symbol, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, symbol));
  if (!out)
    throw std::runtime_error(std::string("the NCCL library has no ") + symbol +
                             " (NCCL 2.7 or newer is needed)");
}

NcclLibrary open_nccl() {
  // Before NCCL reads its environment: never NVLink multicast (see the header).
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    throw std::runtime_error(
        std::string("several GPUs need NCCL, and libnccl.so.2 could not be loaded (") +
        (why ? why : "not found") + "; add its folder to LD_LIBRARY_PATH)");
  }
  NcclLibrary n;
  bind(lib, "ncclGetVersion", n.get_version);
  bind(lib, "ncclGetErrorString", n.error_string);
  bind(lib, "ncclGetUniqueId", n.get_unique_id);
  bind(lib, "ncclCommInitRank", n.comm_init_rank);
  bind(lib, "ncclCommInitAll", n.comm_init_all);
  bind(lib, "ncclCommDestroy", n.comm_destroy);
  bind(lib, "ncclCommAbort", n.comm_abort);
  bind(lib, "ncclBroadcast", n.broadcast);
  bind(lib, "ncclReduce", n.reduce);
  bind(lib, "ncclGroupStart", n.group_start);
  bind(lib, "ncclGroupEnd", n.group_end);
  bind(lib, "ncclSend", n.send);
  bind(lib, "ncclRecv", n.recv);
  bind(lib, "ncclCommGetAsyncError", n.async_error);
  if (n.get_version(&n.version) != ncclSuccess) n.version = 0;
  return n;  // the library stays open for the process
}

}  // namespace

const NcclLibrary& nccl() {
  static std::once_flag once;
  static NcclLibrary lib;
  static std::string failure;
  std::call_once(once, [] {
    try {
      lib = open_nccl();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw std::runtime_error(failure);
  return lib;
}

void nccl_check(ncclResult_t r, const char* what) {
  if (r == ncclSuccess) return;
  const char* why = nccl().error_string ? nccl().error_string(r) : "unknown error";
  throw std::runtime_error(std::string("NCCL ") + what + " failed: " + why);
}

}  // namespace orrery
