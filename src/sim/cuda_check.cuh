// Private CUDA helpers: error checks that throw with file, line and the failing call.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "orrery/physics.h"

namespace orrery {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file,
                                          int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// CUDA_CHECK_THROW(call): throws std::runtime_error when call does not return cudaSuccess.
#define CUDA_CHECK_THROW(x)                                            \
  do {                                                                 \
    cudaError_t orrery_err_ = (x);                                     \
    if (orrery_err_ != cudaSuccess)                                    \
      ::orrery::throw_cuda_error(orrery_err_, #x, __FILE__, __LINE__); \
  } while (0)

// Checks the launch that just happened (configuration errors show up here).
#define CUDA_CHECK_LAUNCH(name) CUDA_CHECK_THROW(cudaGetLastError())

static_assert(sizeof(Vec4) == sizeof(float4) && alignof(Vec4) == alignof(float4),
              "Vec4 must match float4");

}  // namespace orrery
