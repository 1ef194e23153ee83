// Layout and drawing of the timing plot with ImDrawList (see plot_render.h).
#include "app/plot/plot_render.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>
#include <string>

namespace tilescope::plot_detail {

namespace {

// ---- colours --------------------------------------------------------------------------------

ImVec4 opaque(ImVec4 c) {
  return ImVec4(c.x, c.y, c.z, 1.0f);
}

ImVec4 mix(ImVec4 a, ImVec4 b, float t) {
  return ImVec4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
}

ImU32 with_alpha(ImVec4 c, float a) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, c.w * a));
}

float channel_luminance(float c) {
  return c <= 0.03928f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float luminance(ImVec4 c) {
  return 0.2126f * channel_luminance(c.x) + 0.7152f * channel_luminance(c.y) + 0.0722f * channel_luminance(c.z);
}

// WCAG contrast ratio: 1 (none) to 21 (black on white).
float contrast(ImVec4 a, ImVec4 b) {
  const float la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

// Everything comes from the current ImGui style, so the plot follows the dark, light and
// presenter (high-contrast) themes without a palette of its own.
struct Palette {
  ImVec4 text, text_dim, window_bg, plot_bg, border;
  ImU32 u_text, u_text_dim, u_text_hidden, u_window_bg, u_plot_bg, u_grid_major, u_grid_minor, u_axis, u_legend_bg,
      u_legend_hover;
};

Palette palette() {
  const ImGuiStyle& s = ImGui::GetStyle();
  Palette p;
  p.text = opaque(s.Colors[ImGuiCol_Text]);
  p.window_bg = opaque(s.Colors[ImGuiCol_WindowBg]);
  // Not TextDisabled: the light theme's is too faint for a footer someone must read on a slide.
  p.text_dim = mix(p.text, p.window_bg, 0.4f);
  // FrameBg at half its weight over the window: a plot area set off from the panel, but calm
  // enough (the dark theme's FrameBg is a saturated blue) for the series to stand out.
  const ImVec4 frame = s.Colors[ImGuiCol_FrameBg];
  p.plot_bg = mix(p.window_bg, opaque(frame), frame.w * 0.5f);
  p.border = s.Colors[ImGuiCol_Border];
  p.u_text = ImGui::ColorConvertFloat4ToU32(p.text);
  p.u_text_dim = ImGui::ColorConvertFloat4ToU32(p.text_dim);
  p.u_text_hidden = ImGui::ColorConvertFloat4ToU32(mix(p.text, p.plot_bg, 0.5f));
  p.u_window_bg = ImGui::ColorConvertFloat4ToU32(p.window_bg);
  p.u_plot_bg = ImGui::ColorConvertFloat4ToU32(p.plot_bg);
  // Grid from Border: visible on every theme yet quieter than the data; minor lines at half.
  p.u_grid_major = ImGui::ColorConvertFloat4ToU32(p.border);
  p.u_grid_minor = with_alpha(p.border, 0.45f);
  p.u_axis = with_alpha(p.text, 0.6f);
  p.u_legend_bg = with_alpha(p.plot_bg, 0.88f);
  p.u_legend_hover = ImGui::ColorConvertFloat4ToU32(s.Colors[ImGuiCol_HeaderHovered]);
  return p;
}

// Below this contrast against the plot background a series gets an outline in the text colour.
constexpr float kMinContrast = 2.0f;
constexpr float kHaloAlpha = 0.55f;

// ---- text -------------------------------------------------------------------------------------

ImVec2 text_size(const Frame& f, float px, const std::string& s) {
  return f.font->CalcTextSizeA(px, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

void text(ImDrawList* dl, const Frame& f, float px, ImVec2 pos, ImU32 col, const std::string& s) {
  // Whole pixels keep the glyphs of a bitmap font sharp.
  dl->AddText(f.font, px, ImVec2(std::floor(pos.x + 0.5f), std::floor(pos.y + 0.5f)), col, s.c_str(),
              s.c_str() + s.size());
}

float title_px(const Frame& f) {
  return f.font_px * 1.3f;
}

float legend_text_px(const Frame& f) {
  return f.legend_px > 0 ? f.legend_px : f.font_px;
}

// ---- geometry ---------------------------------------------------------------------------------

bool inside(ImVec2 p, ImVec2 mn, ImVec2 mx) {
  return p.x >= mn.x && p.x <= mx.x && p.y >= mn.y && p.y <= mx.y;
}

void dashed_hline(ImDrawList* dl, float x0, float x1, float y, ImU32 col, float thickness, float dash, float gap) {
  for (float x = x0; x < x1; x += dash + gap)
    dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + dash, x1), y), col, thickness);
}

// Where the legend goes: in the emptiest corner of the plot area, in a column right of it, or
// in rows under the x axis's label (the caller made room for the last two).
enum class LegendPlace { Inside, Outside, Below };

// One legend entry's width: swatch and label.
float legend_entry_width(const Frame& f, const PlotSeriesData& s) {
  return f.pad + legend_text_px(f) * 1.6f + f.pad + text_size(f, legend_text_px(f), s.label).x + f.pad;
}

// The entries of a legend below the plot, flowing left to right in rows as wide as the frame,
// from `top`; the legend's height when `lg` is null.
float flow_legend(const Frame& f, const std::vector<PlotSeriesData>& series, float top, Legend* lg) {
  const float row_h = legend_row_height(f), left = f.min.x + f.pad, right = f.max.x - f.pad;
  float x = left, y = top + f.pad * 0.5f;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const float w = legend_entry_width(f, series[i]);
    if (x > left && x + w > right) x = left, y += row_h;
    if (lg) {
      LegendEntry e;
      e.series = static_cast<int>(i);
      e.min = ImVec2(x, y);
      e.max = ImVec2(std::min(x + w, right), y + row_h);
      lg->entries.push_back(e);
    }
    x += w;
  }
  if (lg) {
    lg->min = ImVec2(left, top);
    lg->max = ImVec2(right, y + row_h + f.pad * 0.5f);
  }
  return y + row_h + f.pad * 0.5f - top;
}

