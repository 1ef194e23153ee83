#include "gemm_types.h"

#include <gtest/gtest.h>

#include "device_info.h"

using namespace tilescope;

TEST(GemmTypes, ParsesAndPrintsProblemsAndPrecisions) {
  Problem p;
  ASSERT_TRUE(parse_problem("ata", &p));
  EXPECT_EQ(p, Problem::Ata);
  EXPECT_STREQ(to_string(p), "ata");
  EXPECT_FALSE(parse_problem("AtA ", &p));
  Precision q;
  ASSERT_TRUE(parse_precision("f64", &q));
  EXPECT_EQ(q, Precision::F64);
  ASSERT_TRUE(parse_precision("float", &q));
  EXPECT_EQ(q, Precision::F32);
  EXPECT_FALSE(parse_precision("f16", &q));
}

TEST(GemmTypes, CountsWorkTheSameForEveryVariantOfAProblem) {
  const Shape s{3, 5, 7};
  EXPECT_DOUBLE_EQ(flop_count(Problem::Gemm, s), 2.0 * 3 * 5 * 7);
  // AᵀA: A is K x N, C is N x N; M is ignored.
  EXPECT_DOUBLE_EQ(flop_count(Problem::Ata, s), 2.0 * 5 * 5 * 7);
  EXPECT_EQ(a_elements(Problem::Gemm, s), 21);
  EXPECT_EQ(b_elements(Problem::Gemm, s), 35);
  EXPECT_EQ(a_elements(Problem::Ata, s), 35);
  EXPECT_EQ(b_elements(Problem::Ata, s), 0);
  EXPECT_EQ(c_elements(Problem::Ata, s), 25);
  EXPECT_EQ(normalised(Problem::Ata, s).M, 5);
}

TEST(DeviceInfo, PeakLanesFollowTheArchitecture) {
  EXPECT_EQ(fp32_lanes_per_sm(9, 0), 128);
  EXPECT_EQ(fp64_lanes_per_sm(9, 0), 64);
  EXPECT_EQ(fp32_lanes_per_sm(8, 0), 64);
  EXPECT_EQ(fp64_lanes_per_sm(8, 6), 2);
  EXPECT_EQ(version_string(13000), "13.0");
  EXPECT_EQ(version_string(12080), "12.8");
}

TEST(DeviceInfo, NoGpuErrorsGiveAPlainReason) {
  std::string why;
  EXPECT_EQ(classify_device_count_error(35, &why), GpuAvailability::NoDriver);
  EXPECT_NE(why.find("driver"), std::string::npos);
  EXPECT_EQ(classify_device_count_error(34, &why), GpuAvailability::StubDriverOnly);
  EXPECT_NE(why.find("stub"), std::string::npos);
  EXPECT_EQ(classify_device_count_error(100, &why), GpuAvailability::NoDevice);
  EXPECT_NE(why.find("no CUDA device"), std::string::npos);
}
