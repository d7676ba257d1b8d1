// Which rank of an mpirun this process is, from the launcher's environment, before MPI starts.
#pragma once

#include <cstdlib>

namespace orrery::cli {

// Under mpirun every rank checks the same options and files and refuses them with the same line:
// rank 0 says it. True on the other ranks.
inline bool another_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name)) return std::atoi(v) != 0;
  return false;
}

}  // namespace orrery::cli
