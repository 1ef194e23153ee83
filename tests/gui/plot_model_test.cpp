// The timing plot: tick generation, log mapping, auto-fit and hit-testing (plot_model), then the
// widget itself driven through a headless ImGui context (no window, no GL: ImGui only builds
// draw lists), so legend clicks, zoom, double-click and the tooltip are checked too.
#include "app/plot/plot_model.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "app/plot/plot_render.h"
#include "app/plot/plot_widget.h"

namespace tilescope {
namespace {

Axis axis(double lo, double hi, AxisScale s = AxisScale::Linear) {
  Axis a;
  a.lo = lo;
  a.hi = hi;
  a.scale = s;
  return a;
}

std::vector<double> values(const std::vector<Tick>& ticks, bool majors_only = false) {
  std::vector<double> v;
  for (const auto& t : ticks)
    if (!majors_only || t.major) v.push_back(t.value);
  return v;
}

std::vector<std::string> labels(const std::vector<Tick>& ticks) {
  std::vector<std::string> v;
  for (const auto& t : ticks)
    if (t.major && !t.label.empty()) v.push_back(t.label);
  return v;
}

const Tick* find_tick(const std::vector<Tick>& ticks, double value) {
  for (const auto& t : ticks)
    if (std::fabs(t.value - value) <= 1e-9 * std::max(1.0, std::fabs(value))) return &t;
  return nullptr;
}

PlotSeriesData series_of(std::vector<PlotPoint> pts, bool visible = true, std::string label = "s") {
  PlotSeriesData s;
  s.label = std::move(label);
  s.points = std::move(pts);
  s.visible = visible;
  return s;
}

// ---- linear ticks ------------------------------------------------------------------------------

TEST(PlotTicks, LinearThousandsGetShortLabels) {
  const auto t = make_ticks(axis(0, 52000), 6);
  EXPECT_EQ(values(t), (std::vector<double>{0, 10000, 20000, 30000, 40000, 50000}));
  EXPECT_EQ(labels(t), (std::vector<std::string>{"0", "10k", "20k", "30k", "40k", "50k"}));
}

TEST(PlotTicks, LinearHalfThousandStepsReadAsDecimalK) {
  const auto t = make_ticks(axis(0, 5000), 10);
  ASSERT_NE(find_tick(t, 2500), nullptr);
  EXPECT_EQ(find_tick(t, 2500)->label, "2.5k");
  ASSERT_NE(find_tick(t, 500), nullptr);
  EXPECT_EQ(find_tick(t, 500)->label, "500");
  ASSERT_NE(find_tick(t, 1000), nullptr);
  EXPECT_EQ(find_tick(t, 1000)->label, "1k");
}

TEST(PlotTicks, LinearMillions) {
  const auto t = make_ticks(axis(0, 3e6), 6);
  ASSERT_NE(find_tick(t, 1.5e6), nullptr);
  EXPECT_EQ(find_tick(t, 1.5e6)->label, "1.5M");
}

TEST(PlotTicks, LinearSmallFractions) {
  const auto t = make_ticks(axis(0.013, 0.4), 6);
  ASSERT_EQ(t.size(), 8u);  // 0.05, 0.10, ..., 0.40
  EXPECT_NEAR(t.front().value, 0.05, 1e-12);
  EXPECT_NEAR(t.back().value, 0.4, 1e-12);
  EXPECT_EQ(t[0].label, "0.05");
  EXPECT_EQ(t[1].label, "0.1");  // trailing zero trimmed
  EXPECT_EQ(t[2].label, "0.15");
  // Computed by multiplication, so no 0.30000000000000004 creeps in.
  EXPECT_EQ(t[5].value, 6 * 0.05);
}

TEST(PlotTicks, LinearSmallIntegers) {
  const auto t = make_ticks(axis(0, 13), 6);
  EXPECT_EQ(labels(t), (std::vector<std::string>{"0", "2", "4", "6", "8", "10", "12"}));
}

TEST(PlotTicks, LinearAcrossZeroHasNoNegativeZero) {
  const auto t = make_ticks(axis(-1, 1), 4);
  EXPECT_EQ(labels(t), (std::vector<std::string>{"-1", "-0.5", "0", "0.5", "1"}));
}

TEST(PlotTicks, LinearTinySpanStillDistinguishesTicks) {
  const auto t = make_ticks(axis(100, 100.001), 5);
  ASSERT_GE(t.size(), 2u);
  std::set<std::string> distinct;
  for (const auto& tick : t) {
    EXPECT_GE(tick.value, 100.0);
    EXPECT_LE(tick.value, 100.001);
    // The label must say which value it is, to the tick spacing.
    EXPECT_NEAR(std::stod(tick.label), tick.value, 1e-7) << tick.label;
    distinct.insert(tick.label);
  }
  EXPECT_EQ(distinct.size(), t.size());
}

TEST(PlotTicks, LinearDegenerateAndNonFiniteRanges) {
  const auto one = make_ticks(axis(7, 7), 6);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].label, "7");
  EXPECT_TRUE(make_ticks(axis(0, INFINITY), 6).empty());
  EXPECT_TRUE(make_ticks(axis(NAN, 1), 6).empty());
}

