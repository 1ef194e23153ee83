#include "app/plot/roofline_layout.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace tilescope {

using plot_detail::Frame;
using plot_detail::to_screen;

namespace {

ImVec2 text_size(const Frame& f, const std::string& s) {
  return f.font->CalcTextSizeA(f.font_px, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

// A label's box: its text with the backing's margin left and right.
ImVec2 label_size(const Frame& f, const std::string& s) {
  const ImVec2 ts = text_size(f, s);
  return ImVec2(ts.x + 2.0f * kLabelMargin * f.ui, ts.y);
}

float area_width(const Frame& f) {
  return f.area_max.x - f.area_min.x;
}

float area_height(const Frame& f) {
  return f.area_max.y - f.area_min.y;
}

bool finite(ImVec2 p) {
  return std::isfinite(p.x) && std::isfinite(p.y);
}

LabelBox box_at(ImVec2 center, ImVec2 size, float angle = 0) {
  LabelBox b;
  b.center = center;
  b.half = ImVec2(size.x * 0.5f, size.y * 0.5f);
  b.angle = angle;
  return b;
}

Rect square_around(ImVec2 c, float r) {
  return Rect{ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r)};
}

// Whether the segment a-b passes through `r` (Liang-Barsky clipping).
bool segment_hits_rect(ImVec2 a, ImVec2 b, const Rect& r) {
  float t0 = 0, t1 = 1;
  auto clip = [&](float p, float q) {
    if (p == 0) return q >= 0;
    const float t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      t0 = std::max(t0, t);
    } else {
      if (t < t0) return false;
      t1 = std::min(t1, t);
    }
    return true;
  };
  const float dx = b.x - a.x, dy = b.y - a.y;
  return clip(-dx, a.x - r.min.x) && clip(dx, r.max.x - a.x) && clip(-dy, a.y - r.min.y) && clip(dy, r.max.y - a.y);
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

// A slanted roof from where it enters the area (the left or bottom edge) to the top compute roof,
// or to where it leaves the area (the right or top edge) when there is none.
RoofSegment bandwidth_segment(const Frame& f, const RooflineData& d, const BandwidthRoof& b) {
  RoofSegment s;
  if (!(b.gbps > 0)) return s;
  double x_end = d.top_compute > 0 ? std::min(f.x.hi, ridge_intensity(d.top_compute, b.gbps)) : f.x.hi;
  x_end = std::min(x_end, f.y.hi / b.gbps);
  const double x_start = std::max(f.x.lo, f.y.lo / b.gbps);
  if (!(x_end > x_start)) return s;
  s.from = to_screen(f, x_start, b.gbps * x_start);
  s.to = to_screen(f, x_end, b.gbps * x_end);
  s.visible = finite(s.from) && finite(s.to);
  return s;
}

// Where a plot with nothing visible says so (plot_render: the middle of the area, one line).
Rect empty_message_rect(const Frame& f) {
  const ImVec2 c((f.area_min.x + f.area_max.x) * 0.5f, (f.area_min.y + f.area_max.y) * 0.5f);
  const float half_w = std::min(area_width(f) * 0.5f, 14.0f * f.font_px), half_h = f.font_px;
  return Rect{ImVec2(c.x - half_w, c.y - half_h), ImVec2(c.x + half_w, c.y + half_h)};
}

std::vector<ImVec2> points_on_screen(const Frame& f, const RooflineData& d, bool hidden_too) {
  std::vector<ImVec2> out;
  for (const PlotSeriesData& s : d.series) {
    if (!s.visible && !hidden_too) continue;
    for (const PlotPoint& p : s.points) {
      const ImVec2 c = to_screen(f, p.x, p.y);
      if (finite(c)) out.push_back(c);
    }
  }
  return out;
}

bool any_visible_point(const RooflineData& d) {
  for (const PlotSeriesData& s : d.series)
    if (s.visible && !s.points.empty()) return true;
  return false;
}

// A legend of `columns` entries a row, at most `rows` rows, its top left corner at `top_left`.
plot_detail::Legend legend_grid(const Frame& f, const std::vector<PlotSeriesData>& series, ImVec2 top_left, int columns,
                                int rows) {
  plot_detail::Legend lg;
  const float row_h = plot_detail::legend_row_height(f), box_w = plot_detail::legend_box_width(f, series);
  const int n = std::min(static_cast<int>(series.size()), columns * rows);
  if (n <= 0) return lg;
  const int used_columns = std::min(columns, n), used_rows = (n + columns - 1) / columns;
  lg.min = top_left;
  lg.max = ImVec2(top_left.x + used_columns * box_w, top_left.y + used_rows * row_h + f.pad);
  for (int i = 0; i < n; ++i) {
    plot_detail::LegendEntry e;
    e.series = i;
    e.min = ImVec2(top_left.x + (i % columns) * box_w, top_left.y + f.pad * 0.5f + (i / columns) * row_h);
    e.max = ImVec2(e.min.x + box_w, e.min.y + row_h);
    lg.entries.push_back(e);
  }
  return lg;
}

// A corner for the legend covers no point (hidden series counted too, so a click on an entry
// never moves the legend from under the mouse), no ridge point, no roof and no placed label.
bool corner_is_free(const Rect& box, const Frame& f, const RooflineData& d, const RooflineLayout& l) {
  const Rect grown{ImVec2(box.min.x - f.pad * 0.5f, box.min.y - f.pad * 0.5f),
                   ImVec2(box.max.x + f.pad * 0.5f, box.max.y + f.pad * 0.5f)};
  for (const ImVec2& p : points_on_screen(f, d, true))
    if (boxes_overlap(box_of(grown), box_of(square_around(p, l.marker_radius)))) return false;
  for (const RidgePoint& r : d.ridges) {
    const ImVec2 c = to_screen(f, r.intensity, r.gflops);
    if (finite(c) && boxes_overlap(box_of(grown), box_of(square_around(c, l.ridge_radius)))) return false;
  }
  for (const ReferenceLine& c : d.compute) {
    const float y = to_screen(f, f.x.lo, c.y).y;
    if (std::isfinite(y) && y >= grown.min.y && y <= grown.max.y) return false;
  }
  for (const RoofSegment& s : l.bandwidth)
    if (s.visible && segment_hits_rect(s.from, s.to, grown)) return false;
  if (!any_visible_point(d) && boxes_overlap(box_of(grown), box_of(empty_message_rect(f)))) return false;
  for (const RooflineLabel& label : l.labels)
    if (label.place.placed && boxes_overlap(box_of(grown), label.place.box)) return false;
  return true;
}

// Labelled y ticks at least a text line apart, from the bottom up: a short plot keeps every other
// decade's label (or fewer) instead of printing them over each other.
void thin_y_labels(Frame& f) {
  float last = FLT_MAX;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < f.y_ticks.size(); ++i)
    if (f.y_ticks[i].major && !f.y_ticks[i].label.empty()) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return f.y_ticks[a].value < f.y_ticks[b].value; });
  for (std::size_t i : order) {
    const float y = to_screen(f, f.x.lo, f.y_ticks[i].value).y;
    if (!std::isfinite(y)) continue;
    if (last - y < f.font_px * 1.15f)
      f.y_ticks[i].label.clear();
    else
      last = y;
  }
}

