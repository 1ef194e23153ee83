// The plot's arithmetic: axis mapping, ticks with short labels, auto-fit, hit-testing.
#include "app/plot/plot_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tilescope {

namespace {

bool is_log(AxisScale s) {
  return s != AxisScale::Linear;
}

double log_base(AxisScale s, double v) {
  return s == AxisScale::Log2 ? std::log2(v) : std::log10(v);
}

double pow_base(AxisScale s, double e) {
  return s == AxisScale::Log2 ? std::exp2(e) : std::pow(10.0, e);
}

// Removes trailing zeros after a decimal point ("2.50" -> "2.5", "3.0" -> "3").
std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = trim_zeros(buf);
  if (s == "-0") s = "0";  // -0.0 after rounding reads as a bug on an axis
  return s;
}

// Decimals needed to tell values `step` apart (step 0.05 -> 2, step 500 -> 0).
int decimals_for(double step) {
  if (!(step > 0) || step >= 1) return 0;
  // The small epsilon keeps 0.1 (stored as 0.1000000000000000055) from asking for 2 digits.
  return std::min(15, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
}

// A tick label: thousands as k/M/G/T once the value reaches them ("10k", "2.5k", "1.5M"), as
// long as the step is coarse enough that the suffixed form needs at most two decimals; plain
// decimals otherwise ("12", "0.5", "1024.5").
std::string short_label(double v, double step) {
  static const struct {
    double div;
    const char* suffix;
  } units[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  const double a = std::fabs(v);
  for (const auto& u : units) {
    if (a >= u.div && step >= u.div / 100) return fixed(v / u.div, decimals_for(step / u.div)) + u.suffix;
  }
  return fixed(v, decimals_for(step));
}

// A label for a value on a log axis, where there is no common step: up to 3 significant digits
// with a k/M/G suffix; tiny or huge values in exponent form.
std::string log10_label(double v) {
  const double a = std::fabs(v);
  if (a != 0 && (a < 1e-4 || a >= 1e15)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }
  const double mag = a > 0 ? std::pow(10.0, std::floor(std::log10(a))) : 1;
  return short_label(v, mag / 100);
}

// Sizes on a log2 axis read best as the integers people type (1024, 4096, 16384); past 2^20
// those get long, so the exponent form takes over. Fractions stay decimal down to 1/16.
std::string log2_label(int e) {
  if (e > 20 || e < -4) return "2^" + std::to_string(e);
  if (e >= 0) return std::to_string(1LL << e);
  return fixed(std::exp2(e), -e);
}

double nice_step(double span, int target) {
  const double raw = span / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  double nice = 10;
  if (norm < 1.5)
    nice = 1;
  else if (norm < 3)
    nice = 2;
  else if (norm < 7)
    nice = 5;
  return nice * mag;
}

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
  std::vector<Tick> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= std::fabs(hi) * 1e-13 || hi == lo) {
    // A degenerate range still gets its one value labelled.
    ticks.push_back({lo, short_label(lo, std::fabs(lo) > 0 ? std::fabs(lo) / 1000 : 1), true});
    return ticks;
  }
  double step = nice_step(hi - lo, target);
  double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
  // Rounding the step up can leave a single tick in view ([12, 9.9M] at 5M steps): step down
  // the 1-2-5 ladder until two show, which is what makes an axis readable at all.
  for (int guard = 0; last - first < 1 && guard < 8; ++guard) {
    const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const double norm = std::round(step / mag);
    step = norm >= 5 ? 2 * mag : norm >= 2 ? mag : mag / 2;
    first = std::ceil(lo / step - 1e-9);
    last = std::floor(hi / step + 1e-9);
  }
  // Multiplying (not accumulating) keeps 0.1 + 0.1 + 0.1 from drifting to 0.30000000000000004.
  for (double i = first; i <= last && ticks.size() < 1000; i += 1) {
    double v = i * step;
    if (std::fabs(v) < step * 1e-9) v = 0;
    ticks.push_back({v, short_label(v, step), true});
  }
  return ticks;
}

// Every `stride`-th power labelled so that many octaves or decades do not crowd the axis; the
// labelled ones sit on multiples of the stride so they do not jump while the user zooms.
int label_stride(int powers, int target) {
  const int room = std::max(2, target + target / 2);  // log labels are short; allow ~1.5x
  return std::max(1, (powers + room - 1) / room);
}

