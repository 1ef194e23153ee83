// Typed tiles on the GPU. The samples (typed_tile_samples.h) are added before any test runs, so
// the suites that prove every configuration (EveryVariant: checked against the FP64 reference on
// ragged sizes; EveryTrace: the trace equals the mapping model) prove them too. Here: that they
// were added, that a run-time compiled copy of a shipped configuration launches with the same
// block and shared memory (its registers are reported: NVRTC's code is not nvcc's), and that the
// occupancy computed from the compiled code equals the driver's.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <iostream>

#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/cuda/cuda_libraries.h"
#include "kernels/cuda/device_info.h"
#include "kernels/jit/kernel_calls.h"
#include "kernels/jit/occupancy.h"
#include "tests/support/typed_tile_samples.h"
#include "tests/support/variant_cases.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

constexpr int kSamplesPerVariant = 4;

class TypedTileSamples : public ::testing::Environment {
 public:
  void SetUp() override {
    // Without NVRTC no typed tile can compile: the proofs then cover the compiled set alone, and
    // SamplesAreAddedForEveryVariantThatTakesThem says so by skipping.
    if (!nvrtc_library().loaded) return;
    const DeviceLimits limits = probe_device().ok() ? probe_device().limits : DeviceLimits{};
    for (const VariantDescriptor* v : variant_registry()) {
      for (const std::string& name : tilescope::testing::typed_tile_samples(*v, kSamplesPerVariant, 2026, limits))
        std::cout << "typed tile " << v->id << ":" << name << "\n";
      add_cut_tiles(*v, limits);
    }
  }

 private:
  // Split K and stream-K, where a variant's tiles take them: the default configuration cut in 2 and
  // 3 parts and shared out by stream-K, and the first configuration that computes AᵀA (and the first
  // with C in the input type, where one stores C so) cut in 2 and shared out, each proved as every
  // configuration is.
  static void add_cut_tiles(const VariantDescriptor& v, const DeviceLimits& limits) {
    const bool split = tilescope::testing::has_tile_param(v, "split_k"),
               stream = tilescope::testing::has_tile_param(v, "stream_k");
    if (!split && !stream) return;
    std::vector<TileValues> tiles;
    auto cut = [&](const TileValues& values, std::initializer_list<int> parts) {
      if (split)
        for (int n : parts) tiles.push_back(tilescope::testing::cut_in_pieces(values, "split_k", n));
      if (stream) tiles.push_back(tilescope::testing::cut_in_pieces(values, "stream_k", 1));
    };
    cut(v.tile_values_of(v.configs[v.default_config]), {2, 3});
    const Precision q = v.precisions.front();
    bool ata = false, narrow = false;
    for (const TileConfig& c : v.configs) {
      if (!ata && v.refuses(Problem::Ata, q, c).empty()) {
        ata = true;
        cut(v.tile_values_of(c), {2});
      }
      if (!narrow && c.c_in_input_type) {
        narrow = true;
        cut(v.tile_values_of(c), {2});
      }
    }
    for (const TileValues& values : tiles) {
      TileConfig cfg;
      std::string why;
      if (!typed_tile_config(v, values, &cfg, &why)) {
        std::cout << "split or stream-K tile of " << v.id << " refused: " << why << "\n";
        continue;
      }
      const int index = add_typed_config(v, cfg);
      if (unsupported_reason(v, index, Problem::Gemm, q, limits).empty())
        std::cout << "typed tile " << v.id << ":" << cfg.name << "\n";
    }
  }
};
[[maybe_unused]] ::testing::Environment* const kSamples = ::testing::AddGlobalTestEnvironment(new TypedTileSamples);

// The kernel a launch of configuration `index` runs, in the variant's first input type, gemm.
void launched_kernel(const VariantDescriptor& v, int index, KernelLaunchShape* shape) {
  GemmArgs g;
  g.precision = v.precisions.front();
  g.shape = {1024, 1024, 1024};
  *shape = v.kernel_for(g, index);
}

}  // namespace