// ---- the labels' wanted places ------------------------------------------------------------------

// A compute roof's label: just above its line at the right end (where the roof is the roof), then
// further left along the line, then the same below it (anywhere along the line names it); then,
// with a leader, a row further away each time at the right end: above the top roof, below the
// others, so labels of roofs too close together stack in the order of their lines.
LabelRequest compute_label(const Frame& f, float y, ImVec2 size, bool top) {
  LabelRequest r;
  r.names_from = ImVec2(f.area_min.x, y);
  r.names_to = ImVec2(f.area_max.x, y);
  r.leader_after = size.y;
  const float half_w = size.x * 0.5f, half_h = size.y * 0.5f;
  const float right = f.area_max.x - f.pad - half_w, step = std::max(half_w, 8.0f * f.ui);
  for (const float side : {-1.0f, 1.0f})
    for (float cx = right; cx - half_w >= f.area_min.x + f.pad * 0.5f; cx -= step)
      r.wanted.push_back(box_at(ImVec2(cx, y + side * (2.0f * f.ui + half_h)), size));
  const float away = top ? -1.0f : 1.0f;
  for (int k = 1; k <= 3; ++k)
    r.wanted.push_back(box_at(ImVec2(right, y + away * (2.0f * f.ui + half_h + k * (size.y + 2.0f * f.ui))), size));
  return r;
}

