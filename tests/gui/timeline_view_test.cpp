// The pipeline timeline: its summary numbers on a run made by hand (kernel time, copy latency, how
// busy the consumers were, how much copying the multiplications hid) and the time axis's labels;
// the view drawn by ImGui under Mesa, checked pixel by pixel where the bars must be (and where a
// consumer waits, no bar); the recording request (the window's sizes, clamped); and the Mapping
// tab's Timeline view and the record-timeline action where no timeline can be recorded (no GPU, or
// a window told not to use it): the reason is shown and reported, nothing crashes.
#include "app/ui/mapping/timeline_view.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/export/png_writer.h"
#include "app/ui/mapping/timeline_recorder.h"
#include "app/ui/script/script.h"
#include "app/ui/shell/app.h"
#include "app/viz/colors.h"
#include "app/viz/timeline_summary.h"
#include "kernels/core/registry.h"
#include "kernels/cuda/device_info.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/image_checks.h"
#include "tests/support/variant_picks.h"

using namespace tilescope;
using namespace tilescope::testing;

namespace {

TimelineSlab slab(int n, const TimelineLayout& l, double issued, double arrived, double s0, double d0, double s1,
                  double d1) {
  TimelineSlab s;
  s.index = n;
  s.stage = n % l.stages;
  s.tile = n / l.slabs_per_tile;
  s.in_tile = n % l.slabs_per_tile;
  s.run_start = s.in_tile == 0;  // where the block begins a tile (timeline.cu: place_slab)
  s.issued = issued;
  s.arrived = arrived;
  s.started[0] = s0, s.done[0] = d0;
  s.started[1] = s1, s.done[1] = d1;
  return s;
}

// Two blocks, a ring of 2 stages, 2 consumers, tiles of 2 slabs of 64. Block 0 moves 4 slabs (two
// tiles) in 0 .. 1000 ns; block 1 moved 3 slabs in 100 .. 600 ns but had room to stamp only 2.
TimelineResult hand_made_run() {
  TimelineResult r;
  r.variant_id = "hand-made";
  r.layout.blocks = 2;
  r.layout.stages = 2;
  r.layout.consumers = 2;
  r.layout.slabs_per_tile = 2;
  r.layout.slab_depth = 64;
  r.layout.tiles = 3;
  r.kernel_ns = 1000;
  const TimelineLayout& l = r.layout;
  TimelineBlock b0;
  b0.block = 0, b0.sm = 7, b0.begin = 0, b0.end = 1000, b0.slabs_total = 4;
  b0.slabs = {slab(0, l, 0, 100, 100, 300, 110, 310), slab(1, l, 50, 200, 300, 500, 310, 510),
              slab(2, l, 320, 400, 500, 700, 510, 710), slab(3, l, 520, 600, 700, 900, 710, 910)};
  TimelineBlock b1;
  b1.block = 1, b1.sm = 3, b1.begin = 100, b1.end = 600, b1.slabs_total = 3;
  b1.slabs = {slab(0, l, 150, 250, 260, 360, 260, 360), slab(1, l, 200, 300, 360, 460, 360, 460)};
  r.blocks = {b0, b1};
  return r;
}

// A pipeline simulated the way the kernel runs it: the producer issues slab n once its stage is
// free (every consumer done with slab n - stages), its bytes land `latency` later (give or take a
// third), each consumer starts it once they have and it is done with the slab before (and, at a
// new tile, has stored the last one for `epilogue`), and multiplies it for `mma`.
TimelineResult simulated_run(int blocks, int stages, int consumers, int slabs_per_tile, int tiles, double latency,
                             double mma, double epilogue) {
  TimelineResult r;
  r.variant_id = "simulated";
  r.layout.blocks = blocks;
  r.layout.stages = stages;
  r.layout.consumers = consumers;
  r.layout.slabs_per_tile = slabs_per_tile;
  r.layout.slab_depth = 64;
  r.layout.tiles = static_cast<std::int64_t>(blocks) * tiles;
  for (int b = 0; b < blocks; ++b) {
    TimelineBlock block;
    block.block = b;
    block.sm = (b * 37) % 132;
    block.begin = 40.0 * (b % 5);
    const int slabs = slabs_per_tile * tiles;
    block.slabs_total = slabs;
    std::vector<double> free_at(static_cast<std::size_t>(consumers), block.begin + 300);
    double issue = block.begin + 200;
    for (int n = 0; n < slabs; ++n) {
      TimelineSlab s;
      s.index = n;
      s.stage = n % stages;
      s.tile = n / slabs_per_tile;
      s.in_tile = n % slabs_per_tile;
      s.run_start = s.in_tile == 0;
      if (n >= stages) {
        const TimelineSlab& before = block.slabs[static_cast<std::size_t>(n - stages)];
        for (int c = 0; c < consumers; ++c) issue = std::max(issue, before.done[c]);
      }
      s.issued = issue;
      s.arrived = issue + latency * (1 + 0.33 * std::sin(n * 1.7 + b));
      issue += 20;
      for (int c = 0; c < consumers; ++c) {
        double& f = free_at[static_cast<std::size_t>(c)];
        if (n > 0 && n % slabs_per_tile == 0) f += epilogue;
        s.started[c] = std::max(s.arrived, f) + 5 * c;
        s.done[c] = s.started[c] + mma;
        f = s.done[c];
      }
      block.slabs.push_back(s);
    }
    block.end = *std::max_element(free_at.begin(), free_at.end()) + epilogue;
    r.kernel_ns = std::max(r.kernel_ns, block.end);
    r.blocks.push_back(block);
  }
  return r;
}

TEST(TimelineSummary, AHandMadeRunHasTheNumbersWorkedOutByHand) {
  const TimelineResult r = hand_made_run();
  EXPECT_DOUBLE_EQ(block_span_ns(r.blocks[0]), 1000) << "every slab stamped: its clock readings";
  EXPECT_DOUBLE_EQ(block_known_end_ns(r.blocks[1]), 460) << "2 of 3 slabs stamped: its last stamp";
  EXPECT_DOUBLE_EQ(block_span_ns(r.blocks[1]), 360);
  EXPECT_DOUBLE_EQ(block_busy_ns(r.blocks[0], 2), 8 * 200.0);
  EXPECT_DOUBLE_EQ(block_busy_ns(r.blocks[0], 1), 4 * 200.0) << "the first consumer alone";
  EXPECT_DOUBLE_EQ(consumer_busy_ns(r.blocks[0], 1), 800) << "110 .. 910 without a break";

  const TimelineSummary s = summarize_timeline(r);
  EXPECT_DOUBLE_EQ(s.kernel_ns, 1000);
  EXPECT_EQ(s.blocks, 2);
  EXPECT_EQ(s.slabs, 6);
  // Copies: 100 + 150 + 80 + 80 in block 0, 100 + 100 in block 1.
  EXPECT_DOUBLE_EQ(s.copy_latency_ns, 610.0 / 6);
  // MMAs: 8 x 200 + 4 x 100 over 2 consumers x (1000 + 360).
  EXPECT_DOUBLE_EQ(s.busy_fraction, 2000.0 / 2720);
  // Block 0's consumers multiply from 100 to 910 without a break: its first copy (0 .. 100) is not
  // hidden, the second half (100 .. 200 of 50 .. 200), the third (320 .. 400) and the fourth
  // wholly. Block 1's multiply 260 .. 460: 0 of its first copy, 40 of its second (260 .. 300).
  EXPECT_DOUBLE_EQ(s.hidden_copy_fraction, 300.0 / 610);
  EXPECT_FALSE(s.all_slabs_stamped);

  // An unstamped bar counts for nothing; with all slabs stamped the flag is set.
  TimelineResult one = r;
  one.blocks.resize(1);
  one.blocks[0].slabs[3].started[1] = -1;
  const TimelineSummary t = summarize_timeline(one);
  EXPECT_TRUE(t.all_slabs_stamped);
  EXPECT_DOUBLE_EQ(t.busy_fraction, 7 * 200.0 / (2 * 1000));
}

TEST(TimelineSummary, AConsumersOverlappingBarsCountOnce) {
  // The kernel keeps one group of MMAs in flight: a consumer begins slab n + 1 before slab n's
  // products are done, so its bars overlap. Busy is the time it had any in flight, never above 1.
  TimelineResult r = hand_made_run();
  r.blocks.resize(1);
  TimelineBlock& b = r.blocks[0];
  // Consumer 0: 100 .. 350, 300 .. 550, 500 .. 750, 700 .. 950: bars summing to 1000, 150 of it
  // counted twice.
  for (int n = 0; n < 4; ++n) b.slabs[static_cast<std::size_t>(n)].done[0] += 50;
  EXPECT_DOUBLE_EQ(consumer_busy_ns(b, 0), 850) << "100 .. 950";
  const TimelineSummary s = summarize_timeline(r);
  EXPECT_DOUBLE_EQ(s.busy_fraction, (850 + 800) / 2000.0);
  EXPECT_LE(s.busy_fraction, 1.0);
}

TEST(TimelineSummary, DeeperRingsHideMoreOfTheCopies) {
  // Copies 4 times as long as a slab's MMAs: 2 stages leave the consumers waiting, 6 keep them busy.
  const TimelineSummary shallow = summarize_timeline(simulated_run(4, 2, 2, 16, 2, 800, 200, 300));
  const TimelineSummary deep = summarize_timeline(simulated_run(4, 6, 2, 16, 2, 800, 200, 300));
  EXPECT_LT(shallow.busy_fraction, 0.45);  // 0.38
  EXPECT_GT(deep.busy_fraction, 0.7);      // 0.76
  EXPECT_GT(deep.hidden_copy_fraction, shallow.hidden_copy_fraction);
  EXPECT_NEAR(deep.copy_latency_ns, 800, 80);
}

TEST(TimelineSummary, DurationsAndAxisLabelsCarryTheirUnits) {
  EXPECT_EQ(format_ns(850), "850 ns");
  EXPECT_EQ(format_ns(12500), "12.5 µs");
  EXPECT_EQ(format_ns(1.25e6), "1.25 ms");
  EXPECT_EQ(format_ns(999.7), "1 µs") << "rounding goes up a unit, never to 1e+03 ns";
  EXPECT_EQ(format_ns(2.5e9), "2.5 s");
  EXPECT_EQ(time_tick_labels({0, 500, 1000, 1500}, 500), (std::vector<std::string>{"0", "0.5 µs", "1.0 µs", "1.5 µs"}));
  EXPECT_EQ(time_tick_labels({0, 200, 400}, 200), (std::vector<std::string>{"0", "200 ns", "400 ns"}));
  // Zoomed in at a millisecond: neighbouring labels still differ.
  EXPECT_EQ(time_tick_labels({1002000, 1002500, 1003000}, 500),
            (std::vector<std::string>{"1.0020 ms", "1.0025 ms", "1.0030 ms"}));
  EXPECT_EQ(time_tick_labels({0, 25000, 50000}, 25000), (std::vector<std::string>{"0", "25 µs", "50 µs"}));
}

// One frame of the view in a window filling a headless framebuffer, captured (the second frame:
// the layout has settled). The view keeps the geometry of the last frame.
Image render(TimelineView& view, int w, int h) {
  auto host = make_host(w, h);
  EXPECT_TRUE(host);
  if (!host) return {};
  for (int f = 0; f < 2; ++f) {
    host->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(w), static_cast<float>(h)));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    view.draw();
    ImGui::End();
    if (f == 1) host->request_capture();
    host->end_frame();
  }
  Image shot;
  std::string error;
  EXPECT_TRUE(host->take_capture(&shot, &error)) << error;
  return shot;
}

