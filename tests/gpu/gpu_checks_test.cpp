// The verification on the device sees rounding: the device fills the same inputs as the host, bit
// for bit; the device's error measure equals the host's; and every CUDA variant, in double on a
// ragged size, reports an error that is not zero (its rounding differs from the reference's)
// and is within the tolerance. The injected-error tests of the checker itself run on the CPU
// (check_injection_test.cpp). Skips itself (visibly) where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/measure.h"
#include "kernels/measure/reference.h"
#include "tests/support/variant_case_suites.h"

using namespace tilescope;

namespace {

// The 16-bit patterns of exactly representable values (odd multiples of 2^-11 for f16, 2^-8 for
// bf16, in (-1, 1)), encoded here from the IEEE layouts without CUDA's types: sign, exponent
// (bias 15 with 10 fraction bits; bias 127 with 7), fraction.
std::vector<char> host_half_bits(Precision p, const std::vector<double>& values) {
  const bool bf16 = p == Precision::BF16;
  const int fraction_bits = bf16 ? 7 : 10, bias = bf16 ? 127 : 15;
  std::vector<char> out(values.size() * 2);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    int e = 0;
    const double m = std::frexp(std::fabs(v), &e);  // |v| = m 2^e, m in [0.5, 1)
    const auto fraction = static_cast<std::uint16_t>(std::ldexp(m * 2 - 1, fraction_bits));
    const auto bits = static_cast<std::uint16_t>((v < 0 ? 0x8000 : 0) | ((e - 1 + bias) << fraction_bits) | fraction);
    std::memcpy(out.data() + 2 * i, &bits, 2);
  }
  return out;
}