// A bandwidth roof's label: along its line, just above it, near where it enters the plot, then
// further along, then the same below the line.
LabelRequest bandwidth_label(const Frame& f, const RoofSegment& s, ImVec2 size, bool primary) {
  LabelRequest r;
  r.names_from = s.from;
  r.names_to = s.to;
  r.leader_after = size.y * 1.2f;
  const float dx = s.to.x - s.from.x, dy = s.to.y - s.from.y, len = std::hypot(dx, dy);
  if (!(len > 0)) return r;
  const ImVec2 along(dx / len, dy / len), up(along.y, -along.x);
  const float angle = std::atan2(along.y, along.x);
  const float lift = size.y * 0.5f + (primary ? 3.0f : 2.0f) * f.ui;  // clear of the line's width
  for (const float side : {1.0f, -1.0f})
    for (const float t : {0.08f, 0.2f, 0.32f, 0.44f, 0.56f, 0.68f, 0.8f}) {
      const float at = t * len + f.pad + size.x * 0.5f;
      r.wanted.push_back(
          box_at(ImVec2(s.from.x + along.x * at + up.x * lift * side, s.from.y + along.y * at + up.y * lift * side),
                 size, angle));
    }
  return r;
}

// A ridge point's label: under the diamond to the right, then to the left, a row lower each
// time, then above it.
LabelRequest ridge_label(const Frame& f, ImVec2 c, float radius, ImVec2 size) {
  LabelRequest r;
  r.names_from = r.names_to = c;
  r.leader_after = 2.0f * radius + 2.0f * f.ui;
  const float row = size.y + 2.0f * f.ui, gap = radius + 4.0f * f.ui;
  const float right = c.x + radius + size.x * 0.5f, left = c.x - radius - size.x * 0.5f;
  for (int k = 0; k < 4; ++k)
    for (const float cx : {right, left})
      r.wanted.push_back(box_at(ImVec2(cx, c.y + gap + size.y * 0.5f + k * row), size));
  for (int k = 0; k < 2; ++k)
    for (const float cx : {right, left})
      r.wanted.push_back(box_at(ImVec2(cx, c.y - gap - size.y * 0.5f - k * row), size));
  return r;
}

// The line that says why there are no roofs: in a corner of the area, the top ones first.
LabelRequest corner_label(const Frame& f, ImVec2 size) {
  LabelRequest r;
  r.leader_after = FLT_MAX;
  const float l = f.area_min.x + f.pad + size.x * 0.5f, rt = f.area_max.x - f.pad - size.x * 0.5f;
  const float t = f.area_min.y + f.pad + size.y * 0.5f, b = f.area_max.y - f.pad - size.y * 0.5f;
  for (const ImVec2 c : {ImVec2(l, t), ImVec2(rt, t), ImVec2((l + rt) * 0.5f, t), ImVec2(rt, b), ImVec2(l, b)})
    r.wanted.push_back(box_at(c, size));
  r.names_from = r.names_to = r.wanted.front().center;
  return r;
}