Legend layout_legend(const Frame& f, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                     const std::vector<ReferenceLine>& refs, LegendPlace place) {
  Legend lg;
  if (!style.show_legend || series.empty()) return lg;
  if (place == LegendPlace::Below) {
    flow_legend(f, series, f.below_y, &lg);
    return lg;
  }
  const bool outside = place == LegendPlace::Outside;
  const float row_h = legend_row_height(f);
  const float box_w = legend_box_width(f, series);
  const float area_w = f.area_max.x - f.area_min.x, area_h = f.area_max.y - f.area_min.y;
  const int fit = static_cast<int>((area_h - 2 * f.pad - f.pad) / row_h);
  const int rows = std::min(static_cast<int>(series.size()), std::max(0, fit));
  if (rows == 0 || (!outside && box_w > area_w - 2 * f.pad)) return lg;
  const float box_h = rows * row_h + f.pad;
  auto fill_rows = [&] {
    lg.max = ImVec2(lg.min.x + box_w, lg.min.y + box_h);
    for (int i = 0; i < rows; ++i) {
      LegendEntry e;
      e.series = i;
      e.min = ImVec2(lg.min.x, lg.min.y + f.pad * 0.5f + i * row_h);
      e.max = ImVec2(lg.max.x, e.min.y + row_h);
      lg.entries.push_back(e);
    }
  };
  if (outside) {
    lg.min = ImVec2(f.area_max.x + f.pad, f.area_min.y);
    fill_rows();
    return lg;
  }

  // The corner that covers the fewest points and reference lines; counting hidden series too
  // keeps the legend from jumping away from the mouse when an entry is clicked.
  const ImVec2 corners[4] = {
      ImVec2(f.area_min.x + f.pad, f.area_min.y + f.pad),                  // top left
      ImVec2(f.area_max.x - f.pad - box_w, f.area_min.y + f.pad),          // top right
      ImVec2(f.area_max.x - f.pad - box_w, f.area_max.y - f.pad - box_h),  // bottom right
      ImVec2(f.area_min.x + f.pad, f.area_max.y - f.pad - box_h),          // bottom left
  };
  int best = 0, best_cost = -1;
  for (int c = 0; c < 4; ++c) {
    const ImVec2 mn = corners[c], mx(mn.x + box_w, mn.y + box_h);
    int cost = 0;
    for (const auto& s : series) {
      // A dense series is sampled (about 2000 points): the corner's cost only compares corners.
      const std::size_t stride = std::max<std::size_t>(1, s.points.size() / 2000);
      for (std::size_t i = 0; i < s.points.size(); i += stride)
        if (inside(to_screen(f, s.points[i].x, s.points[i].y), mn, mx)) ++cost;
    }
    for (const auto& r : refs) {
      const float y = to_screen(f, f.x.lo, r.y).y;
      if (y >= mn.y && y <= mx.y) cost += 3;  // a line through the labels hurts more than a dot
    }
    if (best_cost < 0 || cost < best_cost) best = c, best_cost = cost;
  }
  lg.min = corners[best];
  fill_rows();
  return lg;
}

