// The Hopper kernel whose operands travel by the TMA and are read by the tensor cores through
// descriptors: the only memory instructions of its lanes are C's stores, which its model lists.
// From the registers to global memory, or into the 128-byte swizzled boxes that the TMA stores:
// the whole-kernel totals against the counts Nsight Compute reported for the same kernels
// (docs/benchmarks/h200-2026-11-27-memory-mma/wmma-wgmma-by-opcode.csv, bf16 gemm at 1024), the
// swizzled pairs' 2-way conflict on one warp, ragged sizes, and a recording written from the model
// read back. The GPU suite holds the addresses themselves equal to the kernel's
// (gpu_warp_access_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/viz/warp_access_summary.h"
#include "kernels/core/registry.h"
#include "kernels/core/typed_configs.h"
#include "kernels/core/variant.h"
#include "kernels/instrument/recorded_streams.h"
#include "kernels/instrument/recorded_warp.h"
#include "kernels/models/mapping_model.h"
#include "kernels/models/warp_access.h"
#include "tests/support/recording_from_model.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;

namespace {

constexpr MemorySpace kGlobal = MemorySpace::Global, kShared = MemorySpace::Shared;
constexpr Precision kBf16 = Precision::BF16;

int value_of(const VariantDescriptor& v, int config, const char* key) {
  return tile_value(v.tile_values_of(v.configs[config]), key, -1);
}
bool stores_by_tma(const VariantDescriptor& v, int config) {
  return value_of(v, config, "tma_store") == 1;
}

// Its square tile that stores by TMA (it computes AᵀA too, mirrors and all).
int square_tma_store_config(const VariantDescriptor& v) {
  return tilescope::testing::config_where(
      v,
      [&](const TileConfig& c) {
        const TileValues t = v.tile_values_of(c);
        return tile_value(t, "tma_store", 0) == 1 && c.bm == c.bn && c.cluster_m == 1;
      },
      "a square tile stored by TMA");
}
// The model, or nullptr where the configuration does not compute the problem (a refusal).
std::unique_ptr<MappingModel> model_of(const VariantDescriptor& v, int config, Problem problem, const Shape& shape) {
  std::string why;
  return make_mapping_model(v.id, config, problem, kBf16, shape, &why);
}

// The index of the model's site of C in `space` whose lanes store `bytes` each; -1 where none is.
int c_site(const MappingModel& m, MemorySpace space, int bytes) {
  const std::vector<AccessSite> sites = m.access_sites();
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (sites[i].matrix == 'C' && sites[i].space == space && sites[i].kind == AccessKind::Store &&
        sites[i].bytes == bytes)
      return static_cast<int>(i);
  return -1;
}

// Whether this build has the kernel: one without sm_90a code refuses it, and its model with it.
bool built(const VariantDescriptor& v) {
  return make_mapping_model(v.id, v.default_config, Problem::Gemm, kBf16, Shape{64, 64, 64}, nullptr) != nullptr;
}

// The model's totals, bf16 gemm at 1024, against Nsight Compute's per-opcode counts of the same
// kernels on an H200: from the registers, 16384 STG.E.64 of 8 sectors each; through the boxes,
// 16384 STS.64 (18432 for the 192 x 192 tile: its last block row has one slice inside C, and the
// slices below C store nothing) of 4 wavefronts, where 2 would do; with C in bf16 (c16) as many
// 4-byte STS of one wavefront each, no conflict. The TMA's copies and stores are no lane's: nothing
// else is counted.
TEST(WgmmaMemory, TotalsAt1024EqualTheProfilersCounts) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("tma_store");
  if (!built(v)) GTEST_SKIP() << v.id << " is refused in this build";
  int from_registers = 0, through_boxes = 0;
  for (int config = 0; config < static_cast<int>(v.configs.size()); ++config) {
    SCOPED_TRACE(v.configs[config].name);
    if (!v.refuses(Problem::Gemm, kBf16, v.configs[config]).empty()) continue;  // compiled for tf32 alone
    auto m = model_of(v, config, Problem::Gemm, Shape{1024, 1024, 1024});
    ASSERT_NE(m, nullptr);
    const AccessTotals t = access_totals(*m, INT64_MAX);
    EXPECT_FALSE(t.sampled);
    EXPECT_EQ(t.global_load.requests + t.shared_load.requests + t.async_copy.requests, 0);
    if (stores_by_tma(v, config)) {
      ++through_boxes;
      const std::int64_t stores = value_of(v, config, "bm") == 192 ? 18432 : 16384;
      EXPECT_EQ(t.global_store.requests, 0);
      EXPECT_EQ(t.shared_store.requests, stores);
      const bool narrow = v.configs[config].c_in_input_type;
      EXPECT_EQ(t.shared_store.wavefronts, (narrow ? 1 : 4) * stores);
      EXPECT_EQ(t.shared_store.ideal_wavefronts, (narrow ? 1 : 2) * stores);
    } else {
      ++from_registers;
      EXPECT_EQ(t.global_store.requests, 16384);
      EXPECT_EQ(t.global_store.sectors, 131072);
      EXPECT_EQ(t.shared_store.requests, 0);
      const int site = c_site(*m, kGlobal, 8);
      ASSERT_GE(site, 0) << "C's rows of 1024 take pairs in 8-byte stores";
    }
  }
  EXPECT_GT(from_registers, 0);
  EXPECT_GT(through_boxes, 0);
}

