// Stream-K's share-out (kernels/core/stream_k.h), walked on the host as each block of a kernel walks
// it: every (tile, slab) of C is some block's exactly once, the blocks' work differs by at most one
// slab, only a block's first shared-out run begins inside a tile, and the block holding a tile's
// first slab finds every block that holds the rest (block_of), each of which holds it in its first
// shared-out run, after whole tiles only: what a kernel's join waits for can always come.
#include "kernels/core/stream_k.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

using namespace tilescope;

namespace {

struct Case {
  int tiles, slabs, blocks;
};

// Where each block's runs fall: tile -> for each slab, the block that took it.
std::vector<std::vector<int>> walk(const StreamShare& share, int tiles,
                                   std::vector<std::vector<WorkRun>>* runs_of_block) {
  std::vector<std::vector<int>> taker(static_cast<std::size_t>(tiles), std::vector<int>(share.slabs, -1));
  runs_of_block->assign(static_cast<std::size_t>(share.blocks), {});
  for (int b = 0; b < share.blocks; ++b) {
    int slabs = 0;
    for (WorkRun r = share.first_run(b); share.more(b, r); share.next_run(b, r)) {
      EXPECT_GT(r.slabs, 0) << "block " << b;
      EXPECT_GE(r.tile, 0);
      EXPECT_LT(r.tile, tiles) << "block " << b;
      EXPECT_LE(r.slab0 + r.slabs, share.slabs) << "a run stays inside its tile";
      if (r.tile < 0 || r.tile >= tiles) break;
      for (int s = r.slab0; s < r.slab0 + r.slabs; ++s) {
        int& t = taker[static_cast<std::size_t>(r.tile)][static_cast<std::size_t>(s)];
        EXPECT_EQ(t, -1) << "tile " << r.tile << " slab " << s << " taken twice";
        t = b;
      }
      slabs += r.slabs;
      (*runs_of_block)[static_cast<std::size_t>(b)].push_back(r);
    }
    EXPECT_EQ(slabs, share.block_slabs(b)) << "block " << b;
  }
  return taker;
}

}  // namespace

TEST(StreamK, EveryTileSlabIsOneBlocksOnceAndTheWorkIsEven) {
  const Case cases[] = {
      {512, 64, 132},    // 4096 in 128 x 256 tiles of 64 k: 3.9 waves
      {2048, 128, 132},  // 8192: 15.5 waves
      {32, 16, 132},     // 1024: fewer tiles than blocks, all shared out
      {66, 43, 132},     // AᵀA 2048 in 192 x 192 tiles
      {264, 7, 132},     // whole waves only: nothing shared
      {133, 3, 132},     // one tile past a wave
      {5, 2, 10},        // as many blocks as iterations
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.tiles << " tiles of " << c.slabs << " slabs, " << c.blocks << " blocks");
    const StreamShare share(c.tiles, c.slabs, c.blocks);
    EXPECT_EQ(share.whole % c.blocks, 0) << "whole tiles fill whole waves";
    EXPECT_LT(c.tiles - share.whole, c.blocks) << "only the last, part-empty wave is shared out";
    std::vector<std::vector<WorkRun>> runs;
    const std::vector<std::vector<int>> taker = walk(share, c.tiles, &runs);
    for (int t = 0; t < c.tiles; ++t)
      for (int s = 0; s < c.slabs; ++s)
        EXPECT_NE(taker[static_cast<std::size_t>(t)][static_cast<std::size_t>(s)], -1)
            << "tile " << t << " slab " << s << " taken by nobody";
    int least = INT32_MAX, most = 0;
    for (int b = 0; b < c.blocks; ++b) {
      least = std::min(least, share.block_slabs(b));
      most = std::max(most, share.block_slabs(b));
      const std::vector<WorkRun>& mine = runs[static_cast<std::size_t>(b)];
      for (std::size_t i = 1; i < mine.size(); ++i) {
        if (mine[i - 1].it < 0) continue;
        EXPECT_EQ(mine[i].slab0, 0) << "block " << b << ": only its first shared-out run begins inside a tile";
      }
    }
    EXPECT_LE(most - least, 1) << "the same whole tiles each, and runs that differ by a slab at most";
    if (share.iterations >= c.blocks) {
      int shared_least = INT32_MAX;
      for (int b = 0; b < c.blocks; ++b) shared_least = std::min(shared_least, share.begin(b + 1) - share.begin(b));
      EXPECT_GE(shared_least, 1) << "with an iteration per block at least, no block's run is empty";
    }
  }
}

