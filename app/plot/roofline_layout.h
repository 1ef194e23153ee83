// Where everything of the Roofline view goes in a rectangle, before anything is drawn: the plot
// frame (plot_render's layout), the legend (in a corner free of points and roofs, else beside or
// under the plot: never over a point), the roofs' and ridge points' labels (placed so none
// covers another or a point: label_placement.h), the y-axis labels thinned to what fits, and in
// the export the notes as a caption under the plot. The window's widget and the PNG export both
// draw from this, so they place everything alike; tests check it without drawing.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/label_placement.h"
#include "app/plot/plot_render.h"
#include "app/plot/roofline_model.h"

namespace tilescope {

struct RooflineLabel {
  enum class Kind { ComputeRoof, BandwidthRoof, Ridge, NoRoofs };
  Kind kind = Kind::ComputeRoof;
  int index = -1;  // into data.compute, data.bandwidth or data.ridges
  std::string text;
  unsigned color = 0;    // 0: the theme's text colour
  LabelPlacement place;  // placed false: no room (the roof's tooltip still names it)
};

enum class LegendPlace { None, Inside, Right, Below };

// A slanted roof as drawn: from where it enters the plot area to the top compute roof (or the
// area's edge); from == to when no part of it is in view.
struct RoofSegment {
  ImVec2 from, to;
  bool visible = false;
};

struct RooflineLayout {
  plot_detail::Frame frame;
  PlotStyle style;                           // as drawn: the x-axis title left out on a short plot
  std::vector<ReferenceLine> compute_lines;  // the compute roofs without labels (placed here instead)
  std::vector<RoofSegment> bandwidth;        // one per data.bandwidth
  std::vector<RooflineLabel> labels;
  LegendPlace legend = LegendPlace::None;
  std::vector<std::string> caption;  // the export's notes, wrapped, under the plot
  float caption_y = 0;
  float marker_radius = 4;  // the points' markers
  float ridge_radius = 5;   // the ridge points' diamonds
  bool too_small = false;   // no room for a readable plot: the view says so instead
};

// A label's backing reaches this far left and right of its text, and the caption's lines are
// this much further apart than the text is high (pixels at a 13 px font).
constexpr float kLabelMargin = 2.0f;
constexpr float kCaptionLeading = 2.0f;

// `with_frame_text`: the export (title, footer, the notes as a caption); the widget leaves those
// to the panel around it.
RooflineLayout layout_roofline(ImVec2 min, ImVec2 max, const RooflineData& data, ImFont* font, float font_px,
                               bool with_frame_text);

// The label rectangles of a layout's placed labels, the legend's rectangle (when it has one) and
// every visible point's screen position: what the tests check for overlaps.
std::vector<LabelBox> placed_label_boxes(const RooflineLayout& layout);
std::vector<ImVec2> point_positions(const RooflineLayout& layout, const RooflineData& data);

// The sentence a too small view shows instead of a plot.
constexpr const char* kRooflineTooSmall = "too little room to draw the Roofline: give the plot more height";

}  // namespace tilescope
