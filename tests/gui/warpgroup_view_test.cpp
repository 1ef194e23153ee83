// The warpgroup pictures of the mapping view (an instruction four warps issue together, whose
// operands stay in shared memory, fed by a producer through a ring of stages with full and empty
// mbarriers): the handshake's states phase by phase (viz/stage_handshake.h), the words
// (viz/warpgroup_images.h), the registered warpgroup model's picture against its owners, and the
// views drawn by ImGui under Mesa, checked pixel by pixel and by the text they log.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "app/ui/mapping/fragment_view.h"
#include "app/viz/colors.h"
#include "app/viz/stage_handshake.h"
#include "app/viz/warpgroup_images.h"
#include "kernels/core/registry.h"
#include "kernels/models/mapping_model.h"
#include "tests/gui/fragment_test_data.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"
#include "tests/gui/render_window.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

// wgmma m64nNk16 with 32-bit accumulators, made by hand from the PTX layout: warp q of the group,
// lane 4g + t, register 4j + r holds C(16q + g + 8(r / 2), 8j + 2t + r % 2). A 128 x N block: a
// producer warpgroup and two consumers of one 64-row slice each; 4 stages: A in one box of
// 128 x 64, B in boxes of 64 x 64.
FragmentPicture test_wgmma_picture(int n) {
  FragmentPicture f;
  f.instruction = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32.bf16.bf16";
  f.mma_m = 64, f.mma_n = n, f.mma_k = 16;
  f.group_warps = 4;
  f.warps_m = 2, f.warps_n = 1, f.warp_m = 64, f.warp_n = n;
  f.producer_warps = 4;
  f.stages = 4, f.in_flight = 2, f.stage_barriers = true;
  for (int q = 0; q < 4; ++q)
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < n / 8; ++j)
        for (int r = 0; r < 4; ++r) {
          LaneElement e;
          e.warp = q, e.lane = lane, e.reg = 4 * j + r;
          e.row = 16 * q + lane / 4 + 8 * (r / 2);
          e.col = 8 * j + 2 * (lane % 4) + r % 2;
          f.c.push_back(e);
        }
  f.stage_copies.push_back({"A", 128, 64, 128 * 64 * 2, 0, "rows 0-127 x k 0-63"});
  std::int64_t offset = 128 * 64 * 2;
  for (int box = 0; box < n / 64; ++box, offset += 64 * 64 * 2)
    f.stage_copies.push_back({"B", 64, 64, 64 * 64 * 2, offset, "k 0-63 x 64 columns"});
  f.stage_bytes = static_cast<int>(offset);
  return f;
}

template <typename Draw>
Image render(int w, int h, Draw draw, std::string* text = nullptr) {
  return tilescope::testing::render_window(w, h, draw, text);
}

// The screen rows in which `color` fills at least `min_pixels` pixels: where a wide band of it is.
std::vector<int> rows_of(const Image& img, unsigned color, int min_pixels) {
  std::vector<int> rows;
  const int r = color & 0xFF, g = (color >> 8) & 0xFF, b = (color >> 16) & 0xFF;
  for (int y = 0; y < img.height; ++y) {
    int n = 0;
    for (int x = 0; x < img.width; ++x) {
      const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
      n += std::abs(p[0] - r) <= 2 && std::abs(p[1] - g) <= 2 && std::abs(p[2] - b) <= 2;
    }
    if (n >= min_pixels) rows.push_back(y);
  }
  return rows;
}

// The states of the ring in one string, stage by stage: "4M 1F 2I 3f" (slab and state: I in
// flight, F full, M multiplied, f finishing, - free).
std::string ring(const Handshake& h) {
  std::string out;
  for (const RingBuffer& b : h.buffers) {
    if (!out.empty()) out += ' ';
    if (b.state == BufferState::Free) {
      out += '-';
      continue;
    }
    out += std::to_string(b.slab);
    out += b.state == BufferState::InFlight      ? 'I'
           : b.state == BufferState::Full        ? 'F'
           : b.state == BufferState::Multiplying ? 'M'
                                                 : 'f';
  }
  return out;
}

}  // namespace

