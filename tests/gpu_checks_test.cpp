// The verification on the device sees rounding: the device fills the same inputs as the host, bit
// for bit; the device's error measure equals the host's; and every CUDA variant, in double on a
// ragged size, reports an error that is not zero (its rounding differs from the reference's)
// and is within the tolerance. The injected-error tests of the checker itself run on the CPU
// (check_injection_test.cpp). Skips itself (visibly) where no CUDA device exists.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "gpu_buffers.h"
#include "measure.h"
#include "reference.h"
#include "registry.h"
#include "variant_cases.h"

using namespace tilescope;

namespace {

TEST(GpuInputs, DeviceFillEqualsTheHostsBitForBit) {
  SKIP_WITHOUT_GPU();
  const std::int64_t count = 100003;
  for (Precision p : {Precision::F32, Precision::F64}) {
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
      if (p == Precision::F32) {
        std::vector<float> narrow(host.begin(), host.end());  // exact: the values are floats
        std::memcpy(host_bytes.data(), narrow.data(), host_bytes.size());
      } else {
        std::memcpy(host_bytes.data(), host.data(), host_bytes.size());
      }
      EXPECT_EQ(std::memcmp(host_bytes.data(), device_bytes.data(), host_bytes.size()), 0);
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
        device_compare(d_c.get(), Precision::F64, static_cast<const double*>(d_ref.get()), m, n, part, nullptr);
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
  for (const Case& c :
       tilescope::testing::variant_cases([](const VariantDescriptor& v) { return v.backend != Backend::GlShader; }))
    if (c.precision == Precision::F64) out.push_back(c);
  return out;
}

class EveryDoubleVariant : public ::testing::TestWithParam<Case> {};

TEST_P(EveryDoubleVariant, ReportsANonzeroErrorWithinTheTolerance) {
  SKIP_WITHOUT_GPU();
  const Case c = GetParam();
  const VariantDescriptor& v = *find_variant(c.variant);
  Measurer measurer;
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

}  // namespace