// Where TILESCOPE_TIMELINE_PNG names a folder, the pictures drawn are written there to look at.
void keep_picture(const Image& img, const char* name) {
  const char* dir = std::getenv("TILESCOPE_TIMELINE_PNG");
  if (!dir || !*dir) return;
  std::string error;
  EXPECT_TRUE(write_png(std::string(dir) + "/" + name, img, &error)) << error;
}

unsigned pixel(const Image& img, float x, float y) {
  const int xi = static_cast<int>(x), yi = static_cast<int>(y);
  if (xi < 0 || yi < 0 || xi >= img.width || yi >= img.height) return 0;
  const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(yi) * img.width + xi) * 4];
  return p[0] | (p[1] << 8) | (p[2] << 16) | 0xFF000000u;
}

// The colour at time `ns` in the middle of a lane of a shown row.
unsigned at(const Image& img, const TimelineView& view, int row, int lane, double ns) {
  const TimelineView::Span s = view.lane_span(row, lane);
  return pixel(img, view.x_of(ns), (s.top + s.bottom) * 0.5f);
}

std::string hex(unsigned c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08X", c);
  return buf;
}

bool is_stage_colour(unsigned c, int stages) {
  for (int s = 0; s < stages; ++s)
    if (c == stage_color(s) || c == stage_copy_color(s)) return true;
  return false;
}