TEST(StageHandshake, TheRingFillsRunsAndDrainsPhaseByPhase) {
  // 4 stages, 2 slabs copied ahead of the one multiplied, 10 slabs.
  // Before the loop the prologue has copied into every stage without waiting.
  Handshake h = stage_handshake(0, 4, 2, 10);
  EXPECT_EQ(ring(h), "0I 1I 2I 3I");
  EXPECT_EQ(h.multiplying, -1);
  EXPECT_EQ(h.issued, 4);
  EXPECT_TRUE(h.consumers.waits);
  EXPECT_EQ(h.consumers.stage, 0);
  EXPECT_EQ(h.consumers.parity, 0);
  EXPECT_EQ(h.consumers.slab, 0);
  EXPECT_TRUE(h.producer.waits);
  EXPECT_EQ(h.producer.stage, 0);
  EXPECT_EQ(h.producer.parity, 0) << "the first completion of empty[0]";
  EXPECT_EQ(h.producer.slab, 4);
  // Slab 0 multiplied: the prologue's others still on their way.
  EXPECT_EQ(ring(stage_handshake(1, 4, 2, 10)), "0M 1I 2I 3I");
  // Slab 1: slab 0's products finish; 2 and 3 have landed; the producer still waits for stage 0.
  h = stage_handshake(2, 4, 2, 10);
  EXPECT_EQ(ring(h), "0f 1M 2F 3F");
  EXPECT_EQ(h.finishing, 0);
  EXPECT_EQ(h.producer.stage, 0);
  EXPECT_EQ(h.producer.slab, 4);
  // Slab 2: stage 0 was released and refilled with slab 4, in flight.
  EXPECT_EQ(ring(stage_handshake(3, 4, 2, 10)), "4I 1f 2M 3F");
  // The steady state, slab 4 multiplied: 3 finishing, 5 landed, 6 in flight; the producer waits
  // for stage 3 (slab 3's) to copy slab 7; the consumers passed full[0] in its second round.
  h = stage_handshake(5, 4, 2, 10);
  EXPECT_EQ(ring(h), "4M 5F 6I 3f");
  EXPECT_EQ(h.producer.stage, 3);
  EXPECT_EQ(h.producer.parity, 0);
  EXPECT_EQ(h.producer.slab, 7);
  EXPECT_EQ(h.consumers.stage, 0);
  EXPECT_EQ(h.consumers.parity, 1);
  EXPECT_EQ(h.consumers.slab, 4);
  // Slab 6 multiplied: slab 8 is copied into stage 0 in the third round of the ring.
  h = stage_handshake(7, 4, 2, 10);
  EXPECT_EQ(ring(h), "8I 5f 6M 7F");
  EXPECT_EQ(h.producer.slab, 9);
  EXPECT_EQ(h.producer.stage, 1);
  EXPECT_EQ(h.producer.parity, 1) << "the second completion of empty[1]";
  // The drain: nothing left to copy, the stages released stay free.
  h = stage_handshake(9, 4, 2, 10);
  EXPECT_EQ(ring(h), "8M 9F - 7f");
  EXPECT_FALSE(h.producer.waits);
  h = stage_handshake(10, 4, 2, 10);
  EXPECT_EQ(ring(h), "8f 9M - -");
  EXPECT_EQ(h.consumers.stage, 1);
  EXPECT_EQ(h.consumers.parity, 0);
  // Out of range: clamped to the last phase.
  EXPECT_EQ(ring(stage_handshake(99, 4, 2, 10)), ring(h));
}

