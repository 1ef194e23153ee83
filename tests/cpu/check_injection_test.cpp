// The verification can fail: results of deliberately wrong GEMMs, computed here on the CPU from
// the inputs a run gets, go through the checker every run goes through (compare_to_reference and
// judge_check) and must fail it, while correct ones (summed in another order than the reference,
// so their rounding differs from it) pass with an error that is not zero. Sizes are ragged (no
// multiple of any tile), and K reaches 1031 so that float rounding is far above double's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernels/measure/measure.h"
#include "kernels/measure/reference.h"

namespace tilescope {
namespace {

struct Inputs {
  Shape shape;
  Precision precision;
  std::vector<double> a, b, ref;  // the run's inputs (widened) and the FP64 reference
};

Inputs make_inputs(const Shape& shape, Precision p) {
  Inputs in{shape, p, {}, {}, {}};
  in.a.resize(static_cast<std::size_t>(shape.M * shape.K));
  in.b.resize(static_cast<std::size_t>(shape.K * shape.N));
  in.ref.resize(static_cast<std::size_t>(shape.M * shape.N));
  fill_inputs(p, 42, 0, static_cast<std::int64_t>(in.a.size()), in.a.data());
  fill_inputs(p, 42, 1, static_cast<std::int64_t>(in.b.size()), in.b.data());
  reference_gemm_f64(Problem::Gemm, shape, in.a.data(), in.b.data(), in.ref.data());
  return in;
}

// How a "kernel" under test computes C(i, j): T is the precision of the run's output, Acc that
// of its accumulator; `k_end` < K skips the last products.
template <typename T, typename Acc>
std::vector<T> host_gemm(const Inputs& in, std::int64_t k_end) {
  const Shape& s = in.shape;
  std::vector<T> c(static_cast<std::size_t>(s.M * s.N));
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      // Four interleaved partial sums with fused multiply-adds, as an unrolled kernel keeps
      // them: not the reference's order, so the rounding differs from it.
      Acc part[4] = {0, 0, 0, 0};
      for (std::int64_t k = 0; k < k_end; ++k)
        part[k % 4] = std::fma(static_cast<Acc>(in.a[i * s.K + k]), static_cast<Acc>(in.b[k * s.N + j]), part[k % 4]);
      c[i * s.N + j] = static_cast<T>((part[0] + part[1]) + (part[2] + part[3]));
    }
  return c;
}

struct Outcome {
  ErrorReport error;
  CheckVerdict verdict;
};

// The checker of every run: the error measure against the FP64 reference, and the verdict.
template <typename T>
Outcome check(const Inputs& in, const std::vector<T>& c) {
  Outcome o;
  o.error = compare_to_reference(c.data(), in.ref.data(), in.shape.M, in.shape.N, OutputPart::Full);
  o.verdict = judge_check(o.error, unit_roundoff_for(in.precision, false), in.shape.K, in.shape.M * in.shape.N,
                          error_growth_for(in.precision, false));
  return o;
}

std::string describe(const Outcome& o) {
  std::ostringstream text;
  text << std::scientific << "relative error " << o.error.rel_error << ", tolerance " << o.verdict.tolerance;
  return text.str();
}

class CheckInjection : public ::testing::TestWithParam<Shape> {};

TEST_P(CheckInjection, CorrectDoubleGemmPassesWithANonzeroError) {
  const Inputs in = make_inputs(GetParam(), Precision::F64);
  const Outcome o = check(in, host_gemm<double, double>(in, in.shape.K));
  EXPECT_TRUE(o.verdict.passed) << describe(o);
  // Full 53-bit inputs: the products and sums round, and the check sees it.
  EXPECT_GT(o.error.rel_error, 0.0) << "a double run in another order than the reference rounds differently";
  EXPECT_LT(o.error.rel_error, o.verdict.tolerance);
}

TEST_P(CheckInjection, CorrectFloatGemmPassesWithANonzeroError) {
  const Inputs in = make_inputs(GetParam(), Precision::F32);
  const Outcome o = check(in, host_gemm<float, float>(in, in.shape.K));
  EXPECT_TRUE(o.verdict.passed) << describe(o);
  EXPECT_GT(o.error.rel_error, 0.0);
}

TEST_P(CheckInjection, DoubleRunSummingInFloatFails) {
  const Inputs in = make_inputs(GetParam(), Precision::F64);
  // The inputs are read as doubles but the sum is kept in a float.
  std::vector<double> c(in.ref.size());
  const Shape& s = in.shape;
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      float sum = 0;
      for (std::int64_t k = 0; k < s.K; ++k) sum += static_cast<float>(in.a[i * s.K + k] * in.b[k * s.N + j]);
      c[i * s.N + j] = sum;
    }
  const Outcome o = check(in, c);
  EXPECT_FALSE(o.verdict.passed) << describe(o);
  // Not a near miss: float rounding is ~2^29 times double's.
  EXPECT_GT(o.error.rel_error, 1000 * o.verdict.tolerance) << describe(o);
}