TEST(TimelineView, BarsAreDrawnWhereTheirTimesSayInTheirStagesColours) {
  TimelineView view;
  view.show(std::make_shared<const TimelineResult>(hand_made_run()));
  const Image img = render(view, 1400, 800);
  keep_picture(img, "timeline-hand-made.png");
  ASSERT_GT(img.width, 0);
  ASSERT_EQ(view.rows_drawn(), 2);
  // The bars are wide enough to aim into: about a pixel per nanosecond.
  ASSERT_GT(view.x_of(100) - view.x_of(0), 60.0f);
  ASSERT_GT(view.lane_span(0, 0).bottom - view.lane_span(0, 0).top, 3.0f);
  // Lanes 0, 1: the copies into stages 0 and 1; lanes 2, 3: consumers 0 and 1.
  // Copies in flight: slab 0 (stage 0) from 0 to 100 and slab 1 (stage 1) from 50 to 200 overlap.
  EXPECT_EQ(hex(at(img, view, 0, 0, 60)), hex(stage_copy_color(0)));
  EXPECT_EQ(hex(at(img, view, 0, 1, 60)), hex(stage_copy_color(1)));
  EXPECT_EQ(hex(at(img, view, 0, 1, 150)), hex(stage_copy_color(1)));
  EXPECT_EQ(hex(at(img, view, 0, 0, 360)), hex(stage_copy_color(0))) << "slab 2 refills stage 0 (320 .. 400)";
  // While consumer 0 multiplies slab 0 (100 .. 300), slab 1's copy is in flight: the overlap.
  EXPECT_EQ(hex(at(img, view, 0, 2, 150)), hex(stage_color(0)));
  // The ring: consumer 0's slabs 1, 2, 3 in stages 1, 0, 1.
  EXPECT_EQ(hex(at(img, view, 0, 2, 400)), hex(stage_color(1)));
  EXPECT_EQ(hex(at(img, view, 0, 3, 600)), hex(stage_color(0)));
  EXPECT_EQ(hex(at(img, view, 0, 3, 800)), hex(stage_color(1)));
  // Where no bar is: the copy lane of stage 0 between its copies, a consumer before its first slab
  // and after its last one (the block stores its tile of C until 1000).
  EXPECT_FALSE(is_stage_colour(at(img, view, 0, 0, 250), 2)) << hex(at(img, view, 0, 0, 250));
  EXPECT_FALSE(is_stage_colour(at(img, view, 0, 2, 50), 2)) << hex(at(img, view, 0, 2, 50));
  EXPECT_FALSE(is_stage_colour(at(img, view, 0, 3, 960), 2)) << hex(at(img, view, 0, 3, 960));
  // The second row is block 1: its consumers multiply slab 0 from 260 to 360, slab 1 to 460.
  EXPECT_EQ(hex(at(img, view, 1, 2, 310)), hex(stage_color(0)));
  EXPECT_EQ(hex(at(img, view, 1, 3, 410)), hex(stage_color(1)));
  EXPECT_FALSE(is_stage_colour(at(img, view, 1, 2, 550), 2)) << "block 1's third slab was not stamped";
  // Tile 1 begins at slab 2: a white line across the consumer lanes where they start it (500 ns).
  const TimelineView::Span lane3 = view.lane_span(0, 3);
  int white = 0;
  for (float dx = -2; dx <= 2; dx += 1)
    white += pixel(img, view.x_of(500) + dx, (lane3.top + lane3.bottom) * 0.5f) == 0xFFFFFFFFu;
  EXPECT_GE(white, 1) << "the tile boundary";
}