TEST(StageHandshake, FewerSlabsThanStagesAndAShallowRing) {
  // Two slabs, four stages: the prologue copies both, two stages are never used.
  Handshake h = stage_handshake(0, 4, 2, 2);
  EXPECT_EQ(ring(h), "0I 1I - -");
  EXPECT_FALSE(h.producer.waits);
  EXPECT_EQ(ring(stage_handshake(2, 4, 2, 2)), "0f 1M - -");
  // Three stages, one slab ahead: in the steady state the next slab is still in flight when the
  // consumers start this one (why the 4-stage configurations are faster).
  h = stage_handshake(5, 3, 1, 10);
  EXPECT_EQ(ring(h), "3f 4M 5I");
  EXPECT_EQ(h.producer.slab, 6);
  EXPECT_EQ(h.producer.stage, 0);
  // Whatever the ring: one buffer multiplied per phase, every slab in its stage, the slabs ahead
  // of the consumers are those copied and not yet multiplied.
  for (int stages = 2; stages <= 6; ++stages)
    for (int slabs = 1; slabs <= 13; ++slabs)
      for (int phase = 0; phase <= slabs; ++phase) {
        const Handshake r = stage_handshake(phase, stages, stages - 2, slabs);
        SCOPED_TRACE(std::to_string(stages) + " stages, " + std::to_string(slabs) + " slabs, phase " +
                     std::to_string(phase));
        int multiplied = 0, ahead = 0;
        for (int s = 0; s < stages; ++s) {
          const RingBuffer& b = r.buffers[static_cast<std::size_t>(s)];
          if (b.state != BufferState::Free) {
            EXPECT_EQ(b.slab % stages, s);
            EXPECT_LT(b.slab, slabs);
          }
          multiplied += b.state == BufferState::Multiplying;
          ahead += b.state == BufferState::InFlight || b.state == BufferState::Full;
        }
        EXPECT_EQ(multiplied, phase > 0 ? 1 : 0);
        EXPECT_EQ(ahead, r.issued - phase);
        EXPECT_LE(r.issued - std::max(phase - 1, 0), stages) << "never more slabs than stages";
        if (r.producer.waits) {
          EXPECT_EQ(r.producer.slab, r.issued);
        }
      }
}

TEST(StageHandshake, EachSideSaysWhichBarrierItWaitsOn) {
  const FragmentPicture pic = test_wgmma_picture(256);
  Handshake h = stage_handshake(5, 4, 2, 10);
  EXPECT_EQ(producer_words(pic, h),
            "producer (thread 0 of warpgroup 0): waits on empty[3] (parity 0) to copy slab 7 into stage 3");
  EXPECT_EQ(consumer_words(pic, h),
            "consumers (warpgroups 1-2): waited on full[0] (parity 1) and multiply slab 4; next they wait on full[1] "
            "(parity 1) for slab 5");
  EXPECT_EQ(buffer_words(h, 2), "slab 6: in flight (TMA); full[2] completes when its bytes land");
  EXPECT_NE(buffer_words(h, 3).find("arrives on empty[3]"), std::string::npos) << buffer_words(h, 3);
  h = stage_handshake(0, 4, 2, 10);
  EXPECT_EQ(consumer_words(pic, h), "consumers (warpgroups 1-2): wait on full[0] (parity 0) for slab 0");
  EXPECT_NE(producer_words(pic, h).find("copied slabs 0-3 without waiting"), std::string::npos);
  h = stage_handshake(10, 4, 2, 10);
  EXPECT_NE(producer_words(pic, h).find("every slab of this tile is copied"), std::string::npos);
  EXPECT_NE(consumer_words(pic, h).find("multiply slab 9, the last"), std::string::npos);
}

