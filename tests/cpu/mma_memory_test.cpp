// The tensor-core kernel whose fragments are in the open (mma.sync, ldmatrix, cp.async): its memory
// instructions as its model lists them. The swizzle's effect on ldmatrix's phases, cp.async's
// shared side written line by line, and the whole-kernel totals against the counts Nsight Compute
// reported for the same kernels (docs/benchmarks/h200-2026-11-27-memory-mma/, f16 gemm at 1024).
// The GPU suite holds the addresses themselves equal to the kernel's (gpu_warp_access_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "app/viz/warp_access_summary.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/memory_picks.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using tilescope::testing::site_of;

namespace {

constexpr MemorySpace kShared = MemorySpace::Shared;
constexpr AccessKind kLoad = AccessKind::Load, kStore = AccessKind::Store;

// Its 16-bit configuration of 8 warps, 32-deep slabs, 3 stages and one barrier per slab, with or
// without the swizzle: the lesson's pair.
int pair_config(const VariantDescriptor& v, bool swizzled) {
  return tilescope::testing::config_where(
      v,
      [&](const TileConfig& c) {
        const TileValues t = v.tile_values_of(c);
        return tile_value(t, "bn", 0) == 256 && tile_value(t, "bk", 0) == 32 && tile_value(t, "stages", 0) == 3 &&
               tile_value(t, "pipeline", -1) == 0 && tile_value(t, "swizzle", -1) == (swizzled ? 1 : 0) &&
               c.threads_y == 8;
      },
      swizzled ? "8 warps, 32-deep slabs, 3 stages, swizzled" : "8 warps, 32-deep slabs, 3 stages, plain");
}

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, std::int64_t n) {
  std::string why;
  auto m = make_mapping_model(v.id, config, Problem::Gemm, Precision::F16, Shape{n, n, n}, &why);
  EXPECT_NE(m, nullptr) << why;
  return m;
}

// Wavefronts per instruction of one site over the whole kernel.
double wavefronts_per_instruction(const AccessTotals& t, int site) {
  const AccessCounts& c = t.per_site[site];
  return c.requests ? static_cast<double>(c.wavefronts) / static_cast<double>(c.requests) : 0.0;
}

// Plain rows put ldmatrix's eight rows of a phase on few banks: A's 64-byte rows two to a group
// of banks (4-way), B's 512-byte rows all on one (8-way); the swizzle spreads both over all 32.
TEST(MmaMemory, TheSwizzleTakesLdmatrixsPhasesOffTheSameBanks) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("swizzle");
  for (bool swizzled : {false, true}) {
    SCOPED_TRACE(swizzled ? "swizzled" : "plain");
    auto m = model_of(v, pair_config(v, swizzled), 256);
    ASSERT_NE(m, nullptr);
    const AccessTotals t = access_totals(*m, INT64_MAX);
    const int a = site_of(*m, 'A', kShared, kLoad), b = site_of(*m, 'B', kShared, kLoad);
    EXPECT_EQ(m->access_sites()[a].bytes, 16);  // ldmatrix: 16 bytes a lane, four phases of 8
    EXPECT_DOUBLE_EQ(wavefronts_per_instruction(t, a), swizzled ? 4.0 : 16.0);
    EXPECT_DOUBLE_EQ(wavefronts_per_instruction(t, b), swizzled ? 4.0 : 32.0);
    EXPECT_EQ(t.per_site[a].ideal_wavefronts, 4 * t.per_site[a].requests);
    if (swizzled) {
      EXPECT_EQ(t.shared_load.conflicts() + t.shared_store.conflicts(), 0);
    }
    // What the memory view says of the first warp's first B fragment.
    WarpAccess w;
    m->warp_access(b, 0, 0, 0, 0, &w);
    const std::string said = summarize(m->access_sites()[b], w).sentence;
    EXPECT_NE(said.find(swizzled ? "(no bank conflict)" : "(an 8-way bank conflict)"), std::string::npos) << said;
  }
}

// cp.async's shared side: 32 lanes copying 8 rows of 64 bytes (rows 2048 bytes apart in global
// memory) into 512 contiguous bytes of shared memory take 8 wavefronts, one per global line,
// though the banks alone would need 4; rows of 128 bytes take 4. None of it is a bank conflict.
TEST(MmaMemory, ACpAsyncWritesSharedMemoryOneGlobalLineAtATime) {
  for (int row_bytes : {64, 128}) {
    SCOPED_TRACE(std::to_string(row_bytes) + "-byte rows");
    WarpAccess global, shared;
    global.bytes = shared.bytes = 16;
    const int per_row = row_bytes / 16;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      global.address[lane] = std::int64_t{lane / per_row} * 2048 + (lane % per_row) * 16;
      shared.address[lane] = lane * 16;
    }
    EXPECT_EQ(shared_instruction(shared).wavefronts, 4);
    const SharedInstruction s = async_copy_instruction(shared, global);
    EXPECT_EQ(s.lines, 32 / per_row);
    EXPECT_EQ(s.wavefronts, 32 / per_row);
    EXPECT_EQ(s.wavefronts - s.ideal, 0);
  }
}

// The model's totals of the lesson's pair, f16 gemm at 1024, against Nsight Compute's counts of
// the same kernels on an H200 (model-vs-ncu.csv: the hardware counters and, for cp.async, whose
// hardware counter on sm_90 leaves its bypassing form out, the per-instruction counts).
TEST(MmaMemory, TotalsEqualTheProfilersCounts) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("swizzle");
  struct Expected {
    bool swizzled;
    std::int64_t ld_requests, ld_sectors, st_requests, st_sectors, shared_ld, shared_ld_conflicts, shared_st,
        async_copy;
  };
  for (const Expected& e : {Expected{true, 49152, 786432, 8192, 131072, 557056, 0, 32768, 262144},
                            Expected{false, 49152, 786432, 8192, 131072, 3178496, 2621440, 32768, 262144}}) {
    SCOPED_TRACE(e.swizzled ? "swizzled" : "plain");
    auto m = model_of(v, pair_config(v, e.swizzled), 1024);
    ASSERT_NE(m, nullptr);
    const AccessTotals t = access_totals(*m, INT64_MAX);
    EXPECT_EQ(t.global_load.requests, e.ld_requests);
    EXPECT_EQ(t.global_load.sectors, e.ld_sectors);
    EXPECT_EQ(t.global_store.requests, e.st_requests);
    EXPECT_EQ(t.global_store.sectors, e.st_sectors);
    EXPECT_EQ(t.shared_load.wavefronts, e.shared_ld);
    EXPECT_EQ(t.shared_load.conflicts(), e.shared_ld_conflicts);
    EXPECT_EQ(t.shared_store.wavefronts, e.shared_st);
    EXPECT_EQ(t.shared_store.conflicts(), 0);
    EXPECT_EQ(t.async_copy.wavefronts, e.async_copy);
    EXPECT_EQ(t.async_copy.conflicts(), 0);
    // cp.async's write is not a store the profiler's STS counters see.
    const int into = site_of(*m, 'A', kShared, kStore);
    EXPECT_GE(m->access_sites()[into].async_copy_of, 0);
  }
}

}  // namespace
