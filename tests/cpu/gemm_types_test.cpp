#include "kernels/core/gemm_types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/cuda/device_info.h"

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
  EXPECT_FALSE(parse_precision("F16", &q));
  EXPECT_FALSE(parse_precision("half", &q));
}

// The one table-based naming of enum values (enum_names.h): both directions from one table, the
// fallback for a value it does not list, and a parse that leaves its output alone on a miss.
TEST(EnumNames, NamesAndParsesFromOneTable) {
  enum class Fruit { Apple, Pear, Plum };
  static constexpr EnumName<Fruit> kFruit[] = {{Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}};
  EXPECT_STREQ(enum_name(Fruit::Apple, kFruit, "?"), "apple");
  EXPECT_STREQ(enum_name(Fruit::Pear, kFruit, "?"), "pear");
  EXPECT_STREQ(enum_name(Fruit::Plum, kFruit, "?"), "?") << "not in the table: the fallback";
  Fruit f = Fruit::Plum;
  EXPECT_FALSE(enum_from_name("Pear", kFruit, &f)) << "names match exactly";
  EXPECT_FALSE(enum_from_name("plum", kFruit, &f));
  EXPECT_EQ(f, Fruit::Plum) << "a miss leaves the output alone";
  EXPECT_TRUE(enum_from_name("apple", kFruit, &f));
  EXPECT_EQ(f, Fruit::Apple);
}

TEST(GemmTypes, EveryPrecisionPrintsAndParsesBack) {
  const std::vector<std::string> names = {"f32", "f64", "tf32", "f16", "bf16"};
  ASSERT_EQ(all_precisions().size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Precision p = all_precisions()[i];
    EXPECT_EQ(to_string(p), names[i]);
    Precision back = Precision::F64;
    ASSERT_TRUE(parse_precision(names[i], &back)) << names[i];
    EXPECT_EQ(back, p);
  }
  // Stored settings and histories wrote 0 for f32 and 1 for f64.
  EXPECT_EQ(static_cast<int>(Precision::F32), 0);
  EXPECT_EQ(static_cast<int>(Precision::F64), 1);
  EXPECT_EQ(precision_names("|"), "f32|f64|tf32|f16|bf16");
}

TEST(GemmTypes, PrecisionTableStatesEachTypesFacts) {
  struct Expected {
    Precision p;
    std::size_t in_bytes, out_bytes;
    int u_exponent;
    int tensor_cc;
  };
  for (const Expected& e : {Expected{Precision::F32, 4, 4, -24, 0}, Expected{Precision::F64, 8, 8, -53, 0},
                            Expected{Precision::TF32, 4, 4, -11, 80}, Expected{Precision::F16, 2, 4, -11, 70},
                            Expected{Precision::BF16, 2, 4, -8, 80}}) {
    SCOPED_TRACE(to_string(e.p));
    const PrecisionFacts& f = precision_facts(e.p);
    EXPECT_EQ(f.precision, e.p);
    EXPECT_EQ(element_bytes(e.p), e.in_bytes);
    EXPECT_EQ(output_bytes(e.p), e.out_bytes);
    EXPECT_EQ(input_unit_roundoff(e.p), std::ldexp(1.0, e.u_exponent));
    // Only f64 accumulates in double; every other type in FP32.
    EXPECT_EQ(accumulation_unit_roundoff(e.p), std::ldexp(1.0, e.p == Precision::F64 ? -53 : -24));
    EXPECT_EQ(f.min_tensor_core_cc, e.tensor_cc);
    EXPECT_GT(std::string(f.description).size(), 20u);
  }
  // TF32 is labelled apart from float everywhere a label is shown.
  EXPECT_NE(std::string(precision_facts(Precision::TF32).label), precision_facts(Precision::F32).label);
  EXPECT_NE(std::string(precision_facts(Precision::TF32).label).find("TF32"), std::string::npos);
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
