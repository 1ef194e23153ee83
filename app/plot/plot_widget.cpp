// The interactive timing plot (legend toggling, hover tooltip, wheel zoom, drag pan, double-click
// to auto-fit) and its non-interactive twin for the PNG export. Drawing lives in plot_render.cpp.
#include "app/plot/plot_widget.h"

#include <imgui_internal.h>  // SetItemUsingMouseWheel: keep the wheel from scrolling the panel

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/plot/plot_render.h"

namespace tilescope {

using plot_detail::axis_usable;
using plot_detail::Frame;
using plot_detail::Highlight;

namespace {

// Zoom and pan stop short of spans that doubles (or the labels) cannot resolve.
bool range_sane(const Axis& a) {
  if (!axis_usable(a)) return false;
  if (a.scale == AxisScale::Linear) {
    const double m = std::max({std::fabs(a.lo), std::fabs(a.hi), 1e-300});
    return a.hi - a.lo > m * 1e-9 && a.hi - a.lo < 1e300;
  }
  const double octaves = std::log2(a.hi / a.lo);
  return octaves > 1e-6 && octaves < 2000 && a.lo > 1e-300 && a.hi < 1e300;
}

// The axis after showing unit range [u0, u1] of the old one (zoom and pan both reduce to this).
Axis remap(const Axis& a, double u0, double u1) {
  Axis r = a;
  r.lo = a.from_unit(u0);
  r.hi = a.from_unit(u1);
  return r;
}

std::string exact(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

bool inside(ImVec2 p, ImVec2 mn, ImVec2 mx) {
  return p.x >= mn.x && p.x <= mx.x && p.y >= mn.y && p.y <= mx.y;
}

void tooltip_for(const PlotStyle& style, const std::vector<PlotSeriesData>& series, const Hit& hit, PlotTooltipFn fn,
                 const void* user) {
  const auto& s = series[hit.series];
  const auto& p = s.points[hit.point];
  ImGui::BeginTooltip();
  const float sw = ImGui::GetFontSize();
  ImGui::ColorButton("##swatch", ImGui::ColorConvertU32ToFloat4(s.color),
                     ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker | ImGuiColorEditFlags_NoDragDrop,
                     ImVec2(sw, sw));
  ImGui::SameLine();
  ImGui::TextUnformatted(s.label.c_str());
  const std::string xs = exact(p.x), ys = exact(p.y);
  ImGui::Text("%s: %s", style.x_label.empty() ? "x" : style.x_label.c_str(), xs.c_str());
  ImGui::Text("%s: %s", style.y_label.empty() ? "y" : style.y_label.c_str(), ys.c_str());
  if (fn) {
    const std::string extra = fn(hit.series, hit.point, user);
    if (!extra.empty()) {
      ImGui::Separator();
      ImGui::TextUnformatted(extra.c_str(), extra.c_str() + extra.size());
    }
  }
  ImGui::EndTooltip();
}

}  // namespace

Axis fit_axis(const PlotStyle& style, const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs,
              bool y_axis) {
  Axis a = auto_fit(series, refs, y_axis, y_axis ? style.y_scale : style.x_scale);
  if (y_axis && style.y_from_zero && a.scale == AxisScale::Linear && a.lo > 0) a.lo = 0;
  return a;
}

unsigned series_color(int i) {
  static const ImU32 colors[] = {
      // Okabe & Ito (2008), the colour-blind-safe set, black left out (it is the text colour).
      IM_COL32(0xE6, 0x9F, 0x00, 0xFF),  // orange
      IM_COL32(0x56, 0xB4, 0xE9, 0xFF),  // sky blue
      IM_COL32(0x00, 0x9E, 0x73, 0xFF),  // bluish green
      IM_COL32(0xF0, 0xE4, 0x42, 0xFF),  // yellow
      IM_COL32(0x00, 0x72, 0xB2, 0xFF),  // blue
      IM_COL32(0xD5, 0x5E, 0x00, 0xFF),  // vermillion
      IM_COL32(0xCC, 0x79, 0xA7, 0xFF),  // reddish purple
      // Then Paul Tol's muted scheme, for histories with more variants than that.
      IM_COL32(0x88, 0x22, 0x55, 0xFF),  // wine
      IM_COL32(0x44, 0xAA, 0x99, 0xFF),  // teal
      IM_COL32(0x99, 0x99, 0x33, 0xFF),  // olive
      IM_COL32(0xAA, 0x44, 0x99, 0xFF),  // purple
      IM_COL32(0x33, 0x22, 0x88, 0xFF),  // indigo
      IM_COL32(0x88, 0xCC, 0xEE, 0xFF),  // cyan
      IM_COL32(0xDD, 0xCC, 0x77, 0xFF),  // sand
      IM_COL32(0x11, 0x77, 0x33, 0xFF),  // green
  };
  constexpr int n = static_cast<int>(sizeof colors / sizeof colors[0]);
  if (i < 0) i = 0;
  return colors[i % n];
}

namespace {

bool over_legend(const Frame& f, ImVec2 p) {
  return !f.legend.entries.empty() && inside(p, f.legend.min, f.legend.max);
}

// A scale toggled while zoomed (say linear -> log with lo <= 0) cannot keep its range.
void refit_if_needed(PlotView& view, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                     const std::vector<ReferenceLine>& refs) {
  if (view.auto_fit || view.x.scale != style.x_scale || !range_sane(view.x))
    view.x = fit_axis(style, series, refs, false);
  if (view.auto_fit || view.y.scale != style.y_scale || !range_sane(view.y))
    view.y = fit_axis(style, series, refs, true);
}

// Marks the legend row under the mouse; a click on it shows or hides its series. True if toggled.
bool handle_legend(const Frame& f, bool hovered, ImVec2 mouse, std::vector<PlotSeriesData>& series, Highlight* hl) {
  for (const auto& e : f.legend.entries)
    if (hovered && inside(mouse, e.min, e.max)) hl->legend_hovered = e.series;
  if (hl->legend_hovered >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    series[hl->legend_hovered].visible = !series[hl->legend_hovered].visible;
    return true;
  }
  return false;
}

// Double-click fits both axes again; the wheel zooms x about the point under the mouse.
// True if the range changed.
bool handle_fit_and_zoom(const Frame& f, ImVec2 mouse, const PlotStyle& style,
                         const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs,
                         PlotView& view) {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    view.auto_fit = true;
    view.x = fit_axis(style, series, refs, false);
    view.y = fit_axis(style, series, refs, true);
    return true;
  }
  if (io.MouseWheel != 0) {
    // Wheel up zooms in, about the point under the mouse, which stays put.
    const double u = (mouse.x - f.area_min.x) / (f.area_max.x - f.area_min.x);
    const double k = std::pow(0.8, static_cast<double>(io.MouseWheel));
    const Axis nx = remap(view.x, u - u * k, u + (1 - u) * k);
    if (range_sane(nx)) {
      view.x = nx;
      view.auto_fit = false;
      return true;
    }
  }
  return false;
}

// Drag pans both axes, as long as the drag started in the plot area (not on the legend).
// *dragging: a drag is under way; returns true if the range changed.
bool handle_drag_pan(const Frame& f, bool active, PlotView& view, bool* dragging) {
  const ImVec2 press = ImGui::GetIO().MouseClickedPos[ImGuiMouseButton_Left];
  const bool drag_from_area = inside(press, f.area_min, f.area_max) && !over_legend(f, press);
  *dragging = active && drag_from_area && ImGui::IsMouseDragging(ImGuiMouseButton_Left);
  if (!*dragging) return false;
  const ImVec2 d = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left);
  ImGui::ResetMouseDragDelta(ImGuiMouseButton_Left);
  const double du = -d.x / (f.area_max.x - f.area_min.x), dv = d.y / (f.area_max.y - f.area_min.y);
  const Axis nx = remap(view.x, du, 1 + du), ny = remap(view.y, dv, 1 + dv);
  if ((d.x != 0 || d.y != 0) && range_sane(nx) && range_sane(ny)) {
    view.x = nx;
    view.y = ny;
    view.auto_fit = false;
    return true;
  }
  return false;
}

}  // namespace

