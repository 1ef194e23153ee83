// The plot's drawing, shared by the interactive widget and the PNG export so both look the same:
// a layout pass (where the plot area, labels and legend go for a given rectangle and text size)
// and a render pass into an ImDrawList. Internal to app/plot; callers use plot_widget.h.
#pragma once

#include <imgui.h>

#include <vector>

#include "app/plot/plot_widget.h"

namespace tilescope::plot_detail {

struct LegendEntry {
  ImVec2 min, max;  // the clickable row
  int series = -1;
};

struct Legend {
  ImVec2 min, max;
  std::vector<LegendEntry> entries;  // may be fewer than the series when the area is small
};

struct Frame {
  ImFont* font = nullptr;
  float font_px = 13, ui = 1, pad = 6;  // ui: geometry factor, font_px / 13
  ImVec2 min, max;                      // the whole rectangle
  ImVec2 area_min, area_max;            // the plot area inside the axes
  bool frame_text = false;              // title and footer drawn (the export)
  float title_y = 0, y_label_y = 0, x_ticks_y = 0, x_label_y = 0, footer_y = 0;
  float below_y = 0;    // where room was kept under the x axis's label (a legend below the plot)
  float legend_px = 0;  // the legend's text size; 0: font_px (smaller where it would not fit whole)
  Axis x, y;
  std::vector<Tick> x_ticks, y_ticks;
  Legend legend;
};

// `with_frame_text`: title and footer (the export); the widget leaves those to the panel.
Frame layout_plot(ImVec2 min, ImVec2 max, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                  const std::vector<ReferenceLine>& refs, const Axis& x, const Axis& y, ImFont* font, float font_px,
                  bool with_frame_text);

struct Highlight {
  Hit hit;                  // the point under the mouse, if any
  int legend_hovered = -1;  // the legend row under the mouse, if any
};

// `fill_background`: paint the whole rectangle (the export has no window behind it).
void render_plot(ImDrawList* dl, const Frame& f, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                 const std::vector<ReferenceLine>& refs, const Highlight& highlight, bool fill_background);

// A legend row's height, and the width of a legend box holding these series' labels (what
// layout_plot gives its legend; a view placing its legend itself uses the same), at the
// legend's text size.
float legend_row_height(const Frame& f);
float legend_box_width(const Frame& f, const std::vector<PlotSeriesData>& series);

// A screen position for a data point (NaN where the axis cannot show it).
ImVec2 to_screen(const Frame& f, double x, double y);

bool axis_usable(const Axis& a);

}  // namespace tilescope::plot_detail
