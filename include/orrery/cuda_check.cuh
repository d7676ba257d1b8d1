// Private CUDA helpers: error checks that throw with file, line and the failing call or kernel,
// and the one launch shape of the element-wise passes (a thread a body, blocks of 256).
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

// Checks the launch of kernel `name` that just happened (configuration errors show up here).
#define CUDA_CHECK_LAUNCH(name)                                                       \
  do {                                                                                \
    cudaError_t orrery_err_ = cudaGetLastError();                                     \
    if (orrery_err_ != cudaSuccess)                                                   \
      ::orrery::throw_cuda_error(orrery_err_, "launching " name, __FILE__, __LINE__); \
  } while (0)

// Element-wise passes: k_threads threads a block, enough blocks to cover n.
constexpr int k_threads = 256;
inline int blocks_for(long long n) { return static_cast<int>((n + k_threads - 1) / k_threads); }

static_assert(sizeof(Vec4) == sizeof(float4) && alignof(Vec4) == alignof(float4),
              "Vec4 must match float4");

}  // namespace orrery
