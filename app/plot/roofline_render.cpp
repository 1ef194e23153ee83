#include "app/plot/roofline_render.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "app/plot/plot_render.h"
#include "app/plot/plot_widget.h"
#include "app/plot/roofline_layout.h"

namespace tilescope {

using plot_detail::Frame;
using plot_detail::Highlight;
using plot_detail::to_screen;

namespace {

ImU32 text_color() {
  const ImVec4 c = ImGui::GetStyle().Colors[ImGuiCol_Text];
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, 1.0f));
}

ImU32 backing_color() {
  const ImVec4 c = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, 0.85f));
}

ImVec2 text_size(const Frame& f, const std::string& s) {
  return f.font->CalcTextSizeA(f.font_px, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

// A placed label on its backing, turned with its box (ImGui has no rotated text, so the
// vertices the two calls added are turned in place about the box's centre), with a thin leader
// back to what it names when it stands far from it.
void draw_label(ImDrawList* dl, const Frame& f, const RooflineLabel& l) {
  if (!l.place.placed) return;
  const LabelBox& b = l.place.box;
  const ImU32 col = l.color ? l.color : text_color();
  if (l.place.leader) {
    dl->AddLine(l.place.leader_from, l.place.leader_to, col, f.ui);
    dl->AddCircleFilled(l.place.leader_from, 2.0f * f.ui, col, 8);
  }
  const int first = dl->VtxBuffer.Size;
  const ImVec2 top_left(b.center.x - b.half.x, b.center.y - b.half.y);
  dl->AddRectFilled(top_left, ImVec2(b.center.x + b.half.x, b.center.y + b.half.y), backing_color(), 2.0f * f.ui);
  dl->AddText(f.font, f.font_px, ImVec2(top_left.x + kLabelMargin * f.ui, top_left.y), col, l.text.c_str(),
              l.text.c_str() + l.text.size());
  if (b.angle == 0) return;
  const float c = std::cos(b.angle), sn = std::sin(b.angle);
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& v = dl->VtxBuffer[i].pos;
    const float x = v.x - b.center.x, y = v.y - b.center.y;
    v = ImVec2(b.center.x + x * c - y * sn, b.center.y + x * sn + y * c);
  }
}

// The slanted bandwidth roofs, from where they enter the plot to the top compute roof, then the
// roof's flat part: the top compute roof right of the DRAM ridge, solid.
void draw_bandwidth_roofs(ImDrawList* dl, const RooflineLayout& l, const RooflineData& d) {
  const Frame& f = l.frame;
  for (std::size_t i = 0; i < d.bandwidth.size() && i < l.bandwidth.size(); ++i)
    if (l.bandwidth[i].visible)
      dl->AddLine(l.bandwidth[i].from, l.bandwidth[i].to, d.bandwidth[i].color,
                  (d.bandwidth[i].primary ? 3.0f : 1.8f) * f.ui);
  if (d.top_compute > 0 && !d.bandwidth.empty()) {
    const double ridge = ridge_intensity(d.top_compute, d.bandwidth.front().gbps);
    if (ridge < f.x.hi) {
      const ImVec2 p0 = to_screen(f, std::max(ridge, f.x.lo), d.top_compute), p1 = to_screen(f, f.x.hi, d.top_compute);
      const unsigned col = d.compute.empty() ? text_color() : d.compute.front().color;
      dl->AddLine(p0, p1, col, 3.0f * f.ui);
    }
  }
}

// Every visible point as a marker with an outline, however close a series' points sit: on a
// roofline a configuration's sizes often share an intensity (the timing plot's renderer drops
// markers that crowd together, and would leave a bare line).
void draw_markers(ImDrawList* dl, const RooflineLayout& l, const RooflineData& d) {
  const Frame& f = l.frame;
  const ImU32 outline = text_color();
  for (const PlotSeriesData& s : d.series) {
    if (!s.visible) continue;
    for (const PlotPoint& p : s.points) {
      const ImVec2 c = to_screen(f, p.x, p.y);
      if (!std::isfinite(c.x) || !std::isfinite(c.y)) continue;
      dl->AddCircleFilled(c, l.marker_radius, s.color, 16);
      dl->AddCircle(c, l.marker_radius, outline, 16, 0.8f * f.ui);
    }
  }
}

// Each ridge point: a diamond on the top compute roof (its label is placed with the others).
void draw_ridges(ImDrawList* dl, const RooflineLayout& l, const RooflineData& d) {
  const Frame& f = l.frame;
  const float r = l.ridge_radius;
  for (const RidgePoint& p : d.ridges) {
    const ImVec2 c = to_screen(f, p.intensity, p.gflops);
    if (!std::isfinite(c.x) || c.x < f.area_min.x || c.x > f.area_max.x) continue;
    dl->AddQuadFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), p.color);
    dl->AddQuad(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), text_color(),
                f.ui);
  }
}

// The export's notes under the plot, left-aligned.
void draw_caption(ImDrawList* dl, const RooflineLayout& l) {
  const Frame& f = l.frame;
  float y = l.caption_y;
  for (const std::string& line : l.caption) {
    dl->AddText(f.font, f.font_px, ImVec2(std::floor(f.min.x + f.pad + 0.5f), std::floor(y + 0.5f)), text_color(),
                line.c_str(), line.c_str() + line.size());
    y += f.font_px + kCaptionLeading * f.ui;
  }
}