void draw_series(ImDrawList* dl, const Frame& f, const PlotStyle& style, const PlotSeriesData& s, const Palette& pal) {
  const ImVec4 col = ImGui::ColorConvertU32ToFloat4(s.color);
  const ImU32 u = s.color;
  const float lw = style.line_width * f.ui, r = style.marker_radius * f.ui;
  // Okabe–Ito yellow on a light theme nearly vanishes: give low-contrast colours a dark (or, on
  // a dark theme, light) outline instead of changing the colour the legend promises.
  const bool halo = contrast(col, pal.plot_bg) < kMinContrast;
  const ImU32 halo_col = with_alpha(pal.text, kHaloAlpha);

  // Lines join points in x order whatever order the history recorded them in, one point per
  // pixel column at most (plot_model.h says why the median and the min..max): a series of a
  // million points costs what a screenful costs.
  const std::vector<PlotColumn> columns =
      aggregate_columns(s.points, f.x, f.y, static_cast<double>(f.area_max.x - f.area_min.x));
  // The spread of a column holding several points: a faint bar from its min to its max.
  const ImU32 spread_col = with_alpha(col, 0.35f);
  for (const PlotColumn& c : columns) {
    if (c.count < 2 || !(c.y_max > c.y_min)) continue;
    const ImVec2 lo = to_screen(f, c.x, c.y_min), hi = to_screen(f, c.x, c.y_max);
    if (std::isfinite(lo.y) && std::isfinite(hi.y)) dl->AddLine(lo, hi, spread_col, std::max(1.0f, f.ui));
  }
  std::vector<ImVec2> run, all;
  // Segments with round joins rather than one AddPolyline: ImGui's thick polylines pinch to a
  // hairline at sharp turns, which is exactly what a noisy live trace is made of.
  auto stroke = [&](ImU32 stroke_col, float width) {
    for (size_t i = 0; i + 1 < run.size(); ++i) dl->AddLine(run[i], run[i + 1], stroke_col, width);
    if (width > 1.5f)
      for (size_t i = 1; i + 1 < run.size(); ++i) dl->AddCircleFilled(run[i], width * 0.5f, stroke_col, 8);
  };
  auto flush = [&] {
    if (halo) stroke(halo_col, lw + 2.0f * f.ui);
    stroke(u, lw);
    run.clear();
  };
  for (const PlotColumn& c : columns) {
    if (c.starts_run) flush();  // a gap where the axis cannot show a value (<= 0 on a log axis)
    const ImVec2 p = to_screen(f, c.x, c.y_median);
    run.push_back(p);
    all.push_back(p);
  }
  flush();
  // Markers only while they stay apart: on a dense trace they would merge into a thick smear.
  if (all.size() >= 2) {
    const float mn = std::min_element(all.begin(), all.end(), [](ImVec2 a, ImVec2 b) { return a.x < b.x; })->x;
    const float mx = std::max_element(all.begin(), all.end(), [](ImVec2 a, ImVec2 b) { return a.x < b.x; })->x;
    if ((mx - mn) / static_cast<float>(all.size() - 1) < 3.0f * r) return;
  }
  for (const ImVec2& p : all) {
    if (halo) dl->AddCircleFilled(p, r + 1.0f * f.ui, halo_col, 12);
    dl->AddCircleFilled(p, r, u, 12);
  }
}

}  // namespace

float legend_row_height(const Frame& f) {
  return legend_text_px(f) + f.pad * 0.6f;
}

