// The first tensor-core kernel, whose fragments are opaque (nvcuda::wmma): its memory instructions
// as its model lists them. The slabs' loads and stores, the staging area and C are the kernel's own
// accesses and are recorded from it; the fragments' loads and stores happen inside
// load_matrix_sync and store_matrix_sync, where the compiler chooses the lanes, so the model draws
// them as the compiler makes them for sm_90 and does not record them. The whole-kernel totals
// against the counts Nsight Compute's hardware counters gave for the same kernels on an H200
// (docs/benchmarks/h200-2026-11-27-memory-wmma/, N = 1024); the GPU suite holds the recorded
// addresses equal to the kernel's (gpu_warp_access_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/core/registry.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/memory_picks.h"
#include "tests/support/recording_from_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using tilescope::testing::site_of;

namespace {

constexpr MemorySpace kShared = MemorySpace::Shared;
constexpr AccessKind kLoad = AccessKind::Load, kStore = AccessKind::Store;

std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, Problem p, Precision q, const Shape& s) {
  std::string why;
  auto m = make_mapping_model(v.id, config, p, q, s, &why);
  EXPECT_NE(m, nullptr) << why;
  return m;
}

// The tensor-core kernel whose model has no fragment picture: wmma promises no lane layout.
const VariantDescriptor& opaque_fragment_kernel() {
  return tilescope::testing::variant_where(
      [](const VariantDescriptor& d) {
        if (!tilescope::testing::is_product_kernel(d) || !d.model || !d.model_caps.warp_level) return false;
        auto m = d.model(d.default_config, Problem::Gemm, d.precisions.front(), Shape{64, 64, 64});
        return m && m->fragments() == nullptr;
      },
      "a tensor-core kernel with opaque fragments");
}
// Its configuration of four warps (64 x 64 tiles, two by two fragments of 16 x 16 per warp).
int four_warp_config(const VariantDescriptor& v) {
  return tilescope::testing::config_where(
      v, [](const TileConfig& c) { return c.threads_y == 4; }, "of four warps");
}

int site(const MappingModel& m, const std::string& name) {
  const std::vector<AccessSite> sites = m.access_sites();
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (sites[i].name.find(name) != std::string::npos) return static_cast<int>(i);
  ADD_FAILURE() << "no site named like '" << name << "'";
  return 0;
}

// Within `pct` per cent of the profiler's count.
void expect_near(std::int64_t model, std::int64_t hardware, double pct, const char* what) {
  EXPECT_LE(std::abs(static_cast<double>(model - hardware)), hardware * pct / 100)
      << what << ": model " << model << ", hardware " << hardware;
}

// The hardware counters of the four-warp configuration at N = 1024 (two launches each agree to a
// few dozen): global requests and sectors exactly; shared-memory wavefronts and conflicts within
// half a per cent, the profiler counting a few more (timing-dependent: docs/MEMORY.md).
TEST(WmmaMemory, TotalsEqualTheProfilersCounters) {
  const VariantDescriptor& v = opaque_fragment_kernel();
  const int config = four_warp_config(v);
  struct Counted {
    Problem problem;
    Precision precision;
    std::int64_t ld_requests, ld_sectors, st_requests, st_sectors, shared_ld, shared_ld_conflicts, shared_st,
        shared_st_conflicts;
  };
  const Counted runs[] = {
      {Problem::Gemm, Precision::F16, 1048576, 2097152, 8192, 131072, 1086192, 4848, 1114112, 32768},
      {Problem::Gemm, Precision::F64, 1048576, 8388608, 16384, 262144, 8460484, 4200644, 2162688, 0},
      {Problem::Ata, Precision::F16, 557056, 1114112, 33280, 329344, 607182, 49870, 590341, 16642},
      {Problem::Ata, Precision::TF32, 557056, 2228224, 33280, 329344, 2229301, 1131317, 590338, 16640},
  };
  for (const Counted& c : runs) {
    SCOPED_TRACE(std::string(to_string(c.problem)) + " " + to_string(c.precision));
    const AccessTotals t = access_totals(*model_of(v, config, c.problem, c.precision, {1024, 1024, 1024}), INT64_MAX);
    EXPECT_FALSE(t.sampled);
    EXPECT_EQ(t.global_load.requests, c.ld_requests);
    EXPECT_EQ(t.global_load.sectors, c.ld_sectors);
    EXPECT_EQ(t.global_store.requests, c.st_requests);
    EXPECT_EQ(t.global_store.sectors, c.st_sectors);
    expect_near(t.shared_load.wavefronts, c.shared_ld, 0.5, "shared-load wavefronts");
    // Conflicts in per cent of the wavefronts they add to.
    expect_near(t.shared_load.conflicts() + c.shared_ld, c.shared_ld_conflicts + c.shared_ld, 0.5,
                "shared-load bank conflicts");
    expect_near(t.shared_store.wavefronts, c.shared_st, 0.01, "shared-store wavefronts");
    expect_near(t.shared_store.conflicts() + c.shared_st, c.shared_st_conflicts + c.shared_st, 0.01,
                "shared-store bank conflicts");
  }
}