// A rectangle too small for a plot says so, rather than drawing one nobody can read.
void draw_too_small(ImDrawList* dl, const Frame& f, bool fill_background) {
  dl->PushClipRect(f.min, f.max, true);
  if (fill_background) dl->AddRectFilled(f.min, f.max, ImGui::GetColorU32(ImGuiCol_WindowBg, 1.0f));
  const std::string msg = kRooflineTooSmall;
  const ImVec2 ts = text_size(f, msg);
  dl->AddText(f.font, f.font_px,
              ImVec2(std::floor(std::max(f.min.x, (f.min.x + f.max.x - ts.x) * 0.5f)),
                     std::floor((f.min.y + f.max.y - ts.y) * 0.5f)),
              text_color(), msg.c_str(), msg.c_str() + msg.size());
  dl->PopClipRect();
}

// The whole view from its layout: the plot's frame with the compute roofs as dashed lines, then
// the bandwidth roofs, the points, the ridge points and every placed label on top.
void draw_layout(ImDrawList* dl, const RooflineLayout& l, const RooflineData& d, const Highlight& hl,
                 bool fill_background) {
  const Frame& f = l.frame;
  if (l.too_small) {
    draw_too_small(dl, f, fill_background);
    return;
  }
  plot_detail::render_plot(dl, f, l.style, d.series, l.compute_lines, hl, fill_background);
  dl->PushClipRect(f.area_min, f.area_max, true);
  draw_bandwidth_roofs(dl, l, d);
  draw_markers(dl, l, d);
  draw_ridges(dl, l, d);
  for (const RooflineLabel& label : l.labels) draw_label(dl, f, label);
  dl->PopClipRect();
  dl->PushClipRect(f.min, f.max, true);
  draw_caption(dl, l);
  dl->PopClipRect();
}

bool inside(ImVec2 p, ImVec2 mn, ImVec2 mx) {
  return p.x >= mn.x && p.x <= mx.x && p.y >= mn.y && p.y <= mx.y;
}

float distance_to_segment(ImVec2 p, ImVec2 a, ImVec2 b) {
  const float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const float t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0f, 1.0f) : 0.0f;
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// The roof under the mouse (on its line or its label), with what kind of roof it is; "" for none.
std::string roof_under(const RooflineLayout& l, const RooflineData& d, ImVec2 mouse) {
  const Frame& f = l.frame;
  const float near = 4.0f * f.ui;
  const LabelBox at_mouse{mouse, ImVec2(0, 0), 0};
  auto on_label = [&](RooflineLabel::Kind kind, std::size_t i) {
    for (const RooflineLabel& label : l.labels)
      if (label.kind == kind && label.index == static_cast<int>(i) && label.place.placed &&
          boxes_overlap(label.place.box, at_mouse))
        return true;
    return false;
  };
  for (std::size_t i = 0; i < d.compute.size(); ++i) {
    const float y = to_screen(f, f.x.lo, d.compute[i].y).y;
    if ((std::isfinite(y) && std::fabs(mouse.y - y) <= near) || on_label(RooflineLabel::Kind::ComputeRoof, i))
      return d.compute[i].label +
             "\ncompute roof: no kernel of this arithmetic goes faster, whatever its FLOP per byte";
  }
  for (std::size_t i = 0; i < d.bandwidth.size() && i < l.bandwidth.size(); ++i) {
    const RoofSegment& s = l.bandwidth[i];
    if ((s.visible && distance_to_segment(mouse, s.from, s.to) <= near) ||
        on_label(RooflineLabel::Kind::BandwidthRoof, i))
      return d.bandwidth[i].label + "\nbandwidth roof: at most these bytes per second times a kernel's FLOP per byte";
  }
  return "";
}

}  // namespace

void roofline_widget(const char* id, RooflineData& data, ImVec2 size) {
  ImGui::PushID(id);
  size = plot_widget_size(size);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton("##roofline", size);
  const bool hovered = ImGui::IsItemHovered();

  const RooflineLayout l = layout_roofline(p0, p1, data, ImGui::GetFont(), ImGui::GetFontSize(), false);
  const Frame& f = l.frame;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  Highlight hl;
  for (const auto& e : f.legend.entries)
    if (hovered && inside(mouse, e.min, e.max)) hl.legend_hovered = e.series;
  if (hl.legend_hovered >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    data.series[hl.legend_hovered].visible = !data.series[hl.legend_hovered].visible;
  const bool over_legend = !f.legend.entries.empty() && inside(mouse, f.legend.min, f.legend.max);
  const bool over_area = hovered && !over_legend && !l.too_small && inside(mouse, f.area_min, f.area_max);
  if (over_area) {
    const double radius = std::max(8.0, 2.5 * data.style.marker_radius * f.ui);
    hl.hit = hit_test(data.series, f.x, f.y, f.area_max.x - f.area_min.x, f.area_max.y - f.area_min.y,
                      mouse.x - f.area_min.x, mouse.y - f.area_min.y, radius);
  }
  draw_layout(ImGui::GetWindowDrawList(), l, data, hl, false);
  if (hl.hit.series >= 0) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(data.series[hl.hit.series].label.c_str());
    ImGui::Separator();
    const std::string text = roofline_tooltip(data, hl.hit.series, hl.hit.point);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::EndTooltip();
  } else if (over_area) {
    // A roof under the mouse is named, its label placed or not (a small plot has no room for all).
    const std::string roof = roof_under(l, data, mouse);
    if (!roof.empty()) ImGui::SetTooltip("%s", roof.c_str());
  }
  ImGui::PopID();
}

void draw_roofline(ImDrawList* draw_list, ImVec2 min, ImVec2 max, const RooflineData& data, float scale) {
  if (!draw_list || !ImGui::GetCurrentContext()) return;
  ImFont* font = ImGui::GetFont();
  if (!font) return;
  if (!(scale > 0)) scale = 1;
  float base = data.style.font_size > 0 ? data.style.font_size : ImGui::GetFontSize();
  if (!(base > 0)) base = font->FontSize;
  draw_layout(draw_list, layout_roofline(min, max, data, font, base * scale, true), data, Highlight{}, true);
}

}  // namespace tilescope
