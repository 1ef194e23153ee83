#include "app/plot/landscape_render.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace tilescope {
namespace {

// Viridis, sampled: perceptually even, readable to the colour-blind, and its ends differ in
// lightness, so the order shows on a grey projector as well as on the dark and light themes.
constexpr float kScale[][3] = {{0.267f, 0.005f, 0.329f}, {0.283f, 0.141f, 0.458f}, {0.254f, 0.265f, 0.530f},
                               {0.207f, 0.372f, 0.553f}, {0.164f, 0.471f, 0.558f}, {0.128f, 0.567f, 0.551f},
                               {0.135f, 0.659f, 0.518f}, {0.267f, 0.749f, 0.441f}, {0.478f, 0.821f, 0.318f},
                               {0.741f, 0.873f, 0.150f}, {0.993f, 0.906f, 0.144f}};
constexpr int kScaleStops = sizeof kScale / sizeof kScale[0];

ImVec4 scale_rgb(float level) {
  const float t = std::clamp(level, 0.0f, 1.0f) * (kScaleStops - 1);
  const int i = std::min(static_cast<int>(t), kScaleStops - 2);
  const float f = t - static_cast<float>(i);
  return ImVec4(kScale[i][0] + (kScale[i + 1][0] - kScale[i][0]) * f,
                kScale[i][1] + (kScale[i + 1][1] - kScale[i][1]) * f,
                kScale[i][2] + (kScale[i + 1][2] - kScale[i][2]) * f, 1.0f);
}

ImVec4 mix(ImVec4 a, ImVec4 b, float t) {
  return ImVec4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, 1.0f);
}

ImU32 u32(ImVec4 c) {
  return ImGui::ColorConvertFloat4ToU32(c);
}

// The theme's colours (the current ImGui style), as the timing plot takes them.
struct Colours {
  ImVec4 text, bg;
  ImU32 u_text, u_dim, u_bg, u_grid, u_refused, u_hatch, u_failed, u_error, u_shipped;
};

Colours colours() {
  const ImGuiStyle& s = ImGui::GetStyle();
  Colours c;
  c.text = ImVec4(s.Colors[ImGuiCol_Text].x, s.Colors[ImGuiCol_Text].y, s.Colors[ImGuiCol_Text].z, 1);
  c.bg = ImVec4(s.Colors[ImGuiCol_WindowBg].x, s.Colors[ImGuiCol_WindowBg].y, s.Colors[ImGuiCol_WindowBg].z, 1);
  c.u_text = u32(c.text);
  c.u_dim = u32(mix(c.text, c.bg, 0.4f));
  c.u_bg = u32(c.bg);
  c.u_grid = u32(mix(c.text, c.bg, 0.8f));
  c.u_refused = u32(mix(c.bg, c.text, 0.22f));
  c.u_hatch = u32(mix(c.bg, c.text, 0.45f));
  // Red and amber that no stop of the scale comes near (it has no red), on either background.
  c.u_failed = IM_COL32(215, 40, 40, 255);
  c.u_error = IM_COL32(230, 140, 20, 255);
  c.u_shipped = u32(c.text);
  return c;
}