// Stream-K: block 0's runs are one slab, then three from inside a tile (its slab 1), so its second
// slab begins a run where no tile begins, and the white line is drawn there (300 ns), not at slab 2.
TEST(TimelineView, AStreamKRunThatBeginsInsideATileIsMarked) {
  TimelineResult r = hand_made_run();
  r.layout.runs = {{{0, 0, 1}, {1, 1, 3}}, {}};
  for (TimelineSlab& s : r.blocks[0].slabs) place_slab(s, r.layout, 0);
  ASSERT_TRUE(r.blocks[0].slabs[1].run_start);
  ASSERT_FALSE(r.blocks[0].slabs[2].run_start);
  TimelineView view;
  view.show(std::make_shared<const TimelineResult>(r));
  const Image img = render(view, 1400, 800);
  keep_picture(img, "timeline-stream-k-runs.png");
  ASSERT_GT(img.width, 0);
  const TimelineView::Span lane3 = view.lane_span(0, 3);
  auto white_near = [&](double ns) {
    int white = 0;
    for (float dx = -2; dx <= 2; dx += 1)
      white += pixel(img, view.x_of(ns) + dx, (lane3.top + lane3.bottom) * 0.5f) == 0xFFFFFFFFu;
    return white;
  };
  EXPECT_GE(white_near(300), 1) << "the run that begins inside tile 0";
  EXPECT_EQ(white_near(500), 0) << "slab 2 begins no tile and no run here";
}

