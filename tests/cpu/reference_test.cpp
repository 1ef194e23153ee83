// The CPU reference is what every variant is judged by, so it is checked against an
// independent straightforward loop and against products worked out by hand.
#include "kernels/measure/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "kernels/measure/measure.h"
#include "kernels/measure/random_inputs.h"

using namespace tilescope;

TEST(Reference, SmallProductByHand) {
  // [1 2 3; 4 5 6] * [7 8; 9 10; 11 12] = [58 64; 139 154]
  const double a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
  double c[4] = {-1, -1, -1, -1};
  reference_gemm_f64(Problem::Gemm, {2, 2, 3}, a, b, c);
  EXPECT_EQ(c[0], 58);
  EXPECT_EQ(c[1], 64);
  EXPECT_EQ(c[2], 139);
  EXPECT_EQ(c[3], 154);
}

TEST(Reference, AtaByHand) {
  // A (K=3 x N=2) = [1 2; 3 4; 5 6]; AᵀA = [35 44; 44 56]
  const double a[] = {1, 2, 3, 4, 5, 6};
  double c[4] = {};
  reference_gemm_f64(Problem::Ata, {0, 2, 3}, a, nullptr, c);
  EXPECT_EQ(c[0], 35);
  EXPECT_EQ(c[1], 44);
  EXPECT_EQ(c[2], 44);
  EXPECT_EQ(c[3], 56);
}

class ReferenceRagged : public ::testing::TestWithParam<Shape> {};

TEST_P(ReferenceRagged, MatchesAnIndependentLoop) {
  const Shape s = GetParam();
  std::vector<double> a(s.M * s.K), b(s.K * s.N), c(s.M * s.N);
  fill_inputs_f64(7, 0, a.size(), a.data());
  fill_inputs_f64(7, 1, b.size(), b.data());
  reference_gemm_f64(Problem::Gemm, s, a.data(), b.data(), c.data());
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      double sum = 0;
      for (std::int64_t k = 0; k < s.K; ++k) sum += a[i * s.K + k] * b[k * s.N + j];
      ASSERT_NEAR(c[i * s.N + j], sum, 1e-12 * s.K) << "at " << i << "," << j;
    }
}

TEST_P(ReferenceRagged, AtaEqualsGemmWithAnExplicitTranspose) {
  Shape s = GetParam();
  const std::int64_t n = s.N, k = s.K;
  std::vector<double> a(k * n), at(n * k), c1(n * n), c2(n * n);
  fill_inputs_f64(3, 0, a.size(), a.data());
  for (std::int64_t r = 0; r < k; ++r)
    for (std::int64_t col = 0; col < n; ++col) at[col * k + r] = a[r * n + col];
  reference_gemm_f64(Problem::Ata, {0, n, k}, a.data(), nullptr, c1.data());
  reference_gemm_f64(Problem::Gemm, {n, n, k}, at.data(), a.data(), c2.data());
  for (std::size_t i = 0; i < c1.size(); ++i) ASSERT_NEAR(c1[i], c2[i], 1e-12 * k);
  // Symmetric, exactly: the same products summed in the same order.
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) ASSERT_EQ(c1[i * n + j], c1[j * n + i]);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReferenceRagged,
                         ::testing::Values(Shape{1, 1, 1}, Shape{7, 7, 7}, Shape{33, 17, 5}, Shape{5, 40, 129},
                                           Shape{64, 64, 64}, Shape{100, 3, 77}));

TEST(RandomInputs, DoubleInputsCarryFull53BitMantissas) {
  int not_float = 0, rounding_products = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const double v = input_value(1, 0, i);
    ASSERT_NE(v, 0.0);
    ASSERT_GT(v, -1.0);
    ASSERT_LT(v, 1.0);
    // An odd multiple of 2^-53: the last of 53 bits is set.
    const double scaled = std::ldexp(v, 53);
    ASSERT_EQ(scaled, std::trunc(scaled));
    ASSERT_EQ(std::fmod(std::fabs(scaled), 2.0), 1.0) << v;
    not_float += static_cast<double>(static_cast<float>(v)) != v ? 1 : 0;
    // The product of two inputs rounds in double (its exact value needs up to 106 bits).
    const double w = input_value(1, 1, i);
    rounding_products += std::fma(v, w, -(v * w)) != 0.0 ? 1 : 0;
  }
  // Uniform over 2^53 values: about one in 2^29 fits in a float.
  EXPECT_GT(not_float, 99990);
  EXPECT_GT(rounding_products, 99000);
}

