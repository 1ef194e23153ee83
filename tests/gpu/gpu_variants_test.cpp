// Every variant x configuration x precision x problem, on ragged sizes, against the CPU double
// reference. Skips itself (visibly) where no CUDA device exists, and a case whose builds the
// device's architecture runs none of (gpu_skip.h); on the GPU machine it runs for real. One test
// per (variant, problem, precision) so the suite starts few processes; each configuration and
// size is a SCOPED_TRACE inside it.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/device_info.h"
#include "kernels/cuda/sm_clock.h"
#include "kernels/measure/gpu_buffers.h"
#include "kernels/measure/measure.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/variant_case_suites.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

std::vector<Shape> ragged_shapes(Problem p) {
  std::vector<Shape> out;
  for (std::int64_t n : {1, 7, 33, 127, 129, 500, 1000}) out.push_back({n, n, n});
  if (p == Problem::Gemm) {
    out.push_back({129, 77, 301});
    out.push_back({1000, 500, 33});
    out.push_back({33, 1000, 129});
    out.push_back({7, 1, 500});
    out.push_back({500, 7, 1});
    out.push_back({255, 257, 64});
  } else {
    out.push_back({0, 129, 301});  // A is 301 x 129
    out.push_back({0, 500, 7});
    out.push_back({0, 33, 1000});
    out.push_back({0, 257, 64});
  }
  return out;
}

// A request for configuration `config_index` of `v` at `shape`, the rest as RunRequest's defaults.
RunRequest request_for(const VariantDescriptor& v, int config_index, const Shape& shape) {
  RunRequest r;
  r.variant_id = v.id;
  r.config_index = config_index;
  r.shape = shape;
  return r;
}

using tilescope::testing::case_name;

class EveryVariant : public tilescope::testing::MeasuredCaseTest {};

TEST_P(EveryVariant, CorrectOnRaggedSizesAgainstTheCpuReference) {
  SKIP_WITHOUT_GPU();
  if (!supports(v, c.precision)) {
    // An input type the variant does not compute: refused with the reason, nothing launched.
    RunRequest r;
    r.variant_id = c.variant;
    r.problem = c.problem;
    r.precision = c.precision;
    r.shape = {8, 8, 8};
    const RunResult res = measurer.run(r);
    EXPECT_FALSE(res.ok());
    EXPECT_NE(res.error.find(std::string("not ") + to_string(c.precision)), std::string::npos) << res.error;
    return;
  }
  tilescope::testing::DeviceBuilds builds(probe_device().limits);
  int checked = 0;
  for (const Shape& shape : ragged_shapes(c.problem)) {
    for (int ci = 0; ci < config_count(v); ++ci) {
      if (!builds.runs(v, ci, c.problem, c.precision)) continue;
      RunRequest r;
      r.variant_id = c.variant;
      r.config_index = ci;
      r.problem = c.problem;
      r.precision = c.precision;
      r.shape = shape;
      r.repetitions = 1;
      r.warmup = 0;
      r.reference = ReferenceSource::Cpu;
      r.seed = 1000 + shape.M * 7 + shape.N * 13 + shape.K;
      const RunResult res = measurer.run(r);
      SCOPED_TRACE(c.variant + ":" + config_at(v, ci).name + " " + to_string(c.problem) + " " + to_string(c.precision) +
                   " M=" + std::to_string(res.shape.M) + " N=" + std::to_string(res.shape.N) +
                   " K=" + std::to_string(res.shape.K));
      ASSERT_TRUE(res.ok()) << res.error;
      EXPECT_TRUE(res.verified);
      EXPECT_EQ(res.unwritten, 0) << "elements of C never written";
      EXPECT_TRUE(res.passed) << "rel error " << res.rel_error << " > tolerance " << res.tolerance;
      EXPECT_EQ(res.reference, "cpu_fp64");
      EXPECT_GT(res.median_ms, 0);
      ++checked;
    }
  }
  EXPECT_CHECKED_UNLESS_THE_ARCHITECTURE_RUNS_NONE(builds, checked, "configuration of this case");
}

INSTANTIATE_TEST_SUITE_P(Gpu, EveryVariant, ::testing::ValuesIn(tilescope::testing::cuda_cases()), case_name);