float luminance(ImVec4 c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

ImVec2 text_size(float px, const std::string& s) {
  return ImGui::GetFont()->CalcTextSizeA(px, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

void text(ImDrawList* dl, float px, ImVec2 pos, ImU32 col, const std::string& s) {
  dl->AddText(ImGui::GetFont(), px, ImVec2(std::floor(pos.x + 0.5f), std::floor(pos.y + 0.5f)), col, s.c_str(),
              s.c_str() + s.size());
}

void centred(ImDrawList* dl, float px, ImVec2 centre, ImU32 col, const std::string& s) {
  const ImVec2 sz = text_size(px, s);
  text(dl, px, ImVec2(centre.x - sz.x * 0.5f, centre.y - sz.y * 0.5f), col, s);
}

std::string gflops_text(double v) {
  char t[32];
  std::snprintf(t, sizeof t, v >= 1000 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return t;
}

void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float gap, float width) {
  dl->PushClipRect(a, b, true);
  const float h = b.y - a.y;
  for (float x = a.x - h; x < b.x; x += gap) dl->AddLine(ImVec2(x, b.y), ImVec2(x + h, a.y), col, width);
  dl->PopClipRect();
}

// A frame of dashes in `col` over a solid one in `under`, so it shows on any fill.
void dashed_rect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, ImU32 under, float width, float dash) {
  const float inset = width * 0.5f;
  a = ImVec2(a.x + inset, a.y + inset);
  b = ImVec2(b.x - inset, b.y - inset);
  dl->AddRect(a, b, under, 0, 0, width);
  const ImVec2 corners[] = {a, ImVec2(b.x, a.y), b, ImVec2(a.x, b.y), a};
  for (int side = 0; side < 4; ++side) {
    const ImVec2 p = corners[side], q = corners[side + 1];
    const float len = std::hypot(q.x - p.x, q.y - p.y);
    for (float t = 0; t < len; t += dash * 2) {
      const float u = std::min(t + dash, len);
      dl->AddLine(ImVec2(p.x + (q.x - p.x) * t / len, p.y + (q.y - p.y) * t / len),
                  ImVec2(p.x + (q.x - p.x) * u / len, p.y + (q.y - p.y) * u / len), col, width);
    }
  }
}

// Round tick values inside [lo, hi]: steps of 1, 2 or 5 times a power of ten, about `count` of them.
std::vector<double> nice_ticks(double lo, double hi, int count) {
  std::vector<double> out;
  if (!(hi > lo) || count < 2) return out;
  const double raw = (hi - lo) / (count - 1), p = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push_back(v);
  return out;
}

void star(ImDrawList* dl, ImVec2 c, float r, ImU32 fill, ImU32 edge, float width) {
  ImVec2 pts[10];
  for (int i = 0; i < 10; ++i) {
    const float a = -1.5707963f + static_cast<float>(i) * 0.6283185f;
    const float rr = i % 2 == 0 ? r : r * 0.42f;
    pts[i] = ImVec2(c.x + std::cos(a) * rr, c.y + std::sin(a) * rr);
  }
  for (int i = 0; i < 10; i += 2)  // a star is not convex: fill it as a centre fan
    dl->AddTriangleFilled(c, pts[i], pts[(i + 1) % 10], fill),
        dl->AddTriangleFilled(c, pts[(i + 9) % 10], pts[i], fill);
  dl->AddPolyline(pts, 10, edge, ImDrawFlags_Closed, width);
}

float ui_scale(float font_px) {
  return font_px / 13.0f;
}

// The widest of the y values' labels, and of the colour bar's.
float y_label_width(const LandscapeModel& m, float px) {
  float w = text_size(px, m.y_key).x;
  for (int v : m.y_values) w = std::max(w, text_size(px, std::to_string(v)).x);
  return w;
}

}  // namespace

ImU32 landscape_color(float level) {
  return u32(scale_rgb(level));
}

ImU32 landscape_refused_color() {
  return colours().u_refused;
}

LandscapeLayout layout_landscape(ImVec2 min, ImVec2 max, const LandscapeModel& m, float font_px, bool with_title) {
  LandscapeLayout l;
  const float pad = 8 * ui_scale(font_px), line = font_px * 1.35f;
  const float top = min.y + pad + (with_title ? line * 1.3f + (m.subtitle.empty() ? 0 : line) : 0) + line;
  const float bar_w = font_px * 1.2f, bar_labels = text_size(font_px, "00000.0").x;
  const float left = min.x + pad + (m.y_key.empty() ? 0 : y_label_width(m, font_px) + pad);
  const float right = max.x - pad - bar_labels - pad - bar_w - pad * 2;
  const float bottom = max.y - pad - line * 2 - line * 1.4f;  // values, the name, the key
  l.nx = static_cast<int>(m.x_values.size());
  l.ny = static_cast<int>(m.y_values.size());
  if (l.nx == 0 || l.ny == 0 || right <= left || bottom <= top) return l;
  l.cell_w = (right - left) / static_cast<float>(l.nx);
  l.cell_h = (bottom - top) / static_cast<float>(l.ny);
  l.grid_min = ImVec2(left, top);
  l.grid_max = ImVec2(right, bottom);
  return l;
}

int landscape_cell_at(const LandscapeLayout& l, ImVec2 p) {
  if (l.nx == 0 || p.x < l.grid_min.x || p.y < l.grid_min.y || p.x >= l.grid_max.x || p.y >= l.grid_max.y) return -1;
  const int x = std::min(l.nx - 1, static_cast<int>((p.x - l.grid_min.x) / l.cell_w));
  const int row_from_top = std::min(l.ny - 1, static_cast<int>((p.y - l.grid_min.y) / l.cell_h));
  return (l.ny - 1 - row_from_top) * l.nx + x;  // the y values grow upwards
}

LandscapeLayout draw_landscape(ImDrawList* dl, ImVec2 min, ImVec2 max, const LandscapeModel& m, float scale,
                               int hovered, int selected, bool fill_background) {
  const Colours c = colours();
  const float px = ImGui::GetFontSize() * scale, ui = ui_scale(px), pad = 8 * ui, line = px * 1.35f;
  if (fill_background) dl->AddRectFilled(min, max, c.u_bg);
  const bool with_title = !m.title.empty();
  if (with_title) {
    text(dl, px * 1.3f, ImVec2(min.x + pad, min.y + pad), c.u_text, m.title);
    if (!m.subtitle.empty()) text(dl, px, ImVec2(min.x + pad, min.y + pad + line * 1.3f), c.u_dim, m.subtitle);
  }
  const LandscapeLayout l = layout_landscape(min, max, m, px, with_title);
  if (l.nx == 0 || l.cell_w <= 0) {
    centred(dl, px, ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f), c.u_dim, "no points to draw yet");
    return l;
  }
  auto cell_rect = [&](int x, int y, ImVec2* a, ImVec2* b) {
    const float top = l.grid_min.y + static_cast<float>(l.ny - 1 - y) * l.cell_h;
    *a = ImVec2(l.grid_min.x + static_cast<float>(x) * l.cell_w, top);
    *b = ImVec2(a->x + l.cell_w, top + l.cell_h);
  };
  const float gap = std::max(1.0f, std::min(l.cell_w, l.cell_h) * 0.04f);
  const bool values_fit = text_size(px * 0.85f, "00000.0").x < l.cell_w - 2 * gap && px < l.cell_h - 2 * gap;
  for (std::size_t i = 0; i < m.cells.size(); ++i) {
    const LandscapeCell& cell = m.cells[i];
    ImVec2 a, b;
    cell_rect(cell.x, cell.y, &a, &b);
    a = ImVec2(a.x + gap, a.y + gap);
    b = ImVec2(b.x - gap, b.y - gap);
    const ImVec2 mid((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
    const float r = std::min(b.x - a.x, b.y - a.y) * 0.3f;
    switch (cell.status) {
      case LandscapeStatus::Ok: {
        const ImVec4 fill = scale_rgb(landscape_level(m, cell.gflops));
        dl->AddRectFilled(a, b, u32(fill));
        if (values_fit && static_cast<int>(i) != m.best)
          centred(dl, px * 0.85f, mid, luminance(fill) > 0.45f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255),
                  gflops_text(cell.gflops));
        break;
      }
      case LandscapeStatus::Refused:
        dl->AddRectFilled(a, b, c.u_refused);
        hatch(dl, a, b, c.u_hatch, std::max(5.0f, 7 * ui), std::max(1.0f, ui));
        break;
      case LandscapeStatus::Failed:
      case LandscapeStatus::Error: {
        const ImU32 col = cell.status == LandscapeStatus::Failed ? c.u_failed : c.u_error;
        dl->AddRectFilled(a, b, c.u_refused);
        dl->AddLine(ImVec2(mid.x - r, mid.y - r), ImVec2(mid.x + r, mid.y + r), col, 3 * ui);
        dl->AddLine(ImVec2(mid.x - r, mid.y + r), ImVec2(mid.x + r, mid.y - r), col, 3 * ui);
        dl->AddRect(a, b, col, 0, 0, 2 * ui);
        break;
      }
      case LandscapeStatus::Pending:
        dl->AddRect(a, b, c.u_grid, 0, 0, ui);
        break;
    }
    if (!cell.shipped.empty()) dashed_rect(dl, a, b, c.u_text, c.u_bg, 2.5f * ui, 6 * ui);
    if (cell.status == LandscapeStatus::Ok && cell.failed_points > 0) {
      // A wrong point hides under a fast one on the same cell: a red corner says it is there.
      const float t = std::min(b.x - a.x, b.y - a.y) * 0.28f;
      dl->AddTriangleFilled(ImVec2(b.x - t, a.y), ImVec2(b.x, a.y), ImVec2(b.x, a.y + t), c.u_failed);
    }
    if (static_cast<int>(i) == hovered || static_cast<int>(i) == selected)
      dl->AddRect(ImVec2(a.x - gap, a.y - gap), ImVec2(b.x + gap, b.y + gap), c.u_text, 0, 0,
                  static_cast<int>(i) == selected ? 3 * ui : 1.5f * ui);
  }
  if (m.best >= 0) {
    const LandscapeCell& best = m.cells[m.best];
    ImVec2 a, b;
    cell_rect(best.x, best.y, &a, &b);
    dl->AddRect(a, b, c.u_text, 0, 0, 3 * ui);
    dl->AddRect(ImVec2(a.x + 3 * ui, a.y + 3 * ui), ImVec2(b.x - 3 * ui, b.y - 3 * ui), c.u_bg, 0, 0, 1.5f * ui);
    const float r = std::min({l.cell_w * 0.5f, l.cell_h * 0.5f, px * 2.2f}) * 0.42f;
    const ImVec2 star_at(a.x + gap + r + 2 * ui, a.y + gap + r + 2 * ui);
    star(dl, star_at, r, IM_COL32(255, 255, 255, 255), IM_COL32(0, 0, 0, 255), std::max(1.0f, ui));
    char pct[32] = "";
    if (best.pct_of_cublas >= 0) std::snprintf(pct, sizeof pct, " (%.0f%%)", best.pct_of_cublas);
    const std::string v = gflops_text(best.gflops) +
                          (text_size(px * 0.85f, gflops_text(best.gflops) + pct).x < l.cell_w - 4 * gap ? pct : "");
    centred(dl, px * (values_fit ? 0.85f : 0.7f), ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f + r * 0.4f),
            IM_COL32(0, 0, 0, 255), v);
  }

  // Axes: the values under and beside the cells, the parameters' names.
  const std::size_t every_x =
      static_cast<std::size_t>(std::max(1.0f, std::ceil((text_size(px, "0000").x + pad) / std::max(1.0f, l.cell_w))));
  for (int x = 0; x < l.nx; x += static_cast<int>(every_x)) {
    const float cx = l.grid_min.x + (static_cast<float>(x) + 0.5f) * l.cell_w;
    centred(dl, px, ImVec2(cx, l.grid_max.y + line * 0.5f), c.u_text, std::to_string(m.x_values[x]));
  }
  centred(dl, px, ImVec2((l.grid_min.x + l.grid_max.x) * 0.5f, l.grid_max.y + line * 1.5f), c.u_text, m.x_key);
  if (!m.y_key.empty()) {
    const std::size_t every_y = static_cast<std::size_t>(std::max(1.0f, std::ceil(line / std::max(1.0f, l.cell_h))));
    for (int y = 0; y < l.ny; y += static_cast<int>(every_y)) {
      const std::string s = std::to_string(m.y_values[y]);
      const float cy = l.grid_min.y + (static_cast<float>(l.ny - 1 - y) + 0.5f) * l.cell_h;
      text(dl, px, ImVec2(l.grid_min.x - pad - text_size(px, s).x, cy - px * 0.5f), c.u_text, s);
    }
    text(dl, px, ImVec2(l.grid_min.x - pad - text_size(px, m.y_key).x, l.grid_min.y - line), c.u_text, m.y_key);
  }

  // The colour bar: GFLOP/s from the slowest timed cell to the fastest.
  const float bar_x = l.grid_max.x + pad * 2, bar_w = px * 1.2f;
  text(dl, px, ImVec2(bar_x, l.grid_min.y - line), c.u_text, "GFLOP/s");
  if (m.best >= 0) {
    const int steps = 64;
    const float h = (l.grid_max.y - l.grid_min.y) / steps;
    for (int i = 0; i < steps; ++i) {
      const float y0 = l.grid_max.y - static_cast<float>(i + 1) * h;
      dl->AddRectFilled(ImVec2(bar_x, y0), ImVec2(bar_x + bar_w, y0 + h + 0.5f),
                        landscape_color((static_cast<float>(i) + 0.5f) / steps));
    }
    dl->AddRect(ImVec2(bar_x, l.grid_min.y), ImVec2(bar_x + bar_w, l.grid_max.y), c.u_dim, 0, 0, ui);
    const int count = std::max(2, std::min(6, static_cast<int>((l.grid_max.y - l.grid_min.y) / (line * 2))));
    std::vector<double> ticks = nice_ticks(m.min_gflops, m.max_gflops, count);
    if (ticks.empty()) ticks.push_back(m.min_gflops);
    for (double v : ticks) {
      const float y = l.grid_max.y - landscape_level(m, v) * (l.grid_max.y - l.grid_min.y);
      dl->AddLine(ImVec2(bar_x + bar_w, y), ImVec2(bar_x + bar_w + pad * 0.5f, y), c.u_text, ui);
      text(dl, px, ImVec2(bar_x + bar_w + pad * 0.75f, y - px * 0.5f), c.u_text, gflops_text(v));
    }
  }

  // The key, on one line under the x axis's name.
  float kx = min.x + pad;
  const float ky = l.grid_max.y + line * 2.6f, box = px;
  auto key = [&](const std::string& label, auto&& draw_box) {
    draw_box(ImVec2(kx, ky), ImVec2(kx + box, ky + box));
    text(dl, px, ImVec2(kx + box + pad * 0.5f, ky), c.u_text, label);
    kx += box + pad * 0.5f + text_size(px, label).x + pad * 2;
  };
  key("best (starred)", [&](ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, landscape_color(1.0f));
    star(dl, ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f), box * 0.45f, IM_COL32(255, 255, 255, 255),
         IM_COL32(0, 0, 0, 255), 1);
  });
  key("refused", [&](ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, c.u_refused);
    hatch(dl, a, b, c.u_hatch, std::max(4.0f, 5 * ui), std::max(1.0f, ui));
  });
  key("failed its check", [&](ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, c.u_refused);
    dl->AddLine(a, b, c.u_failed, 2 * ui);
    dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, a.y), c.u_failed, 2 * ui);
  });
  key("error", [&](ImVec2 a, ImVec2 b) {
    dl->AddRectFilled(a, b, c.u_refused);
    dl->AddLine(a, b, c.u_error, 2 * ui);
    dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, a.y), c.u_error, 2 * ui);
  });
  key("shipped configuration", [&](ImVec2 a, ImVec2 b) { dashed_rect(dl, a, b, c.u_shipped, c.u_bg, 2 * ui, 3 * ui); });
  if (!m.y_key.empty() || l.nx > 0) {
    const std::string note = "each cell: the best over the other parameters";
    if (kx + text_size(px, note).x < max.x - pad) text(dl, px, ImVec2(kx, ky), c.u_dim, note);
  }
  return l;
}

}  // namespace tilescope