std::vector<Tick> log2_ticks(const Axis& a, int target) {
  const double l0 = std::log2(a.lo), l1 = std::log2(a.hi);
  const int e0 = static_cast<int>(std::ceil(l0 - 1e-9)), e1 = static_cast<int>(std::floor(l1 + 1e-9));
  const int powers = e1 - e0 + 1;
  // Less than two powers in view: the powers alone cannot show the scale.
  if (powers < 2) return linear_ticks(a.lo, a.hi, target);
  const int stride = label_stride(powers, target);
  std::vector<Tick> ticks;
  for (int e = e0 - 1; e <= e1; ++e) {
    const double p = std::exp2(e);
    if (e >= e0) {
      const bool major = e % stride == 0;
      ticks.push_back({p, major ? log2_label(e) : std::string(), major});
    }
    // 1.5 * 2^e (1536, 3072, 6144): sizes people try between the powers, worth a grid line when
    // few octaves are shown; labelled when very few are.
    const double mid = 1.5 * p;
    if (powers <= 4 && mid >= a.lo * (1 - 1e-12) && mid <= a.hi * (1 + 1e-12)) {
      const bool label = powers <= 2 && e >= -1 && e <= 20;
      ticks.push_back({mid, label ? fixed(mid, e >= 0 ? 0 : 1 - e) : std::string(), label});
    }
  }
  std::sort(ticks.begin(), ticks.end(), [](const Tick& x, const Tick& y) { return x.value < y.value; });
  return ticks;
}

std::vector<Tick> log10_ticks(const Axis& a, int target) {
  const double l0 = std::log10(a.lo), l1 = std::log10(a.hi);
  const int e0 = static_cast<int>(std::ceil(l0 - 1e-9)), e1 = static_cast<int>(std::floor(l1 + 1e-9));
  const double decades = l1 - l0;
  // Under a decade, 1-2-5 steps of a linear axis read better than a lone power.
  if (decades < 1) return linear_ticks(a.lo, a.hi, target);
  const int powers = e1 - e0 + 1;
  const int stride = label_stride(powers, target);
  std::vector<Tick> ticks;
  for (int e = static_cast<int>(std::floor(l0 + 1e-9)); e <= e1; ++e) {
    const double p = std::pow(10.0, e);
    if (e >= e0) {
      const bool major = e % stride == 0;
      ticks.push_back({p, major ? log10_label(p) : std::string(), major});
    }
    // 2x and 5x each power: labelled when the axis shows two decades or less, grid lines only
    // up to five; beyond that they would only darken the plot.
    if (decades <= 5) {
      for (double m : {2.0, 5.0}) {
        const double v = m * p;
        if (v < a.lo * (1 - 1e-12) || v > a.hi * (1 + 1e-12)) continue;
        const bool label = decades <= 2;
        ticks.push_back({v, label ? log10_label(v) : std::string(), label});
      }
    }
  }
  std::sort(ticks.begin(), ticks.end(), [](const Tick& x, const Tick& y) { return x.value < y.value; });
  return ticks;
}

}  // namespace

double Axis::to_unit(double v) const {
  if (is_log(scale)) {
    if (!(v > 0) || !(lo > 0) || !(hi > 0)) return std::numeric_limits<double>::quiet_NaN();
    const double a = log_base(scale, lo), b = log_base(scale, hi);
    if (a == b) return 0.5;
    return (log_base(scale, v) - a) / (b - a);
  }
  if (hi == lo) return 0.5;
  return (v - lo) / (hi - lo);
}

double Axis::from_unit(double u) const {
  if (is_log(scale)) {
    if (!(lo > 0) || !(hi > 0)) return std::numeric_limits<double>::quiet_NaN();
    const double a = log_base(scale, lo), b = log_base(scale, hi);
    return pow_base(scale, a + u * (b - a));
  }
  return lo + u * (hi - lo);
}

std::vector<Tick> make_ticks(const Axis& axis, int target) {
  target = std::max(2, target);
  if (is_log(axis.scale)) {
    if (!(axis.lo > 0) || !(axis.hi > 0) || !std::isfinite(axis.lo) || !std::isfinite(axis.hi)) return {};
    Axis a = axis;
    if (a.hi < a.lo) std::swap(a.lo, a.hi);
    return axis.scale == AxisScale::Log2 ? log2_ticks(a, target) : log10_ticks(a, target);
  }
  return linear_ticks(axis.lo, axis.hi, target);
}

Axis auto_fit(const std::vector<PlotSeriesData>& series, const std::vector<ReferenceLine>& refs, bool y_axis,
              AxisScale scale) {
  const bool log = is_log(scale);
  double mn = std::numeric_limits<double>::infinity(), mx = -mn;
  auto take = [&](double v) {
    if (!std::isfinite(v) || (log && !(v > 0))) return;  // a log axis cannot show <= 0
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  };
  for (const auto& s : series) {
    if (!s.visible) continue;
    for (const auto& p : s.points) take(y_axis ? p.y : p.x);
  }
  // Reference lines are horizontal: they matter to the y range only.
  if (y_axis)
    for (const auto& r : refs) take(r.y);

  Axis a;
  a.scale = scale;
  if (!(mn <= mx)) {
    switch (scale) {
      case AxisScale::Linear:
        a.lo = 1, a.hi = 2;
        break;  // per the header's contract
      case AxisScale::Log2:
        a.lo = 256, a.hi = 8192;
        break;  // a typical matrix-size sweep
      case AxisScale::Log10:
        a.lo = 1, a.hi = 1000;
        break;
    }
    return a;
  }
  if (log) {
    double l0 = log_base(scale, mn), l1 = log_base(scale, mx);
    if (l1 - l0 < 1e-9) l0 -= 0.5, l1 += 0.5;  // one value: half a power either side
    const double m = 0.05 * (l1 - l0);
    a.lo = pow_base(scale, l0 - m);
    a.hi = pow_base(scale, l1 + m);
    return a;
  }
  double lo = mn, hi = mx;
  if (hi - lo <= std::max(std::fabs(lo), std::fabs(hi)) * 1e-12) {
    // One value: a span of 10% of it (or 1 around zero) so the point sits mid-axis.
    const double half = mn != 0 ? std::fabs(mn) * 0.05 : 0.5;
    lo = mn - half, hi = mn + half;
  }
  const double m = 0.05 * (hi - lo);
  a.lo = lo - m;
  a.hi = hi + m;
  return a;
}

