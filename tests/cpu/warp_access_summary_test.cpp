// The Memory view's numbers and words (app/viz/warp_access_summary.h): hand-made warps first, where
// the sectors, lines and wavefronts are worked out by hand, then the shipped kernels' models, whose
// first warp shows the textbook cases: 32 neighbouring floats in 4 sectors, a column in 32, a
// broadcast in 1; the transposing store of unpadded shared rows in 2 wavefronts, padded in 1.
#include "app/viz/warp_access_summary.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "kernels/models/mapping_model.h"
#include "tests/support/memory_picks.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

const AccessSite kGlobalLoad{"a load", 'A', MemorySpace::Global, AccessKind::Load, 4, "", "k"};
const AccessSite kSharedStore{"a store", 'A', MemorySpace::Shared, AccessKind::Store, 4, "", "k"};

WarpAccess strided(std::int64_t stride_bytes, int bytes = 4) {
  WarpAccess w;
  w.bytes = bytes;
  for (int lane = 0; lane < kWarpLanes; ++lane) w.address[lane] = lane * stride_bytes;
  return w;
}

bool says(const std::string& sentence, const char* words) {
  return sentence.find(words) != std::string::npos;
}

// The first warp of block (0, 0) at step 0 of a site of `config` of `v`, float gemm at 256.
WarpAccessSummary first_warp(const VariantDescriptor& v, int config, char matrix, MemorySpace space, AccessKind kind) {
  std::string why;
  const auto model = make_mapping_model(v.id, config, Problem::Gemm, Precision::F32, Shape{256, 256, 256}, &why);
  if (!model) throw std::runtime_error(why);
  const int site = site_of(*model, matrix, space, kind);
  WarpAccess w;
  model->warp_access(site, 0, 0, 0, 0, &w);
  return summarize(model->access_sites()[static_cast<std::size_t>(site)], w);
}

}  // namespace

TEST(WarpAccessSummary, NeighbouringFloatsAreFourSectorsOfOneLine) {
  const WarpAccessSummary s = summarize(kGlobalLoad, strided(4));
  EXPECT_EQ(s.active_lanes, 32);
  EXPECT_EQ(s.sectors, 4);
  EXPECT_EQ(s.lines, 1);
  EXPECT_EQ(s.bytes_moved, 128);
  EXPECT_EQ(s.bytes_distinct, 128);
  EXPECT_DOUBLE_EQ(s.efficiency, 1.0);
  EXPECT_TRUE(s.coalesced);
  EXPECT_EQ(s.sentence, "32 lanes read 128 bytes in 4 sectors: coalesced");
}

TEST(WarpAccessSummary, ALaneASectorIsUncoalesced) {
  const WarpAccessSummary s = summarize(kGlobalLoad, strided(1024));
  EXPECT_EQ(s.sectors, 32);
  EXPECT_EQ(s.lines, 32);
  EXPECT_EQ(s.bytes_moved, 1024);
  EXPECT_DOUBLE_EQ(s.efficiency, 0.125);
  EXPECT_FALSE(s.coalesced);
  EXPECT_EQ(s.sentence, "each lane has a sector of its own: 32 sectors for 128 bytes used (uncoalesced)");
}

TEST(WarpAccessSummary, OneAddressIsABroadcastAndAStrideOfTwoIsPartlyCoalesced) {
  const WarpAccessSummary b = summarize(kGlobalLoad, strided(0));
  EXPECT_EQ(b.sectors, 1);
  EXPECT_EQ(b.bytes_asked, 128);
  EXPECT_EQ(b.bytes_distinct, 4);
  EXPECT_TRUE(b.coalesced);
  EXPECT_TRUE(says(b.sentence, "broadcast")) << b.sentence;
  const WarpAccessSummary p = summarize(kGlobalLoad, strided(8));  // every other float
  EXPECT_EQ(p.sectors, 8);
  EXPECT_EQ(p.lines, 2);
  EXPECT_DOUBLE_EQ(p.efficiency, 0.5);
  EXPECT_TRUE(says(p.sentence, "partly coalesced")) << p.sentence;
  WarpAccess none;
  EXPECT_EQ(summarize(kGlobalLoad, none).active_lanes, 0);
  EXPECT_EQ(summarize(kGlobalLoad, none).sectors, 0);
}

TEST(WarpAccessSummary, LinesListTheirSectorsLanes) {
  const std::vector<LineRow> rows = touched_lines(strided(8));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].line, 0);
  EXPECT_EQ(lane_ranges(rows[0].lanes[0]), "0-3");
  EXPECT_EQ(lane_ranges(rows[1].lanes[3]), "28-31");
  // A 16-byte access that straddles two sectors is listed in both.
  WarpAccess w;
  w.bytes = 16;
  w.address[5] = 24;
  const std::vector<LineRow> one = touched_lines(w);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(lane_ranges(one[0].lanes[0]), "5");
  EXPECT_EQ(lane_ranges(one[0].lanes[1]), "5");
  EXPECT_EQ(lane_ranges({0, 8, 16, 17, 18}), "0, 8, 16-18");
  EXPECT_EQ(phase_lanes(2, 4), "lanes 16-23");
}