float legend_box_width(const Frame& f, const std::vector<PlotSeriesData>& series) {
  float label_w = 0;
  for (const auto& s : series) label_w = std::max(label_w, text_size(f, legend_text_px(f), s.label).x);
  return f.pad + legend_text_px(f) * 1.6f + f.pad + label_w + f.pad;
}

bool axis_usable(const Axis& a) {
  if (!std::isfinite(a.lo) || !std::isfinite(a.hi) || !(a.hi > a.lo)) return false;
  return a.scale == AxisScale::Linear || a.lo > 0;
}

ImVec2 to_screen(const Frame& f, double x, double y) {
  // Clamped far outside the area (NaN passes through): a point a million plot-widths away when
  // zoomed in must not become an infinite float in the vertex buffer.
  auto clamp_unit = [](double u) { return std::isnan(u) ? u : std::clamp(u, -1e4, 1e4); };
  const double ux = clamp_unit(f.x.to_unit(x)), uy = clamp_unit(f.y.to_unit(y));
  return ImVec2(static_cast<float>(f.area_min.x + ux * (f.area_max.x - f.area_min.x)),
                static_cast<float>(f.area_max.y - uy * (f.area_max.y - f.area_min.y)));
}

namespace {

// The titles, tick labels and plot area in f's rectangle, with `below` pixels kept free under the
// x axis's label (f.below_y says where).
void place_axes(Frame& f, const PlotStyle& style, float below) {
  const float w = f.max.x - f.min.x;
  float top = f.min.y + f.pad;
  if (f.frame_text && !style.title.empty()) {
    f.title_y = top;
    top += title_px(f) + f.pad;
  }
  if (!style.y_label.empty()) {
    f.y_label_y = top;
    top += f.font_px + f.pad * 0.5f;
  } else {
    top += f.font_px * 0.5f;  // room for the top tick label, centred on its grid line
  }
  float bottom = f.max.y - f.pad;
  if (f.frame_text && !style.footer.empty()) {
    bottom -= f.font_px;
    f.footer_y = bottom;
    bottom -= f.pad * 0.5f;
  }
  bottom -= below;
  f.below_y = bottom;
  if (!style.x_label.empty()) {
    bottom -= f.font_px;
    f.x_label_y = bottom;
    bottom -= f.pad * 0.5f;
  }
  bottom -= f.font_px;
  f.x_ticks_y = bottom;
  bottom -= f.pad * 0.5f;

  // As many ticks as fit comfortably: about one per 2.5 text lines vertically and one per
  // 6 character-widths horizontally.
  const int y_target = std::clamp(static_cast<int>((bottom - top) / (f.font_px * 2.5f)), 2, 8);
  const int x_target = std::clamp(static_cast<int>(w * 0.85f / (f.font_px * 5.0f)), 2, 10);
  f.y_ticks = make_ticks(f.y, y_target);
  f.x_ticks = make_ticks(f.x, x_target);

  float y_label_w = 0;
  for (const auto& t : f.y_ticks)
    if (t.major) y_label_w = std::max(y_label_w, text_size(f, f.font_px, t.label).x);
  f.area_min = ImVec2(f.min.x + f.pad + y_label_w + f.pad * 0.75f, top);
  // Room on the right for half of the last x label, which is centred on its grid line.
  f.area_max = ImVec2(f.max.x - f.pad - f.font_px, bottom);
  // A tiny rectangle still gets a (degenerate but finite) area rather than an inverted one.
  if (f.area_max.x < f.area_min.x + 1) f.area_max.x = f.area_min.x + 1;
  if (f.area_max.y < f.area_min.y + 1) f.area_max.y = f.area_min.y + 1;
}

}  // namespace