// Why the swizzled pairs conflict: an 8-byte store is served half a warp at a time, and half a
// warp writes two 16-byte chunks in each of four rows of the box; XOR row % 8 keeps them inside
// four chunks, so 16 banks take two words each and 16 none. The mirror's single floats (AᵀA) fall
// in four rows of their box, eight words each, which the swizzle spreads over all 32 banks.
TEST(WgmmaMemory, TheSwizzledPairsConflictTwoWayAndTheMirrorsNot) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("tma_store");
  if (!built(v)) GTEST_SKIP() << v.id << " is refused in this build";
  const int config = square_tma_store_config(v);
  for (Problem problem : {Problem::Gemm, Problem::Ata}) {
    SCOPED_TRACE(to_string(problem));
    auto m = model_of(v, config, problem, Shape{1024, 1024, 1024});
    ASSERT_NE(m, nullptr);
    const int pairs = c_site(*m, kShared, 8);
    ASSERT_GE(pairs, 0);
    // The first block whose tile goes through the boxes (AᵀA's diagonal tiles do not).
    int bx = 0;
    while (m->site_steps(pairs, bx, 0) == 0) ++bx;
    // The first consumer warp (warps 0-3 copy).
    const int warp = 4;
    for (int step = 0; step < m->site_steps(pairs, bx, 0); step += 5) {
      WarpAccess w;
      m->warp_access(pairs, bx, 0, warp, step, &w);
      ASSERT_TRUE(w.any());
      const SharedInstruction s = shared_instruction(w, true);
      ASSERT_EQ(s.phases, 2);
      EXPECT_EQ(s.wavefronts, 4) << "step " << step;
      EXPECT_EQ(s.ideal, 2);
      for (int phase = 0; phase < 2; ++phase) {
        int used = 0;
        for (const SharedInstruction::Bank& bank : s.banks[phase]) {
          if (bank.words.empty()) continue;
          ++used;
          EXPECT_EQ(bank.words.size(), 2u) << "step " << step << ", phase " << phase;
        }
        EXPECT_EQ(used, 16) << "step " << step << ", phase " << phase;
      }
      if (step == 0) {
        const std::string said = summarize(m->access_sites()[pairs], w).sentence;
        EXPECT_NE(said.find("(a 2-way bank conflict)"), std::string::npos) << said;
      }
    }
    const int mirror = c_site(*m, kShared, 4);
    if (problem == Problem::Gemm) {
      EXPECT_LT(mirror, 0) << "gemm has no mirror";
      continue;
    }
    ASSERT_GE(mirror, 0);
    ASSERT_EQ(m->site_steps(mirror, bx, 0), 2 * m->site_steps(pairs, bx, 0));
    for (int step = 0; step < m->site_steps(mirror, bx, 0); step += 3) {
      WarpAccess w;
      m->warp_access(mirror, bx, 0, warp, step, &w);
      const SharedInstruction s = shared_instruction(w);
      EXPECT_EQ(s.wavefronts, 1) << "step " << step;
      EXPECT_EQ(s.ideal, 1);
    }
    // The whole kernel: the pairs' conflicts, none in the mirrors.
    const AccessTotals t = access_totals(*m, INT64_MAX);
    EXPECT_EQ(t.per_site[pairs].wavefronts, 2 * t.per_site[pairs].ideal_wavefronts);
    EXPECT_EQ(t.per_site[mirror].conflicts(), 0);
    EXPECT_EQ(t.per_site[mirror].requests, 2 * t.per_site[pairs].requests);
  }
}