void place_all_labels(RooflineLayout& l, const RooflineData& d) {
  const Frame& f = l.frame;
  std::vector<RooflineLabel> labels;
  std::vector<LabelRequest> requests;
  auto add = [&](RooflineLabel::Kind kind, int index, const std::string& text, unsigned color, LabelRequest r) {
    RooflineLabel label;
    label.kind = kind;
    label.index = index;
    label.text = text;
    label.color = color;
    labels.push_back(std::move(label));
    requests.push_back(std::move(r));
  };
  // Most important first, so they get their favourite places: the roof (the top compute roof), the
  // bandwidth roofs (DRAM first), the compute roofs under the top one, then the ridge points.
  auto add_compute = [&](std::size_t i) {
    const ReferenceLine& c = d.compute[i];
    const float y = to_screen(f, f.x.lo, c.y).y;
    const bool in_view = std::isfinite(y) && y >= f.area_min.y - 1 && y <= f.area_max.y + 1;
    add(RooflineLabel::Kind::ComputeRoof, static_cast<int>(i), c.label, c.color,
        in_view ? compute_label(f, y, label_size(f, c.label), i == 0) : LabelRequest{});
  };
  if (!d.compute.empty()) add_compute(0);
  for (std::size_t i = 0; i < d.bandwidth.size(); ++i) {
    const BandwidthRoof& b = d.bandwidth[i];
    add(RooflineLabel::Kind::BandwidthRoof, static_cast<int>(i), b.label, b.color,
        l.bandwidth[i].visible ? bandwidth_label(f, l.bandwidth[i], label_size(f, b.label), b.primary)
                               : LabelRequest{});
  }
  for (std::size_t i = 1; i < d.compute.size(); ++i) add_compute(i);
  for (std::size_t i = 0; i < d.ridges.size(); ++i) {
    const RidgePoint& p = d.ridges[i];
    const ImVec2 c = to_screen(f, p.intensity, p.gflops);
    const bool in_view = finite(c) && c.x >= f.area_min.x && c.x <= f.area_max.x;
    add(RooflineLabel::Kind::Ridge, static_cast<int>(i), p.label, p.color,
        in_view ? ridge_label(f, c, l.ridge_radius, label_size(f, p.label)) : LabelRequest{});
  }
  if (!d.no_roofs.empty()) {
    // In as many lines as a narrow plot needs.
    std::string text;
    for (const std::string& line : wrap(f, d.no_roofs, area_width(f) - 2.0f * (f.pad + kLabelMargin * f.ui)))
      text += (text.empty() ? "" : "\n") + line;
    add(RooflineLabel::Kind::NoRoofs, -1, text, 0, corner_label(f, label_size(f, text)));
  }

  // Nothing may cover a point, a ridge point's diamond or the empty plot's message. Hidden series'
  // points count too: a click on a legend entry moves no label, and so no legend.
  std::vector<Rect> obstacles;
  for (const ImVec2& p : points_on_screen(f, d, true)) obstacles.push_back(square_around(p, l.marker_radius + f.ui));
  for (const RidgePoint& p : d.ridges) {
    const ImVec2 c = to_screen(f, p.intensity, p.gflops);
    if (finite(c)) obstacles.push_back(square_around(c, l.ridge_radius + f.ui));
  }
  if (!any_visible_point(d)) obstacles.push_back(empty_message_rect(f));

  const Rect bounds{ImVec2(f.area_min.x + f.ui, f.area_min.y + f.ui), ImVec2(f.area_max.x - f.ui, f.area_max.y - f.ui)};
  const std::vector<LabelPlacement> placed = place_labels(requests, bounds, obstacles, 2.0f * f.ui);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i].place = placed[i];
  l.labels = std::move(labels);
}

}  // namespace

