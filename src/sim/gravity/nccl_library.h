// Private: NCCL, opened on first use with dlopen rather than linked, so that one binary runs on
// machines without it (its one-GPU paths need nothing from it) and says so in one line when
// several GPUs are asked for there. CUDA 13 ships nccl.h; the library is libnccl.so.2.
#pragma once

#include <nccl.h>

namespace orrery {

struct NcclLibrary {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclCommAbort) comm_abort = nullptr;
  decltype(&ncclBroadcast) broadcast = nullptr;
  decltype(&ncclReduce) reduce = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclCommGetAsyncError) async_error = nullptr;
  int version = 0;  // e.g. 22809 for 2.28.9
};

// The library, opened once (thread-safe). Before it is opened, NVLink multicast is switched off
// for this process (NCCL_NVLS_ENABLE=0, whatever the environment said): on shared hosts a program
// using it can put the GPUs out of service. Throws std::runtime_error naming what is missing.
const NcclLibrary& nccl();

// Throws std::runtime_error "NCCL <what> failed: <NCCL's reason>" unless r is ncclSuccess.
void nccl_check(ncclResult_t r, const char* what);

}  // namespace orrery