Frame layout_plot(ImVec2 min, ImVec2 max, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                  const std::vector<ReferenceLine>& refs, const Axis& x, const Axis& y, ImFont* font, float font_px,
                  bool with_frame_text) {
  Frame f;
  f.font = font;
  f.font_px = font_px;
  f.ui = font_px / 13.0f;
  f.pad = std::round(6.0f * f.ui);
  f.min = min;
  f.max = max;
  f.frame_text = with_frame_text;
  f.x = x;
  f.y = y;
  place_axes(f, style, 0);
  // Where the legend shows every entry and hides the least: beside a wide area; in the emptiest
  // corner inside, while it covers little of the area; beside, while the area keeps two fifths of
  // the width; in rows under the plot, while the area keeps half its height. Where none of that
  // fits, its text is made smaller, down to 0.7 of the plot's; then inside all the same.
  LegendPlace place = LegendPlace::Inside;
  if (style.show_legend && !series.empty()) {
    const Frame fitted = f;
    for (const float scale : {1.0f, 0.85f, 0.7f}) {
      f = fitted;
      f.legend_px = std::round(f.font_px * scale);
      const float lw = legend_box_width(f, series);
      const float area_w = f.area_max.x - f.area_min.x, area_h = f.area_max.y - f.area_min.y;
      const float box_h = static_cast<float>(series.size()) * legend_row_height(f) + f.pad;
      const bool rows_fit = box_h + 2 * f.pad <= area_h;
      // Inside covers little: a box at most about half the area each way, or a few rows of it.
      const bool inside =
          (lw <= 0.45f * area_w && box_h <= 0.45f * area_h) || (lw <= 0.6f * area_w && box_h <= 0.3f * area_h);
      if (rows_fit && (area_w > 3.2f * lw || (!inside && area_w - lw - f.pad >= 0.4f * area_w))) {
        f.area_max.x -= lw + f.pad;
        place = LegendPlace::Outside;
        break;
      }
      if (inside) break;
      const float below = flow_legend(f, series, 0, nullptr) + f.pad * 0.5f;
      if (area_h - below >= std::max(5.0f * f.font_px, 0.5f * area_h)) {
        place_axes(f, style, below);
        place = LegendPlace::Below;
        break;
      }
    }
  }
  f.legend = layout_legend(f, style, series, refs, place);
  return f;
}

