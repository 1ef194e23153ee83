// Where the Roofline view puts its words (plot/roofline_layout.h): the roofs' and ridge points'
// labels of an H100 in bf16 (the roofs of a committed roofs file, the points of committed
// benchmark CSVs) at plot sizes from a full-HD export down to the strip a 1280 x 720 window
// leaves, checked for overlaps by sampling (not with the placement's own geometry); the legend
// never over a point; a plot too small to read says so.
#include "app/plot/roofline_layout.h"

#include <gtest/gtest.h>
#include <imgui_internal.h>  // FindWindowByName: whether the frame opened a tooltip

#include <cmath>
#include <string>
#include <vector>

#include "app/export/results_csv.h"
#include "app/export/roofs_cache.h"
#include "app/plot/roofline_render.h"
#include "tests/gui/gui_test_support.h"

using namespace tilescope;

namespace {

const std::string kDocs = std::string(TILESCOPE_SOURCE_DIR) + "/docs/benchmarks/";
// The bf16 roofs as an H100 measured them: wgmma, mma.sync, mma.sync fed through shared memory
// (three lines within a factor of two), HBM, L2 and shared-memory bandwidth.
const std::string kBf16Roofs = kDocs + "h100-2026-11-23-smem-fed/ceilings.json";
const std::vector<std::string> kBf16Csvs = {kDocs + "h100-2026-11-23-wgmma-clusters/gemm-2048-16384.csv",
                                            kDocs + "h100-2026-11-23-smem-fed/bench-bf16-sweep.csv"};

std::vector<RunResult> rows_of(const std::vector<std::string>& files) {
  std::vector<RunResult> rows;
  for (const std::string& file : files) {
    std::vector<RunResult> more;
    std::string error;
    EXPECT_TRUE(results_from_csv(tilescope::testing::read_file(file), &more, &error)) << file << ": " << error;
    rows.insert(rows.end(), more.begin(), more.end());
  }
  return rows;
}

RoofTable roofs_of(const std::string& file) {
  RoofTable t;
  std::string error;
  EXPECT_TRUE(load_roofs_file(file, &t, &error)) << error;
  return t;
}

struct Size {
  float w, h;
};
// From a full-HD export to the strip a 1280 x 720 window leaves the plot.
const std::vector<Size> kSizes = {{1920, 1080}, {1600, 900}, {1280, 720}, {1500, 600}, {960, 420},
                                  {1200, 300},  {900, 250},  {1280, 160}, {900, 120},  {640, 90}};
// Sizes where every label must find a place (the rest may leave some to the roofs' tooltips).
bool roomy(Size s) {
  return s.h >= 600;
}

// A point of `b`'s rectangle, `u` and `v` in [0, 1] across its width and height.
ImVec2 point_in(const LabelBox& b, float u, float v) {
  const float c = std::cos(b.angle), s = std::sin(b.angle);
  const float x = (2 * u - 1) * b.half.x, y = (2 * v - 1) * b.half.y;
  return ImVec2(b.center.x + x * c - y * s, b.center.y + x * s + y * c);
}

// Whether `p` lies strictly inside `b`, `margin` pixels in from its edges.
bool strictly_inside(const LabelBox& b, ImVec2 p, float margin = 0.5f) {
  const float c = std::cos(b.angle), s = std::sin(b.angle);
  const float dx = p.x - b.center.x, dy = p.y - b.center.y;
  const float along = dx * c + dy * s, across = -dx * s + dy * c;
  return std::fabs(along) < b.half.x - margin && std::fabs(across) < b.half.y - margin;
}

// Overlap by sampling: a grid of points over each box, any one strictly inside the other.
bool sampled_overlap(const LabelBox& a, const LabelBox& b) {
  for (const auto& [p, q] : {std::pair{a, b}, std::pair{b, a}})
    for (int i = 0; i <= 40; ++i)
      for (int j = 0; j <= 8; ++j)
        if (strictly_inside(q, point_in(p, i / 40.0f, j / 8.0f))) return true;
  return false;
}

// Whether a disc of radius `r` about `p` reaches into `b`.
bool disc_touches(const LabelBox& b, ImVec2 p, float r) {
  for (int k = 0; k < 16; ++k) {
    const float t = k * 3.14159265f / 8;
    if (strictly_inside(b, ImVec2(p.x + r * std::cos(t), p.y + r * std::sin(t)))) return true;
  }
  return strictly_inside(b, p);
}

class RooflineLayoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    unsigned char* px;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);  // the font's metrics
    font_ = io.Fonts->Fonts[0];
  }
  void TearDown() override { ImGui::DestroyContext(ctx_); }

  RooflineLayout layout(const RooflineData& d, Size s, float font_px, bool export_frame) const {
    return layout_roofline(ImVec2(0, 0), ImVec2(s.w, s.h), d, font_, font_px, export_frame);
  }

  ImGuiContext* ctx_ = nullptr;
  ImFont* font_ = nullptr;
};

