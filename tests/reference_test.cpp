// The CPU reference is what every variant is judged by, so it is checked against an
// independent straightforward loop and against products worked out by hand.
#include "reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "measure.h"
#include "random_inputs.h"

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

TEST(RandomInputs, NeverZeroInRangeFloatExactAndSeeded) {
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const double v = input_value(1, 0, i);
    ASSERT_NE(v, 0.0);
    ASSERT_GE(v, -1.0);
    ASSERT_LT(v, 1.0);
    ASSERT_EQ(static_cast<double>(static_cast<float>(v)), v) << "not representable in float";
  }
  EXPECT_NE(input_value(1, 0, 5), input_value(2, 0, 5));
  EXPECT_NE(input_value(1, 0, 5), input_value(1, 1, 5));
  EXPECT_EQ(input_value(9, 1, 123), input_value(9, 1, 123));
  // Roughly uniform: the mean of many is near 0 and the mean square near 1/3.
  double sum = 0, sum2 = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const double v = input_value(4, 0, i);
    sum += v;
    sum2 += v * v;
  }
  EXPECT_NEAR(sum / 100000, 0.0, 0.01);
  EXPECT_NEAR(sum2 / 100000, 1.0 / 3.0, 0.01);
}

TEST(Compare, RelativeFrobeniusErrorAndUnwrittenElements) {
  const double ref[] = {3, 4, 0, 0};  // norm 5
  const float exact[] = {3, 4, 0, 0};
  EXPECT_EQ(compare_to_reference(exact, ref, 2, 2, OutputPart::Full).rel_error, 0.0);
  const float off[] = {3, 4, 0, 0.5f};
  EXPECT_NEAR(compare_to_reference(off, ref, 2, 2, OutputPart::Full).rel_error, 0.1, 1e-12);
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
}

TEST(Tolerance, ScalesWithKAndGuardsCancellation) {
  const double u = unit_roundoff_for(Precision::F32, false);
  EXPECT_DOUBLE_EQ(u, std::ldexp(1.0, -24));
  EXPECT_GT(unit_roundoff_for(Precision::F32, true), 1e-4);
  EXPECT_LT(unit_roundoff_for(Precision::F64, false), 1e-15);
  const double typical_norm_1000 = std::sqrt(1000.0 * 1000.0 * 1000.0) / 3.0;
  const double t1000 = relative_error_tolerance(u, 1000, typical_norm_1000, 1000 * 1000);
  const double t4000 = relative_error_tolerance(u, 4000, typical_norm_1000 * 2, 1000 * 1000);
  EXPECT_NEAR(t4000 / t1000, 2.0, 1e-9);  // sqrt(4000/1000)
  EXPECT_LT(t1000, 1e-5);                 // tight enough to catch a wrong kernel
  // A reference norm 10x below the random-data expectation (cancellation) loosens it 10x.
  EXPECT_NEAR(relative_error_tolerance(u, 1000, typical_norm_1000 / 10, 1000 * 1000) / t1000, 10.0, 1e-9);
}