ImVec2 plot_widget_size(ImVec2 size) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  size.x = std::max(size.x, 8.0f * ImGui::GetFontSize());
  size.y = std::max(size.y, 5.0f * ImGui::GetFontSize());
  return size;
}

bool plot_widget(const char* id, const PlotStyle& style, std::vector<PlotSeriesData>& series,
                 const std::vector<ReferenceLine>& refs, PlotView& view, ImVec2 size, PlotTooltipFn tooltip,
                 const void* tooltip_user) {
  ImGui::PushID(id);
  size = plot_widget_size(size);

  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton("##plot", size);
  ImGui::SetItemUsingMouseWheel();
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();

  refit_if_needed(view, style, series, refs);
  Frame f = plot_detail::layout_plot(p0, p1, style, series, refs, view.x, view.y, ImGui::GetFont(),
                                     ImGui::GetFontSize(), false);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float aw = f.area_max.x - f.area_min.x, ah = f.area_max.y - f.area_min.y;  // before any re-layout

  Highlight hl;
  const bool toggled = handle_legend(f, hovered, mouse, series, &hl);
  const bool in_area = hovered && !over_legend(f, mouse) && inside(mouse, f.area_min, f.area_max);
  bool range_changed = in_area && handle_fit_and_zoom(f, mouse, style, series, refs, view);
  bool dragging = false;
  range_changed = handle_drag_pan(f, active, view, &dragging) || range_changed;
  if (range_changed) {
    f = plot_detail::layout_plot(p0, p1, style, series, refs, view.x, view.y, ImGui::GetFont(), ImGui::GetFontSize(),
                                 false);
  }

  if (in_area && !dragging) {
    const double radius = std::max(8.0, 2.5 * style.marker_radius * f.ui);
    hl.hit = hit_test(series, f.x, f.y, aw, ah, mouse.x - f.area_min.x, mouse.y - f.area_min.y, radius);
  }
  plot_detail::render_plot(ImGui::GetWindowDrawList(), f, style, series, refs, hl, false);
  if (hl.hit.series >= 0) tooltip_for(style, series, hl.hit, tooltip, tooltip_user);
  ImGui::PopID();
  return toggled;
}

void draw_plot(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const PlotStyle& style,
               const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs, const Axis& x,
               const Axis& y, float scale) {
  if (!draw_list || !ImGui::GetCurrentContext()) return;
  ImFont* font = ImGui::GetFont();
  if (!font && ImGui::GetIO().Fonts && !ImGui::GetIO().Fonts->Fonts.empty()) font = ImGui::GetIO().Fonts->Fonts[0];
  if (!font) return;
  if (!(scale > 0)) scale = 1;
  float base = style.font_size > 0 ? style.font_size : ImGui::GetFontSize();
  if (!(base > 0)) base = font->FontSize;
  // Unusable ranges (a log axis with lo <= 0, say) fall back to fitting the data.
  const Axis xa = axis_usable(x) && x.scale == style.x_scale ? x : fit_axis(style, series, refs, false);
  const Axis ya = axis_usable(y) && y.scale == style.y_scale ? y : fit_axis(style, series, refs, true);
  const Frame f = plot_detail::layout_plot(min, max, style, series, refs, xa, ya, font, base * scale, true);
  plot_detail::render_plot(draw_list, f, style, series, refs, Highlight{}, true);
}

}  // namespace tilescope
