#include "kernels/multi/split_layout.h"

#include <algorithm>
#include <cmath>

namespace tilescope {

std::int64_t packed_offset(const std::vector<Block>& blocks, std::size_t i) {
  std::int64_t offset = 0;
  for (std::size_t j = 0; j <= i && j < blocks.size(); ++j) {
    if (blocks[j].at >= 0) offset = blocks[j].at;
    if (j < i) offset += blocks[j].elements();
  }
  return offset;
}

std::int64_t packed_elements(const std::vector<Block>& blocks) {
  std::int64_t end = 0;
  for (std::size_t i = 0; i < blocks.size(); ++i) end = std::max(end, packed_offset(blocks, i) + blocks[i].elements());
  return end;
}

std::vector<std::int64_t> balanced_cuts(std::int64_t total, int parts, std::int64_t multiple) {
  parts = std::max(parts, 1);
  multiple = std::max<std::int64_t>(multiple, 1);
  const std::int64_t units = (total + multiple - 1) / multiple;  // the last unit may be partial
  std::vector<std::int64_t> cuts(parts + 1, 0);
  for (int p = 1; p <= parts; ++p) cuts[p] = std::min(total, units * p / parts * multiple);
  cuts[parts] = total;
  return cuts;
}

std::vector<std::int64_t> triangle_row_cuts(std::int64_t n, int parts, std::int64_t multiple) {
  parts = std::max(parts, 1);
  multiple = std::max<std::int64_t>(multiple, 1);
  // Rows [0, r) hold T(r) = r (2n - r + 1) / 2 elements; band p ends where T reaches p/parts of
  // the whole: r = ((2n + 1) - sqrt((2n + 1)^2 - 8 T)) / 2.
  const double whole = static_cast<double>(n) * (n + 1) / 2.0, b = 2.0 * n + 1.0;
  std::vector<std::int64_t> cuts(parts + 1, 0);
  for (int p = 1; p < parts; ++p) {
    const double t = whole * p / parts;
    const double r = (b - std::sqrt(std::max(0.0, b * b - 8.0 * t))) / 2.0;
    // Rounding moves the cut by up to half a step, (step / 2)(n - r) elements of the band's work.
    std::int64_t step = multiple;
    while (step > 1 && static_cast<double>(step) / 2.0 * static_cast<double>(n - r) > 0.01 * whole / parts) step /= 2;
    const std::int64_t rounded = std::llround(r / static_cast<double>(step)) * step;
    cuts[p] = std::clamp<std::int64_t>(rounded, cuts[p - 1], n);
  }
  cuts[parts] = n;
  return cuts;
}

int panel_count(std::int64_t cols, std::int64_t min_width, int most) {
  const std::int64_t fit = cols / std::max<std::int64_t>(min_width, 1);
  return static_cast<int>(std::clamp<std::int64_t>(fit, 1, std::max(most, 1)));
}

}  // namespace tilescope