std::string where(Size s, float px, bool export_frame) {
  return std::to_string(static_cast<int>(s.w)) + "x" + std::to_string(static_cast<int>(s.h)) + " at " +
         std::to_string(px) + " px" + (export_frame ? " (export)" : " (window)");
}

// Every placed label inside the plot area, none over another or over a point, and at the roomy
// sizes every label placed.
void expect_readable(const RooflineLayout& l, const RooflineData& d, const std::string& at, bool all_placed) {
  if (l.too_small) return;
  const plot_detail::Frame& f = l.frame;
  std::vector<const RooflineLabel*> placed;
  for (const RooflineLabel& label : l.labels) {
    if (label.place.placed)
      placed.push_back(&label);
    else if (all_placed)
      ADD_FAILURE() << at << ": no room for \"" << label.text << "\"";
  }
  for (const RooflineLabel* label : placed)
    for (const ImVec2& c : box_corners(label->place.box)) {
      EXPECT_GE(c.x, f.area_min.x - 0.5f) << at << ": \"" << label->text << "\" leaves the plot";
      EXPECT_LE(c.x, f.area_max.x + 0.5f) << at << ": \"" << label->text << "\" leaves the plot";
      EXPECT_GE(c.y, f.area_min.y - 0.5f) << at << ": \"" << label->text << "\" leaves the plot";
      EXPECT_LE(c.y, f.area_max.y + 0.5f) << at << ": \"" << label->text << "\" leaves the plot";
    }
  for (std::size_t i = 0; i < placed.size(); ++i)
    for (std::size_t j = i + 1; j < placed.size(); ++j)
      EXPECT_FALSE(sampled_overlap(placed[i]->place.box, placed[j]->place.box))
          << at << ": \"" << placed[i]->text << "\" overlaps \"" << placed[j]->text << "\"";
  for (const ImVec2& p : point_positions(l, d))
    for (const RooflineLabel* label : placed)
      EXPECT_FALSE(disc_touches(label->place.box, p, l.marker_radius))
          << at << ": \"" << label->text << "\" covers the point at " << p.x << ", " << p.y;
}

// The legend holds no point and no label.
void expect_clear_legend(const RooflineLayout& l, const RooflineData& d, const std::string& at) {
  if (l.too_small || l.frame.legend.entries.empty()) return;
  const Rect legend{l.frame.legend.min, l.frame.legend.max};
  const LabelBox box = box_of(legend);
  for (const ImVec2& p : point_positions(l, d))
    EXPECT_FALSE(disc_touches(box, p, l.marker_radius))
        << at << ": the legend covers the point at " << p.x << ", " << p.y;
  for (const LabelBox& label : placed_label_boxes(l))
    EXPECT_FALSE(sampled_overlap(box, label)) << at << ": the legend covers a label";
}

TEST_F(RooflineLayoutTest, TheH100Bf16RoofLabelsNeverOverlapAtAnySize) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  const RooflineData d = build_roofline(rows_of(kBf16Csvs), Problem::Gemm, Precision::BF16, &roofs, "fixture");
  // The case this is about: three compute roofs close together, three bandwidth roofs, points.
  ASSERT_EQ(d.compute.size(), 3u);
  ASSERT_EQ(d.bandwidth.size(), 3u);
  ASSERT_GE(d.series.size(), 6u);
  int labels = 0;
  for (Size s : kSizes)
    for (float px : {13.0f, 17.0f, 25.5f})
      for (bool export_frame : {false, true}) {
        const RooflineLayout l = layout(d, s, px, export_frame);
        const std::string at = where(s, px, export_frame);
        if (roomy(s) && px < 20) {
          ASSERT_FALSE(l.too_small) << at;
          ASSERT_EQ(l.labels.size(), d.compute.size() + d.bandwidth.size() + d.ridges.size()) << at;
        }
        expect_readable(l, d, at, roomy(s) && px < 20);
        expect_clear_legend(l, d, at);
        labels += static_cast<int>(placed_label_boxes(l).size());
      }
  EXPECT_GT(labels, 0);
}

