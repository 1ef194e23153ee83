// The SM clock sampler without a GPU: the median it reports, and what it does when NVML cannot
// be read (this machine's case when it has no NVIDIA driver; tests/gpu/gpu_variants_test.cpp reads a
// real clock).
#include "kernels/cuda/sm_clock.h"

#include <gtest/gtest.h>

namespace tilescope {
namespace {

TEST(SmClock, MedianOfTheSamples) {
  EXPECT_EQ(median_or_zero({}), 0.0);
  EXPECT_EQ(median_or_zero({1980}), 1980.0);
  EXPECT_EQ(median_or_zero({1755, 1980, 1500}), 1755.0);
  EXPECT_EQ(median_or_zero({1500, 1980, 1755, 1800}), 1777.5);
}

TEST(SmClock, WithoutNvmlItSaysWhyAndReportsNothing) {
  SmClockSampler sampler(0);
  if (sampler.available()) GTEST_SKIP() << "NVML is readable here: tests/gpu/gpu_variants_test.cpp checks the clock";
  EXPECT_FALSE(sampler.why_unavailable().empty());
  EXPECT_EQ(sampler.read_now(), 0.0);
  sampler.start();
  EXPECT_EQ(sampler.stop(), 0.0);
  EXPECT_EQ(sampler.stop(), 0.0) << "stopping twice is harmless";
}

}  // namespace
}  // namespace tilescope