TEST(TimelineView, ASimulatedPipelineIsDrawnRowByRow) {
  TimelineView view;
  const auto run = std::make_shared<const TimelineResult>(simulated_run(132, 4, 2, 16, 3, 700, 240, 400));
  view.show(run);
  const Image img = render(view, 1800, 900);
  keep_picture(img, "timeline-simulated.png");
  EXPECT_EQ(view.rows_drawn(), 8) << "the first 8 of 132 blocks";
  for (int s = 0; s < 4; ++s) {
    EXPECT_GT(count_color(img, stage_color(s), 0), 500) << "stage " << s << "'s MMAs";
    EXPECT_GT(count_color(img, stage_copy_color(s), 0), 200) << "stage " << s << "'s copies";
  }
  EXPECT_LT(view.x_of(run->blocks[0].end), 1800) << "fitted: the whole block in view";
  // The start: the first 3 x 4 slabs fill the width; the rest of the block is beyond the right edge.
  view.zoom_to_start();
  const Image start = render(view, 1800, 900);
  keep_picture(start, "timeline-simulated-start.png");
  EXPECT_GT(view.x_of(run->blocks[0].end), 1800 * 3);
  EXPECT_LT(view.x_of(run->blocks[0].slabs[11].done[0]), 1800);
  EXPECT_GT(view.x_of(run->blocks[0].slabs[11].done[0]), 1800 * 0.7);
}

// Frames of the view with the mouse where a test puts it (the headless host leaves ImGuiIO to us).
class MouseDriver {
 public:
  MouseDriver(TimelineView& view, int w, int h) : view_(view), w_(w), h_(h), host_(make_host(w, h)) {}
  bool ok() const { return host_ != nullptr; }
  // One frame with the mouse at `at`, the left button `down`, the wheel turned by `wheel`; the
  // windows ImGui drew (a tooltip is one more).
  int frame(ImVec2 at, bool down = false, float wheel = 0) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    io.MouseDown[0] = down;
    io.MouseWheel = wheel;
    host_->begin_frame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(w_), static_cast<float>(h_)));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
    view_.draw();
    ImGui::End();
    host_->end_frame();
    return io.MetricsActiveWindows;
  }

 private:
  TimelineView& view_;
  int w_, h_;
  std::unique_ptr<Host> host_;
};