TEST(StreamK, TheBlockHoldingATilesFirstSlabFindsTheRest) {
  const Case cases[] = {{512, 64, 132}, {2048, 128, 132}, {32, 16, 132}, {66, 43, 132}, {45, 5, 40}, {133, 3, 132}};
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.tiles << " tiles of " << c.slabs << " slabs, " << c.blocks << " blocks");
    const StreamShare share(c.tiles, c.slabs, c.blocks);
    std::vector<std::vector<WorkRun>> runs;
    const std::vector<std::vector<int>> taker = walk(share, c.tiles, &runs);
    for (int t = share.whole; t < c.tiles; ++t) {
      const int first = (t - share.whole) * c.slabs;
      const int owner = share.block_of(first), last = share.block_of(first + c.slabs - 1);
      const std::vector<int>& by = taker[static_cast<std::size_t>(t)];
      EXPECT_EQ(owner, by.front()) << "tile " << t;
      EXPECT_EQ(last, by.back()) << "tile " << t;
      // Every block between takes part of it, and only in its first run.
      std::map<int, int> slabs_of;
      for (int b : by) ++slabs_of[b];
      int holders = 0;
      for (int b = owner; b <= last; ++b) holders += share.holds_slabs(b) ? 1 : 0;
      EXPECT_EQ(static_cast<int>(slabs_of.size()), holders) << "tile " << t;
      for (int b = owner + 1; b <= last; ++b) {
        if (!share.holds_slabs(b)) continue;  // no shared-out slab: the owner skips it
        const std::vector<WorkRun>& mine = runs[static_cast<std::size_t>(b)];
        const WorkRun& r = *std::find_if(mine.begin(), mine.end(), [](const WorkRun& x) { return x.it >= 0; });
        EXPECT_EQ(r.tile, t) << "block " << b << " holds tile " << t << " in its first shared-out run";
        EXPECT_NE(r.slab0, 0);
      }
    }
  }
}

TEST(StreamK, WholeTilesGoInTurnAsWithoutIt) {
  const StreamShare share(2048, 128, 132);
  ASSERT_EQ(share.whole, 15 * 132);
  std::vector<std::vector<WorkRun>> runs;
  walk(share, 2048, &runs);
  for (int b = 0; b < 132; ++b)
    for (int i = 0; i < 15; ++i) {
      const WorkRun& r = runs[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)];
      EXPECT_EQ(r.tile, b + 132 * i);
      EXPECT_EQ(r.slabs, 128);
      EXPECT_EQ(r.it, -1);
    }
}

TEST(StreamK, AnEmptyKStillVisitsEveryTileOnce) {
  // No slab (K = 0, or a traced build stopped before the first): every tile is a whole run of none,
  // so each is still stored (zeros), by block t % blocks.
  const StreamShare share(3, 0, 10);
  EXPECT_EQ(share.whole, 3);
  EXPECT_EQ(share.iterations, 0);
  for (int b = 0; b < 10; ++b) {
    std::vector<int> tiles;
    for (WorkRun r = share.first_run(b); share.more(b, r); share.next_run(b, r)) {
      EXPECT_EQ(r.slabs, 0);
      tiles.push_back(r.tile);
    }
    EXPECT_EQ(tiles, b < 3 ? std::vector<int>{b} : std::vector<int>{}) << "block " << b;
    EXPECT_EQ(share.block_slabs(b), 0);
  }
}