// Every precision of that roofs file, and the f64 roofs (tensor-core rows merged into one line).
TEST_F(RooflineLayoutTest, EveryPrecisionsRoofLabelsNeverOverlap) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  std::vector<std::string> csvs = kBf16Csvs;
  csvs.push_back(kDocs + "h100-2026-11-23-tf32-ldmatrix/bench-f64.csv");
  csvs.push_back(kDocs + "h100-2026-11-23-tf32-ldmatrix/bench-tf32-gemm.csv");
  const std::vector<RunResult> rows = rows_of(csvs);
  for (Precision p : all_precisions()) {
    const RooflineData d = build_roofline(rows, Problem::Gemm, p, &roofs, "fixture");
    for (Size s : kSizes) {
      const RooflineLayout l = layout(d, s, 17.0f, true);
      const std::string at = std::string(to_string(p)) + " " + where(s, 17.0f, true);
      expect_readable(l, d, at, roomy(s));
      expect_clear_legend(l, d, at);
    }
  }
}

// Points in every corner of the plot: no corner is free, so the legend goes beside or under the
// plot, never over a point.
TEST_F(RooflineLayoutTest, TheLegendLeavesThePlotWhenNoCornerIsFree) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  RooflineData d = build_roofline(rows_of(kBf16Csvs), Problem::Gemm, Precision::BF16, &roofs, "fixture");
  PlotSeriesData grid;
  grid.label = "points everywhere";
  grid.color = series_color(static_cast<int>(d.series.size()));
  for (int i = 0; i <= 24; ++i)
    for (int j = 0; j <= 24; ++j)
      grid.points.push_back({d.x.from_unit(0.005 + 0.99 * i / 24.0), d.y.from_unit(0.005 + 0.99 * j / 24.0)});
  d.series.push_back(grid);
  bool outside = false;
  for (Size s : kSizes)
    for (bool export_frame : {false, true}) {
      const RooflineLayout l = layout(d, s, 17.0f, export_frame);
      const std::string at = where(s, 17.0f, export_frame);
      EXPECT_NE(l.legend, LegendPlace::Inside) << at;
      expect_clear_legend(l, d, at);
      outside = outside || l.legend == LegendPlace::Right || l.legend == LegendPlace::Below;
    }
  EXPECT_TRUE(outside) << "the legend found no place at any size";
  // With room beside the plot it stands there with every entry, clickable.
  const RooflineLayout wide = layout(d, Size{1920, 1080}, 13.0f, false);
  EXPECT_EQ(wide.legend, LegendPlace::Right);
  EXPECT_EQ(wide.frame.legend.entries.size(), d.series.size());
  EXPECT_GE(wide.frame.legend.min.x, wide.frame.area_max.x);
}

// Where a corner is empty (a roofline's top left usually is), the legend takes it and the plot
// keeps its whole width.
TEST_F(RooflineLayoutTest, AFreeCornerKeepsTheLegendInside) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  const RooflineData d = build_roofline(rows_of({kBf16Csvs[1]}), Problem::Gemm, Precision::BF16, &roofs, "");
  const RooflineLayout l = layout(d, Size{1920, 1080}, 13.0f, false);
  ASSERT_EQ(l.legend, LegendPlace::Inside);
  EXPECT_EQ(l.frame.legend.entries.size(), d.series.size());
  expect_clear_legend(l, d, "1920x1080");
}

// Labelled y ticks stay a text line apart however short the plot.
TEST_F(RooflineLayoutTest, TheYAxisLabelsAreThinnedOnAShortPlot) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  const RooflineData d = build_roofline(rows_of(kBf16Csvs), Problem::Gemm, Precision::BF16, &roofs, "");
  for (Size s : kSizes) {
    const RooflineLayout l = layout(d, s, 17.0f, false);
    if (l.too_small) continue;
    std::vector<float> ys;
    for (const Tick& t : l.frame.y_ticks)
      if (t.major && !t.label.empty()) ys.push_back(plot_detail::to_screen(l.frame, l.frame.x.lo, t.value).y);
    EXPECT_FALSE(ys.empty()) << where(s, 17, false);
    std::sort(ys.begin(), ys.end());
    for (std::size_t i = 1; i < ys.size(); ++i) EXPECT_GE(ys[i] - ys[i - 1], 17.0f) << where(s, 17, false);
  }
}

// A rectangle with no room for a plot gets a sentence, not a squashed plot.
TEST_F(RooflineLayoutTest, ARectangleTooSmallForAPlotSaysSo) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  const RooflineData d = build_roofline(rows_of(kBf16Csvs), Problem::Gemm, Precision::BF16, &roofs, "");
  EXPECT_TRUE(layout(d, Size{1280, 40}, 13.0f, false).too_small);
  EXPECT_TRUE(layout(d, Size{60, 600}, 13.0f, false).too_small);
  EXPECT_FALSE(layout(d, Size{1280, 160}, 13.0f, false).too_small);
}

