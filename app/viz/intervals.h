// Time intervals as the timelines add them up: a union of bars merged where they overlap.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace tilescope {

using Interval = std::pair<double, double>;  // [start, end)

// The union of the intervals, as sorted disjoint ones (touching ones joined).
inline std::vector<Interval> merged_intervals(std::vector<Interval> bars) {
  std::sort(bars.begin(), bars.end());
  std::vector<Interval> merged;
  for (const Interval& b : bars) {
    if (!merged.empty() && b.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, b.second);
    else
      merged.push_back(b);
  }
  return merged;
}

}  // namespace tilescope