TEST(WarpAccessSummary, SharedWordsOfOneBankAreAConflict) {
  // 32 floats in a row: one word per bank, one wavefront.
  const WarpAccessSummary fine = summarize(kSharedStore, strided(4));
  EXPECT_EQ(fine.phases, 1);
  EXPECT_EQ(fine.wavefronts, 1);
  EXPECT_EQ(fine.conflicts, 0);
  EXPECT_EQ(fine.degree, 1);
  EXPECT_TRUE(says(fine.sentence, "no bank conflict")) << fine.sentence;
  // A stride of two words: lanes l and l + 16 on one bank, different words.
  const WarpAccessSummary two = summarize(kSharedStore, strided(8));
  EXPECT_EQ(two.wavefronts, 2);
  EXPECT_EQ(two.ideal, 1);
  EXPECT_EQ(two.conflicts, 1);
  EXPECT_EQ(two.degree, 2);
  EXPECT_EQ(two.worst_bank, 0);
  EXPECT_EQ(two.sentence,
            "2 lanes need 2 different words of bank 0: 2 wavefronts instead of 1 (a 2-way bank conflict)");
  // 8-byte accesses are two half-warps; a stride of 32 words puts each half-warp's 16 lanes on
  // 16 words of banks 0 and 1.
  AccessSite wide = kSharedStore;
  wide.bytes = 8;
  const WarpAccessSummary half = summarize(wide, strided(128, 8));
  EXPECT_EQ(half.phases, 2);
  EXPECT_EQ(half.degree, 16);
  EXPECT_EQ(half.wavefronts, 32);
  EXPECT_EQ(half.ideal, 2);
  EXPECT_TRUE(says(half.sentence, "in the phase of lanes 0-15, 16 lanes need 16 different words")) << half.sentence;
}

TEST(WarpAccessSummary, NaiveAlongTheRowsIsCoalescedAndDownTheColumnsIsNot) {
  const VariantDescriptor& v = one_phase_kernel();
  const int rows = warp_row_config(v, false), columns = warp_row_config(v, true);
  const WarpAccessSummary b = first_warp(v, rows, 'B', MemorySpace::Global, AccessKind::Load);
  EXPECT_EQ(b.sectors, 4);
  EXPECT_TRUE(b.coalesced);
  const WarpAccessSummary a = first_warp(v, rows, 'A', MemorySpace::Global, AccessKind::Load);
  EXPECT_EQ(a.sectors, 1);  // one row of A for the whole warp
  EXPECT_TRUE(says(a.sentence, "broadcast")) << a.sentence;
  const WarpAccessSummary down = first_warp(v, columns, 'A', MemorySpace::Global, AccessKind::Load);
  EXPECT_EQ(down.sectors, 32);
  EXPECT_EQ(down.lines, 32);
  EXPECT_TRUE(says(down.sentence, "(uncoalesced)")) << down.sentence;
  EXPECT_EQ(first_warp(v, columns, 'C', MemorySpace::Global, AccessKind::Store).sectors, 32);
}

TEST(WarpAccessSummary, UnpaddedSharedRowsMakeTheTransposingStoreConflict) {
  const VariantDescriptor& v = typed_prefetch_kernel();
  const WarpAccessSummary nopad = first_warp(v, slab32_config(v, false), 'A', MemorySpace::Shared, AccessKind::Store);
  EXPECT_EQ(nopad.wavefronts, 2);
  EXPECT_EQ(nopad.conflicts, 1);
  EXPECT_EQ(nopad.degree, 2);
  EXPECT_TRUE(says(nopad.sentence, "2-way bank conflict")) << nopad.sentence;
  const WarpAccessSummary pad = first_warp(v, slab32_config(v, true), 'A', MemorySpace::Shared, AccessKind::Store);
  EXPECT_EQ(pad.wavefronts, 1);
  EXPECT_EQ(pad.conflicts, 0);
  EXPECT_TRUE(says(pad.sentence, "no bank conflict")) << pad.sentence;
}

// A cp.async of eight 64-byte rows: its shared side fits the banks in 4 wavefronts, but its data
// arrive in 8 global lines and are written line by line. The sentence says so, and calls none of
// it a bank conflict; without its global side the same addresses are an ordinary conflict-free store.
TEST(WarpAccessSummary, ACpAsyncWriteIsWrittenLineByLine) {
  AccessSite site;
  site.space = MemorySpace::Shared;
  site.kind = AccessKind::Store;
  site.bytes = 16;
  WarpAccess shared, global;
  shared.bytes = global.bytes = 16;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    shared.address[lane] = lane * 16;
    global.address[lane] = std::int64_t{lane / 4} * 2048 + (lane % 4) * 16;
  }
  const WarpAccessSummary copy = summarize(site, shared, &global);
  EXPECT_EQ(copy.arrival_lines, 8);
  EXPECT_EQ(copy.wavefronts, 8);
  EXPECT_EQ(copy.bank_wavefronts, 4);
  EXPECT_EQ(copy.conflicts, 0);
  EXPECT_TRUE(says(copy.sentence, "8 128-byte lines")) << copy.sentence;
  EXPECT_TRUE(says(copy.sentence, "not a bank conflict")) << copy.sentence;
  const WarpAccessSummary plain = summarize(site, shared);
  EXPECT_EQ(plain.arrival_lines, 0);
  EXPECT_EQ(plain.wavefronts, 4);
  EXPECT_TRUE(says(plain.sentence, "no bank conflict")) << plain.sentence;
}
