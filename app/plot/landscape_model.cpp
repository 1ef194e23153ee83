#include "app/plot/landscape_model.h"

#include <algorithm>
#include <cstdio>

namespace tilescope {
namespace {

int value_of(const TileValues& values, const std::string& key) {
  for (const auto& [k, v] : values)
    if (k == key) return v;
  return 0;
}

// Where `v` sits in the sorted `values`, -1 when it is not there.
int index_of(const std::vector<int>& values, int v) {
  const auto it = std::lower_bound(values.begin(), values.end(), v);
  return it != values.end() && *it == v ? static_cast<int>(it - values.begin()) : -1;
}

std::vector<int> values_of(const std::vector<LandscapePoint>& points, const std::string& key) {
  std::vector<int> out;
  for (const LandscapePoint& p : points) out.push_back(key.empty() ? 0 : value_of(p.values, key));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Whether a shipped configuration is a point of the sweep: each of its values is among the
// values the sweep takes for that parameter.
bool on_grid(const TileValues& shipped, const std::vector<LandscapePoint>& points) {
  for (const LandscapePoint& p : points) {
    bool same = true;
    for (const auto& [k, v] : p.values) same = same && value_of(shipped, k) == v;
    if (same) return true;
  }
  return false;
}

std::string number(const char* format, double v) {
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

}  // namespace

LandscapeModel build_landscape(const LandscapeInput& input) {
  LandscapeModel m;
  m.x_key = input.x_key;
  m.y_key = input.y_key;
  m.points = input.points;
  m.title = input.title;
  m.subtitle = input.subtitle;
  m.baseline_gflops = input.baseline_gflops;
  if (input.points.empty() || input.x_key.empty()) return m;
  m.x_values = values_of(input.points, input.x_key);
  m.y_values = values_of(input.points, input.y_key);
  m.cells.resize(m.x_values.size() * m.y_values.size());
  for (std::size_t i = 0; i < m.cells.size(); ++i) {
    m.cells[i].x = static_cast<int>(i % m.x_values.size());
    m.cells[i].y = static_cast<int>(i / m.x_values.size());
  }
  for (std::size_t i = 0; i < input.points.size(); ++i) {
    const LandscapePoint& p = input.points[i];
    const int x = index_of(m.x_values, value_of(p.values, input.x_key));
    const int y = input.y_key.empty() ? 0 : index_of(m.y_values, value_of(p.values, input.y_key));
    LandscapeCell& c = m.cells[static_cast<std::size_t>(y) * m.x_values.size() + x];
    ++c.points;
    c.ok_points += p.status == LandscapeStatus::Ok;
    c.failed_points += p.status == LandscapeStatus::Failed;
    // The most telling outcome among the cell's points, and of Ok ones the fastest.
    if (c.points == 1 || p.status > c.status || (p.status == LandscapeStatus::Ok && p.gflops > c.gflops)) {
      c.status = p.status;
      c.reason = p.status == LandscapeStatus::Ok ? "" : p.reason;
      c.gflops = p.status == LandscapeStatus::Ok ? p.gflops : 0;
      c.pct_of_cublas = p.status == LandscapeStatus::Ok ? p.pct_of_cublas : -1;
      c.point = static_cast<int>(i);
    }
  }
  bool any = false;
  for (std::size_t i = 0; i < m.cells.size(); ++i) {
    const LandscapeCell& c = m.cells[i];
    if (c.status != LandscapeStatus::Ok) continue;
    if (!any || c.gflops > m.cells[m.best].gflops) m.best = static_cast<int>(i);
    m.min_gflops = any ? std::min(m.min_gflops, c.gflops) : c.gflops;
    m.max_gflops = any ? std::max(m.max_gflops, c.gflops) : c.gflops;
    any = true;
  }
  for (const auto& [name, values] : input.shipped) {
    if (!on_grid(values, input.points)) continue;
    const int x = index_of(m.x_values, value_of(values, input.x_key));
    const int y = input.y_key.empty() ? 0 : index_of(m.y_values, value_of(values, input.y_key));
    std::string& s = m.cells[static_cast<std::size_t>(y) * m.x_values.size() + x].shipped;
    s += (s.empty() ? "" : ", ") + name;
  }
  return m;
}

float landscape_level(const LandscapeModel& m, double gflops) {
  if (m.max_gflops <= m.min_gflops) return 0.5f;
  return static_cast<float>(std::clamp((gflops - m.min_gflops) / (m.max_gflops - m.min_gflops), 0.0, 1.0));
}

std::string landscape_cell_text(const LandscapeModel& m, const LandscapeCell& c) {
  std::string text;
  if (c.point >= 0) {
    for (const auto& [k, v] : m.points[c.point].values) text += (text.empty() ? "" : " ") + k + "=" + std::to_string(v);
  } else {
    text = m.x_key + "=" + std::to_string(m.x_values[c.x]);
    if (!m.y_key.empty()) text += " " + m.y_key + "=" + std::to_string(m.y_values[c.y]);
  }
  text += "\n";
  switch (c.status) {
    case LandscapeStatus::Ok:
      text += number("%.1f GFLOP/s", c.gflops);
      if (c.pct_of_cublas >= 0) text += number(", %.0f%% of cuBLAS", c.pct_of_cublas);
      if (c.failed_points > 0)
        text += "\n" + std::to_string(c.failed_points) + " other point" + (c.failed_points == 1 ? "" : "s") +
                " on this cell FAILED its check";
      if (c.points > 1)
        text += "\nthe best of " + std::to_string(c.ok_points) + " timed point" + (c.ok_points == 1 ? "" : "s") +
                " of " + std::to_string(c.points) + " on this cell";
      break;
    case LandscapeStatus::Refused:
      text += "refused: " + c.reason;
      break;
    case LandscapeStatus::Failed:
      text += "FAILED its check: " + c.reason;
      break;
    case LandscapeStatus::Error:
      text += "error: " + c.reason;
      break;
    case LandscapeStatus::Pending:
      text += "not timed yet";
      break;
  }
  if (!c.shipped.empty()) text += "\nshipped configuration: " + c.shipped;
  return text;
}

}  // namespace tilescope
