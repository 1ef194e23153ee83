// The timing plot widget (ImPlot is not packaged for us, so this is ours): several series with
// a legend (click an entry to hide or show that series), log2 x-axis of size, y in GFLOP/s or ms
// (linear or log), reference lines (best cuBLAS, device peak), a hover tooltip with the exact
// numbers, auto-fit, readable ticks and grid. The same drawing code renders the PNG export,
// which has a title, axis labels, the legend, and the device name and date in its footer.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/plot_model.h"

namespace tilescope {

struct PlotStyle {
  // Speeds and times are compared as ratios: with this set, a linear y axis whose auto-fitted
  // range would start above 0 starts at 0, so a point twice as high is twice as fast.
  bool y_from_zero = false;
  std::string title, x_label, y_label;
  std::string footer;  // "NVIDIA H100 80GB HBM3 — 2026-11-21" (export)
  AxisScale x_scale = AxisScale::Log2;
  AxisScale y_scale = AxisScale::Linear;
  bool show_legend = true;
  // Sizes in pixels for a 13 px font: lines, markers and paddings grow with the text (so
  // presenter mode needs no extra scaling), and draw_plot multiplies them by its `scale` too.
  float line_width = 2.0f;
  float marker_radius = 3.5f;
  // draw_plot's text height before `scale`; 0 = ImGui::GetFontSize(). An export that pushes a
  // font baked at the output size (crisp text at 4K) sets this to the on-screen size instead.
  float font_size = 0.0f;
};

// Per-widget state kept by the caller between frames.
struct PlotView {
  bool auto_fit = true;
  Axis x, y;  // the shown ranges when auto_fit is off
};

// For the hover tooltip: extra lines for the point (variant, config, median/min ms, % of cuBLAS).
// Called with (series index, point index); may be empty.
using PlotTooltipFn = std::string (*)(int series, int point, const void* user);

// An interactive ImGui widget filling `size` (0 = available width / height). Returns true when
// the user toggled a series (so the caller can persist it). `series` visibility is updated in place.
bool plot_widget(const char* id, const PlotStyle& style, std::vector<PlotSeriesData>& series,
                 const std::vector<ReferenceLine>& refs, PlotView& view, ImVec2 size, PlotTooltipFn tooltip = nullptr,
                 const void* tooltip_user = nullptr);

// The size a plot widget takes: `size`, with 0 meaning the available width / height, and never
// smaller than 8 x 5 lines of text (ImGui asserts on a zero-sized item; a smaller plot shows nothing).
ImVec2 plot_widget_size(ImVec2 size);

// Draws the plot (with title, labels, legend and footer) into `draw_list` inside the rectangle
// [min, max], without interaction: the PNG export and tests use it.
void draw_plot(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const PlotStyle& style,
               const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs, const Axis& x,
               const Axis& y, float scale = 1.0f);

// auto_fit() for this style's axis (y_from_zero applied): what the widget shows when it fits.
Axis fit_axis(const PlotStyle& style, const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs,
              bool y_axis);

// A distinct, colour-blind-friendlier colour for series i (Okabe–Ito first, then more).
unsigned series_color(int i);

}  // namespace tilescope