namespace {

// Major and minor grid lines across the plot area (the caller clips to it).
void draw_grid(ImDrawList* dl, const Frame& f, const Palette& pal, float grid_w) {
  const ImVec2 amin = f.area_min, amax = f.area_max;
  for (const auto& t : f.x_ticks) {
    const float x = std::round(to_screen(f, t.value, f.y.lo).x) + 0.5f;
    if (std::isfinite(x))
      dl->AddLine(ImVec2(x, amin.y), ImVec2(x, amax.y), t.major ? pal.u_grid_major : pal.u_grid_minor, grid_w);
  }
  for (const auto& t : f.y_ticks) {
    const float y = std::round(to_screen(f, f.x.lo, t.value).y) + 0.5f;
    if (std::isfinite(y))
      dl->AddLine(ImVec2(amin.x, y), ImVec2(amax.x, y), t.major ? pal.u_grid_major : pal.u_grid_minor, grid_w);
  }
}

// Reference lines under the data, their label at the right end above the line.
void draw_reference_lines(ImDrawList* dl, const Frame& f, const std::vector<ReferenceLine>& refs, const Palette& pal) {
  const ImVec2 amin = f.area_min, amax = f.area_max;
  for (const auto& r : refs) {
    const float y = to_screen(f, f.x.lo, r.y).y;
    if (!std::isfinite(y) || y < amin.y - 1 || y > amax.y + 1) continue;
    dashed_hline(dl, amin.x, amax.x, y, r.color, 1.5f * f.ui, 7.0f * f.ui, 4.0f * f.ui);
    if (r.label.empty()) continue;
    const ImVec2 ts = text_size(f, f.font_px, r.label);
    float ty = y - ts.y - 2.0f * f.ui;
    if (ty < amin.y + 2.0f) ty = y + 2.0f * f.ui;  // no room above: put it below
    const ImVec2 tp(amax.x - f.pad - ts.x, ty);
    // A backing in the plot colour keeps the label readable across grid and series lines.
    dl->AddRectFilled(ImVec2(tp.x - 2 * f.ui, tp.y), ImVec2(tp.x + ts.x + 2 * f.ui, tp.y + ts.y), pal.u_legend_bg);
    text(dl, f, f.font_px, tp, pal.u_text, r.label);
  }
}

// The visible series; an empty plot says why it is empty.
void draw_data(ImDrawList* dl, const Frame& f, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
               const Palette& pal) {
  const ImVec2 amin = f.area_min, amax = f.area_max;
  size_t shown = 0, total = 0;
  for (const auto& s : series) {
    total += s.points.size();
    if (s.visible) shown += s.points.size();
    if (s.visible) draw_series(dl, f, style, s, pal);
  }
  if (shown == 0) {
    // An empty plot should say why, or a student takes it for a broken one.
    const std::string msg = total == 0 ? "no results yet" : "every series is hidden: click one in the legend";
    const ImVec2 ts = text_size(f, f.font_px, msg);
    text(dl, f, f.font_px, ImVec2((amin.x + amax.x - ts.x) * 0.5f, (amin.y + amax.y - ts.y) * 0.5f), pal.u_text_dim,
         msg);
  }
}

// The hovered point: a ring in the text colour, visible on any series colour and theme.
void draw_hovered_point(ImDrawList* dl, const Frame& f, const PlotStyle& style,
                        const std::vector<PlotSeriesData>& series, const Hit& hit, const Palette& pal) {
  if (hit.series >= 0 && hit.series < static_cast<int>(series.size())) {
    const auto& s = series[hit.series];
    if (hit.point >= 0 && hit.point < static_cast<int>(s.points.size())) {
      const ImVec2 p = to_screen(f, s.points[hit.point].x, s.points[hit.point].y);
      const float r = style.marker_radius * f.ui;
      dl->AddCircleFilled(p, r * 1.6f, s.color, 16);
      dl->AddCircle(p, r * 1.6f + 2.0f * f.ui, pal.u_text, 16, 1.5f * f.ui);
    }
  }
}

// Tick labels. y: right-aligned left of the axis. x: centred under the grid line, skipping any
// that would collide with the previous one (long labels on a narrow plot).
void draw_tick_labels(ImDrawList* dl, const Frame& f, const Palette& pal) {
  const ImVec2 amin = f.area_min, amax = f.area_max;
  for (const auto& t : f.y_ticks) {
    if (!t.major || t.label.empty()) continue;
    const float y = to_screen(f, f.x.lo, t.value).y;
    if (!std::isfinite(y) || y < amin.y - 1 || y > amax.y + 1) continue;
    const ImVec2 ts = text_size(f, f.font_px, t.label);
    text(dl, f, f.font_px, ImVec2(amin.x - f.pad * 0.75f - ts.x, y - ts.y * 0.5f), pal.u_text, t.label);
  }
  float last_right = -FLT_MAX;
  for (const auto& t : f.x_ticks) {
    if (!t.major || t.label.empty()) continue;
    const float x = to_screen(f, t.value, f.y.lo).x;
    if (!std::isfinite(x) || x < amin.x - 1 || x > amax.x + 1) continue;
    const ImVec2 ts = text_size(f, f.font_px, t.label);
    float lx = std::clamp(x - ts.x * 0.5f, f.min.x, f.max.x - ts.x);
    if (lx < last_right + f.font_px * 0.6f) continue;
    text(dl, f, f.font_px, ImVec2(lx, f.x_ticks_y), pal.u_text, t.label);
    last_right = lx + ts.x;
  }
}

// Axis titles, and the export's title and footer. ImGui cannot rotate text, so the y label sits
// above the axis, left-aligned.
void draw_titles(ImDrawList* dl, const Frame& f, const PlotStyle& style, const Palette& pal) {
  const ImVec2 amin = f.area_min, amax = f.area_max;
  if (!style.x_label.empty()) {
    const ImVec2 ts = text_size(f, f.font_px, style.x_label);
    text(dl, f, f.font_px, ImVec2((amin.x + amax.x - ts.x) * 0.5f, f.x_label_y), pal.u_text, style.x_label);
  }
  if (!style.y_label.empty()) text(dl, f, f.font_px, ImVec2(f.min.x + f.pad, f.y_label_y), pal.u_text, style.y_label);
  if (f.frame_text && !style.title.empty()) {
    const ImVec2 ts = text_size(f, title_px(f), style.title);
    text(dl, f, title_px(f), ImVec2(std::max(f.min.x + f.pad, (f.min.x + f.max.x - ts.x) * 0.5f), f.title_y),
         pal.u_text, style.title);
  }
  if (f.frame_text && !style.footer.empty()) {
    const ImVec2 ts = text_size(f, f.font_px, style.footer);
    text(dl, f, f.font_px, ImVec2(std::max(f.min.x + f.pad, f.max.x - f.pad - ts.x), f.footer_y), pal.u_text_dim,
         style.footer);
  }
}

// The legend box: a swatch and label per series, the hovered row marked.
void draw_legend(ImDrawList* dl, const Frame& f, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                 int legend_hovered, const Palette& pal, float grid_w) {
  dl->AddRectFilled(f.legend.min, f.legend.max, pal.u_legend_bg, 3.0f * f.ui);
  dl->AddRect(f.legend.min, f.legend.max, pal.u_grid_major, 3.0f * f.ui, 0, grid_w);
  for (const auto& e : f.legend.entries) {
    const auto& s = series[e.series];
    if (e.series == legend_hovered)
      dl->AddRectFilled(ImVec2(e.min.x + 1, e.min.y), ImVec2(e.max.x - 1, e.max.y), pal.u_legend_hover);
    const float cy = (e.min.y + e.max.y) * 0.5f;
    const float px = legend_text_px(f);
    const float sx0 = e.min.x + f.pad, sx1 = sx0 + px * 1.6f;
    // A hidden series keeps a faint swatch and a dimmed label, so it can be found and re-shown.
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(s.color);
    const ImU32 sc = s.visible ? s.color : with_alpha(c, 0.3f);
    if (s.visible && contrast(c, pal.plot_bg) < kMinContrast) {  // same outline as on the plot
      const ImU32 halo = with_alpha(pal.text, kHaloAlpha);
      dl->AddLine(ImVec2(sx0, cy), ImVec2(sx1, cy), halo, (style.line_width + 2.0f) * f.ui);
      dl->AddCircleFilled(ImVec2((sx0 + sx1) * 0.5f, cy), (style.marker_radius + 1.0f) * f.ui, halo, 12);
    }
    dl->AddLine(ImVec2(sx0, cy), ImVec2(sx1, cy), sc, style.line_width * f.ui);
    if (s.visible)
      dl->AddCircleFilled(ImVec2((sx0 + sx1) * 0.5f, cy), style.marker_radius * f.ui, sc, 12);
    else
      dl->AddCircle(ImVec2((sx0 + sx1) * 0.5f, cy), style.marker_radius * f.ui, sc, 12, f.ui);
    const ImVec2 ts = text_size(f, px, s.label);
    text(dl, f, px, ImVec2(sx1 + f.pad, cy - ts.y * 0.5f), s.visible ? pal.u_text : pal.u_text_hidden, s.label);
  }
}

}  // namespace