TEST(GpuMeasure, GpuReferenceAgreesWithTheCpuReference) {
  SKIP_WITHOUT_GPU();
  Measurer m;
  for (Problem p : {Problem::Gemm, Problem::Ata}) {
    RunRequest r;
    const VariantDescriptor& v = tilescope::testing::prefetch_kernel();
    r.variant_id = v.id;
    r.config_index = tilescope::testing::fact_config(v, tilescope::testing::facts_of(v).at("large_config"));
    r.problem = p;
    r.shape = {300, 333, 290};
    r.repetitions = 1;
    r.reference = ReferenceSource::Cpu;
    const RunResult cpu = m.run(r);
    r.reference = ReferenceSource::CublasDgemm;
    const RunResult gpu = m.run(r);
    ASSERT_TRUE(cpu.ok() && gpu.ok()) << cpu.error << gpu.error;
    EXPECT_EQ(gpu.reference, "cublas_dgemm");
    EXPECT_TRUE(cpu.passed && gpu.passed);
    // The same float result against two FP64 references: the errors agree closely.
    EXPECT_NEAR(cpu.rel_error, gpu.rel_error, 0.05 * cpu.rel_error + 1e-12);
  }
}

TEST(GpuMeasure, PoisonIsCountedAsUnwritten) {
  SKIP_WITHOUT_GPU();
  const std::int64_t m = 37, n = 37;
  DeviceBuffer c(m * n * sizeof(float)), ref(m * n * sizeof(double));
  fill_random(c.get(), Precision::F32, m * n, 5, 0, nullptr);
  widen_to_double(static_cast<double*>(ref.get()), c.get(), Precision::F32, m * n, nullptr);
  ErrorReport same =
      device_compare(c.get(), OutputType::F32, static_cast<double*>(ref.get()), m, n, OutputPart::Full, nullptr);
  EXPECT_EQ(same.unwritten, 0);
  EXPECT_EQ(same.rel_error, 0.0);
  poison(c.get(), OutputType::F32, m * n, nullptr);
  ErrorReport poisoned =
      device_compare(c.get(), OutputType::F32, static_cast<double*>(ref.get()), m, n, OutputPart::Full, nullptr);
  EXPECT_EQ(poisoned.unwritten, m * n);
  ErrorReport upper = device_compare(c.get(), OutputType::F32, static_cast<double*>(ref.get()), m, n,
                                     OutputPart::UpperTriangle, nullptr);
  EXPECT_EQ(upper.unwritten, m * (m + 1) / 2);
}

// A C stored in a 16-bit type is read as that type: its own values compare exactly, and its
// poison (all bits set) is a NaN of the type, counted as unwritten.
TEST(GpuMeasure, SixteenBitCIsReadAndPoisonedInItsType) {
  SKIP_WITHOUT_GPU();
  const std::int64_t m = 29, n = 41;
  for (Precision p : {Precision::F16, Precision::BF16}) {
    SCOPED_TRACE(to_string(p));
    const OutputType t = output_type(p, true);
    ASSERT_EQ(output_bytes(t), 2u);
    DeviceBuffer c(m * n * 2), ref(m * n * sizeof(double));
    fill_random(c.get(), p, m * n, 7, 0, nullptr);
    widen_to_double(static_cast<double*>(ref.get()), c.get(), p, m * n, nullptr);
    const ErrorReport same =
        device_compare(c.get(), t, static_cast<double*>(ref.get()), m, n, OutputPart::Full, nullptr);
    EXPECT_EQ(same.unwritten, 0);
    EXPECT_EQ(same.rel_error, 0.0);
    // Read as float, the same bytes are other numbers: the type is what makes the check right.
    const ErrorReport misread =
        device_compare(c.get(), OutputType::F32, static_cast<double*>(ref.get()), m, n / 2, OutputPart::Full, nullptr);
    EXPECT_TRUE(misread.unwritten > 0 || misread.rel_error > 0.01);
    poison(c.get(), t, m * n, nullptr);
    const ErrorReport poisoned =
        device_compare(c.get(), t, static_cast<double*>(ref.get()), m, n, OutputPart::Full, nullptr);
    EXPECT_EQ(poisoned.unwritten, m * n);
  }
}

