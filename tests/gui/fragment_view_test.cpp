// The tensor-core pictures of the mapping view: what they contain (viz/fragment_images.h, from a
// FragmentPicture made by hand: the m16n8k16 layout and ldmatrix reads with and without the
// swizzle), the warp / lane / register colouring of C on the host path, and the views drawn by
// ImGui under Mesa (EGL surfaceless in CI), checked pixel by pixel.
#include "app/ui/mapping/fragment_view.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <set>

#include "app/viz/colors.h"
#include "app/viz/fragment_images.h"
#include "app/viz/mapping_images.h"
#include "kernels/core/registry.h"
#include "tests/gui/fragment_test_data.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"
#include "tests/gui/render_window.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

unsigned pixel(const Image& img, int x, int y) {
  const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
  return p[0] | (p[1] << 8) | (p[2] << 16) | 0xFF000000u;
}

template <typename Draw>
Image render(int w, int h, Draw draw, std::string* text = nullptr) {
  return tilescope::testing::render_window(w, h, draw, text);
}

}  // namespace

TEST(FragmentImages, EveryElementOfOneMmaIsHeldByOneLaneAsThePtxLayoutSays) {
  const FragmentPicture pic = test_m16n8k16_picture();
  const OperandGrid a = operand_grid(pic.a, 16, 16), b = operand_grid(pic.b, 16, 8), c = operand_grid(pic.c, 16, 8);
  for (const OperandGrid* g : {&a, &b, &c})
    for (int r = 0; r < g->rows; ++r)
      for (int col = 0; col < g->cols; ++col) EXPECT_EQ(g->at(r, col).size(), 1u) << r << ", " << col;
  // A(9, 10): g = 1, i % 2 = 1, 2t + 8 (i / 2) = 10 -> t = 1, i = 3: lane 5, register a3.
  EXPECT_EQ(a.at(9, 10).front().lane, 5);
  EXPECT_EQ(a.at(9, 10).front().reg, 3);
  EXPECT_TRUE(a.held_by(9, 11, 5));
  EXPECT_FALSE(a.held_by(9, 12, 5));
  // B(10, 3): column g = 3, 2t + 8i = 10 -> t = 1, i = 1: lane 13, register b1.
  EXPECT_EQ(b.at(10, 3).front().lane, 13);
  EXPECT_EQ(b.at(10, 3).front().reg, 1);
  // C(9, 3): g = 1, r / 2 = 1, 2t + r % 2 = 3 -> t = 1, r = 3: lane 5, register c3.
  EXPECT_EQ(c.at(9, 3).front().lane, 5);
  EXPECT_EQ(c.color(9, 3), lane_color(5));

  const LaneShare sa = lane_share(pic.a, 5), sb = lane_share(pic.b, 5), sc = lane_share(pic.c, 5);
  EXPECT_EQ(sa.elements, 8);
  EXPECT_EQ(sa.registers, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(sb.elements, 4);
  EXPECT_EQ(sb.registers, (std::vector<int>{0, 1}));
  EXPECT_EQ(sc.elements, 4);
  const std::string words = lane_summary(pic, 5);
  EXPECT_NE(words.find("lane 5 (group 1, thread 1)"), std::string::npos) << words;
  EXPECT_NE(words.find("8 elements of A (registers a0 a1 a2 a3)"), std::string::npos) << words;
  EXPECT_NE(words.find("4 elements of C (registers c0 c1 c2 c3)"), std::string::npos) << words;
  EXPECT_EQ(warp_tiling_summary(pic),
            "2 warps (2 x 1), each a 16 x 16 tile of C: 1 x 2 mma tiles of 16 x 8, so 2 mma per warp per k step of 16");
}

TEST(FragmentImages, AccumulatorSlotsNameTheirMmaTileAndRegister) {
  const FragmentPicture pic = test_m16n8k16_picture();
  // Slot 7 of lane 5: mma tile (0, 1), c3 = C(9, 3) of that tile, (9, 11) of the warp tile.
  const AccumulatorPlace p = accumulator_place(pic, 5, 7);
  ASSERT_TRUE(p.known);
  EXPECT_EQ(p.mi, 0);
  EXPECT_EQ(p.ni, 1);
  EXPECT_EQ(p.reg, 3);
  EXPECT_EQ(p.row, 9);
  EXPECT_EQ(p.col, 11);
  EXPECT_FALSE(accumulator_place(pic, 5, 8).known) << "a warp tile of 2 mma tiles has 8 slots";
  // Every owner of the test model sits where its slot says.
  const TestWarpModel model(Shape{64, 32, 32});
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 16; ++j) {
      const Owner o = model.owner(i, j);
      const AccumulatorPlace q = accumulator_place(pic, o.thread_x, o.slot);
      ASSERT_TRUE(q.known);
      EXPECT_EQ(o.thread_y * 16 + q.row, i) << i << ", " << j;
      EXPECT_EQ(q.col, j) << i << ", " << j;
    }
}