TEST(PlotTicks, LinearCountStaysNearTargetOverManyRanges) {
  for (double lo : {-3.7, 0.0, 0.001, 12.0, 1e5}) {
    for (double span : {1e-6, 0.003, 0.9, 7.0, 55.0, 1234.0, 9.9e6}) {
      for (int target : {3, 6, 10}) {
        const auto t = make_ticks(axis(lo, lo + span), target);
        ASSERT_GE(t.size(), 2u) << lo << " +" << span;
        EXPECT_LE(static_cast<int>(t.size()), 2 * target + 1) << lo << " +" << span;
        std::set<std::string> distinct;
        for (size_t i = 0; i < t.size(); ++i) {
          EXPECT_GE(t[i].value, lo - span * 1e-9);
          EXPECT_LE(t[i].value, lo + span * (1 + 1e-9));
          if (i) {
            EXPECT_GT(t[i].value, t[i - 1].value);
          }
          distinct.insert(t[i].label);
        }
        EXPECT_EQ(distinct.size(), t.size()) << "duplicate labels for " << lo << " +" << span;
      }
    }
  }
}

// ---- log ticks ---------------------------------------------------------------------------------

TEST(PlotTicks, Log2SizesArePlainIntegerPowers) {
  const auto t = make_ticks(axis(1000, 9000, AxisScale::Log2), 6);
  for (double p : {1024.0, 2048.0, 4096.0, 8192.0}) {
    const Tick* tick = find_tick(t, p);
    ASSERT_NE(tick, nullptr) << p;
    EXPECT_TRUE(tick->major);
    EXPECT_EQ(tick->label, std::to_string(static_cast<int>(p)));
  }
  EXPECT_EQ(find_tick(t, 512), nullptr);
  EXPECT_EQ(find_tick(t, 16384), nullptr);
  for (const auto& tick : t) {
    EXPECT_GE(tick.value, 1000);
    EXPECT_LE(tick.value, 9000);
  }
}

TEST(PlotTicks, Log2LabelsHaveNoSuffixes) {
  const auto t = make_ticks(axis(256, 16384, AxisScale::Log2), 6);
  EXPECT_EQ(labels(t), (std::vector<std::string>{"256", "512", "1024", "2048", "4096", "8192", "16384"}));
}

TEST(PlotTicks, Log2ManyOctavesLabelEveryOtherPower) {
  const auto t = make_ticks(axis(16, 1 << 20, AxisScale::Log2), 6);
  // Every power keeps its grid line...
  for (int e = 4; e <= 20; ++e) EXPECT_NE(find_tick(t, std::exp2(e)), nullptr) << e;
  // ...but only every other one is labelled.
  EXPECT_EQ(labels(t),
            (std::vector<std::string>{"16", "64", "256", "1024", "4096", "16384", "65536", "262144", "1048576"}));
  EXPECT_FALSE(find_tick(t, 32)->major);
  EXPECT_TRUE(find_tick(t, 32)->label.empty());
}

TEST(PlotTicks, Log2WithinOneOctaveFallsBackToLinearSteps) {
  const auto t = make_ticks(axis(1100, 1900, AxisScale::Log2), 6);
  EXPECT_GE(labels(t).size(), 3u);
  for (const auto& tick : t) {
    EXPECT_GE(tick.value, 1100);
    EXPECT_LE(tick.value, 1900);
  }
}

TEST(PlotTicks, Log2HugeExponentsUsePowerNotation) {
  const auto t = make_ticks(axis(std::exp2(20), std::exp2(30), AxisScale::Log2), 6);
  const auto l = labels(t);
  EXPECT_NE(std::find(l.begin(), l.end(), "2^22"), l.end());
}

TEST(PlotTicks, Log10Decades) {
  const auto t = make_ticks(axis(1, 1e6, AxisScale::Log10), 6);
  EXPECT_EQ(labels(t), (std::vector<std::string>{"1", "10", "100", "1k", "10k", "100k", "1M"}));
}