TEST(WarpgroupImages, TheAccumulatorLayoutInWords) {
  const FragmentPicture pic = test_wgmma_picture(256);
  EXPECT_TRUE(is_warpgroup_picture(pic));
  EXPECT_FALSE(has_lane_reads(pic));
  EXPECT_TRUE(has_lane_reads(tilescope::testing::test_m16n8k16_picture()));
  EXPECT_TRUE(follows_wgmma_layout(pic));
  FragmentPicture moved = pic;
  std::swap(moved.c[0].row, moved.c[2].row);  // lane 0: c0 is in row 0, c2 in row 8
  EXPECT_FALSE(follows_wgmma_layout(moved)) << "a layout the words do not describe";
  const std::vector<WarpBand> bands = warp_bands(pic);
  ASSERT_EQ(bands.size(), 4u);
  for (int q = 0; q < 4; ++q) {
    EXPECT_EQ(bands[static_cast<std::size_t>(q)].row0, 16 * q);
    EXPECT_EQ(bands[static_cast<std::size_t>(q)].row1, 16 * q + 15);
  }
  const std::string caption = warpgroup_caption(pic);
  EXPECT_NE(caption.find("Four warps issue one instruction together"), std::string::npos) << caption;
  EXPECT_NE(caption.find("Warp q holds rows 16q ... 16q + 15"), std::string::npos) << caption;
  EXPECT_NE(caption.find("128 accumulators per thread"), std::string::npos) << caption;
  EXPECT_NE(caption.find("A and B are not in registers"), std::string::npos) << caption;
  EXPECT_EQ(warpgroup_block_summary(pic),
            "warpgroup 0 (warps 0-3) copies; 2 consumer warpgroups (warps 4-11) multiply, each 1 slice of 64 x 256: "
            "1 instruction per k step of 16");
  EXPECT_EQ(warpgroup_lane_summary(pic, 2, 5),
            "warp 2, lane 5 (group 1, thread 1) holds 128 elements of C in registers c0 ... c127: rows 33 and 41, "
            "columns 2 and 3 of every 8");
  EXPECT_EQ(warpgroup_lane_summary(pic, -1, 0),
            "lane 0 of every warp (group 0, thread 0) holds 512 elements of C: rows 0, 8, 16, 24, 32, 40, 48 and 56, "
            "columns 0 and 1 of every 8");
  const OperandGrid c = operand_grid(pic.c, 64, 256);
  EXPECT_TRUE(held_by_thread(c, 33, 10, 2, 5));
  EXPECT_FALSE(held_by_thread(c, 33, 10, 1, 5));
  EXPECT_TRUE(held_by_thread(c, 33, 10, -1, 5));
  EXPECT_EQ(stage_copy_words(pic.stage_copies[1]), "B, 64 x 64 elements (8192 bytes) at byte 16384 of the stage");
  EXPECT_EQ(stage_ring_words(pic),
            "4 stages of 49152 bytes = 196608 bytes of shared memory; stage s starts at byte s x 49152, and has two "
            "mbarriers: full[s] and empty[s]");
}