TEST(FragmentImages, TheSwizzleSpreadsAnLdmatrixPhaseOverAllBanks) {
  const std::vector<SharedRequest> plain = test_ldmatrix_requests(false), swizzled = test_ldmatrix_requests(true);
  // Plain 64-byte rows: rows 0, 2, 4, 6 all start in bank 0, rows 1, 3, 5, 7 in bank 16.
  const BankRow p = bank_row(plain[0]);
  EXPECT_EQ(p.wavefronts, 4);
  EXPECT_EQ(p.wavefronts, wavefronts(plain[0]));
  EXPECT_EQ(p.ideal, 1);
  ASSERT_EQ(p.banks[0].size(), 4u);
  EXPECT_TRUE(p.conflict(0));
  EXPECT_FALSE(p.conflict(8)) << "nobody reads bank 8";
  EXPECT_TRUE(p.banks[8].empty());
  std::vector<int> lanes;
  for (const BankWord& w : p.banks[0]) lanes.push_back(w.lanes.front());
  EXPECT_EQ(lanes, (std::vector<int>{0, 2, 4, 6}));
  // Swizzled: the 8 rows' 16-byte pieces land in 8 different groups of 4 banks.
  const BankRow s = bank_row(swizzled[0]);
  EXPECT_EQ(s.wavefronts, 1);
  for (int bank = 0; bank < kBanks; ++bank) {
    EXPECT_EQ(s.banks[static_cast<std::size_t>(bank)].size(), 1u) << "bank " << bank;
    EXPECT_FALSE(s.conflict(bank));
  }
  for (const SharedRequest& r : swizzled) EXPECT_EQ(bank_row(r).wavefronts, wavefronts(r));
  for (const SharedRequest& r : plain) EXPECT_EQ(bank_row(r).wavefronts, wavefronts(r));

  const BankTotals tp = bank_totals(plain), ts = bank_totals(swizzled);
  EXPECT_EQ(tp.requests, 4);
  EXPECT_EQ(tp.wavefronts, 16);
  EXPECT_EQ(tp.worst_way, 4);
  EXPECT_FALSE(tp.conflict_free());
  EXPECT_EQ(ts.wavefronts, 4);
  EXPECT_TRUE(ts.conflict_free());
  const std::string ldmatrix = "ldmatrix.sync.aligned.m8n8.x4.shared.b16";
  EXPECT_EQ(wavefront_summary(ldmatrix, swizzled), "ldmatrix x4: 4 wavefronts (conflict-free)");
  EXPECT_EQ(wavefront_summary(ldmatrix, plain), "ldmatrix x4: 16 wavefronts (4-way conflicts; 4 without them)");
}

TEST(FragmentImages, BroadcastsAndWideLoadsAreNotConflicts) {
  // Two lanes reading one word share it.
  SharedRequest same;
  same.reads = {{0, 128, 4}, {1, 128, 4}};
  const BankRow b = bank_row(same);
  EXPECT_EQ(b.wavefronts, 1);
  EXPECT_EQ(b.banks[0].front().lanes, (std::vector<int>{0, 1}));
  // 32 lanes of 8 consecutive bytes: 64 words, two per bank, the fewest possible.
  SharedRequest wide;
  for (int lane = 0; lane < 32; ++lane) wide.reads.push_back({lane, lane * 8, 8});
  const BankRow w = bank_row(wide);
  EXPECT_EQ(w.wavefronts, 2);
  EXPECT_EQ(w.ideal, 2);
  EXPECT_EQ(wavefront_summary("ld.shared.f64", {wide}), "ld.shared.f64: 2 wavefronts (conflict-free)");
  // A column of doubles 32 bytes apart: every 4th lane back in the same banks.
  SharedRequest column;
  for (int lane = 0; lane < 16; ++lane) column.reads.push_back({lane, lane * 32, 8});
  EXPECT_EQ(bank_row(column).wavefronts, wavefronts(column));
  EXPECT_EQ(bank_row(column).wavefronts, 4);
  EXPECT_EQ(short_instruction("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), "ldmatrix x4 trans");
  EXPECT_EQ(short_instruction("ldmatrix.sync.aligned.m8n8.x2.shared.b16"), "ldmatrix x2");
  EXPECT_EQ(short_instruction("ld.shared.b32"), "ld.shared.b32");
}

TEST(FragmentImages, TheStageRingHoldsTheTileMultipliedAndTheOnesInFlight) {
  // Before the loop: the prologue's stages - 1 tiles are loading.
  std::vector<StageSlot> r = stage_ring(3, 2, -1, 10, 32, 320);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].state, StageState::Loading);
  EXPECT_EQ(r[0].tile, 0);
  EXPECT_EQ(r[1].tile, 1);
  EXPECT_EQ(r[2].state, StageState::Empty);
  // Tile 4 multiplied in stage 1; tiles 5 and 6 loading into stages 2 and 0.
  r = stage_ring(3, 2, 4, 10, 32, 320);
  EXPECT_EQ(r[1].state, StageState::Multiplying);
  EXPECT_EQ(r[1].k0, 128);
  EXPECT_EQ(r[1].k1, 160);
  EXPECT_EQ(r[2].tile, 5);
  EXPECT_EQ(r[2].state, StageState::Loading);
  EXPECT_EQ(r[0].tile, 6);
  // The last tile of a ragged K: nothing left to load.
  r = stage_ring(3, 2, 9, 10, 32, 300);
  EXPECT_EQ(r[0].state, StageState::Multiplying);
  EXPECT_EQ(r[0].k0, 288);
  EXPECT_EQ(r[0].k1, 300);
  EXPECT_EQ(r[1].state, StageState::Empty);
  EXPECT_EQ(r[2].state, StageState::Empty);
  // Per-stage barriers, 4 stages: the prologue still fills 3, but while tile 4 is multiplied only
  // tiles 5 and 6 are on their way; stage 3 (tile 3's) waits until every warp is done with it.
  r = stage_ring(4, 2, -1, 10, 32, 320);
  EXPECT_EQ(r[2].state, StageState::Loading);
  EXPECT_EQ(r[3].state, StageState::Empty);
  r = stage_ring(4, 2, 4, 10, 32, 320);
  EXPECT_EQ(r[0].state, StageState::Multiplying);
  EXPECT_EQ(r[1].tile, 5);
  EXPECT_EQ(r[2].tile, 6);
  EXPECT_EQ(r[3].state, StageState::Empty);
}