TEST(PlotTicks, Log10FewDecadesGet125Ticks) {
  const auto two = make_ticks(axis(1, 100, AxisScale::Log10), 6);
  EXPECT_EQ(labels(two), (std::vector<std::string>{"1", "2", "5", "10", "20", "50", "100"}));
  // Four decades: 2x and 5x stay as grid lines but lose their labels.
  const auto four = make_ticks(axis(1, 1e4, AxisScale::Log10), 6);
  ASSERT_NE(find_tick(four, 200), nullptr);
  EXPECT_FALSE(find_tick(four, 200)->major);
  EXPECT_EQ(labels(four), (std::vector<std::string>{"1", "10", "100", "1k", "10k"}));
}

TEST(PlotTicks, Log10Fractions) {
  const auto t = make_ticks(axis(0.01, 10, AxisScale::Log10), 6);
  const auto l = labels(t);
  for (const char* want : {"0.01", "0.1", "1", "10"}) EXPECT_NE(std::find(l.begin(), l.end(), want), l.end()) << want;
}

TEST(PlotTicks, Log10ManyDecadesThinLabels) {
  const auto t = make_ticks(axis(1e-6, 1e12, AxisScale::Log10), 6);
  EXPECT_EQ(values(t).size(), 19u);  // every decade keeps its line
  EXPECT_LT(labels(t).size(), 11u);
  EXPECT_GE(labels(t).size(), 5u);
}

TEST(PlotTicks, LogAxisWithNonPositiveRangeHasNoTicks) {
  EXPECT_TRUE(make_ticks(axis(0, 100, AxisScale::Log2), 6).empty());
  EXPECT_TRUE(make_ticks(axis(-5, 100, AxisScale::Log10), 6).empty());
}

// ---- mapping -----------------------------------------------------------------------------------

TEST(PlotAxis, LinearMapping) {
  const Axis a = axis(10, 30);
  EXPECT_DOUBLE_EQ(a.to_unit(10), 0);
  EXPECT_DOUBLE_EQ(a.to_unit(30), 1);
  EXPECT_DOUBLE_EQ(a.to_unit(15), 0.25);
  EXPECT_DOUBLE_EQ(a.to_unit(50), 2);  // outside the range maps outside [0, 1]
  EXPECT_DOUBLE_EQ(a.from_unit(0.75), 25);
}

TEST(PlotAxis, Log2MappingIsEvenInOctaves) {
  const Axis a = axis(256, 4096, AxisScale::Log2);  // four octaves
  EXPECT_NEAR(a.to_unit(512), 0.25, 1e-12);
  EXPECT_NEAR(a.to_unit(1024), 0.5, 1e-12);
  EXPECT_NEAR(a.to_unit(128), -0.25, 1e-12);
  EXPECT_NEAR(a.from_unit(0.75), 2048, 1e-9);
  EXPECT_TRUE(std::isnan(a.to_unit(0)));
  EXPECT_TRUE(std::isnan(a.to_unit(-3)));
}

TEST(PlotAxis, Log10MappingIsEvenInDecades) {
  const Axis a = axis(1, 1e4, AxisScale::Log10);
  EXPECT_NEAR(a.to_unit(100), 0.5, 1e-12);
  EXPECT_NEAR(a.to_unit(10), 0.25, 1e-12);
  EXPECT_NEAR(a.from_unit(0.25), 10, 1e-9);
}

TEST(PlotAxis, RoundTrips) {
  for (AxisScale s : {AxisScale::Linear, AxisScale::Log2, AxisScale::Log10}) {
    const Axis a = axis(3, 70000, s);
    for (double v : {3.0, 4.5, 1000.0, 65536.0, 70000.0, 1e6, 0.5}) {
      EXPECT_NEAR(a.from_unit(a.to_unit(v)), v, 1e-9 * v) << static_cast<int>(s) << " " << v;
    }
    for (double u : {-0.5, 0.0, 0.3, 1.0, 1.7}) EXPECT_NEAR(a.to_unit(a.from_unit(u)), u, 1e-12);
  }
}

// ---- auto-fit ----------------------------------------------------------------------------------