TEST(TimelineView, TheWheelZoomsAroundTheMouseADragPansAndABarHasATooltip) {
  TimelineView view;
  view.show(std::make_shared<const TimelineResult>(hand_made_run()));
  MouseDriver d(view, 1400, 800);
  ASSERT_TRUE(d.ok());
  const ImVec2 away(5, 795);
  d.frame(away);
  const int windows = d.frame(away);
  // Over consumer 0's bar of slab 1 (300 .. 500 ns) in block 0's row: a tooltip.
  const TimelineView::Span lane = view.lane_span(0, 2);
  const ImVec2 over(view.x_of(400), (lane.top + lane.bottom) * 0.5f);
  EXPECT_EQ(d.frame(over), windows + 1) << "a tooltip over the bar";
  const TimelineView::Span gap_lane = view.lane_span(0, 0);
  EXPECT_EQ(d.frame(ImVec2(view.x_of(250), (gap_lane.top + gap_lane.bottom) * 0.5f)), windows)
      << "none between stage 0's copies";
  // One notch of the wheel: 1.25 times the pixels per ns, 400 ns staying under the mouse.
  const float before = view.x_of(500) - view.x_of(400);
  d.frame(over, false, 1);
  EXPECT_NEAR(view.x_of(400), over.x, 1.0f);
  EXPECT_NEAR((view.x_of(500) - view.x_of(400)) / before, 1.25f, 0.01f);
  // A drag of 100 pixels to the right moves the times with it.
  d.frame(over, true);
  d.frame(ImVec2(over.x + 50, over.y), true);
  d.frame(ImVec2(over.x + 100, over.y), true);
  d.frame(ImVec2(over.x + 100, over.y), false);
  EXPECT_NEAR(view.x_of(400), over.x + 100, 1.0f);
  // Fit: the whole block again.
  view.fit();
  d.frame(away);
  EXPECT_NEAR((view.x_of(500) - view.x_of(400)), before, 0.5f);
}

TEST(TimelineView, RowsFollowTheBlockChoice) {
  TimelineView view;
  view.show(std::make_shared<const TimelineResult>(hand_made_run()));
  view.show_blocks(1, 8);
  const Image img = render(view, 1400, 800);
  ASSERT_EQ(view.rows_drawn(), 1) << "from block 1 on there is one block";
  EXPECT_EQ(hex(at(img, view, 0, 2, 310)), hex(stage_color(0))) << "the top row is block 1";
  EXPECT_TRUE(view.lane_span(1, 0).bottom == 0) << "no second row";
  // Many blocks: the rows shown are the ones asked for, never more than fit.
  TimelineResult many = hand_made_run();
  for (int b = 2; b < 132; ++b) {
    TimelineBlock copy = many.blocks[0];
    copy.block = b;
    many.blocks.push_back(copy);
  }
  view.show(std::make_shared<const TimelineResult>(many));
  view.show_blocks(100, 20);
  render(view, 1400, 800);
  EXPECT_GE(view.rows_drawn(), 10);
  EXPECT_LE(view.rows_drawn(), 20);
}

TEST(TimelineRequest, TheWindowsSizesClampedToATimelinesSize) {
  AppState s = default_app_state();
  s.square = true;
  s.n = 8192;
  TimelineRequest r = timeline_request(s, 1);
  EXPECT_EQ(r.shape.M, kTimelineMaxSide);
  EXPECT_EQ(r.shape.N, kTimelineMaxSide);
  EXPECT_EQ(r.shape.K, kTimelineMaxSide);
  EXPECT_TRUE(r.clamped);
  s.n = 1000;
  const TimelineRequest small = timeline_request(s, 1);
  EXPECT_EQ(small.shape.N, 1000);
  EXPECT_FALSE(small.clamped);
  EXPECT_NE(small.key(), r.key()) << "another size is another recording";
  s.lesson[static_cast<std::size_t>(s.focused)].config_index += 1;
  EXPECT_NE(timeline_request(s, 1).key(), small.key()) << "another configuration too";
}

TEST(TimelineRecorder, AVariantWithoutATimelineIsRefusedWithItsReason) {
  const VariantDescriptor& plain =
      tilescope::testing::variant_where([](const VariantDescriptor& v) { return !v.launch_timeline; }, "untimelined");
  AppState s = default_app_state();
  for (std::size_t i = 0; i < s.lesson.size(); ++i)
    if (s.lesson[i].variant_id == plain.id) s.focused = static_cast<int>(i);
  TimelineRecorder recorder;
  recorder.start(timeline_request(s, 1), true);
  for (int i = 0; i < 6000 && recorder.busy(); ++i) usleep(1000);
  ASSERT_FALSE(recorder.busy());
  ASSERT_NE(recorder.result(), nullptr);
  EXPECT_NE(recorder.result()->error.find("no timeline build"), std::string::npos) << recorder.result()->error;
  EXPECT_EQ(recorder.result_key(), timeline_request(s, 1).key());
}