TEST(FragmentImages, LaneWarpAndRegisterColoursAreDistinct) {
  std::set<unsigned> lanes, warps, regs;
  for (int i = 0; i < 32; ++i) lanes.insert(lane_color(i));
  for (int i = 0; i < 16; ++i) warps.insert(warp_color(i));
  for (int i = 0; i < 64; ++i) regs.insert(register_color(i));
  EXPECT_EQ(lanes.size(), 32u);
  EXPECT_EQ(warps.size(), 16u);
  EXPECT_EQ(regs.size(), 64u);
  // The selected block's colour by mode: thread x is the lane (32 a warp), y the warp.
  EXPECT_EQ(selected_block_color(ThreadColouring::Thread, 37, 32, 6), thread_color(37));
  EXPECT_EQ(selected_block_color(ThreadColouring::Warp, 37, 32, 6), warp_color(1));
  EXPECT_EQ(selected_block_color(ThreadColouring::Lane, 37, 32, 6), lane_color(5));
  EXPECT_EQ(selected_block_color(ThreadColouring::Register, 37, 32, 6), register_color(6));
}

TEST(MappingImages, AWarpLevelBlockIsColouredByWarpLaneOrRegister) {
  const Shape s{64, 32, 32};
  const TestWarpModel model(s);
  // C(9, 27) is in block (1, 0): row 9 -> warp 0; column 11 of the block -> mma tile 1, column 3;
  // lane 4 * (9 % 8) + 3 / 2 = 5, slot 4 + 2 + 1 = 7. C(20, 16): warp 1, lane 16, slot 0.
  const struct {
    ThreadColouring mode;
    unsigned first, second;
  } cases[] = {
      {ThreadColouring::Warp, warp_color(0), warp_color(1)},
      {ThreadColouring::Lane, lane_color(5), lane_color(16)},
      {ThreadColouring::Register, register_color(7), register_color(0)},
      {ThreadColouring::Thread, thread_color(5), thread_color(32 + 16)},
  };
  for (const auto& c : cases) {
    const MappingImages img = render_mapping_images(model, Problem::Gemm, s, 1, 0, 1024, c.mode);
    EXPECT_EQ(pixel(img.c, 27, 9), c.first) << static_cast<int>(c.mode);
    EXPECT_EQ(pixel(img.c, 16, 20), c.second) << static_cast<int>(c.mode);
    // Other blocks keep their dimmed block colours.
    EXPECT_EQ(pixel(img.c, 3, 40), block_color(1 * model.grid().x + 0, true));
  }
}

