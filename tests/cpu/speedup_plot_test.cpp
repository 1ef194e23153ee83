// The GPUs tab's model plot as data (app/viz/speedup_plot.h): log2 axes from 1 GPU to the most
// predicted and around every speed-up, points found under the mouse (the measured one first), the
// legend's names and a point's words.
#include "app/viz/speedup_plot.h"

#include <gtest/gtest.h>

using namespace tilescope;

namespace {

PredictedPoint point(int gpus, double predicted, double measured = 0) {
  PredictedPoint p;
  p.gpus = gpus;
  p.prediction.speedup = predicted;
  p.prediction.efficiency = predicted / gpus;
  p.measured_speedup = measured;
  return p;
}

}  // namespace

TEST(SpeedupPlot, Log2AxesPlaceEachPowerOfTwoAtEqualSteps) {
  Log2Axis x{1, 64, 100, 700};
  EXPECT_FLOAT_EQ(x.at(1), 100);
  EXPECT_FLOAT_EQ(x.at(64), 700);
  EXPECT_FLOAT_EQ(x.at(8), 400);
  EXPECT_FLOAT_EQ(x.at(2) - x.at(1), x.at(64) - x.at(32));
  EXPECT_FLOAT_EQ(x.at(1000), 700) << "clamped to the axis";
  EXPECT_FLOAT_EQ(x.at(-3), 100) << "no logarithm of a negative";
  EXPECT_EQ(x.ticks(), (std::vector<double>{1, 2, 4, 8, 16, 32, 64}));
  const Log2Axis up{0.5, 4, 300, 0};  // y grows upwards: the larger value higher on the screen
  EXPECT_LT(up.at(4), up.at(0.5));
  EXPECT_EQ(up.ticks(), (std::vector<double>{0.5, 1, 2, 4}));
}

TEST(SpeedupPlot, TheAxesHoldEveryPointAndTheIdealLine) {
  PredictedSplit s;
  s.points = {point(1, 1), point(2, 1.99, 2.03), point(4, 3.96), point(64, 47.3)};
  PredictedSplit slow;
  slow.points = {point(1, 1), point(2, 0.7, 0.9), point(64, 5)};
  const SpeedupPlot plot = lay_out_speedup_plot({s, slow}, ModelAxis::Speedup, 100, 50, 700, 450);
  EXPECT_EQ(plot.gpus.lo, 1);
  EXPECT_EQ(plot.gpus.hi, 64);
  EXPECT_EQ(plot.speedup.lo, 0.5) << "down to the slowest, 0.7x";
  EXPECT_EQ(plot.speedup.hi, 64) << "up to the ideal at 64 GPUs";
  EXPECT_FLOAT_EQ(plot.gpus.at(1), 100);
  EXPECT_FLOAT_EQ(plot.speedup.at(64), 50);
  EXPECT_FLOAT_EQ(plot.speedup.at(0.5), 450);
  // A superlinear measurement beyond the most GPUs' ideal widens the axis.
  s.points.push_back(point(8, 7.9, 200));
  EXPECT_EQ(lay_out_speedup_plot({s}, ModelAxis::Speedup, 0, 0, 1, 1).speedup.hi, 256);
}

// The efficiency from 0 to a little above the most efficient point, 100% the ideal's height
// whatever the count: a split that loses a quarter of its GPUs at 64 lies a quarter lower.
TEST(SpeedupPlot, TheEfficiencyAxisRunsFromZeroAndTheIdealIsLevel) {
  PredictedSplit s;
  s.points = {point(1, 1), point(2, 1.99, 2.03), point(64, 48)};
  const SpeedupPlot plot = lay_out_speedup_plot({s}, ModelAxis::Efficiency, 0, 0, 600, 600);
  EXPECT_EQ(plot.efficiency.lo, 0);
  EXPECT_NEAR(plot.efficiency.hi, 1.3, 1e-9) << "the tick above 101.5%, and room";
  EXPECT_FLOAT_EQ(plot.y_of(1, 1), plot.y_of(64, 64));
  EXPECT_FLOAT_EQ(plot.y_of(48, 64), plot.efficiency.at(0.75));
  EXPECT_FLOAT_EQ(plot.y_of(0, 8), 600);
  const std::vector<double> ticks = plot.y_ticks();
  ASSERT_EQ(ticks.size(), 7u);  // 0% to 120%
  EXPECT_EQ(plot.y_label(ticks[5]), "100%");
  EXPECT_FLOAT_EQ(plot.tick_y(ticks[5]), plot.y_of(2, 2));
  EXPECT_EQ(lay_out_speedup_plot({s}, ModelAxis::Speedup, 0, 0, 600, 600).y_label(8), "8x");
}

TEST(SpeedupPlot, ThePointUnderTheMouseIsTheNearestAndTheMeasuredOneFirst) {
  PredictedSplit a, b;
  a.points = {point(1, 1), point(2, 2, 2), point(4, 3.9)};
  b.points = {point(1, 1), point(2, 1.5), point(4, 3.0, 2.5)};
  const std::vector<PredictedSplit> splits = {a, b};
  const SpeedupPlot plot = lay_out_speedup_plot(splits, ModelAxis::Speedup, 0, 0, 600, 600);
  const auto at = [&](int gpus, double speedup) {
    return point_at(plot, splits, plot.gpus.at(gpus), plot.y_of(speedup, gpus), 10);
  };
  PointHit hit = at(2, 2);  // a's measured and predicted points lie on each other
  ASSERT_TRUE(hit.found());
  EXPECT_EQ(hit.split, 0);
  EXPECT_EQ(hit.point, 1u);
  EXPECT_TRUE(hit.measured);
  hit = at(4, 2.5);
  ASSERT_TRUE(hit.found());
  EXPECT_EQ(hit.split, 1);
  EXPECT_EQ(hit.point, 2u);
  EXPECT_TRUE(hit.measured);
  hit = at(4, 3.0);
  EXPECT_EQ(hit.split, 1);
  EXPECT_FALSE(hit.measured);
  EXPECT_FALSE(point_at(plot, splits, plot.gpus.at(1.4), plot.y_of(40, 2), 10).found());
}

TEST(SpeedupPlot, NamesAndWords) {
  RunResult rows_1d, summa, other_rows_1d;
  rows_1d.split = summa.split = "split_nccl";
  rows_1d.split_config = "rows_1d";
  summa.split_config = "summa_2d";
  other_rows_1d.split = "another_split";
  other_rows_1d.split_config = "rows_1d";
  PredictedSplit a, b, c;
  a.example = &rows_1d;
  b.example = &summa;
  c.example = &other_rows_1d;
  EXPECT_EQ(split_names({a, b}), (std::vector<std::string>{"rows_1d", "summa_2d"}));
  EXPECT_EQ(split_names({a, b, c}),
            (std::vector<std::string>{"split_nccl:rows_1d", "summa_2d", "another_split:rows_1d"}));
  PredictedPoint p = point(4, 3.96, 3.9);
  p.prediction.efficiency = 0.99;
  EXPECT_EQ(point_words("rows_1d", p), "rows_1d on 4 GPUs: predicted 3.96x (99%), measured 3.90x");
  EXPECT_EQ(point_words("summa_2d", point(1, 1)), "summa_2d on 1 GPU: predicted 1.00x (100%)");
}