// The window focused on the first variant with a timeline, in a type it computes.
void focus_timeline_variant(App& app) {
  const VariantDescriptor& v = tilescope::testing::variant_where(
      [](const VariantDescriptor& d) { return d.launch_timeline != nullptr; }, "recording a pipeline timeline");
  AppState& s = app.state();
  for (std::size_t i = 0; i < s.lesson.size(); ++i)
    if (s.lesson[i].variant_id == v.id) s.focused = static_cast<int>(i);
  s.precision = v.precisions.front();
  s.n = 256;
}

// What the Timeline view must say here: run_timeline's own reason where there is no GPU; where
// there is one, the window (use_gpu = false) does not use it and says so.
std::string expected_failure(const App& app) {
  const TimelineRequest r = timeline_request(const_cast<App&>(app).state(), 1);
  if (probe_device().ok()) return "this window does not use the GPU (started with --no-gpu): no timeline is recorded";
  return run_timeline(r.variant_id, r.config_index, r.problem, r.precision, r.shape, r.records_per_block, r.seed).error;
}

TEST(TimelineTab, WithoutAGpuTheViewShowsWhyAndNothingCrashes) {
  auto host = make_host(1400, 800);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  focus_timeline_variant(app);
  app.show_mapping();
  for (int i = 0; i < 3; ++i) frame(*host, app);
  Image img = tilescope::testing::screenshot(*host, app, "timeline.png");
  ASSERT_GT(img.width, 0);
  const unsigned failure_colour = IM_COL32(255, 140, 77, 255);  // ImVec4(1, 0.55, 0.3): the failure's sentence
  const int before = count_color(img, failure_colour, 30);
  app.mapping().show_view(MappingPanel::View::Timeline);
  // The view records by itself when shown; the UI keeps drawing while it does.
  for (int i = 0; i < 600 && (i < 3 || app.mapping().timeline_recording()); ++i) frame(*host, app);
  ASSERT_FALSE(app.mapping().timeline_recording());
  EXPECT_EQ(app.mapping().view(), MappingPanel::View::Timeline);
  const std::string why = app.mapping().timeline_error();
  EXPECT_FALSE(why.empty());
  EXPECT_EQ(why, expected_failure(app));
  // The reason is drawn in the failure's colour, which the matrices view did not show.
  img = tilescope::testing::screenshot(*host, app, "timeline.png");
  EXPECT_GT(tilescope::testing::distinct_colors(img), 30u);
  EXPECT_GT(count_color(img, failure_colour, 30), before + 30) << "the failure's sentence";
  // A change of size records again (and fails again, as plainly).
  app.state().n = 512;
  for (int i = 0; i < 600 && (i < 3 || app.mapping().timeline_recording()); ++i) frame(*host, app);
  EXPECT_NE(app.mapping().timeline_recorder().result_key().find(":512:"), std::string::npos)
      << app.mapping().timeline_recorder().result_key();
}

TEST(TimelineTab, RecordTimelineInAScriptFailsWithTheReason) {
  auto host = make_host(1280, 720);
  ASSERT_TRUE(host);
  App app(*host, without_gpu());
  focus_timeline_variant(app);
  ScriptPlayer script;
  std::string error;
  ASSERT_TRUE(script.load_text("show-timeline\nframes 2\nrecord-timeline\nframes 1\n", "t.txt", &error)) << error;
  std::vector<std::string> failures;
  for (int i = 0; i < 2000 && script.step(app, &failures); ++i) frame(*host, app);
  EXPECT_TRUE(script.finished());
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0], "t.txt:3: record-timeline: " + expected_failure(app));
  EXPECT_EQ(app.mapping().view(), MappingPanel::View::Timeline);
}

}  // namespace