void render_plot(ImDrawList* dl, const Frame& f, const PlotStyle& style, const std::vector<PlotSeriesData>& series,
                 const std::vector<ReferenceLine>& refs, const Highlight& hl, bool fill_background) {
  const Palette pal = palette();
  const ImVec2 amin = f.area_min, amax = f.area_max;
  dl->PushClipRect(f.min, f.max, true);
  if (fill_background) dl->AddRectFilled(f.min, f.max, pal.u_window_bg);
  dl->AddRectFilled(amin, amax, pal.u_plot_bg);

  // Grid, reference lines, data and the hovered point, clipped to the plot area.
  dl->PushClipRect(amin, amax, true);
  const float grid_w = std::max(1.0f, f.ui);
  draw_grid(dl, f, pal, grid_w);
  draw_reference_lines(dl, f, refs, pal);
  draw_data(dl, f, style, series, pal);
  draw_hovered_point(dl, f, style, series, hl.hit, pal);
  dl->PopClipRect();

  // Axes: left and bottom edges.
  dl->AddLine(ImVec2(amin.x, amax.y), ImVec2(amax.x, amax.y), pal.u_axis, grid_w);
  dl->AddLine(ImVec2(amin.x, amin.y), ImVec2(amin.x, amax.y), pal.u_axis, grid_w);

  draw_tick_labels(dl, f, pal);
  draw_titles(dl, f, style, pal);
  if (!f.legend.entries.empty()) draw_legend(dl, f, style, series, hl.legend_hovered, pal, grid_w);
  dl->PopClipRect();
}

}  // namespace tilescope::plot_detail