TEST_P(CheckInjection, DoubleRunComputingInFloatFails) {
  const Inputs in = make_inputs(GetParam(), Precision::F64);
  // A double run whose kernel loads and multiplies in float (a float kernel launched on doubles).
  const Outcome o = check(in, host_gemm<double, float>(in, in.shape.K));
  EXPECT_FALSE(o.verdict.passed) << describe(o);
}

TEST_P(CheckInjection, ResultRoundedToFloatInADoubleRunFails) {
  const Inputs in = make_inputs(GetParam(), Precision::F64);
  // Summed in double, but C passed through a float on its way out.
  std::vector<double> c = host_gemm<double, double>(in, in.shape.K);
  for (double& v : c) v = static_cast<float>(v);
  const Outcome o = check(in, c);
  EXPECT_FALSE(o.verdict.passed) << describe(o);
}

// One element of C misses one product term (a lost iteration in one thread): the largest element
// error sees it however large C is.
template <typename T, typename Acc>
void expect_one_wrong_element_fails(Precision p, const Shape& shape) {
  const Inputs in = make_inputs(shape, p);
  const std::vector<T> good = host_gemm<T, Acc>(in, in.shape.K);
  const Shape& s = in.shape;
  const std::int64_t k = s.K / 2;
  const std::vector<std::pair<std::int64_t, std::int64_t>> where = {{0, 0}, {s.M / 2, s.N / 3}, {s.M - 1, s.N - 1}};
  for (const auto& [i, j] : where) {
    SCOPED_TRACE("element " + std::to_string(i) + "," + std::to_string(j));
    std::vector<T> c = good;
    c[i * s.N + j] -= static_cast<T>(in.a[i * s.K + k] * in.b[k * s.N + j]);
    const Outcome o = check(in, c);
    EXPECT_FALSE(o.verdict.passed) << describe(o);
  }
  EXPECT_TRUE(check(in, good).verdict.passed) << "the unperturbed result passes";
}

TEST_P(CheckInjection, OneWrongElementFailsInDouble) {
  expect_one_wrong_element_fails<double, double>(Precision::F64, GetParam());
}

TEST_P(CheckInjection, OneWrongElementFailsInFloat) {
  expect_one_wrong_element_fails<float, float>(Precision::F32, GetParam());
}

TEST_P(CheckInjection, SkippedLastKFails) {
  for (Precision p : {Precision::F64, Precision::F32}) {
    SCOPED_TRACE(to_string(p));
    const Inputs in = make_inputs(GetParam(), p);
    const Outcome o = p == Precision::F64 ? check(in, host_gemm<double, double>(in, in.shape.K - 1))
                                          : check(in, host_gemm<float, float>(in, in.shape.K - 1));
    EXPECT_FALSE(o.verdict.passed) << describe(o);
  }
}

TEST_P(CheckInjection, OneUnwrittenElementFails) {
  const Inputs in = make_inputs(GetParam(), Precision::F64);
  std::vector<double> c = host_gemm<double, double>(in, in.shape.K);
  c.back() = std::nan("");  // the poison left in the last element
  const Outcome o = check(in, c);
  EXPECT_EQ(o.error.unwritten, 1);
  EXPECT_FALSE(o.verdict.passed) << describe(o);
}

// The tensor-core input types: inputs exact in the type, FP32 accumulation, C in float, judged
// against FP32's unit roundoff (the accumulation's: the inputs and products are exact).
const Precision kTensorCoreTypes[] = {Precision::TF32, Precision::F16, Precision::BF16};

TEST_P(CheckInjection, TensorCoreTypesWithFp32AccumulationPass) {
  for (Precision p : kTensorCoreTypes) {
    SCOPED_TRACE(to_string(p));
    const Inputs in = make_inputs(GetParam(), p);
    const Outcome o = check(in, host_gemm<float, float>(in, in.shape.K));
    EXPECT_TRUE(o.verdict.passed) << describe(o);
    // The products are exact in FP32 (11 + 11 or 8 + 8 bits). tf32 and f16 products are
    // multiples of 2^-22, so sums above 4 round in FP32 and the check sees it. bf16 products are
    // multiples of 2^-16: every partial sum below 2^8 (all of them at these sizes) is exact in
    // FP32, so a correct bf16 run equals the FP64 reference exactly.
    if (p == Precision::BF16) {
      EXPECT_EQ(o.error.rel_error, 0.0) << describe(o);
    } else {
      EXPECT_GT(o.error.rel_error, 0.0);
    }
    // A correct kernel errs by FP32's rounding, inside the tolerance with the float margin.
    EXPECT_LT(o.error.rel_error, o.verdict.tolerance / 2) << describe(o);
  }
}