// A tile computed transposed (its instruction's A in registers: B's slab, read by the lanes) says
// so where the window draws its instruction, and which registers hold A.
TEST(WarpgroupImages, ATransposedTileSaysAIsInRegistersAndCIsTransposed) {
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    for (int ci = 0; ci < static_cast<int>(v->configs.size()); ++ci) {
      auto m = make_mapping_model(v->id, ci, Problem::Gemm, Precision::TF32, Shape{1024, 1024, 1024}, nullptr);
      const FragmentPicture* pic = m ? m->fragments() : nullptr;
      if (!pic || !pic->c_transposed) continue;
      SCOPED_TRACE(std::string(v->id) + ":" + v->configs[static_cast<std::size_t>(ci)].name);
      ++checked;
      const std::string caption = warpgroup_caption(*pic);
      EXPECT_NE(caption.find("A is in registers, 4 per thread"), std::string::npos) << caption;
      EXPECT_NE(caption.find("computes the block's C transposed"), std::string::npos) << caption;
      EXPECT_EQ(caption.find("A and B are not in registers"), std::string::npos) << caption;
      for (const StageCopy& c : pic->stage_copies)
        if (c.operand == "B") {
          EXPECT_NE(c.origin.find("as B lies"), std::string::npos) << c.origin;
        }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no registered configuration computes its tile transposed here";
}

TEST(WarpgroupImages, TheRegisteredWarpgroupModelsPictureIsItsAccumulators) {
  // Every model whose picture is a warpgroup's: C is wgmma's layout, each element held once; the
  // owners of the block's C are the picture's warps, lanes and registers (of Cᵀ where the tile is
  // computed transposed, its A in registers); the boxes of a stage fill it without gaps, as its
  // configuration says.
  int checked = 0;
  for (const VariantDescriptor* v : variant_registry()) {
    if (!v->model) continue;
    for (int ci = 0; ci < static_cast<int>(v->configs.size()); ++ci)
      for (Precision p : v->precisions) {
        std::string why;
        const Shape s{300, 520, 200};
        auto m = make_mapping_model(v->id, ci, Problem::Gemm, p, s, &why);
        const FragmentPicture* pic = m ? m->fragments() : nullptr;
        if (!pic || pic->group_warps != 4) continue;
        const TileConfig& cfg = v->configs[static_cast<std::size_t>(ci)];
        SCOPED_TRACE(std::string(v->id) + ":" + cfg.name + " " + to_string(p));
        ++checked;
        const bool t = pic->c_transposed;  // the instruction's rows are C's columns
        EXPECT_TRUE(follows_wgmma_layout(*pic));
        EXPECT_TRUE(pic->b.empty()) << "B stays in shared memory";
        EXPECT_EQ(pic->a.size(), t ? 4u * 32u * 4u : 0u) << "A in registers only where C is transposed";
        EXPECT_FALSE(has_lane_reads(*pic));
        EXPECT_TRUE(pic->stage_barriers);
        EXPECT_EQ(pic->stages, cfg.stages);
        EXPECT_EQ(pic->in_flight, pic->stages - (t ? 1 : 2));
        EXPECT_EQ(pic->consumer_groups() * pic->slices() * pic->mma_m, t ? cfg.bn : cfg.bm);
        EXPECT_EQ(pic->mma_n, t ? cfg.bm : cfg.bn);
        const OperandGrid c = operand_grid(pic->c, pic->mma_m, pic->mma_n);
        for (int r = 0; r < c.rows; ++r)
          for (int col = 0; col < c.cols; ++col) ASSERT_EQ(c.at(r, col).size(), 1u) << r << ", " << col;
        // Elements of the input type: 2 bytes (f16, bf16) or 4 (tf32).
        const int bytes = static_cast<int>(element_bytes(p));
        std::int64_t end = 0;
        for (const StageCopy& copy : pic->stage_copies) {
          EXPECT_EQ(copy.offset, end) << copy.operand;
          EXPECT_EQ(copy.bytes, copy.rows * copy.cols * bytes) << copy.operand;
          end += copy.bytes;
        }
        EXPECT_EQ(end, pic->stage_bytes);
        EXPECT_EQ(pic->stage_bytes, (cfg.bm + cfg.bn) * cfg.bk * bytes);
        const int acc = pic->mma_n / 2;  // accumulators per thread and slice
        for (std::int64_t i = 0; i < s.M; i += 3)
          for (std::int64_t j = 0; j < s.N; j += 7) {
            const Owner o = m->owner(i, j);
            ASSERT_GE(o.block_x, 0);
            // The instruction's row and column of C(i, j): of Cᵀ where C is computed transposed.
            const int r = static_cast<int>(t ? j % cfg.bn : i % cfg.bm),
                      col = static_cast<int>(t ? i % cfg.bm : j % cfg.bn);
            const Holder& h = c.at(r % pic->mma_m, col).front();
            EXPECT_EQ(o.thread_x, h.lane) << i << ", " << j;
            EXPECT_EQ((o.thread_y - pic->producer_warps) % pic->group_warps, h.warp) << i << ", " << j;
            EXPECT_EQ(o.slot % acc, h.reg) << i << ", " << j;
          }
      }
  }
  if (checked == 0) GTEST_SKIP() << "no registered variant draws a warpgroup's instruction";
}

TEST(WarpgroupView, TheFourWarpsAreFourBandsOfRowsAndALaneLightsUp) {
  FragmentView view;
  const FragmentPicture pic = test_wgmma_picture(256);
  std::string text;
  const Image all = render(
      1400, 1000, [&] { view.draw_fragments(pic); }, &text);
  ASSERT_GT(all.width, 0);
  EXPECT_NE(text.find("One warpgroup instruction: wgmma.mma_async"), std::string::npos) << text;
  EXPECT_NE(text.find("A and B are not in registers"), std::string::npos) << text;
  // Each warp's colour fills a band of rows, as wide as the tile (256 columns of at least 2
  // pixels); the bands are stacked warp 0 to 3, as tall as each other, without overlapping.
  std::vector<std::vector<int>> bands;
  for (int q = 0; q < 4; ++q) {
    bands.push_back(rows_of(all, warp_color(q), 400));
    ASSERT_FALSE(bands.back().empty()) << "warp " << q;
    EXPECT_EQ(bands.back().back() - bands.back().front() + 1, static_cast<int>(bands.back().size()))
        << "warp " << q << "'s rows are one band";
  }
  for (int q = 1; q < 4; ++q) {
    EXPECT_GT(bands[q].front(), bands[q - 1].back()) << "warp " << q << " below warp " << q - 1;
    EXPECT_NEAR(bands[q].size(), bands[0].size(), 3);
  }
  // The whole tile fits the window's width: its last column is drawn.
  EXPECT_GT(count_color(all, warp_color(3), 2), 256 * 2 * 16);

  // Lane 5 of warp 2: its elements keep their colour, every other thread's fade.
  view.set_warp(2);
  view.set_lane(5);
  const Image one = render(
      1400, 1000, [&] { view.draw_fragments(pic); }, &text);
  EXPECT_NE(text.find("warp 2, lane 5 (group 1, thread 1) holds 128 elements of C"), std::string::npos) << text;
  EXPECT_TRUE(rows_of(one, warp_color(0), 400).empty()) << "warp 0 faded";
  EXPECT_LT(count_color(one, warp_color(0), 2), count_color(all, warp_color(0), 2) / 10);
  EXPECT_GT(count_color(one, warp_color(2), 2), 100) << "lane 5 of warp 2 still in its colour";
}

TEST(WarpgroupView, TheBanksViewSaysThereAreNoLaneReadsAndDrawsTheStage) {
  FragmentView view;
  const FragmentPicture pic = test_wgmma_picture(256);
  std::string text;
  const Image shot = render(
      1200, 900, [&] { view.draw_banks(pic); }, &text);
  ASSERT_GT(shot.width, 0);
  EXPECT_NE(text.find("no lane reads"), std::string::npos) << text;
  EXPECT_NE(text.find("the tensor cores read the operands themselves"), std::string::npos) << text;
  EXPECT_NE(text.find("B, 64 x 64 elements (8192 bytes) at byte 16384 of the stage"), std::string::npos) << text;
  EXPECT_EQ(count_color(shot, 0xFF3030E0, 2), 0) << "no bank conflicts framed";
  // The stage's boxes: A in blue, B in orange, in one bar and again in each stage of the ring.
  EXPECT_GT(count_color(shot, pack_rgb(0.30, 0.58, 0.95), 2), 1000);
  EXPECT_GT(count_color(shot, pack_rgb(0.95, 0.60, 0.22), 2), 1000);
}

TEST(WarpgroupView, TheAnimationsRingShowsTheHandshakeOfThePhase) {
  const FragmentPicture pic = test_wgmma_picture(128);
  std::string text;
  // Slab 4 multiplied (phase 5): stage 0 magenta, stage 1 full (green), stage 2 in flight (cyan).
  const Image shot = render(
      600, 500, [&] { FragmentView::draw_stage_ring(pic, 4, 10, 64, 640); }, &text);
  ASSERT_GT(shot.width, 0);
  EXPECT_GT(count_color(shot, 0xFFFF30FF, 2), 50) << "magenta: the stage multiplied";
  EXPECT_GT(count_color(shot, 0xFFFFFF40, 2), 50) << "cyan: the stage in flight";
  EXPECT_NE(text.find("producer (thread 0 of warpgroup 0): waits on empty[3] (parity 0) to copy slab 7 into stage 3"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("consumers (warpgroups 1-2): waited on full[0] (parity 1) and multiply slab 4"),
            std::string::npos)
      << text;
  // The cp.async ring of a picture without per-stage barriers is drawn as before.
  const FragmentPicture plain = tilescope::testing::test_m16n8k16_picture();
  render(
      600, 300, [&] { FragmentView::draw_stage_ring(plain, 4, 10, 32, 320); }, &text);
  EXPECT_NE(text.find("loading (cp.async)"), std::string::npos) << text;
  EXPECT_EQ(text.find("producer"), std::string::npos) << text;
}
