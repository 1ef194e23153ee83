#include "app/viz/split_timeline.h"

#include <algorithm>
#include <map>
#include <utility>

#include "app/viz/intervals.h"

namespace tilescope {
namespace {

double length(const std::vector<Interval>& v) {
  double sum = 0;
  for (const Interval& i : v) sum += i.second - i.first;
  return sum;
}

// The length of the intersection of two unions of disjoint sorted intervals.
double overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  double sum = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) sum += hi - lo;
    (a[i].second < b[j].second) ? ++i : ++j;
  }
  return sum;
}

}  // namespace

SplitTimeline lay_out_split_timeline(const std::vector<RunSpan>& spans) {
  SplitTimeline t;
  int gpus = 0;
  for (const RunSpan& s : spans) {
    gpus = std::max(gpus, s.gpu + 1);
    t.end_ms = std::max(t.end_ms, s.end_ms);
  }
  for (int g = 0; g < gpus; ++g) {
    t.rows.push_back({g, SpanStream::Compute});
    t.rows.push_back({g, SpanStream::Transfer});
  }
  for (const RunSpan& s : spans) t.row_of_span.push_back(2 * s.gpu + (s.stream == SpanStream::Transfer ? 1 : 0));
  return t;
}

std::vector<GpuBusy> busy_of(const std::vector<RunSpan>& spans) {
  std::map<int, std::pair<std::vector<Interval>, std::vector<Interval>>> by_gpu;
  for (const RunSpan& s : spans) {
    auto& [compute, transfer] = by_gpu[s.gpu];
    (s.stream == SpanStream::Compute ? compute : transfer).push_back({s.start_ms, s.end_ms});
  }
  std::vector<GpuBusy> out;
  for (auto& [gpu, streams] : by_gpu) {
    const std::vector<Interval> compute = merged_intervals(streams.first), transfer = merged_intervals(streams.second);
    out.push_back({gpu, length(compute), length(transfer), overlap(compute, transfer)});
  }
  return out;
}

}  // namespace tilescope
