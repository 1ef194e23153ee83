#include "app/viz/timeline_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/viz/intervals.h"

namespace tilescope {

namespace {

int consumers_of(const TimelineLayout& layout) {
  return std::clamp(layout.consumers, 0, kTimelineMaxConsumers);
}

bool stamped(double t) {
  return t >= 0;
}

// The MMA bars of consumers first .. last - 1 of a block merged where they overlap: when at least
// one of them had MMAs in flight, in time order.
std::vector<std::pair<double, double>> busy_intervals(const TimelineBlock& block, int first, int last) {
  std::vector<std::pair<double, double>> bars;
  for (const TimelineSlab& s : block.slabs)
    for (int c = first; c < last; ++c)
      if (stamped(s.started[c]) && s.done[c] >= s.started[c]) bars.emplace_back(s.started[c], s.done[c]);
  return merged_intervals(std::move(bars));
}

// How much of [lo, hi] the merged intervals cover.
double covered(const std::vector<std::pair<double, double>>& merged, double lo, double hi) {
  // The first interval that ends after lo; the ones after it start later and later.
  auto it = std::lower_bound(merged.begin(), merged.end(), lo,
                             [](const std::pair<double, double>& iv, double t) { return iv.second <= t; });
  double sum = 0;
  for (; it != merged.end() && it->first < hi; ++it) sum += std::min(hi, it->second) - std::max(lo, it->first);
  return sum;
}

}  // namespace

double block_known_end_ns(const TimelineBlock& block) {
  if (static_cast<int>(block.slabs.size()) >= block.slabs_total) return block.end;
  double last = block.begin;
  for (const TimelineSlab& s : block.slabs) {
    last = std::max({last, s.issued, s.arrived});
    for (int c = 0; c < kTimelineMaxConsumers; ++c) last = std::max({last, s.started[c], s.done[c]});
  }
  return last;
}

double block_span_ns(const TimelineBlock& block) {
  return std::max(0.0, block_known_end_ns(block) - block.begin);
}

double consumer_busy_ns(const TimelineBlock& block, int consumer) {
  if (consumer < 0 || consumer >= kTimelineMaxConsumers) return 0;
  double sum = 0;
  for (const auto& iv : busy_intervals(block, consumer, consumer + 1)) sum += iv.second - iv.first;
  return sum;
}

double block_busy_ns(const TimelineBlock& block, int consumers) {
  double sum = 0;
  for (int c = 0; c < std::min(consumers, kTimelineMaxConsumers); ++c) sum += consumer_busy_ns(block, c);
  return sum;
}

TimelineSummary summarize_timeline(const TimelineResult& result) {
  TimelineSummary out;
  out.kernel_ns = result.kernel_ns;
  out.blocks = static_cast<int>(result.blocks.size());
  const int consumers = consumers_of(result.layout);
  double latency = 0, copying = 0, hidden = 0, busy_ns = 0, span = 0;
  for (const TimelineBlock& b : result.blocks) {
    if (static_cast<int>(b.slabs.size()) < b.slabs_total) out.all_slabs_stamped = false;
    const auto busy = busy_intervals(b, 0, consumers);
    for (const TimelineSlab& s : b.slabs) {
      if (!stamped(s.issued) || s.arrived < s.issued) continue;
      ++out.slabs;
      latency += s.arrived - s.issued;
      copying += s.arrived - s.issued;
      hidden += covered(busy, s.issued, s.arrived);
    }
    busy_ns += block_busy_ns(b, consumers);
    span += block_span_ns(b);
  }
  if (out.slabs > 0) out.copy_latency_ns = latency / out.slabs;
  if (copying > 0) out.hidden_copy_fraction = hidden / copying;
  if (consumers > 0 && span > 0) out.busy_fraction = busy_ns / (consumers * span);
  return out;
}

std::string format_ns(double ns) {
  char buf[32];
  const double a = std::fabs(ns);
  // Each unit up to 999.5 of it, so that rounding never prints "1e+03 ns".
  if (a < 999.5)
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  else if (a < 999.5e3)
    std::snprintf(buf, sizeof buf, "%.3g µs", ns / 1e3);
  else if (a < 999.5e6)
    std::snprintf(buf, sizeof buf, "%.3g ms", ns / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.3g s", ns / 1e9);
  return buf;
}

std::vector<std::string> time_tick_labels(const std::vector<double>& values, double step) {
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  struct Unit {
    double ns;
    const char* name;
  };
  const Unit unit = largest < 1e3   ? Unit{1, "ns"}
                    : largest < 1e6 ? Unit{1e3, "µs"}
                    : largest < 1e9 ? Unit{1e6, "ms"}
                                    : Unit{1e9, "s"};
  // The fewest decimals that write the step exactly: 0.5 µs needs one, 0.25 two, whole units none.
  int decimals = 0;
  while (step > 0 && decimals < 9) {
    const double scaled = step / unit.ns * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
    ++decimals;
  }
  std::vector<std::string> out;
  out.reserve(values.size());
  for (double v : values) {
    if (v == 0) {
      out.emplace_back("0");
      continue;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v / unit.ns, unit.name);
    out.emplace_back(buf);
  }
  return out;
}

}  // namespace tilescope