TEST(RandomInputs, FloatInputsCarryFull24BitMantissas) {
  int rounding_products = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const float v = input_value_f32(1, 0, i);
    ASSERT_NE(v, 0.0f);
    ASSERT_GT(v, -1.0f);
    ASSERT_LT(v, 1.0f);
    const double scaled = std::ldexp(static_cast<double>(v), 24);
    ASSERT_EQ(std::fmod(std::fabs(scaled), 2.0), 1.0) << v;  // an odd multiple of 2^-24
    // The float input is the double one's top 24 bits: within 2^-24 of it.
    ASSERT_LT(std::fabs(static_cast<double>(v) - input_value(1, 0, i)), std::ldexp(1.0, -24));
    const float w = input_value_f32(1, 1, i);
    rounding_products += std::fma(v, w, -(v * w)) != 0.0f ? 1 : 0;
  }
  EXPECT_GT(rounding_products, 99000);
}

// Every input type's inputs: odd multiples of 2^-p in (-1, 1) for the type's p significant bits
// (so exactly representable in it: FP16's 2^-11 is above its smallest normal 2^-14), the top p of
// the same random bits as the double input, and using all 2^p values.
TEST(RandomInputs, EveryTypesInputsAreExactOddMultiplesOfItsUnit) {
  for (Precision p : all_precisions()) {
    SCOPED_TRACE(to_string(p));
    const int bits = precision_facts(p).significand_bits;
    std::vector<double> v(20000);
    fill_inputs(p, 3, 0, static_cast<std::int64_t>(v.size()), v.data());
    std::set<double> distinct;
    for (std::size_t i = 0; i < v.size(); ++i) {
      ASSERT_GT(v[i], -1.0);
      ASSERT_LT(v[i], 1.0);
      const double scaled = std::ldexp(v[i], bits);
      ASSERT_EQ(scaled, std::trunc(scaled)) << v[i];
      ASSERT_EQ(std::fmod(std::fabs(scaled), 2.0), 1.0) << v[i];
      // The top bits of the double input: within one unit 2^-p of it.
      ASSERT_LE(std::fabs(input_value(3, 0, i) - v[i]), std::ldexp(1.0, -bits));
      distinct.insert(v[i]);
    }
    // The narrow types take every one of their 2^p values (20000 draws over 256 or 2048 values).
    if (bits <= 11) {
      EXPECT_EQ(distinct.size(), std::size_t{1} << bits);
    }
  }
  // The f16 and tf32 inputs are the same numbers (both have 11 significant bits).
  std::vector<double> h(100), t(100);
  fill_inputs(Precision::F16, 5, 1, 100, h.data());
  fill_inputs(Precision::TF32, 5, 1, 100, t.data());
  EXPECT_EQ(h, t);
}

