// The orderings a pipelined kernel's timeline must obey (timeline_order_violation), on hand-made
// stamps: a correct ring passes, and each broken rule is named.
#include <gtest/gtest.h>

#include <string>

#include "kernels/instrument/timeline.h"

using namespace tilescope;

namespace {

// Two consumers, a ring of two stages, four slabs of 10 cycles each: the copy of slab n is issued
// once slab n - 2 is done, lands 5 cycles later, and each consumer takes it then.
TimelineBlock healthy(TimelineLayout* layout) {
  layout->stages = 2;
  layout->consumers = 2;
  layout->slabs_per_tile = 4;
  TimelineBlock b;
  for (int n = 0; n < 4; ++n) {
    TimelineStamps s;
    s.issued = n < 2 ? 100 + n : 100 + 10 * n + 1;
    s.arrived = s.issued + 5;
    for (int c = 0; c < 2; ++c) {
      s.started[c] = 105 + 10 * n + c;
      s.done[c] = s.started[c] + 8;
    }
    b.raw.push_back(s);
  }
  b.slabs_total = 4;
  return b;
}

TEST(TimelineOrder, AHealthyRingPasses) {
  TimelineLayout layout;
  const TimelineBlock b = healthy(&layout);
  EXPECT_EQ(timeline_order_violation(b, layout), "");
}

TEST(TimelineOrder, NamesEachBrokenRule) {
  TimelineLayout layout;
  struct Breakage {
    const char* says;
    void (*apply)(TimelineBlock&);
  };
  const Breakage cases[] = {
      {"not stamped", [](TimelineBlock& b) { b.raw[1].arrived = 0; }},
      {"arrived before", [](TimelineBlock& b) { b.raw[1].arrived = b.raw[1].issued - 1; }},
      {"left no stamp", [](TimelineBlock& b) { b.raw[2].done[1] = 0; }},
      {"began before the copy", [](TimelineBlock& b) { b.raw[0].started[0] = b.raw[0].issued - 1; }},
      {"finished before it began", [](TimelineBlock& b) { b.raw[3].done[1] = b.raw[3].started[1] - 1; }},
      {"slab ahead",
       [](TimelineBlock& b) {
         b.raw[1].started[0] = b.raw[2].started[0] + 1;
         b.raw[1].done[0] = b.raw[1].started[0] + 1;
       }},
      {"refilled before", [](TimelineBlock& b) { b.raw[2].issued = b.raw[0].done[1] - 1; }},
  };
  for (const Breakage& c : cases) {
    TimelineBlock b = healthy(&layout);
    c.apply(b);
    const std::string said = timeline_order_violation(b, layout);
    EXPECT_NE(said.find(c.says), std::string::npos) << "expected \"" << c.says << "\", got \"" << said << "\"";
  }
}

}  // namespace

// Where a slab lies (place_slab): every slabs_per_tile slabs a tile, or, where the layout has runs
// (stream-K), the block's runs, which may begin inside a tile.
namespace {

struct Place {
  int index, tile, in_tile;
  bool run_start;
};

void expect_placed(const TimelineLayout& layout, int block, const Place& want) {
  TimelineSlab s;
  s.index = want.index;
  place_slab(s, layout, block);
  EXPECT_EQ(s.tile, want.tile) << "block " << block << " slab " << want.index;
  EXPECT_EQ(s.in_tile, want.in_tile) << "block " << block << " slab " << want.index;
  EXPECT_EQ(s.run_start, want.run_start) << "block " << block << " slab " << want.index;
}

}  // namespace

TEST(TimelinePlace, WholeTilesEverySlabsPerTile) {
  TimelineLayout layout;
  layout.slabs_per_tile = 4;
  expect_placed(layout, 0, Place{5, 1, 1, false});
  expect_placed(layout, 0, Place{8, 2, 0, true});
}

TEST(TimelinePlace, StreamKRunsMayBeginInsideATile) {
  // Block 0: a whole tile of 4 slabs, then a run of 2 from the tile's slab 2, then 3 from a tile's
  // first slab. Block 1 has no runs listed: tiles every 4 slabs.
  TimelineLayout layout;
  layout.slabs_per_tile = 4;
  layout.runs = {{{0, 0, 4}, {4, 2, 2}, {6, 0, 3}}, {}};
  for (const Place& p : {Place{0, 0, 0, true}, Place{3, 0, 3, false}, Place{4, 1, 2, true}, Place{5, 1, 3, false},
                         Place{6, 2, 0, true}, Place{8, 2, 2, false}})
    expect_placed(layout, 0, p);
  expect_placed(layout, 1, Place{6, 1, 2, false});
}