TEST(PlotAutoFit, LinearAddsFivePercentMargins) {
  const std::vector<PlotSeriesData> s = {series_of({{1, 10}, {2, 110}, {3, 60}})};
  const Axis y = auto_fit(s, {}, true, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(y.lo, 5);
  EXPECT_DOUBLE_EQ(y.hi, 115);
  const Axis x = auto_fit(s, {}, false, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(x.lo, 0.9);
  EXPECT_DOUBLE_EQ(x.hi, 3.1);
}

TEST(PlotAutoFit, HiddenSeriesAreIgnored) {
  const std::vector<PlotSeriesData> s = {series_of({{1, 10}, {2, 110}}), series_of({{1, 1e6}, {500, -1e6}}, false)};
  const Axis y = auto_fit(s, {}, true, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(y.lo, 5);
  EXPECT_DOUBLE_EQ(y.hi, 115);
  const Axis x = auto_fit(s, {}, false, AxisScale::Linear);
  EXPECT_LT(x.hi, 3);
}

TEST(PlotAutoFit, LogAxisSkipsNonPositiveValues) {
  const std::vector<PlotSeriesData> s = {series_of({{0, 5}, {-8, 5}, {256, 5}, {4096, 5}})};
  const Axis x = auto_fit(s, {}, false, AxisScale::Log2);
  EXPECT_EQ(x.scale, AxisScale::Log2);
  // Four octaves, 5% of them (0.2 octave) each side.
  EXPECT_NEAR(x.lo, 256 * std::exp2(-0.2), 1e-9);
  EXPECT_NEAR(x.hi, 4096 * std::exp2(0.2), 1e-9);
}

TEST(PlotAutoFit, LogAxisWithOnlyNonPositiveValuesGetsTheDefault) {
  const std::vector<PlotSeriesData> s = {series_of({{0, 0}, {-1, -2}})};
  const Axis x = auto_fit(s, {}, false, AxisScale::Log2);
  EXPECT_DOUBLE_EQ(x.lo, 256);
  EXPECT_DOUBLE_EQ(x.hi, 8192);
  const Axis y = auto_fit(s, {}, true, AxisScale::Log10);
  EXPECT_GT(y.lo, 0);
  EXPECT_GT(y.hi, y.lo);
}

TEST(PlotAutoFit, ReferenceLinesWidenTheYRangeOnly) {
  const std::vector<PlotSeriesData> s = {series_of({{1, 10}, {2, 110}})};
  ReferenceLine peak;
  peak.y = 1010;
  const Axis y = auto_fit(s, {peak}, true, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(y.lo, 10 - 50);
  EXPECT_DOUBLE_EQ(y.hi, 1010 + 50);
  const Axis x = auto_fit(s, {peak}, false, AxisScale::Linear);
  EXPECT_LT(x.hi, 3);
}

TEST(PlotAutoFit, EmptyInputGetsDefaults) {
  const Axis lin = auto_fit({}, {}, true, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(lin.lo, 1);
  EXPECT_DOUBLE_EQ(lin.hi, 2);
  const Axis l2 = auto_fit({}, {}, false, AxisScale::Log2);
  EXPECT_DOUBLE_EQ(l2.lo, 256);
  EXPECT_DOUBLE_EQ(l2.hi, 8192);
  const Axis l10 = auto_fit({series_of({})}, {}, true, AxisScale::Log10);
  EXPECT_GT(l10.lo, 0);
  EXPECT_GT(l10.hi, l10.lo);
}

TEST(PlotAutoFit, SinglePointGetsANonEmptyRangeAroundIt) {
  const std::vector<PlotSeriesData> s = {series_of({{1024, 350}})};
  const Axis y = auto_fit(s, {}, true, AxisScale::Linear);
  EXPECT_LT(y.lo, 350);
  EXPECT_GT(y.hi, 350);
  EXPECT_NEAR(y.to_unit(350), 0.5, 1e-12);
  const Axis x = auto_fit(s, {}, false, AxisScale::Log2);
  EXPECT_LT(x.lo, 1024);
  EXPECT_GT(x.hi, 1024);
  EXPECT_NEAR(x.to_unit(1024), 0.5, 1e-12);
  const Axis zero = auto_fit({series_of({{0, 0}})}, {}, true, AxisScale::Linear);
  EXPECT_LT(zero.lo, 0);
  EXPECT_GT(zero.hi, 0);
}

TEST(PlotAutoFit, NonFiniteValuesAreSkipped) {
  const std::vector<PlotSeriesData> s = {series_of({{1, 10}, {2, NAN}, {3, INFINITY}, {4, 110}})};
  const Axis y = auto_fit(s, {}, true, AxisScale::Linear);
  EXPECT_DOUBLE_EQ(y.lo, 5);
  EXPECT_DOUBLE_EQ(y.hi, 115);
}

// ---- hit-testing -------------------------------------------------------------------------------

// A 100 x 100 px area showing [0, 10] x [0, 10]: one data unit is 10 px.
struct PlotHit : ::testing::Test {
  Axis x = axis(0, 10), y = axis(0, 10);
};

TEST_F(PlotHit, NearestPointWins) {
  const std::vector<PlotSeriesData> s = {series_of({{2, 5}, {5, 5}}), series_of({{5.5, 5}})};
  // Mouse at data (5.4, 5): 1 px from series 1's point, 4 px from series 0's second point.
  const Hit h = hit_test(s, x, y, 100, 100, 54, 50, 10);
  EXPECT_EQ(h.series, 1);
  EXPECT_EQ(h.point, 0);
  EXPECT_NEAR(h.distance_px, 1, 1e-9);
  const Hit h2 = hit_test(s, x, y, 100, 100, 21, 50, 10);
  EXPECT_EQ(h2.series, 0);
  EXPECT_EQ(h2.point, 0);
}

TEST_F(PlotHit, OutsideRadiusIsNoHit) {
  const std::vector<PlotSeriesData> s = {series_of({{5, 5}})};
  EXPECT_EQ(hit_test(s, x, y, 100, 100, 50, 59, 8).series, -1);
  EXPECT_EQ(hit_test(s, x, y, 100, 100, 50, 57, 8).series, 0);
}

TEST_F(PlotHit, HiddenSeriesAreIgnored) {
  const std::vector<PlotSeriesData> s = {series_of({{5, 5}}, false), series_of({{5.5, 5}})};
  const Hit h = hit_test(s, x, y, 100, 100, 50, 50, 10);
  EXPECT_EQ(h.series, 1);
}

TEST_F(PlotHit, ScreenYGrowsDownwards) {
  const std::vector<PlotSeriesData> s = {series_of({{5, 9}, {5, 1}})};
  // Near the top of the area (y px = 10) is the high value, y = 9.
  const Hit top = hit_test(s, x, y, 100, 100, 50, 10, 5);
  EXPECT_EQ(top.point, 0);
  const Hit bottom = hit_test(s, x, y, 100, 100, 50, 90, 5);
  EXPECT_EQ(bottom.point, 1);
}

TEST(PlotHitTest, LogAxesAndUnplottablePoints) {
  const Axis x = axis(256, 4096, AxisScale::Log2), y = axis(1, 1e4, AxisScale::Log10);
  const std::vector<PlotSeriesData> s = {series_of({{0, 100}, {1024, 100}, {2048, 0}})};
  // 1024 is the middle of [256, 4096] in octaves; 100 the middle of [1, 1e4] in decades.
  const Hit h = hit_test(s, x, y, 400, 200, 200, 100, 3);
  EXPECT_EQ(h.point, 1);
  // Points a log axis cannot show (x = 0, y = 0) are never hit, wherever the mouse is.
  for (double mx = 0; mx <= 400; mx += 25)
    for (double my = 0; my <= 200; my += 25) {
      const Hit any = hit_test(s, x, y, 400, 200, mx, my, 1000);
      EXPECT_EQ(any.point, 1);
    }
}

// ---- per-pixel-column aggregation ------------------------------------------------------------

TEST(PlotColumns, ManyPointsBecomeAtMostOnePerColumnKeepingTheExtremes) {
  // 200,000 noisy points over x in [0, 1000) on a 400-pixel-wide area.
  std::vector<PlotPoint> pts;
  double lo = 1e300, hi = -1e300;
  for (int i = 0; i < 200000; ++i) {
    const double x = i * 0.005;
    const double y = 100 + 50 * std::sin(i * 0.37) + (i == 123457 ? 900 : 0) - (i == 4242 ? 300 : 0);
    pts.push_back({x, y});
    lo = std::min(lo, y), hi = std::max(hi, y);
  }
  const Axis x = axis(0, 1000), y = axis(-300, 1100);
  const std::vector<PlotColumn> cols = aggregate_columns(pts, x, y, 400);
  EXPECT_LE(cols.size(), 400u);
  EXPECT_GE(cols.size(), 399u) << "every pixel column holds points";
  double seen_lo = 1e300, seen_hi = -1e300;
  int total = 0;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    seen_lo = std::min(seen_lo, cols[i].y_min), seen_hi = std::max(seen_hi, cols[i].y_max);
    total += cols[i].count;
    EXPECT_LE(cols[i].y_min, cols[i].y_median);
    EXPECT_LE(cols[i].y_median, cols[i].y_max);
    if (i > 0) {
      EXPECT_GT(cols[i].x, cols[i - 1].x);
    }
  }
  EXPECT_EQ(total, 200000) << "every point lands in a column";
  EXPECT_EQ(seen_lo, lo) << "the lowest outlier is kept";
  EXPECT_EQ(seen_hi, hi) << "the highest outlier is kept";
}

TEST(PlotColumns, TheLineGoesThroughTheMedianNotTheMean) {
  // One column: four ordinary timings and one slow cold run.
  const std::vector<PlotPoint> pts = {{10.0, 2.0}, {10.1, 2.1}, {10.2, 50.0}, {10.3, 1.9}, {10.4, 2.2}};
  const std::vector<PlotColumn> cols = aggregate_columns(pts, axis(0, 1000), axis(0, 100), 10);
  ASSERT_EQ(cols.size(), 1u);
  EXPECT_EQ(cols[0].count, 5);
  EXPECT_DOUBLE_EQ(cols[0].y_median, 2.1);
  EXPECT_DOUBLE_EQ(cols[0].y_min, 1.9);
  EXPECT_DOUBLE_EQ(cols[0].y_max, 50.0);
  EXPECT_DOUBLE_EQ(cols[0].x, 10.2);
  // An even count takes the mean of the two middle values.
  const std::vector<PlotColumn> even = aggregate_columns({{1, 4}, {1, 1}, {1, 3}, {1, 2}}, axis(0, 10), axis(0, 5), 5);
  ASSERT_EQ(even.size(), 1u);
  EXPECT_DOUBLE_EQ(even[0].y_median, 2.5);
}

TEST(PlotColumns, SparsePointsPassThroughInXOrder) {
  const std::vector<PlotPoint> pts = {{2048, 4}, {256, 1}, {1024, 3}, {512, 2}};
  const std::vector<PlotColumn> cols = aggregate_columns(pts, axis(200, 3000, AxisScale::Log2), axis(0, 5), 800);
  ASSERT_EQ(cols.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(cols[i].count, 1);
    EXPECT_EQ(cols[i].x, 256.0 * (1 << i));
    EXPECT_EQ(cols[i].y_median, i + 1.0);
    EXPECT_FALSE(cols[i].starts_run);
  }
}

TEST(PlotColumns, OffAreaPointsKeepOnlyTheNearestAndGapsBreakTheLine) {
  std::vector<PlotPoint> pts;
  for (int i = -500; i < 0; ++i) pts.push_back({static_cast<double>(i), 1.0 * -i});  // left of the area
  pts.push_back({10, 5});
  pts.push_back({20, -1});  // a log y axis cannot show it
  pts.push_back({30, 6});
  for (int i = 101; i < 600; ++i) pts.push_back({static_cast<double>(i), 7.0 + i});  // right of it
  const std::vector<PlotColumn> cols = aggregate_columns(pts, axis(0, 100), axis(0.5, 1000, AxisScale::Log10), 100);
  ASSERT_EQ(cols.size(), 4u);
  EXPECT_EQ(cols[0].x, -1.0) << "left: the point nearest the area";
  EXPECT_EQ(cols[0].count, 1);
  EXPECT_EQ(cols[1].x, 10.0);
  EXPECT_FALSE(cols[1].starts_run);
  EXPECT_EQ(cols[2].x, 30.0);
  EXPECT_TRUE(cols[2].starts_run) << "the unplottable point between them breaks the line";
  EXPECT_EQ(cols[3].x, 101.0) << "right: the point nearest the area";
  EXPECT_EQ(cols[3].count, 1);
}

// ---- colours -----------------------------------------------------------------------------------

TEST(PlotColors, OkabeItoFirstThenDistinctOpaqueColours) {
  EXPECT_EQ(series_color(0), IM_COL32(0xE6, 0x9F, 0x00, 0xFF));
  EXPECT_EQ(series_color(1), IM_COL32(0x56, 0xB4, 0xE9, 0xFF));
  EXPECT_EQ(series_color(6), IM_COL32(0xCC, 0x79, 0xA7, 0xFF));
  std::set<unsigned> seen;
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(series_color(i) >> IM_COL32_A_SHIFT, 0xFFu) << i;
    seen.insert(series_color(i));
  }
  EXPECT_EQ(seen.size(), 12u);
}

// ---- the widget in a headless ImGui context ------------------------------------------------------

struct PlotWidget : ::testing::Test {
  ImGuiContext* ctx = nullptr;
  std::vector<PlotSeriesData> series;
  std::vector<ReferenceLine> refs;
  PlotStyle style;
  PlotView view;
  bool toggled = false;
  static constexpr float kW = 800, kH = 500;

  void SetUp() override {
    ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(kW, kH);
    io.DeltaTime = 1.0f / 60;
    unsigned char* px;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);  // ImGui wants a built atlas before NewFrame
    style.x_label = "N";
    style.y_label = "GFLOP/s";
    series = {series_of({{256, 100}, {512, 400}, {1024, 900}, {2048, 1500}}, true, "slow"),
              series_of({{256, 300}, {512, 1200}, {1024, 4000}, {2048, 9000}}, true, "cuBLAS")};
    for (size_t i = 0; i < series.size(); ++i) series[i].color = series_color(static_cast<int>(i));
    ReferenceLine peak;
    peak.label = "FP32 peak";
    peak.y = 10000;
    peak.color = IM_COL32(200, 60, 60, 255);
    refs = {peak};
  }
  void TearDown() override { ImGui::DestroyContext(ctx); }

  static std::string tooltip_text(int s, int p, const void* user) {
    auto* calls = static_cast<std::vector<std::pair<int, int>>*>(const_cast<void*>(user));
    calls->push_back({s, p});
    return "extra line";
  }

  // One frame with the plot filling a borderless window at (0, 0).
  void frame(ImVec2 mouse, bool down, float wheel = 0, std::vector<std::pair<int, int>>* calls = nullptr) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = down;
    io.MouseWheel = wheel;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(kW, kH));
    ImGui::Begin("plot", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
    toggled = plot_widget("timing", style, series, refs, view, ImVec2(0, 0), calls ? &tooltip_text : nullptr, calls);
    ImGui::End();
    ImGui::Render();
  }

  // The widget's own layout for the frame just drawn, to aim the mouse.
  plot_detail::Frame layout() const {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 p0 = st.WindowPadding;
    const ImVec2 p1(kW - st.WindowPadding.x, kH - st.WindowPadding.y);
    return plot_detail::layout_plot(p0, p1, style, series, refs, view.x, view.y, ImGui::GetFont(), ImGui::GetFontSize(),
                                    false);
  }
};

TEST_F(PlotWidget, ADenseSeriesDrawsNoMoreThanAScreenful) {
  // 300,000 points: without aggregation this is millions of vertices per frame.
  std::vector<PlotPoint> pts;
  for (int i = 0; i < 300000; ++i) pts.push_back({1.0 + i * 0.01, 50 + 40 * std::sin(i * 0.01)});
  series = {series_of(pts, true, "dense")};
  series[0].color = series_color(0);
  style.x_scale = AxisScale::Linear;
  refs.clear();
  frame(ImVec2(-100, -100), false);
  const ImDrawData* dd = ImGui::GetDrawData();
  ASSERT_NE(dd, nullptr);
  int colored = 0;
  for (int l = 0; l < dd->CmdListsCount; ++l)
    for (const ImDrawVert& v : dd->CmdLists[l]->VtxBuffer) colored += v.col == series[0].color ? 1 : 0;
  EXPECT_GT(colored, 0) << "the series is drawn";
  // A segment and a round join per column (4 + ~8 vertices each) on an 800 px wide plot.
  EXPECT_LT(colored, 800 * 40) << "per pixel column, not per point";
}

TEST_F(PlotWidget, DrawsSeriesInTheirColours) {
  frame(ImVec2(-100, -100), false);
  frame(ImVec2(-100, -100), false);
  const ImDrawData* dd = ImGui::GetDrawData();
  ASSERT_NE(dd, nullptr);
  std::set<unsigned> cols;
  for (int l = 0; l < dd->CmdListsCount; ++l)
    for (const ImDrawVert& v : dd->CmdLists[l]->VtxBuffer) cols.insert(v.col);
  EXPECT_TRUE(cols.count(series[0].color));
  EXPECT_TRUE(cols.count(series[1].color));
  EXPECT_TRUE(cols.count(refs[0].color));
  EXPECT_TRUE(view.auto_fit);
  EXPECT_LT(view.y.lo, 100);
  EXPECT_GT(view.y.hi, 10000);  // the peak line is in view
}

TEST_F(PlotWidget, LegendClickTogglesASeries) {
  frame(ImVec2(-100, -100), false);
  const auto f = layout();
  ASSERT_EQ(f.legend.entries.size(), 2u);
  const auto& e = f.legend.entries[1];
  const ImVec2 c((e.min.x + e.max.x) / 2, (e.min.y + e.max.y) / 2);
  frame(c, false);
  EXPECT_FALSE(toggled);
  frame(c, true);
  EXPECT_TRUE(toggled);
  EXPECT_FALSE(series[1].visible);
  EXPECT_TRUE(series[0].visible);
  frame(c, false);
  EXPECT_FALSE(toggled);
  // Auto-fit now ignores the hidden series (cuBLAS reached 9000, "slow" only 1500; the peak stays).
  frame(ImVec2(-100, -100), false);
  const std::vector<PlotSeriesData> only_slow = {series[0]};
  EXPECT_DOUBLE_EQ(view.y.lo, auto_fit(only_slow, refs, true, AxisScale::Linear).lo);
}

TEST_F(PlotWidget, HoverCallsTheTooltipWithThePointUnderTheMouse) {
  frame(ImVec2(-100, -100), false);
  const auto f = layout();
  const ImVec2 p = plot_detail::to_screen(f, 1024, 900);
  std::vector<std::pair<int, int>> calls;
  frame(ImVec2(p.x + 2, p.y - 1), false, 0, &calls);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(0, 2));
  calls.clear();
  // Between points, far from any: no tooltip.
  frame(ImVec2((f.area_min.x + f.area_max.x) / 2, f.area_max.y - 3), false, 0, &calls);
  EXPECT_TRUE(calls.empty());
}