// In the window a roof names itself on hover, placed label or not: a small plot has no room for
// every label. One frame of the widget in a borderless window, the mouse on the top compute roof's
// line, then on the plot's empty bottom left corner.
TEST_F(RooflineLayoutTest, HoveringARoofNamesIt) {
  const RoofTable roofs = roofs_of(kBf16Roofs);
  RooflineData d = build_roofline(rows_of(kBf16Csvs), Problem::Gemm, Precision::BF16, &roofs, "");
  const ImVec2 window(900, 300);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = window;
  io.DeltaTime = 1.0f / 60;
  auto tooltip_at = [&](ImVec2 mouse) {
    for (int i = 0; i < 2; ++i) {  // the first frame makes the window the mouse is over
      io.MousePos = mouse;
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(window);
      ImGui::Begin("roofline", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
      roofline_widget("roofline", d, ImVec2(0, 0));
      ImGui::End();
      ImGui::Render();
    }
    const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
    return tip && tip->Active;
  };
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const RooflineLayout l =
      layout_roofline(pad, ImVec2(window.x - pad.x, window.y - pad.y), d, font_, font_->FontSize, false);
  const plot_detail::Frame& f = l.frame;
  const float roof_y = plot_detail::to_screen(f, f.x.lo, d.compute.front().y).y;
  // A spot on the roof with no point near it: the tooltip there can only be the roof's.
  float x = -1;
  for (float at = f.area_min.x + 10; at < f.area_max.x - 10 && x < 0; at += 5) {
    bool clear = true;
    for (const ImVec2& p : point_positions(l, d)) clear = clear && std::hypot(p.x - at, p.y - roof_y) > 30;
    if (clear) x = at;
  }
  ASSERT_GE(x, 0) << "no spot of the roof is clear of points";
  EXPECT_TRUE(tooltip_at(ImVec2(x, roof_y + 1)));
  EXPECT_FALSE(tooltip_at(ImVec2(f.area_min.x + 3, f.area_max.y - 3)));
}

// The placement itself: labels that all want one spot end up apart, each inside the bounds, the
// nudged ones with a leader back to what they name; one with no room at all is left out.
TEST(LabelPlacement, CrowdedLabelsAreNudgedApartWithLeaders) {
  const Rect bounds{ImVec2(0, 0), ImVec2(400, 200)};
  std::vector<LabelRequest> requests;
  for (int i = 0; i < 6; ++i) {
    LabelRequest r;
    LabelBox b;
    b.center = ImVec2(300, 100 + i * 2.0f);  // six labels on nearly one line
    b.half = ImVec2(60, 8);
    r.wanted = {b};
    r.names_from = r.names_to = ImVec2(300, 100);
    r.leader_after = 20;
    requests.push_back(r);
  }
  const std::vector<Rect> obstacles = {Rect{ImVec2(230, 60), ImVec2(250, 80)}};
  const std::vector<LabelPlacement> placed = place_labels(requests, bounds, obstacles, 2);
  ASSERT_EQ(placed.size(), requests.size());
  EXPECT_FALSE(placed[0].nudged) << "the first keeps its place";
  int leaders = 0;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    ASSERT_TRUE(placed[i].placed) << i;
    EXPECT_TRUE(box_inside(placed[i].box, bounds)) << i;
    EXPECT_FALSE(sampled_overlap(placed[i].box, box_of(obstacles[0]))) << i;
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(sampled_overlap(placed[i].box, placed[j].box)) << i << " " << j;
    leaders += placed[i].leader;
  }
  EXPECT_GT(leaders, 0);
  // No room at all: left out, not piled on.
  LabelRequest huge;
  LabelBox b;
  b.center = ImVec2(200, 100);
  b.half = ImVec2(300, 20);
  huge.wanted = {b};
  EXPECT_FALSE(place_labels({huge}, bounds, {}, 2)[0].placed);
}

// The separating-axis test agrees with sampling on turned boxes.
TEST(LabelPlacement, TurnedBoxesOverlapExactlyWhenTheySampleAsOverlapping) {
  int both = 0, neither = 0;
  for (int i = 0; i < 400; ++i) {
    LabelBox a, b;
    a.center = ImVec2(100, 100);
    a.half = ImVec2(50, 8);
    a.angle = -0.6f;
    b.center = ImVec2(40.0f + (i % 20) * 6.0f, 40.0f + (i / 20) * 6.0f);
    b.half = ImVec2(30, 6);
    b.angle = (i % 7) * 0.2f;
    const bool sat = boxes_overlap(a, b), sampled = sampled_overlap(a, b);
    EXPECT_TRUE(sat || !sampled) << i;
    both += sat && sampled;
    neither += !sat && !sampled;
  }
  EXPECT_GT(both, 20);
  EXPECT_GT(neither, 20);
}

}  // namespace
