#include "plot/roofline_render.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "plot/plot_render.h"
#include "plot/plot_widget.h"

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

// Text on a translucent backing, so it stays readable across grid and lines.
void label(ImDrawList* dl, const Frame& f, ImVec2 pos, ImU32 col, const std::string& s) {
  const ImVec2 ts = text_size(f, s);
  const float m = 2.0f * f.ui;
  pos = ImVec2(std::floor(pos.x + 0.5f), std::floor(pos.y + 0.5f));
  dl->AddRectFilled(ImVec2(pos.x - m, pos.y), ImVec2(pos.x + ts.x + m, pos.y + ts.y), backing_color(), m);
  dl->AddText(f.font, f.font_px, pos, col, s.c_str(), s.c_str() + s.size());
}

// Keeps a label of size `ts` inside the plot area.
ImVec2 inside_area(const Frame& f, ImVec2 p, ImVec2 ts) {
  p.x = std::clamp(p.x, f.area_min.x + f.pad, std::max(f.area_min.x + f.pad, f.area_max.x - f.pad - ts.x));
  p.y = std::clamp(p.y, f.area_min.y + f.pad * 0.5f, std::max(f.area_min.y, f.area_max.y - f.pad * 0.5f - ts.y));
  return p;
}

// Text (on its backing) turned by `angle` radians about its left end's middle: ImGui has no
// rotated text, so the vertices the two calls added are turned in place.
void rotated_label(ImDrawList* dl, const Frame& f, ImVec2 pos, float angle, ImU32 col, const std::string& s) {
  const int first = dl->VtxBuffer.Size;
  label(dl, f, pos, col, s);
  const ImVec2 pivot(pos.x, pos.y + text_size(f, s).y * 0.5f);
  const float c = std::cos(angle), sn = std::sin(angle);
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& v = dl->VtxBuffer[i].pos;
    const float x = v.x - pivot.x, y = v.y - pivot.y;
    v = ImVec2(pivot.x + x * c - y * sn, pivot.y + x * sn + y * c);
  }
}

// The slanted bandwidth roofs, from the left edge to the top compute roof, each labelled along
// its line, just above it, near where it enters the plot.
void draw_bandwidth_roofs(ImDrawList* dl, const Frame& f, const RooflineData& d) {
  for (const BandwidthRoof& b : d.bandwidth) {
    const double x_end = d.top_compute > 0 ? std::min(f.x.hi, ridge_intensity(d.top_compute, b.gbps)) : f.x.hi;
    // Where the line enters the area: the left edge, or the bottom edge when it starts below it.
    const double x_start = std::max(f.x.lo, f.y.lo / b.gbps);
    if (!(x_end > x_start)) continue;
    const ImVec2 p0 = to_screen(f, x_start, b.gbps * x_start), p1 = to_screen(f, x_end, b.gbps * x_end);
    dl->AddLine(p0, p1, b.color, (b.primary ? 3.0f : 1.8f) * f.ui);
    const float angle = std::atan2(p1.y - p0.y, p1.x - p0.x);
    const float along = 0.08f * std::hypot(p1.x - p0.x, p1.y - p0.y) + f.pad;
    const float lift = text_size(f, b.label).y * 0.5f + 4.0f * f.ui;  // above the line, clear of its width
    const ImVec2 at(p0.x + along * std::cos(angle) + lift * std::sin(angle),
                    p0.y + along * std::sin(angle) - lift * std::cos(angle));
    rotated_label(dl, f, ImVec2(at.x, at.y - text_size(f, b.label).y * 0.5f), angle, b.color, b.label);
  }
  // The roof's flat part: the top compute roof right of the DRAM ridge, solid.
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
void draw_markers(ImDrawList* dl, const Frame& f, const RooflineData& d) {
  const float r = d.style.marker_radius * f.ui * 1.15f;
  const ImU32 outline = text_color();
  for (const PlotSeriesData& s : d.series) {
    if (!s.visible) continue;
    for (const PlotPoint& p : s.points) {
      const ImVec2 c = to_screen(f, p.x, p.y);
      if (!std::isfinite(c.x) || !std::isfinite(c.y)) continue;
      dl->AddCircleFilled(c, r, s.color, 16);
      dl->AddCircle(c, r, outline, 16, 0.8f * f.ui);
    }
  }
}

// Where the plot's renderer puts the label of a compute roof: right-aligned, just above its
// line (plot_render.cpp, draw_reference_lines).
struct Box {
  ImVec2 min, max;
};
std::vector<Box> compute_label_boxes(const Frame& f, const RooflineData& d) {
  std::vector<Box> boxes;
  for (const ReferenceLine& c : d.compute) {
    const float y = to_screen(f, f.x.lo, c.y).y;
    if (!std::isfinite(y)) continue;
    const ImVec2 ts = text_size(f, c.label);
    const ImVec2 mn(f.area_max.x - f.pad - ts.x - 2.0f * f.ui, y - ts.y - 2.0f * f.ui);
    boxes.push_back({mn, ImVec2(f.area_max.x, y)});
  }
  return boxes;
}

// Each ridge point: a diamond on the top compute roof, its intensity below it on a staggered
// row (ridges can sit close together on a log axis), joined by a thin leader; a row that
// would cover the label of a lower compute roof moves down past it.
void draw_ridges(ImDrawList* dl, const Frame& f, const RooflineData& d) {
  const float r = 5.0f * f.ui;
  const float row = f.font_px + 4.0f * f.ui;
  const std::vector<Box> taken = compute_label_boxes(f, d);
  float next_free = -FLT_MAX;  // rows only go down: the leaders must not cross
  for (std::size_t i = 0; i < d.ridges.size(); ++i) {
    const RidgePoint& p = d.ridges[i];
    const ImVec2 c = to_screen(f, p.intensity, p.gflops);
    if (!std::isfinite(c.x) || c.x < f.area_min.x || c.x > f.area_max.x) continue;
    dl->AddQuadFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), p.color);
    dl->AddQuad(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r), ImVec2(c.x - r, c.y), text_color(),
                f.ui);
    const ImVec2 ts = text_size(f, p.label);
    float ly = std::max(c.y + r + 4.0f * f.ui + static_cast<float>(i) * row, next_free);
    for (bool moved = true; moved;) {
      moved = false;
      const float lx =
          std::clamp(c.x + r, f.area_min.x + f.pad, std::max(f.area_min.x + f.pad, f.area_max.x - f.pad - ts.x));
      for (const Box& b : taken)
        if (lx < b.max.x && lx + ts.x > b.min.x && ly < b.max.y && ly + ts.y > b.min.y) {
          ly = b.max.y + 2.0f * f.ui;
          moved = true;
        }
    }
    next_free = ly + row;
    const ImVec2 at = inside_area(f, ImVec2(c.x + r, ly), ts);
    dl->AddLine(ImVec2(c.x, c.y + r), ImVec2(c.x, at.y + ts.y * 0.5f), p.color, f.ui);
    dl->AddLine(ImVec2(c.x, at.y + ts.y * 0.5f), ImVec2(at.x, at.y + ts.y * 0.5f), p.color, f.ui);
    label(dl, f, at, p.color, p.label);
  }
}