TEST_F(PlotWidget, WheelZoomsXAboutTheMouseAndDoubleClickRefits) {
  frame(ImVec2(-100, -100), false);
  const auto f = layout();
  const Axis before = view.x;
  // Whole pixels: ImGui floors the mouse position.
  const ImVec2 m(std::floor(f.area_min.x + (f.area_max.x - f.area_min.x) * 0.25f),
                 std::floor((f.area_min.y + f.area_max.y) / 2));
  const double u = (m.x - f.area_min.x) / (f.area_max.x - f.area_min.x);
  const double under_mouse = before.from_unit(u);
  frame(m, false, 1.0f);
  EXPECT_FALSE(view.auto_fit);
  EXPECT_GT(view.x.lo, before.lo);
  EXPECT_LT(view.x.hi, before.hi);
  EXPECT_NEAR(view.x.to_unit(under_mouse), u, 1e-6);  // the value under the mouse stays put
  // Double-click: down, up, down within the double-click time.
  frame(m, true);
  frame(m, false);
  frame(m, true);
  EXPECT_TRUE(view.auto_fit);
  EXPECT_DOUBLE_EQ(view.x.lo, before.lo);
  frame(m, false);
}

TEST_F(PlotWidget, DrawPlotForExportScalesWithoutCrashing) {
  frame(ImVec2(-100, -100), false);
  ImGui::NewFrame();
  style.title = "SGEMM, float";
  style.footer = "NVIDIA H100 - 2026-01-01";
  style.show_legend = false;  // its swatches share the series colours; only the data is measured
  ImDrawList list(ImGui::GetDrawListSharedData());
  ImDrawList* dl = &list;
  auto bbox_of_series = [&](float scale) {
    dl->_ResetForNewFrame();
    dl->PushClipRectFullScreen();
    draw_plot(dl, ImVec2(0, 0), ImVec2(kW * scale, kH * scale), style, series, refs,
              auto_fit(series, refs, false, AxisScale::Log2), auto_fit(series, refs, true, AxisScale::Linear), scale);
    float mn = 1e30f, mx = -1e30f;
    for (const ImDrawVert& v : dl->VtxBuffer)
      if (v.col == series[1].color) mn = std::min(mn, v.pos.x), mx = std::max(mx, v.pos.x);
    return std::make_pair(mn, mx);
  };
  const auto one = bbox_of_series(1);
  const auto three = bbox_of_series(3);
  ASSERT_LT(one.first, one.second);
  // The same picture, three times bigger (within the rounding of paddings and text widths).
  EXPECT_NEAR(three.first / one.first, 3, 0.35);
  EXPECT_NEAR(three.second / one.second, 3, 0.35);
  // Unusable axes (log with lo <= 0) fall back to auto-fit instead of drawing nothing.
  dl->_ResetForNewFrame();
  dl->PushClipRectFullScreen();
  draw_plot(dl, ImVec2(0, 0), ImVec2(kW, kH), style, series, refs, axis(0, 1, AxisScale::Log2), axis(0, 1), 1);
  bool series_drawn = false;
  for (const ImDrawVert& v : dl->VtxBuffer) series_drawn |= v.col == series[0].color;
  EXPECT_TRUE(series_drawn);
  ImGui::EndFrame();
}

}  // namespace
}  // namespace tilescope
