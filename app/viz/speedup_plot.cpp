#include "app/viz/speedup_plot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "kernels/core/text_format.h"

namespace tilescope {
namespace {

// Speed-ups from a file are read as they are; the axis stops at these powers of two (2^-6 and
// 2^20), and the efficiency at 400%, rather than spanning a nonsense figure.
constexpr int kLowestExponent = -6, kHighestExponent = 20;
constexpr double kHighestEfficiency = 4;
constexpr double kEfficiencyStep = 0.2;  // its ticks: 0%, 20%, .. 100%

bool plottable(double v) {
  return std::isfinite(v) && v > 0;
}

// The power of two at or below (down) or at or above (up) a positive value, within the axis's limits.
double power_of_two(double v, bool up) {
  const double e = up ? std::ceil(std::log2(v) - 1e-9) : std::floor(std::log2(v) + 1e-9);
  return std::exp2(std::clamp(e, static_cast<double>(kLowestExponent), static_cast<double>(kHighestExponent)));
}

}  // namespace

float Log2Axis::at(double value) const {
  const double span = std::log2(hi) - std::log2(lo);
  const double v = std::clamp(plottable(value) ? value : lo, lo, hi);
  const double t = span > 0 ? (std::log2(v) - std::log2(lo)) / span : 0;
  return from + static_cast<float>(t) * (to - from);
}

std::vector<double> Log2Axis::ticks() const {
  std::vector<double> out;
  for (double v = lo; v <= hi * (1 + 1e-9); v *= 2) out.push_back(v);
  return out;
}

float LinearAxis::at(double value) const {
  const double v = std::clamp(std::isfinite(value) ? value : lo, lo, hi);
  return from + static_cast<float>(hi > lo ? (v - lo) / (hi - lo) : 0) * (to - from);
}

float SpeedupPlot::y_of(double speedup_value, int gpus_count) const {
  if (shows == ModelAxis::Speedup) return speedup.at(speedup_value);
  return efficiency.at(gpus_count > 0 ? speedup_value / gpus_count : 0);
}

std::vector<double> SpeedupPlot::y_ticks() const {
  if (shows == ModelAxis::Speedup) return speedup.ticks();
  std::vector<double> out;
  for (int i = 0; i * kEfficiencyStep <= efficiency.hi + 1e-9; ++i) out.push_back(i * kEfficiencyStep);
  return out;
}

float SpeedupPlot::tick_y(double tick) const {
  return shows == ModelAxis::Speedup ? speedup.at(tick) : efficiency.at(tick);
}

std::string SpeedupPlot::y_label(double tick) const {
  if (shows == ModelAxis::Efficiency) return format("%.0f%%", 100 * tick);
  return tick >= 1 ? format("%gx", tick) : format("1/%gx", 1 / tick);
}

SpeedupPlot lay_out_speedup_plot(const std::vector<PredictedSplit>& splits, ModelAxis shows, float x0, float y0,
                                 float x1, float y1) {
  double most_gpus = 2, lowest = 1, highest = 2, most_efficient = 1;
  for (const PredictedSplit& s : splits)
    for (const PredictedPoint& p : s.points) {
      most_gpus = std::max(most_gpus, static_cast<double>(p.gpus));
      for (double v : {p.prediction.speedup, p.measured_speedup})
        if (plottable(v)) {
          lowest = std::min(lowest, v);
          highest = std::max(highest, v);
          most_efficient = std::max(most_efficient, v / p.gpus);
        }
    }
  SpeedupPlot plot;
  plot.shows = shows;
  plot.gpus.lo = 1;
  plot.gpus.hi = power_of_two(most_gpus, true);
  plot.gpus.from = x0;
  plot.gpus.to = x1;
  plot.speedup.lo = power_of_two(lowest, false);
  plot.speedup.hi = std::max(plot.gpus.hi, power_of_two(highest, true));  // the ideal line fits
  plot.speedup.from = y1;
  plot.speedup.to = y0;
  // From 0, to the tick above the most efficient point, and a little room above it.
  plot.efficiency.hi =
      std::ceil(std::min(most_efficient, kHighestEfficiency) / kEfficiencyStep - 1e-9) * kEfficiencyStep + 0.1;
  plot.efficiency.from = y1;
  plot.efficiency.to = y0;
  return plot;
}

PointHit point_at(const SpeedupPlot& plot, const std::vector<PredictedSplit>& splits, float x, float y, float radius) {
  PointHit best;
  float nearest = radius * radius;
  for (std::size_t s = 0; s < splits.size(); ++s)
    for (std::size_t i = 0; i < splits[s].points.size(); ++i) {
      const PredictedPoint& p = splits[s].points[i];
      for (const bool measured : {true, false}) {
        const double v = measured ? p.measured_speedup : p.prediction.speedup;
        if (!plottable(v)) continue;
        const float dx = plot.gpus.at(p.gpus) - x, dy = plot.y_of(v, p.gpus) - y;
        const float d = dx * dx + dy * dy;
        if (d < nearest) {  // the measured marker first: it wins a tie
          nearest = d;
          best = PointHit{static_cast<int>(s), i, measured};
        }
      }
    }
  return best;
}

std::vector<std::string> split_names(const std::vector<PredictedSplit>& splits) {
  std::map<std::string, int> uses;
  for (const PredictedSplit& s : splits) ++uses[s.example->split_config];
  std::vector<std::string> out;
  for (const PredictedSplit& s : splits) {
    const RunResult& r = *s.example;
    out.push_back(uses[r.split_config] > 1 ? r.split + ":" + r.split_config : r.split_config);
  }
  return out;
}

std::string point_words(const std::string& name, const PredictedPoint& p) {
  std::string out = format("%s on %d GPU%s: predicted %.2fx (%.0f%%)", name.c_str(), p.gpus, p.gpus == 1 ? "" : "s",
                           p.prediction.speedup, 100.0 * p.prediction.efficiency);
  if (p.measured_speedup > 0) out += format(", measured %.2fx", p.measured_speedup);
  return out;
}

}  // namespace tilescope