// Words of `text` in lines no wider than `width` (a word longer than that gets a line of its own).
std::vector<std::string> wrap(const Frame& f, const std::string& text, float width) {
  std::vector<std::string> lines;
  std::string line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    const std::string joined = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_size(f, joined).x > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = joined;
    }
    word.clear();
  };
  for (char c : text) {
    if (c == ' ')
      flush_word();
    else
      word += c;
  }
  flush_word();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// The notes, bottom right in the area (under the compute roof, right of the points as a rule),
// wrapped to at most two thirds of its width.
void draw_notes(ImDrawList* dl, const Frame& f, const RooflineData& d) {
  const float width = (f.area_max.x - f.area_min.x) * 0.66f;
  std::vector<std::string> lines;
  for (const std::string& note : d.notes)
    for (std::string& l : wrap(f, note, width)) lines.push_back(std::move(l));
  float y = f.area_max.y - f.pad;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const ImVec2 ts = text_size(f, *it);
    y -= ts.y + 2.0f * f.ui;
    label(dl, f, ImVec2(std::max(f.area_min.x + f.pad, f.area_max.x - f.pad - ts.x), y), text_color(), *it);
  }
}

// `notes`: draw the notes in the plot (the export); the widget leaves them to the panel, where
// they cannot collide with a legend placed inside a narrow plot.
void draw_overlay(ImDrawList* dl, const Frame& f, const RooflineData& d, bool notes) {
  dl->PushClipRect(f.area_min, f.area_max, true);
  draw_bandwidth_roofs(dl, f, d);
  draw_markers(dl, f, d);
  draw_ridges(dl, f, d);
  if (notes) draw_notes(dl, f, d);
  dl->PopClipRect();
}

bool inside(ImVec2 p, ImVec2 mn, ImVec2 mx) {
  return p.x >= mn.x && p.x <= mx.x && p.y >= mn.y && p.y <= mx.y;
}

}  // namespace

void roofline_widget(const char* id, RooflineData& data, ImVec2 size) {
  ImGui::PushID(id);
  size = plot_widget_size(size);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton("##roofline", size);
  const bool hovered = ImGui::IsItemHovered();

  const Frame f = plot_detail::layout_plot(p0, p1, data.style, data.series, data.compute, data.x, data.y,
                                           ImGui::GetFont(), ImGui::GetFontSize(), false);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  Highlight hl;
  for (const auto& e : f.legend.entries)
    if (hovered && inside(mouse, e.min, e.max)) hl.legend_hovered = e.series;
  if (hl.legend_hovered >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
    data.series[hl.legend_hovered].visible = !data.series[hl.legend_hovered].visible;
  const bool over_legend = !f.legend.entries.empty() && inside(mouse, f.legend.min, f.legend.max);
  if (hovered && !over_legend && inside(mouse, f.area_min, f.area_max)) {
    const double radius = std::max(8.0, 2.5 * data.style.marker_radius * f.ui);
    hl.hit = hit_test(data.series, f.x, f.y, f.area_max.x - f.area_min.x, f.area_max.y - f.area_min.y,
                      mouse.x - f.area_min.x, mouse.y - f.area_min.y, radius);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  plot_detail::render_plot(dl, f, data.style, data.series, data.compute, hl, false);
  draw_overlay(dl, f, data, false);
  if (hl.hit.series >= 0) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(data.series[hl.hit.series].label.c_str());
    ImGui::Separator();
    const std::string text = roofline_tooltip(data, hl.hit.series, hl.hit.point);
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    ImGui::EndTooltip();
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
  const Frame f = plot_detail::layout_plot(min, max, data.style, data.series, data.compute, data.x, data.y, font,
                                           base * scale, true);
  plot_detail::render_plot(draw_list, f, data.style, data.series, data.compute, Highlight{}, true);
  draw_overlay(draw_list, f, data, true);
}

}  // namespace tilescope