TEST_P(CheckInjection, TensorCoreTypesCatchWrongRowsAndUnwrittenElements) {
  for (Precision p : kTensorCoreTypes) {
    SCOPED_TRACE(to_string(p));
    const Inputs in = make_inputs(GetParam(), p);
    const Shape& s = in.shape;
    const std::vector<float> good = host_gemm<float, float>(in, s.K);
    // A row of C written from the next row's sums (an index off by one in one block).
    std::vector<float> shifted = good;
    for (std::int64_t j = 0; j < s.N; ++j) shifted[j] = good[s.N + j];
    EXPECT_FALSE(check(in, shifted).verdict.passed) << describe(check(in, shifted));
    // The poison left in one element.
    std::vector<float> unwritten = good;
    unwritten[s.M / 2 * s.N + s.N / 2] = std::nanf("");
    EXPECT_FALSE(check(in, unwritten).verdict.passed);
  }
}

// A skipped last k: one product term, about 1/max|C| ~ 3/sqrt(K) of the largest element, far
// above FP32's 4 u sqrt(K) for every type and K (the input type's u would have let it through for
// bf16 at every K tested and for f16 above K = 129).
TEST(CheckInjectionTensorCore, SkippedLastKIsCaughtInEveryType) {
  const Shape small{67, 45, 129}, large{33, 70, 2053};
  for (Precision p : kTensorCoreTypes)
    for (const Shape& shape : {small, large}) {
      SCOPED_TRACE(std::string(to_string(p)) + " " + shape_text(shape));
      const Inputs in = make_inputs(shape, p);
      const Outcome o = check(in, host_gemm<float, float>(in, shape.K - 1));
      EXPECT_FALSE(o.verdict.passed) << describe(o);
    }
}

// Summing in the input type instead of FP32 (a bf16 accumulator): at 67 x 45 x 1031 its error is
// about 7e-2, far above a correct run's (0: exact, see above) and above the tolerance.
TEST(CheckInjectionTensorCore, AccumulatingInTheInputTypeFails) {
  const Inputs in = make_inputs(Shape{67, 45, 1031}, Precision::BF16);
  const Shape& s = in.shape;
  std::vector<float> c(in.ref.size());
  auto to_bf16 = [](double v) {  // round to 8 significant bits, nearest
    int e = 0;
    const double m = std::frexp(v, &e);
    return std::ldexp(std::nearbyint(std::ldexp(m, 8)), e - 8);
  };
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      double sum = 0;
      for (std::int64_t k = 0; k < s.K; ++k) sum = to_bf16(sum + in.a[i * s.K + k] * in.b[k * s.N + j]);
      c[i * s.N + j] = static_cast<float>(sum);
    }
  const Outcome o = check(in, c);
  EXPECT_GT(o.error.rel_error, 1e-2) << describe(o);
  EXPECT_FALSE(o.verdict.passed) << "a bf16 accumulator must fail the FP32-accumulation check: " << describe(o);
}

INSTANTIATE_TEST_SUITE_P(Ragged, CheckInjection,
                         ::testing::Values(Shape{67, 45, 129}, Shape{67, 45, 1031}, Shape{33, 70, 2053}),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return std::to_string(info.param.M) + "x" + std::to_string(info.param.N) + "x" +
                                  std::to_string(info.param.K);
                         });

// The tolerance of a double run is where the reference's own rounding puts it: a double GEMM in
// the worst order (sequential, the reference's) against one summed backwards differs by less.
TEST(CheckTolerance, TwoDoubleOrdersAgreeWithinTheDoubleTolerance) {
  const Inputs in = make_inputs(Shape{129, 77, 3001}, Precision::F64);
  const Shape& s = in.shape;
  std::vector<double> c(in.ref.size());
  for (std::int64_t i = 0; i < s.M; ++i)
    for (std::int64_t j = 0; j < s.N; ++j) {
      double sum = 0;
      for (std::int64_t k = s.K - 1; k >= 0; --k) sum += in.a[i * s.K + k] * in.b[k * s.N + j];
      c[i * s.N + j] = sum;
    }
  const Outcome o = check(in, c);
  EXPECT_TRUE(o.verdict.passed) << describe(o);
  EXPECT_GT(o.error.rel_error, 0.0);
  // And the margin is a few times, not orders of magnitude: the tolerance is tight.
  EXPECT_GT(o.error.rel_error, o.verdict.tolerance / 100) << describe(o);
}

}  // namespace
}  // namespace tilescope