TEST(GpuInputs, DeviceFillEqualsTheHostsBitForBit) {
  SKIP_WITHOUT_GPU();
  const std::int64_t count = 100003;
  for (Precision p : all_precisions()) {
    for (int stream : {0, 1}) {
      SCOPED_TRACE(std::string(to_string(p)) + " stream " + std::to_string(stream));
      DeviceBuffer d(static_cast<std::size_t>(count) * element_bytes(p));
      fill_random(d.get(), p, count, 77, stream, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<char> device_bytes(static_cast<std::size_t>(count) * element_bytes(p));
      CUDA_CHECK(cudaMemcpy(device_bytes.data(), d.get(), device_bytes.size(), cudaMemcpyDeviceToHost));
      std::vector<double> host(static_cast<std::size_t>(count));
      fill_inputs(p, 77, stream, count, host.data());
      std::vector<char> host_bytes(device_bytes.size());
      if (element_bytes(p) == 4) {
        std::vector<float> narrow(host.begin(), host.end());  // exact: the values are floats
        std::memcpy(host_bytes.data(), narrow.data(), host_bytes.size());
      } else if (element_bytes(p) == 8) {
        std::memcpy(host_bytes.data(), host.data(), host_bytes.size());
      } else {
        host_bytes = host_half_bits(p, host);
      }
      EXPECT_EQ(std::memcmp(host_bytes.data(), device_bytes.data(), host_bytes.size()), 0);
      // And widened back on the device, every type gives the host's doubles exactly.
      DeviceBuffer wide(static_cast<std::size_t>(count) * sizeof(double));
      widen_to_double(static_cast<double*>(wide.get()), d.get(), p, count, nullptr);
      std::vector<double> widened(static_cast<std::size_t>(count));
      CUDA_CHECK(cudaMemcpy(widened.data(), wide.get(), widened.size() * sizeof(double), cudaMemcpyDeviceToHost));
      EXPECT_EQ(widened, host);
    }
  }
}

TEST(GpuCompare, DeviceMeasureEqualsTheHostsAndSeesOneWrongElement) {
  SKIP_WITHOUT_GPU();
  const std::int64_t m = 67, n = 67;
  std::vector<double> ref(static_cast<std::size_t>(m * n)), c;
  fill_inputs(Precision::F64, 3, 0, m * n, ref.data());
  for (OutputPart part : {OutputPart::Full, OutputPart::UpperTriangle}) {
    c = ref;
    c[5 * n + 40] += 1e-9;  // in the upper triangle
    DeviceBuffer d_ref(ref.size() * 8), d_c(c.size() * 8);
    CUDA_CHECK(cudaMemcpy(d_ref.get(), ref.data(), ref.size() * 8, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c.get(), c.data(), c.size() * 8, cudaMemcpyHostToDevice));
    const ErrorReport device =
        device_compare(d_c.get(), OutputType::F64, static_cast<const double*>(d_ref.get()), m, n, part, nullptr);
    const ErrorReport host = compare_to_reference(c.data(), ref.data(), m, n, part);
    EXPECT_GT(device.rel_error, 0.0);
    EXPECT_EQ(device.rel_error, host.rel_error);  // maxima: no order of summation involved
    EXPECT_EQ(device.checked, host.checked);
    EXPECT_NEAR(device.reference_norm, host.reference_norm, 1e-12 * host.reference_norm);
  }
}

using Case = tilescope::testing::VariantCase;
using tilescope::testing::case_name;

std::vector<Case> double_cases() {
  std::vector<Case> out;
  for (const Case& c : tilescope::testing::cuda_cases())
    if (c.precision == Precision::F64 && supports(*find_variant(c.variant), Precision::F64)) out.push_back(c);
  return out;
}

class EveryDoubleVariant : public tilescope::testing::MeasuredCaseTest {};

TEST_P(EveryDoubleVariant, ReportsANonzeroErrorWithinTheTolerance) {
  SKIP_WITHOUT_GPU();
  int checked = 0;
  for (std::size_t ci = 0; ci < v.configs.size(); ++ci) {
    if (!unsupported_reason(v, static_cast<int>(ci), c.problem, c.precision, probe_device().limits).empty()) continue;
    for (ReferenceSource source : {ReferenceSource::Cpu, ReferenceSource::CublasDgemm}) {
      RunRequest r;
      r.variant_id = c.variant;
      r.config_index = static_cast<int>(ci);
      r.problem = c.problem;
      r.precision = Precision::F64;
      r.shape = c.problem == Problem::Gemm ? Shape{67, 45, 1031} : Shape{0, 45, 1031};
      r.repetitions = 1;
      r.warmup = 0;
      r.reference = source;
      const RunResult res = measurer.run(r);
      SCOPED_TRACE(c.variant + ":" + v.configs[ci].name + " " + to_string(c.problem) + " reference " + res.reference);
      ASSERT_TRUE(res.ok()) << res.error;
      EXPECT_TRUE(res.passed) << "rel error " << res.rel_error << " > tolerance " << res.tolerance;
      // Full 53-bit inputs: the variant's rounding differs from either reference's and shows. The
      // CPU rounds each product, then each sum (the kernels fuse them); cublasDgemm is summed in
      // slabs of K (a plain call sums in one FMA chain per element as the kernels do, and agreed
      // with them to the bit on an H100).
      EXPECT_GT(res.rel_error, 0.0) << "a double run that equals the reference exactly sees no rounding";
      EXPECT_LT(res.rel_error, res.tolerance);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0) << "every case runs at least one configuration";
}

INSTANTIATE_TEST_SUITE_P(Gpu, EveryDoubleVariant, ::testing::ValuesIn(double_cases()), case_name);

// Every variant that computes a tensor-core input type (tf32, f16, bf16), on a ragged size, against
// both FP64 references: within the type's tolerance, with an error that is not zero where the
// FP32 sums round (tf32, f16).
TEST(GpuTensorCoreTypes, EveryVariantOfEachTypePassesOnARaggedSize) {
  SKIP_WITHOUT_GPU();
  Measurer measurer;
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (v->backend == Backend::GlShader) continue;
    for (Precision p : {Precision::TF32, Precision::F16, Precision::BF16})
      for (Problem problem : {Problem::Gemm, Problem::Ata})
        for (std::size_t ci = 0; ci < v->configs.size(); ++ci) {
          if (!unsupported_reason(*v, static_cast<int>(ci), problem, p, probe_device().limits).empty()) continue;
          for (ReferenceSource source : {ReferenceSource::Cpu, ReferenceSource::CublasDgemm}) {
            RunRequest r;
            r.variant_id = v->id;
            r.config_index = static_cast<int>(ci);
            r.problem = problem;
            r.precision = p;
            r.shape = problem == Problem::Gemm ? Shape{67, 45, 129} : Shape{0, 45, 129};
            r.repetitions = 1;
            r.warmup = 0;
            r.reference = source;
            const RunResult res = measurer.run(r);
            SCOPED_TRACE(std::string(v->id) + ":" + v->configs[ci].name + " " + to_string(problem) + " " +
                         to_string(p) + " reference " + res.reference);
            ASSERT_TRUE(res.ok()) << res.error;
            EXPECT_TRUE(res.passed) << "rel error " << res.rel_error << " > tolerance " << res.tolerance;
            // tf32 and f16 sums round in FP32; bf16 products (multiples of 2^-16) and their sums
            // below 2^8 are exact in FP32, so a bf16 run may equal the reference exactly
            // (check_injection_test.cpp).
            if (p != Precision::BF16) {
              EXPECT_GT(res.rel_error, 0.0);
            }
            // The accumulation's roundoff (FP32's) sets the tolerance (max(4 u sqrt(K), u K) for
            // tensor-core sums, more under cancellation), not the input type's far coarser one.
            EXPECT_GE(res.tolerance,
                      std::max(4 * std::sqrt(129.0), 129.0) * accumulation_unit_roundoff(p) * (1 - 1e-12));
            EXPECT_LT(res.tolerance, 4 * input_unit_roundoff(p) * std::sqrt(129.0));
            ++checked;
          }
        }
  }
  EXPECT_GT(checked, 0) << "at least the library baseline computes the tensor-core types";
}

}  // namespace
