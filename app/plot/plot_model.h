// The arithmetic of the timing plot, kept apart from drawing so it can be unit-tested:
// axes (linear or logarithmic), tick generation with readable labels, auto-fit, and hit-testing
// the point under the mouse. Plain C++, no ImGui.
#pragma once

#include <string>
#include <vector>

namespace tilescope {

struct PlotPoint {
  double x = 0, y = 0;
};

struct PlotSeriesData {
  std::string label;
  unsigned color = 0xFFFFFFFF;  // ImGui's IM_COL32 layout (ABGR in memory)
  std::vector<PlotPoint> points;
  bool visible = true;  // hidden by a click on its legend entry
};

struct ReferenceLine {
  std::string label;  // "cuBLAS (best)", "FP32 peak"
  double y = 0;
  unsigned color = 0xFFFFFFFF;
};

enum class AxisScale { Linear, Log2, Log10 };

struct Axis {
  double lo = 0, hi = 1;  // data units; for log scales both > 0
  AxisScale scale = AxisScale::Linear;
  // Data value -> [0, 1] along the axis (0 = lo, 1 = hi), and back. Values outside the range
  // map outside [0, 1]; a value <= 0 on a log axis maps to NaN (it has no place there).
  double to_unit(double v) const;
  double from_unit(double u) const;
};

struct Tick {
  double value = 0;
  std::string label;  // "1024", "2^14", "50k", "0.5"
  bool major = true;
};

// About `target` major ticks at 1-2-5 steps for linear axes; powers of the base for log axes
// (with minor ticks between when the range spans few decades/octaves, and every other power
// labelled when it spans many). Labels are short: 1024, 4096, 16384 on a log2 size axis; 10k,
// 20k on a GFLOP/s axis.
std::vector<Tick> make_ticks(const Axis& axis, int target = 6);

// The range that shows every visible point and reference line with a margin (5% of the span;
// for log axes 5% of the log span), never empty, never <= 0 on a log axis (non-positive values
// are skipped there). With nothing to show: [1, 2] linear, [256, 8192] log2.
Axis auto_fit(const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs, bool y_axis,
              AxisScale scale);

// A dense series drawn at most one point per pixel column. What falls into one column is shown
// by its median (the line goes through it) and its min..max (a faint bar): a teacher reading a
// plot of repeated timings wants the typical value, which one slow cold run would drag a mean
// away from, and the spread, which must not vanish just because the points overlap.
struct PlotColumn {
  double x = 0;  // the mean x of its points (data units)
  double y_min = 0, y_median = 0, y_max = 0;
  int count = 0;            // points in the column
  bool starts_run = false;  // the line does not join it to the previous column (a gap)
};
// `points` in any order; the columns come in x order. A column is one pixel of a plot area
// `width_px` wide on axes `x` and `y`: at most ceil(width_px) columns, plus one on each side for
// the nearest point left and right of the area (so a line leaves the area where it should).
// Points the axes cannot show (NaN, <= 0 on a log axis) are left out and break the line (the
// column after a break is a new one even if it shares a pixel).
std::vector<PlotColumn> aggregate_columns(const std::vector<PlotPoint>& points, const Axis& x, const Axis& y,
                                          double width_px);

struct Hit {
  int series = -1, point = -1;  // -1: nothing within reach
  double distance_px = 0;
};
// The visible point nearest to the mouse within `radius_px`, in a plot area of `width_px` x
// `height_px` pixels whose top-left is (0, 0) (screen y grows downwards).
Hit hit_test(const std::vector<PlotSeriesData>& series, const Axis& x, const Axis& y, double width_px, double height_px,
             double mouse_x_px, double mouse_y_px, double radius_px);

}  // namespace tilescope