TEST(RandomInputs, SeededUniformAndTheSameThroughEveryEntryPoint) {
  EXPECT_NE(input_value(1, 0, 5), input_value(2, 0, 5));
  EXPECT_NE(input_value(1, 0, 5), input_value(1, 1, 5));
  // The bits are SplitMix64's as published (its first two outputs from state 0), so a seed names
  // the same inputs in every build; the entry points' agreement, call for call, is checked below.
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(splitmix64(0x9E3779B97F4A7C15ull), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(input_value_as<double>(9, 1, 123), input_value(9, 1, 123));
  EXPECT_EQ(input_value_as<float>(9, 1, 123), input_value_f32(9, 1, 123));
  std::vector<double> d(1000), f(1000), legacy(1000);
  fill_inputs(Precision::F64, 9, 1, 1000, d.data());
  fill_inputs(Precision::F32, 9, 1, 1000, f.data());
  fill_inputs_f64(9, 1, 1000, legacy.data());
  for (std::uint64_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(d[i], input_value(9, 1, i));
    ASSERT_EQ(f[i], static_cast<double>(input_value_f32(9, 1, i)));
    ASSERT_EQ(legacy[i], d[i]);
  }
  // Roughly uniform: the mean of many is near 0 and the mean square near 1/3.
  for (bool as_float : {false, true}) {
    double sum = 0, sum2 = 0;
    for (std::uint64_t i = 0; i < 100000; ++i) {
      const double v = as_float ? input_value_f32(4, 0, i) : input_value(4, 0, i);
      sum += v;
      sum2 += v * v;
    }
    EXPECT_NEAR(sum / 100000, 0.0, 0.01);
    EXPECT_NEAR(sum2 / 100000, 1.0 / 3.0, 0.01);
  }
}

TEST(Compare, LargestElementErrorAndUnwrittenElements) {
  const double ref[] = {3, 4, 0, 0};  // largest element 4
  const float exact[] = {3, 4, 0, 0};
  EXPECT_EQ(compare_to_reference(exact, ref, 2, 2, OutputPart::Full).rel_error, 0.0);
  const float off[] = {3, 4, 0, 0.5f};
  const ErrorReport one = compare_to_reference(off, ref, 2, 2, OutputPart::Full);
  EXPECT_NEAR(one.rel_error, 0.5 / 4, 1e-12);
  EXPECT_NEAR(one.reference_norm, 5.0, 1e-12);
  // The largest element error, not a norm: spreading the same total error over C lowers it.
  const float spread[] = {3.25f, 4.25f, 0.25f, 0.25f};
  EXPECT_NEAR(compare_to_reference(spread, ref, 2, 2, OutputPart::Full).rel_error, 0.25 / 4, 1e-12);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float poisoned[] = {3, 4, nan, 0};
  const ErrorReport r = compare_to_reference(poisoned, ref, 2, 2, OutputPart::Full);
  EXPECT_EQ(r.unwritten, 1);
  EXPECT_TRUE(std::isinf(r.rel_error));
  // Upper triangle only: the poisoned (1, 0) element is not part of the output.
  const ErrorReport u = compare_to_reference(poisoned, ref, 2, 2, OutputPart::UpperTriangle);
  EXPECT_EQ(u.unwritten, 0);
  EXPECT_EQ(u.checked, 3);
  EXPECT_EQ(u.rel_error, 0.0);
  // An overflowed element is an error, not a NaN to skip.
  const double inf_c[] = {3, 4, INFINITY, 0};
  EXPECT_TRUE(std::isinf(compare_to_reference(inf_c, ref, 2, 2, OutputPart::Full).rel_error));
}

TEST(Compare, OneWrongElementIsSeenAtAnySize) {
  // A Frobenius norm dilutes one wrong element by the size of C; the largest element error does
  // not: the same wrong element gives the same error in a 4 x 4 and a 1000 x 1000 C.
  for (std::int64_t n : {4, 1000}) {
    std::vector<double> ref(static_cast<std::size_t>(n * n));
    fill_inputs(Precision::F64, 5, 0, n * n, ref.data());
    ref[0] = 1.0;  // the largest element
    std::vector<double> c = ref;
    c[static_cast<std::size_t>(n * n / 2)] += 0.25;
    EXPECT_NEAR(compare_to_reference(c.data(), ref.data(), n, n, OutputPart::Full).rel_error, 0.25, 1e-12) << n;
  }
}

TEST(Tolerance, TensorCoreTypesAreJudgedByTheirFp32AccumulationGrowingWithK) {
  // Inputs and products are exact: the accumulation's roundoff, FP32's, not the input type's.
  for (Precision p : {Precision::TF32, Precision::F16, Precision::BF16}) {
    EXPECT_EQ(unit_roundoff_for(p, false), std::ldexp(1.0, -24)) << to_string(p);
    EXPECT_EQ(error_growth_for(p, false), ErrorGrowth::Linear) << to_string(p);
  }
  EXPECT_EQ(error_growth_for(Precision::F32, false), ErrorGrowth::SqrtK);
  EXPECT_EQ(error_growth_for(Precision::F64, false), ErrorGrowth::SqrtK);
  // cuBLAS's opt-in TF32 on float inputs rounds them to TF32: TF32's roundoff, sqrt(K).
  EXPECT_EQ(unit_roundoff_for(Precision::F32, true), std::ldexp(1.0, -11));
  EXPECT_EQ(error_growth_for(Precision::F32, true), ErrorGrowth::SqrtK);
  // max(4 u sqrt(K), u K): the sqrt(K) rule below K = 16, the linear one above.
  const double u = std::ldexp(1.0, -24);
  const double norm400 = std::sqrt(100.0 * 100.0 * 400.0) / 3.0, norm9 = std::sqrt(100.0 * 100.0 * 9.0) / 3.0;
  EXPECT_NEAR(relative_error_tolerance(u, 400, norm400, 100 * 100, ErrorGrowth::Linear) / (u * 400), 1.0, 1e-12);
  EXPECT_NEAR(relative_error_tolerance(u, 9, norm9, 100 * 100, ErrorGrowth::Linear) / (4 * u * 3), 1.0, 1e-12);
  // Far below what the input type's roundoff would give (bf16: 4 2^-8 sqrt(K) = 1 at K = 4096).
  const double norm4096 = std::sqrt(100.0 * 100.0 * 4096.0) / 3.0;
  EXPECT_LT(relative_error_tolerance(u, 4096, norm4096, 100 * 100, ErrorGrowth::Linear), 1e-3);
}

TEST(Tolerance, OneRuleForBothPrecisionsScalingWithK) {
  const double u32 = unit_roundoff_for(Precision::F32, false);
  const double u64 = unit_roundoff_for(Precision::F64, false);
  EXPECT_DOUBLE_EQ(u32, std::ldexp(1.0, -24));
  EXPECT_DOUBLE_EQ(u64, std::ldexp(1.0, -53));
  EXPECT_GT(unit_roundoff_for(Precision::F32, true), 1e-4);
  const double typical_norm_1000 = std::sqrt(1000.0 * 1000.0 * 1000.0) / 3.0;
  for (double u : {u32, u64}) {
    const double t1000 = relative_error_tolerance(u, 1000, typical_norm_1000, 1000 * 1000);
    const double t4000 = relative_error_tolerance(u, 4000, typical_norm_1000 * 2, 1000 * 1000);
    EXPECT_NEAR(t4000 / t1000, 2.0, 1e-9);  // sqrt(4000/1000)
    // A reference norm 10x below the random-data expectation (cancellation) loosens it 10x.
    EXPECT_NEAR(relative_error_tolerance(u, 1000, typical_norm_1000 / 10, 1000 * 1000) / t1000, 10.0, 1e-9);
  }
  // 4 sqrt(u^2 + u_ref^2) sqrt(K), u_ref = 2^-53 (the FP64 reference's own rounding): float is
  // 4 u sqrt(K) to 1e-15; double allows the kernel's and the reference's rounding, sqrt(2) x.
  const double f32 = relative_error_tolerance(u32, 1000, typical_norm_1000, 1000 * 1000);
  EXPECT_NEAR(f32 / (4 * u32 * std::sqrt(1000.0)), 1.0, 1e-15);
  EXPECT_LT(f32, 1e-5);  // tight enough to catch a wrong kernel
  const double f64 = relative_error_tolerance(u64, 1000, typical_norm_1000, 1000 * 1000);
  EXPECT_NEAR(f64 / (4 * std::sqrt(2.0) * u64 * std::sqrt(1000.0)), 1.0, 1e-12);
}

TEST(Tolerance, VerdictNeedsEverythingWrittenAndTheErrorWithin) {
  ErrorReport er;
  er.rel_error = 1e-16;
  er.reference_norm = std::sqrt(100.0 * 100) / 3.0;
  er.checked = 100;
  const CheckVerdict ok = judge_check(er, unit_roundoff_for(Precision::F64, false), 100, 100);
  EXPECT_TRUE(ok.passed);
  EXPECT_NEAR(ok.tolerance, 4 * std::sqrt(2.0) * std::ldexp(1.0, -53) * 10, 1e-25);
  er.rel_error = 2 * ok.tolerance;
  EXPECT_FALSE(judge_check(er, unit_roundoff_for(Precision::F64, false), 100, 100).passed);
  er.rel_error = 0;
  er.unwritten = 1;
  EXPECT_FALSE(judge_check(er, unit_roundoff_for(Precision::F64, false), 100, 100).passed);
  er.unwritten = 0;
  er.rel_error = NAN;
  EXPECT_FALSE(judge_check(er, unit_roundoff_for(Precision::F64, false), 100, 100).passed);
}