TEST(GpuMeasure, ResultsCarryTimingsResourcesAndTheMachine) {
  SKIP_WITHOUT_GPU();
  // A tiled kernel's configuration of 16 x 16 threads: its shared memory is two 16 x 16 tiles.
  const VariantDescriptor& tiled = tilescope::testing::tiled_kernel();
  const int config = tilescope::testing::config_where(
      tiled, [](const TileConfig& c) { return c.threads_x == 16 && c.threads_y == 16 && c.bk == 16; }, "16 x 16");
  RunRequest r = request_for(tiled, config, {512, 512, 512});
  r.repetitions = 5;
  const RunResult res = Measurer().run(r);
  ASSERT_TRUE(res.ok()) << res.error;
  EXPECT_GT(res.first_ms, 0);
  EXPECT_LE(res.min_ms, res.median_ms);
  EXPECT_LE(res.median_ms, res.max_ms);
  EXPECT_NEAR(res.gflops, 2.0 * 512 * 512 * 512 / (res.median_ms * 1e6), 1e-6 * res.gflops);
  EXPECT_EQ(res.threads_per_block, 256);
  EXPECT_EQ(res.static_shared_bytes, 2 * 16 * 16 * 4);
  EXPECT_GT(res.registers_per_thread, 0);
  EXPECT_GT(res.occupancy, 0);
  EXPECT_LE(res.occupancy, 1.0);
  EXPECT_FALSE(res.device_name.empty());
  EXPECT_GT(res.sm_clock_mhz, 0);
  EXPECT_NE(res.driver_version, "unknown");
  EXPECT_GT(res.pct_of_peak, 0);
}

// The SM clock of the timed runs, where the driver's NVML can be read: near the device's nominal
// maximum (a board at its power limit runs several hundred MHz below it, an H100's FP64 tensor
// work somewhat above), not a unit slip; without NVML, 0.
TEST(GpuMeasure, RecordsTheClockOfTheTimedRuns) {
  SKIP_WITHOUT_GPU();
  const SmClockSampler sampler(probe_device().device);
  Measurer m;
  RunRequest r;
  r.variant_id = tilescope::testing::baseline().id;
  r.shape = {2048, 2048, 2048};
  r.repetitions = 20;
  const RunResult res = m.run(r);
  ASSERT_TRUE(res.ok()) << res.error;
  if (!sampler.available()) {
    EXPECT_EQ(res.run_clock_mhz, 0.0);
    GTEST_SKIP() << "no SM clock here: " << sampler.why_unavailable();
  }
  RecordProperty("run_clock_mhz", std::to_string(res.run_clock_mhz));
  EXPECT_GT(res.run_clock_mhz, 0.25 * res.sm_clock_mhz) << res.run_clock_mhz << " against " << res.sm_clock_mhz;
  EXPECT_LT(res.run_clock_mhz, 1.25 * res.sm_clock_mhz) << res.run_clock_mhz << " against " << res.sm_clock_mhz;
}

TEST(GpuMeasure, TooLargeAndZeroSizesAreRefusedWithAMessage) {
  SKIP_WITHOUT_GPU();
  Measurer m;
  RunRequest r;
  r.variant_id = tilescope::testing::one_phase_kernel().id;
  r.precision = Precision::F64;
  r.shape = {200000, 200000, 200000};
  const RunResult big = m.run(r);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error.find("does not fit in device memory"), std::string::npos) << big.error;
  EXPECT_NE(big.error.find("bytes"), std::string::npos) << big.error;
  r.shape = {0, 10, 10};
  const RunResult zero = m.run(r);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error.find("at least 1"), std::string::npos) << zero.error;
  // And the measurer still works after refusals.
  r.shape = {64, 64, 64};
  EXPECT_TRUE(m.run(r).passed);
}

TEST(GpuMeasure, SyrkIsCreditedWithTheFullProduct) {
  SKIP_WITHOUT_GPU();
  const VariantDescriptor& base = tilescope::testing::baseline();
  RunRequest r = request_for(base, tilescope::testing::upper_triangle_config(base), {0, 256, 100});
  r.problem = Problem::Ata;
  const RunResult res = Measurer().run(r);
  ASSERT_TRUE(res.ok()) << res.error;
  EXPECT_TRUE(res.passed) << res.rel_error;
  EXPECT_NEAR(res.gflops * res.median_ms * 1e6, 2.0 * 256 * 256 * 100, 1.0);
}

}  // namespace
