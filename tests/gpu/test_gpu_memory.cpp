// GpuBuffer's count of the device memory it holds, and its high-water mark (what orrery-bench
// --decompose reports as each rank's peak). Skipped without a device.
#include <gtest/gtest.h>

#include <utility>

#include "orrery/device.h"
#include "orrery/gpu_buffer.h"

namespace orrery {
namespace {

TEST(GpuMemory, CountsWhatBuffersHoldAndTheMostAtOnce) {
  if (!device_present()) GTEST_SKIP() << device_info().reason;
  const std::size_t before = gpu_memory::held();
  gpu_memory::reset_peak();
  EXPECT_EQ(gpu_memory::peak(), before);
  {
    GpuBuffer<float> a(1 << 20), b(1 << 18);
    EXPECT_EQ(gpu_memory::held(), before + a.bytes() + b.bytes());
    a.resize(1 << 10);  // freed, then allocated smaller: the peak stays
    EXPECT_EQ(gpu_memory::held(), before + a.bytes() + b.bytes());
    GpuBuffer<float> c(std::move(b));  // a move holds no more
    EXPECT_EQ(gpu_memory::held(), before + a.bytes() + c.bytes());
  }
  EXPECT_EQ(gpu_memory::held(), before);
  EXPECT_EQ(gpu_memory::peak(), before + (std::size_t{1} << 20) * 4 + (std::size_t{1} << 18) * 4);
  gpu_memory::reset_peak();
  EXPECT_EQ(gpu_memory::peak(), before);
}

}  // namespace
}  // namespace orrery