TEST(MappingImages, TensorCoreModelsDescribeTheirWarpsAndFragments) {
  // Every warp-level model that draws fragments: its owners are lanes and warps of its block, its
  // slots name registers of its fragment picture, and the picture's layouts cover each operand.
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model || !v->model_caps.warp_level) continue;
    for (int ci = 0; ci < static_cast<int>(v->configs.size()); ++ci)
      for (Precision p : v->precisions) {
        std::string why;
        const Shape s{200, 264, 72};
        auto m = make_mapping_model(v->id, ci, Problem::Gemm, p, s, &why);
        if (!m) continue;
        SCOPED_TRACE(std::string(v->id) + ":" + v->configs[static_cast<std::size_t>(ci)].name + " " + to_string(p));
        EXPECT_EQ(m->block().x, 32) << "thread x is the lane";
        const FragmentPicture* pic = m->fragments();
        if (!pic) continue;  // opaque fragments (wmma)
        ++checked;
        EXPECT_EQ(pic->warps_m * pic->warps_n, m->block().y);
        const OperandGrid a = operand_grid(pic->a, pic->mma_m, pic->mma_k),
                          b = operand_grid(pic->b, pic->mma_k, pic->mma_n),
                          c = operand_grid(pic->c, pic->mma_m, pic->mma_n);
        for (const OperandGrid* g : {&a, &b, &c})
          for (int r = 0; r < g->rows; ++r)
            for (int col = 0; col < g->cols; ++col) EXPECT_FALSE(g->at(r, col).empty()) << r << ", " << col;
        EXPECT_FALSE(pic->a_reads.swizzled.empty());
        EXPECT_FALSE(pic->b_reads.unswizzled.empty());
        for (std::int64_t i = 0; i < s.M; i += 7)
          for (std::int64_t j = 0; j < s.N; j += 5) {
            const Owner o = m->owner(i, j);
            ASSERT_GE(o.block_x, 0);
            EXPECT_LT(o.thread_x, 32);
            EXPECT_LT(o.thread_y, m->block().y);
            EXPECT_LT(o.slot, m->writer_slots());
            const AccumulatorPlace place = accumulator_place(*pic, o.thread_x, o.slot);
            ASSERT_TRUE(place.known) << "slot " << o.slot << " of lane " << o.thread_x;
            // The place in the warp tile agrees with the element, modulo the warp tile.
            EXPECT_EQ(place.row, static_cast<int>(i % pic->warp_m)) << i << ", " << j;
            EXPECT_EQ(place.col, static_cast<int>(j % pic->warp_n)) << i << ", " << j;
          }
      }
  }
  if (checked == 0) GTEST_SKIP() << "no tensor-core variant with a fragment picture is registered";
}

TEST(FragmentView, OneMmaIsDrawnInTheColoursOfItsLanes) {
  FragmentView view;
  const FragmentPicture pic = test_m16n8k16_picture();
  const Image all = render(900, 800, [&] { view.draw_fragments(pic); });
  ASSERT_GT(all.width, 0);
  // Every lane's colour shows (each lane holds 8 + 4 + 4 elements, cells of many pixels).
  for (int lane = 0; lane < 32; ++lane) EXPECT_GT(count_color(all, lane_color(lane), 2), 100) << "lane " << lane;
  // Lane 5 highlighted: its colour stays, the others fade.
  view.set_lane(5);
  const Image one = render(900, 800, [&] { view.draw_fragments(pic); });
  EXPECT_GT(count_color(one, lane_color(5), 2), 100);
  EXPECT_LT(count_color(one, lane_color(6), 2), count_color(all, lane_color(6), 2) / 10);
}

TEST(FragmentView, ConflictsAreFramedOnlyWithoutTheSwizzle) {
  FragmentView view;
  const FragmentPicture pic = test_m16n8k16_picture();
  const unsigned conflict_red = 0xFF3030E0;
  view.set_swizzled(true);
  const Image swizzled = render(1000, 900, [&] { view.draw_banks(pic); });
  view.set_swizzled(false);
  const Image plain = render(1000, 900, [&] { view.draw_banks(pic); });
  EXPECT_GT(count_color(plain, conflict_red, 2), 200) << "the conflicting banks are framed in red";
  EXPECT_EQ(count_color(swizzled, conflict_red, 2), 0) << "no frame where nothing collides";
  // The lanes' colours fill the banks in both.
  for (int lane : {0, 7, 13, 31}) {
    EXPECT_GT(count_color(swizzled, lane_color(lane), 2), 20) << lane;
    EXPECT_GT(count_color(plain, lane_color(lane), 2), 20) << lane;
  }
}

TEST(FragmentView, TheStageRingMarksTheStageMultiplied) {
  const FragmentPicture pic = test_m16n8k16_picture();
  const Image shot = render(500, 300, [&] { FragmentView::draw_stage_ring(pic, 4, 10, 32, 320); });
  EXPECT_GT(count_color(shot, 0xFFFF30FF, 2), 50) << "magenta frame of the stage multiplied";
  EXPECT_GT(count_color(shot, 0xFFFFFF40, 2), 50) << "cyan frames of the stages loading";
}