RooflineLayout layout_roofline(ImVec2 min, ImVec2 max, const RooflineData& d, ImFont* font, float font_px,
                               bool with_frame_text) {
  RooflineLayout l;
  l.style = d.style;
  l.style.show_legend = false;  // placed here rather than by layout_plot
  for (ReferenceLine line : d.compute) {
    line.label.clear();
    l.compute_lines.push_back(line);
  }
  auto frame_in = [&](ImVec2 corner) {
    return plot_detail::layout_plot(min, corner, l.style, d.series, l.compute_lines, d.x, d.y, font, font_px,
                                    with_frame_text);
  };
  Frame f = frame_in(max);
  const float px = f.font_px, pad = f.pad;
  l.marker_radius = d.style.marker_radius * f.ui * 1.15f;
  l.ridge_radius = 5.0f * f.ui;

  // The export's notes under the plot, at most a quarter of its height.
  float caption_h = 0;
  const float line_h = px + kCaptionLeading * f.ui;
  if (with_frame_text) {
    const std::size_t room = static_cast<std::size_t>(std::max(0.0f, (max.y - min.y) * 0.25f / line_h));
    for (const std::string& note : d.notes)
      for (std::string& line : wrap(f, note, max.x - min.x - 2.0f * pad)) l.caption.push_back(std::move(line));
    if (l.caption.size() > room) {
      l.caption.resize(room);
      if (!l.caption.empty()) l.caption.back() += " ...";
    }
    caption_h = l.caption.empty() ? 0 : l.caption.size() * line_h + pad * 0.5f;
  }
  const float bottom = max.y - caption_h;
  f = frame_in(ImVec2(max.x, bottom));
  // A short plot gives the x-axis title's line to the area.
  if (area_height(f) < 6.0f * px && !l.style.x_label.empty()) {
    l.style.x_label.clear();
    f = frame_in(ImVec2(max.x, bottom));
  }
  const float min_area_h = 2.5f * px;
  if (area_height(f) < min_area_h || area_width(f) < 8.0f * px) {
    l.too_small = true;
    f.max = max;
    l.frame = f;
    return l;
  }
  const std::string x_title = l.style.x_label;

  // The frame as drawn (`below_reserve`: the rows of a legend under the x-axis title), with the
  // roofs measured and every label placed in it.
  auto settle = [&](Frame frame, float below_reserve) {
    const float under_axis = (x_title.empty() ? frame.x_ticks_y : frame.x_label_y) + px + pad * 0.5f;
    l.caption_y = under_axis + below_reserve;  // then the caption, then the footer at the very bottom
    if (frame.footer_y > 0) frame.footer_y = max.y - pad - px;
    frame.max = max;  // the footer, title, clip and background span the whole rectangle
    thin_y_labels(frame);
    // The x-axis title is centred under the area: a narrow plot gets the short one, or none.
    const float centre = (frame.area_min.x + frame.area_max.x) * 0.5f;
    const float title_room = 2.0f * std::min(centre - min.x, max.x - centre) - 2.0f * pad;
    l.style.x_label = x_title;
    if (!x_title.empty() && text_size(frame, x_title).x > title_room)
      l.style.x_label = text_size(frame, d.short_x_label).x <= title_room ? d.short_x_label : "";
    l.frame = frame;
    l.bandwidth.clear();
    for (const BandwidthRoof& b : d.bandwidth) l.bandwidth.push_back(bandwidth_segment(frame, d, b));
    place_all_labels(l, d);
    return under_axis;
  };
  settle(f, 0);
  if (!d.style.show_legend || d.series.empty()) return l;

  // The legend: in a corner free of points, roofs and the labels placed already; else in a column
  // right of the plot, else in rows under it, else a column that leaves the plot narrower or holds
  // fewer entries (the labels placed again in the smaller area). Never over a point.
  const int n = static_cast<int>(d.series.size());
  const float row_h = plot_detail::legend_row_height(f), box_w = plot_detail::legend_box_width(f, d.series);
  const float box_h = n * row_h + pad;
  if (box_h <= area_height(f) - 2 * pad && box_w <= area_width(f) - 2 * pad) {
    const float l_x = f.area_min.x + pad, r_x = f.area_max.x - pad - box_w;
    const float t_y = f.area_min.y + pad, b_y = f.area_max.y - pad - box_h;
    for (const ImVec2 corner : {ImVec2(l_x, t_y), ImVec2(r_x, t_y), ImVec2(r_x, b_y), ImVec2(l_x, b_y)}) {
      const Rect box{corner, ImVec2(corner.x + box_w, corner.y + box_h)};
      if (corner_is_free(box, l.frame, d, l)) {
        l.frame.legend = legend_grid(l.frame, d.series, corner, 1, n);
        l.legend = LegendPlace::Inside;
        return l;
      }
    }
  }
  // Beside the plot, while the plot keeps `share` of its width: every entry, or as many as fit.
  auto beside = [&](float share, bool every_entry) {
    const Frame narrower = frame_in(ImVec2(max.x - box_w - pad, bottom));
    const int rows = every_entry ? n : static_cast<int>((area_height(narrower) - pad) / row_h);
    if (area_width(narrower) < share * area_width(f) || area_width(narrower) < 12.0f * px || rows < 1 ||
        rows * row_h + pad > area_height(narrower))
      return false;
    settle(narrower, 0);
    l.frame.legend = legend_grid(l.frame, d.series, ImVec2(max.x - pad - box_w, l.frame.area_min.y), 1, rows);
    l.legend = LegendPlace::Right;
    return true;
  };
  if (beside(0.6f, true)) return l;
  const int columns = std::max(1, static_cast<int>((max.x - min.x - 2 * pad) / box_w));
  const int rows = (n + columns - 1) / columns;
  const float legend_h = rows * row_h + pad;
  const Frame shorter = frame_in(ImVec2(max.x, bottom - legend_h - pad * 0.5f));
  if (area_height(shorter) >= std::max(min_area_h, 0.6f * area_height(f))) {
    const float under_axis = settle(shorter, legend_h + pad * 0.5f);
    const float width = std::min(columns, n) * box_w;
    const float x = std::max(min.x + pad, std::min(shorter.area_min.x, max.x - pad - width));
    l.frame.legend = legend_grid(l.frame, d.series, ImVec2(x, under_axis), columns, rows);
    l.legend = LegendPlace::Below;
    return l;
  }
  // A cramped plot still names its series: a narrower plot beats colours nobody can decode.
  if (!beside(0.35f, true)) beside(0.35f, false);
  return l;
}

std::vector<LabelBox> placed_label_boxes(const RooflineLayout& layout) {
  std::vector<LabelBox> boxes;
  for (const RooflineLabel& label : layout.labels)
    if (label.place.placed) boxes.push_back(label.place.box);
  return boxes;
}

std::vector<ImVec2> point_positions(const RooflineLayout& layout, const RooflineData& data) {
  return points_on_screen(layout.frame, data, false);
}

}  // namespace tilescope