TEST(GpuTypedTiles, SamplesAreAddedForEveryVariantThatTakesThem) {
  if (!nvrtc_library().loaded)
    GTEST_SKIP() << "NVRTC (" << nvrtc_library().soname << ") is not loaded, so no typed tile was added to the "
                 << "proofs: " << nvrtc_library().error;
  int variants = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!takes_typed_tiles(*v)) continue;
    ++variants;
    int typed = 0;
    for (int i = 0; i < config_count(*v); ++i) typed += is_typed_config(*v, i);
    EXPECT_GE(typed, 3) << v->id << ": too few typed tiles for the proofs to mean something";
  }
  EXPECT_GT(variants, 0) << "no variant takes typed tiles";
}

TEST(GpuTypedTiles, RunTimeCompiledDefaultLaunchesLikeTheBuildsOwn) {
  SKIP_WITHOUT_GPU();
  if (!nvrtc_library().loaded) GTEST_SKIP() << "NVRTC is not loaded: " << nvrtc_library().error;
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!takes_typed_tiles(*v) || !v->kernel_for) continue;
    TileConfig typed;
    std::string why;
    ASSERT_TRUE(typed_tile_config(*v, v->tile_values_of(v->configs[v->default_config]), &typed, &why)) << why;
    const int index = add_typed_config(*v, typed);
    ASSERT_TRUE(is_typed_config(*v, index));
    KernelLaunchShape built, compiled;
    launched_kernel(*v, v->default_config, &built);
    launched_kernel(*v, index, &compiled);
    EXPECT_FALSE(built.run_time_compiled);
    EXPECT_TRUE(compiled.run_time_compiled);
    const KernelFacts a = kernel_facts(built), b = kernel_facts(compiled);
    EXPECT_GT(b.registers, 0) << v->id;
    EXPECT_EQ(a.static_shared_bytes, b.static_shared_bytes) << v->id;
    EXPECT_EQ(built.threads_per_block, compiled.threads_per_block);
    EXPECT_EQ(built.dynamic_shared_bytes, compiled.dynamic_shared_bytes);
    // Registers and local memory are reported, not required equal: nvcc and NVRTC do not emit the
    // same machine code from one text (measured on an H100: 32 and 31 registers for smem_tiled's
    // default, 8 and 0 bytes of stack for regtile_prefetch's). The benchmarks compare their speed.
    std::cout << v->id << ": " << a.registers << " registers, " << a.local_bytes << " B local ahead of time; "
              << b.registers << " registers, " << b.local_bytes << " B local at run time\n";
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(GpuTypedTiles, OccupancyFromTheCompiledCodeEqualsTheDrivers) {
  SKIP_WITHOUT_GPU();
  const DeviceInfo& device = probe_device();
  ArchitectureLimits arch;
  const std::string name = "sm_" + std::to_string(device.limits.compute_capability);
  if (!architecture_limits(name, &arch)) GTEST_SKIP() << "no occupancy table for " << name;
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->kernel_for || !v->kernel_text) continue;
    for (int i = 0; i < config_count(*v); ++i) {
      if (!unsupported_reason(*v, i, Problem::Gemm, v->precisions.front(), device.limits).empty()) continue;
      KernelLaunchShape shape;
      launched_kernel(*v, i, &shape);
      const KernelFacts facts = kernel_facts(shape);
      if (shape.dynamic_shared_bytes > 48 * 1024) allow_dynamic_shared(shape);
      const int driver = blocks_per_sm(shape);
      const std::size_t shared = shape.dynamic_shared_bytes + facts.static_shared_bytes;
      const Occupancy ours = occupancy(arch, shape.threads_per_block, facts.registers, shared);
      EXPECT_EQ(ours.blocks_per_sm, driver)
          << v->id << ":" << config_at(*v, i).name << " " << facts.registers << " registers, "
          << shape.threads_per_block << " threads, " << shared << " bytes of shared memory";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  std::cout << checked << " kernels: occupancy equal to the driver's\n";
}