std::vector<PlotColumn> aggregate_columns(const std::vector<PlotPoint>& points, const Axis& x, const Axis& y,
                                          double width_px) {
  std::vector<PlotColumn> out;
  if (points.empty()) return out;
  const double w = std::max(1.0, std::ceil(width_px));
  // Sorted by x (most series are already: then this costs one pass).
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto by_x = [&](std::size_t a, std::size_t b) { return points[a].x < points[b].x; };
  if (!std::is_sorted(order.begin(), order.end(), by_x)) std::stable_sort(order.begin(), order.end(), by_x);

  std::vector<double> ys;  // the current column's y values, for its median
  long long column = std::numeric_limits<long long>::min();
  double x_sum = 0;
  bool gap = false;
  auto close = [&](PlotColumn& c) {
    if (ys.empty()) return;
    auto mid = ys.begin() + static_cast<std::ptrdiff_t>(ys.size() / 2);
    std::nth_element(ys.begin(), mid, ys.end());
    double median = *mid;
    if (ys.size() % 2 == 0) median = 0.5 * (median + *std::max_element(ys.begin(), mid));
    c.y_median = median;
    c.x = x_sum / static_cast<double>(ys.size());
    c.count = static_cast<int>(ys.size());
    ys.clear();
    x_sum = 0;
  };
  for (std::size_t i : order) {
    const PlotPoint& p = points[i];
    const double ux = x.to_unit(p.x), uy = y.to_unit(p.y);
    if (!std::isfinite(ux) || !std::isfinite(uy)) {
      gap = true;  // the axis cannot show it: the line breaks here
      continue;
    }
    // -1: left of the area, w: right of it; each keeps only its point nearest to the area.
    const long long col = ux < 0 ? -1 : ux >= 1 ? static_cast<long long>(w) : static_cast<long long>(ux * w);
    const bool outside = col < 0 || col >= static_cast<long long>(w);
    if (col != column || gap) {
      if (!out.empty()) close(out.back());
      out.push_back(PlotColumn{});
      out.back().starts_run = gap;
      out.back().y_min = out.back().y_max = p.y;
      column = col;
      gap = false;
    } else if (outside && col < 0) {
      // Left of the area: the later point is nearer; start the column again from it.
      ys.clear();
      x_sum = 0;
      out.back().y_min = out.back().y_max = p.y;
    } else if (outside) {
      continue;  // right of the area: the first point is the nearest
    }
    PlotColumn& c = out.back();
    c.y_min = std::min(c.y_min, p.y);
    c.y_max = std::max(c.y_max, p.y);
    ys.push_back(p.y);
    x_sum += p.x;
  }
  if (!out.empty()) close(out.back());
  return out;
}

Hit hit_test(const std::vector<PlotSeriesData>& series, const Axis& x, const Axis& y, double width_px, double height_px,
             double mouse_x_px, double mouse_y_px, double radius_px) {
  Hit best;
  double best_d2 = radius_px * radius_px;
  for (size_t si = 0; si < series.size(); ++si) {
    const auto& s = series[si];
    if (!s.visible) continue;
    for (size_t pi = 0; pi < s.points.size(); ++pi) {
      const double px = x.to_unit(s.points[pi].x) * width_px;
      const double py = (1 - y.to_unit(s.points[pi].y)) * height_px;  // screen y grows downwards
      if (!std::isfinite(px) || !std::isfinite(py)) continue;
      const double dx = px - mouse_x_px, dy = py - mouse_y_px, d2 = dx * dx + dy * dy;
      // Strictly nearer wins, so of coincident points the first series listed is reported.
      if (d2 < best_d2 || (best.series < 0 && d2 <= best_d2)) {
        best_d2 = d2;
        best.series = static_cast<int>(si);
        best.point = static_cast<int>(pi);
      }
    }
  }
  if (best.series >= 0) best.distance_px = std::sqrt(best_d2);
  return best;
}

}  // namespace tilescope