// Ragged sizes: every address lies inside C (global) or inside the block's shared memory, aligned
// to its width; no element of C is stored twice, each by its owner (the Matrices view's), and where
// nothing goes through the boxes every element is stored once. Rows of odd length, of whole 8-byte
// pairs only and of whole 16-byte vectors (the map); block rows that leave a cluster's block below C.
TEST(WgmmaMemory, RaggedSizesStoreInsideCEachElementByItsOwner) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("tma_store");
  if (!built(v)) GTEST_SKIP() << v.id << " is refused in this build";
  const std::vector<Shape> shapes = {{999, 999, 64}, {136, 200, 72}, {260, 1002, 64}, {150, 133, 141}};
  int checked = 0, staged = 0, pairs = 0, singles = 0;
  for (int config = 0; config < static_cast<int>(v.configs.size()); ++config)
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (const Shape& raw : shapes) {
        const Shape s = normalised(problem, raw);
        auto m = model_of(v, config, problem, s);
        if (!m) continue;  // AᵀA refused: clusters, oblong tiles
        SCOPED_TRACE(v.configs[config].name + " " + to_string(problem) + " M=" + std::to_string(s.M) +
                     " N=" + std::to_string(s.N));
        const std::vector<AccessSite> sites = m->access_sites();
        ASSERT_FALSE(sites.empty());
        const std::int64_t shared_bytes = static_cast<std::int64_t>(v.shared_bytes(v.configs[config], kBf16));
        // C's element: a float, or with C in the input type a bf16.
        const std::int64_t eb =
            static_cast<std::int64_t>(output_bytes(output_type(kBf16, v.configs[config].c_in_input_type)));
        std::vector<int> stored(static_cast<std::size_t>(s.M * s.N), 0);
        bool any_shared = false;
        const Dim2 grid = m->grid(), block = m->block();
        const int warps = block.x * block.y / kWarpLanes;
        for (int bx = 0; bx < grid.x; ++bx)
          for (std::size_t site = 0; site < sites.size(); ++site) {
            const AccessSite& a = sites[site];
            const bool global = a.space == kGlobal;
            any_shared |= !global && m->site_steps(static_cast<int>(site), bx, 0) > 0;
            for (int warp = 0; warp < warps; ++warp)
              for (int step = 0; step < m->site_steps(static_cast<int>(site), bx, 0); ++step) {
                WarpAccess w;
                m->warp_access(static_cast<int>(site), bx, 0, warp, step, &w);
                ASSERT_EQ(w.bytes, a.bytes);
                for (int lane = 0; lane < kWarpLanes; ++lane) {
                  const std::int64_t at = w.address[lane];
                  if (at < 0) continue;
                  ASSERT_EQ(at % w.bytes, 0) << "lane " << lane << " of warp " << warp;
                  if (!global) {
                    ASSERT_LE(at + w.bytes, shared_bytes) << a.name << ", lane " << lane << " of warp " << warp;
                    continue;
                  }
                  ASSERT_LE(at + w.bytes, s.M * s.N * eb) << a.name << ", lane " << lane << " of warp " << warp;
                  for (std::int64_t e = at / eb; e < (at + w.bytes) / eb; ++e) {
                    ASSERT_EQ(++stored[static_cast<std::size_t>(e)], 1) << "element " << e << " stored twice";
                    const Owner o = m->owner(e / s.N, e % s.N);
                    ASSERT_EQ(o.block_x, bx) << "element " << e;
                    ASSERT_EQ(o.thread_y, warp) << "element " << e;
                    ASSERT_EQ(o.thread_x, lane) << "element " << e;
                  }
                }
              }
          }
        if (!any_shared) {
          for (std::size_t e = 0; e < stored.size(); ++e) ASSERT_EQ(stored[e], 1) << "element " << e << " not stored";
        }
        staged += any_shared;
        pairs += c_site(*m, kGlobal, static_cast<int>(2 * eb)) >= 0;
        singles += c_site(*m, kGlobal, static_cast<int>(eb)) >= 0;
        ++checked;
      }
  EXPECT_GT(checked, 0);
  EXPECT_GT(staged, 0);
  EXPECT_GT(pairs, 0);
  EXPECT_GT(singles, 0);
}