// store_matrix_sync's 8-byte pairs of a 16 x 16 float fragment: rows 64 bytes apart, unpadded, so
// rows g and g + 2 share their banks, 2-way. The 8 x 8 double fragment's 16-byte pairs fill a
// quarter-warp's 128 bytes exactly: no conflict. And ldmatrix's eight rows of a phase, 80 bytes
// apart in the padded slab, never share a bank.
TEST(WmmaMemory, TheStagingStoreConflictsTwoWayForFloats) {
  const VariantDescriptor& v = opaque_fragment_kernel();
  const int config = four_warp_config(v);
  for (Precision q : {Precision::F16, Precision::F64}) {
    auto m = model_of(v, config, Problem::Gemm, q, {1024, 1024, 1024});
    WarpAccess w;
    m->warp_access(site(*m, "staging area"), 0, 0, 1, 0, &w);
    const SharedInstruction s = shared_instruction(w);
    SCOPED_TRACE(to_string(q));
    EXPECT_EQ(w.bytes, q == Precision::F64 ? 16 : 8);
    EXPECT_EQ(s.wavefronts, 4);
    EXPECT_EQ(s.ideal, q == Precision::F64 ? 4 : 2);
  }
  auto m = model_of(v, config, Problem::Gemm, Precision::F16, {1024, 1024, 1024});
  WarpAccess a;
  m->warp_access(site_of(*m, 'A', kShared, kLoad), 0, 0, 2, 5, &a);
  EXPECT_EQ(a.bytes, 16);
  EXPECT_EQ(shared_instruction(a).wavefronts, 4);
  EXPECT_EQ(shared_instruction(a).ideal, 4);
}

// The fragments' loads and the accumulators' stores (load_matrix_sync, store_matrix_sync) are not
// recorded, and the model says why; every other site is, and a
// recording written from the model reads back as the model at every step, for gemm and AᵀA, every
// input type, on ragged sizes (16-byte stores of C where N allows, single elements and mirrors
// where not).
TEST(WmmaMemory, EverySiteButTheFragmentsIsRecordedAndReadsBack) {
  const VariantDescriptor& v = opaque_fragment_kernel();
  int compared = 0;
  for (int config = 0; config < static_cast<int>(v.configs.size()); ++config)
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (Precision q : v.precisions)
        for (const Shape& raw : {Shape{150, 133, 141}, Shape{136, 200, 72}}) {
          const Shape s = normalised(problem, raw);
          auto m = model_of(v, config, problem, q, s);
          ASSERT_NE(m, nullptr);
          SCOPED_TRACE(v.configs[config].name + " " + to_string(problem) + " " + std::string(to_string(q)) +
                       " N=" + std::to_string(s.N));
          const std::vector<AccessSite> sites = m->access_sites();
          for (const AccessSite& a : sites)
            EXPECT_EQ(a.recorded < 0,
                      a.name.find("fragments") != std::string::npos || a.name.find("accumulators") != std::string::npos)
                << a.name;
          EXPECT_NE(m->memory_note().find("compiler"), std::string::npos);
          const int warps = m->block().x * m->block().y / kWarpLanes, blocks = m->grid().x;
          for (int bx : {0, blocks / 2, blocks - 1})
            for (int warp : {0, warps - 1}) {
              const RecordedWarp r = tilescope::testing::recording_from_model(*m, bx, 0, warp);
              ASSERT_EQ(compare_recorded_warp(*m, r, bx, 0, warp), "");
              const std::vector<std::vector<WarpAccess>> split = split_recording(*m, r, bx, 0, warp);
              for (std::size_t i = 0; i < sites.size(); ++i) {
                if (sites[i].recorded < 0) continue;
                for (std::size_t step = 0; step < split[i].size(); ++step) {
                  WarpAccess w;
                  m->warp_access(static_cast<int>(i), bx, 0, warp, static_cast<int>(step), &w);
                  ASSERT_EQ(split[i][step].address, w.address) << sites[i].name << ", step " << step;
                  compared += w.any();
                }
              }
            }
        }
  EXPECT_GT(compared, 1000);
}

// Every address lies inside its matrix or the block's shared memory, on a ragged size.
TEST(WmmaMemory, RaggedSizesStayInside) {
  const VariantDescriptor& v = opaque_fragment_kernel();
  for (int config = 0; config < static_cast<int>(v.configs.size()); ++config)
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (Precision q : v.precisions) {
        const Shape s = normalised(problem, {150, 133, 141});
        auto m = model_of(v, config, problem, q, s);
        const std::int64_t shared = static_cast<std::int64_t>(v.shared_bytes(v.configs[config], q));
        const std::vector<AccessSite> sites = m->access_sites();
        const std::int64_t in = static_cast<std::int64_t>(element_bytes(q)), out = output_bytes(q);
        for (int bx = 0; bx < m->grid().x; ++bx)
          for (std::size_t i = 0; i < sites.size(); ++i)
            for (int step = 0; step < m->site_steps(static_cast<int>(i), bx, 0); ++step)
              for (int warp = 0; warp < m->block().y; ++warp) {
                WarpAccess w;
                m->warp_access(static_cast<int>(i), bx, 0, warp, step, &w);
                for (std::int64_t a : w.address) {
                  if (a < 0) continue;
                  std::int64_t end = shared;
                  if (sites[i].space == MemorySpace::Global)
                    end = sites[i].matrix == 'C' ? s.M * s.N * out
                          : sites[i].matrix == 'A' || problem == Problem::Ata
                              ? (problem == Problem::Ata ? s.K * s.N : s.M * s.K) * in
                              : s.K * s.N * in;
                  ASSERT_LE(a + w.bytes, end) << sites[i].name << " block " << bx << " warp " << warp;
                }
              }
      }
}

}  // namespace
