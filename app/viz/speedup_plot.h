// What the GPUs tab draws of the splits' model, as plain data: each split's speed-up over its
// kernel alone on one GPU against the number of GPUs, predicted (a line) and measured (markers).
// The GPU counts are powers of two on a log2 axis. The speed-up is one too, so that the ideal (N
// GPUs, N times as fast) is the diagonal and the 2-GPU points read as clearly as the 64-GPU ones;
// or the y axis shows the efficiency (the speed-up over the GPUs, linear from 0, the ideal the line
// at 100%), where the gaps between the splits are larger. Plain C++, also compiled into the CPU
// suite.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/multi/split_forecast.h"

namespace tilescope {

// A log2 axis: the values lo and hi (powers of two) at pixels `from` and `to` (to < from for an
// axis that grows upwards).
struct Log2Axis {
  double lo = 1, hi = 2;
  float from = 0, to = 1;
  float at(double value) const;       // the pixel of a positive value, clamped to the axis's ends
  std::vector<double> ticks() const;  // every power of two from lo to hi
};

// A linear axis: lo at pixel `from`, hi at `to`.
struct LinearAxis {
  double lo = 0, hi = 1;
  float from = 0, to = 1;
  float at(double value) const;  // clamped to the axis's ends
};

enum class ModelAxis { Speedup, Efficiency };

struct SpeedupPlot {
  ModelAxis shows = ModelAxis::Speedup;
  Log2Axis gpus;          // x, from 1 GPU
  Log2Axis speedup;       // y, upwards, where it shows the speed-up
  LinearAxis efficiency;  // y, upwards, where it shows the efficiency (1: 100%)
  // The pixel height of a speed-up on `gpus` GPUs, as the y axis shows it.
  float y_of(double speedup, int gpus) const;
  // The y axis's ticks (speed-ups, or efficiencies) and their labels: "8x", "80%".
  std::vector<double> y_ticks() const;
  std::string y_label(double tick) const;
  float tick_y(double tick) const;  // the pixel height of one of y_ticks()
};

// Axes that hold every predicted and measured point of `splits` and the ideal line from 1 to the
// most GPUs, in the rectangle (x0, y0) to (x1, y1), y0 the top.
SpeedupPlot lay_out_speedup_plot(const std::vector<PredictedSplit>& splits, ModelAxis shows, float x0, float y0,
                                 float x1, float y1);

// A point of the plot: a split, its point (a GPU count), and whether the marker is the measured one.
struct PointHit {
  int split = -1;
  std::size_t point = 0;
  bool measured = false;
  bool found() const { return split >= 0; }
};

// The point nearest (x, y) within `radius` pixels, predicted or measured; none if none is as near.
PointHit point_at(const SpeedupPlot& plot, const std::vector<PredictedSplit>& splits, float x, float y, float radius);

// Each split's name in the legend and the words of its points: its configuration ("rows_1d") where
// that is unique among `splits`, else split:configuration.
std::vector<std::string> split_names(const std::vector<PredictedSplit>& splits);

// "rows_1d on 4 GPUs: predicted 3.96x (99%), measured 3.90x" (no measured part where none was).
std::string point_words(const std::string& name, const PredictedPoint& p);

}  // namespace tilescope