// A recording written from the model (tests/support/recording_from_model.h), on the GPU suite's
// ragged shapes, is accepted and cut back into the model's sites and steps: AᵀA's C and mirror
// sharing the probe's stream of stores, the boxes' two shared streams beside the diagonal tiles'
// global stores, the producer's warps with nothing. A moved address is named by its stream, lane
// and step.
TEST(WgmmaMemory, ARecordingFromTheModelRoundTrips) {
  const VariantDescriptor& v = tilescope::testing::variant_with_tile_param("tma_store");
  if (!built(v)) GTEST_SKIP() << v.id << " is refused in this build";
  int moved = 0;
  for (int config = 0; config < static_cast<int>(v.configs.size()); ++config)
    for (Problem problem : {Problem::Gemm, Problem::Ata})
      for (const Shape& raw : {Shape{150, 133, 141}, Shape{136, 200, 72}}) {
        const Shape s = normalised(problem, raw);
        auto m = model_of(v, config, problem, s);
        if (!m) continue;  // AᵀA refused: clusters, oblong tiles
        SCOPED_TRACE(v.configs[config].name + " " + to_string(problem) + " N=" + std::to_string(s.N));
        const std::vector<AccessSite> sites = m->access_sites();
        const int warps = m->block().x * m->block().y / kWarpLanes;
        int compared = 0;
        for (int bx = 0; bx < m->grid().x; ++bx)
          for (int warp : {0, 4, warps / 2, warps - 1}) {
            RecordedWarp r = tilescope::testing::recording_from_model(*m, bx, 0, warp);
            ASSERT_EQ(compare_recorded_warp(*m, r, bx, 0, warp), "") << "block " << bx << ", warp " << warp;
            const std::vector<std::vector<WarpAccess>> split = split_recording(*m, r, bx, 0, warp);
            ASSERT_EQ(split.size(), sites.size());
            for (std::size_t site = 0; site < split.size(); ++site)
              for (std::size_t step = 0; step < split[site].size(); ++step) {
                WarpAccess w;
                m->warp_access(static_cast<int>(site), bx, 0, warp, static_cast<int>(step), &w);
                ASSERT_EQ(split[site][step].address, w.address)
                    << sites[site].name << ", block " << bx << ", warp " << warp << ", step " << step;
                compared += w.any();
              }
            // Lane 7's fourth access of a stream, moved by a word.
            for (const AccessSite& a : sites) {
              if (r.at(a.recorded, 3, 7) < 0) continue;
              r.address[(static_cast<std::size_t>(a.recorded) * r.steps + 3) * kWarpLanes + 7] += 4;
              const std::string error = compare_recorded_warp(*m, r, bx, 0, warp);
              EXPECT_NE(error.find("stream " + std::to_string(a.recorded) + ", lane 7, step 3"), std::string::npos)
                  << error;
              ++moved;
              break;
            }
          }
        EXPECT_GT(compared, 0);
      }
  EXPECT_GT(moved, 0);
}

}  // namespace
