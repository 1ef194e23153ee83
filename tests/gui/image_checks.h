// Pixel checks shared by the GUI tests: is a screenshot blank, does a colour appear in it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <set>

#include "platform/image.h"

namespace tilescope::testing {

// Pixels within `tolerance` (per channel) of an IM_COL32 colour (R in the low byte).
inline int count_color(const Image& img, unsigned color, int tolerance = 40) {
  const int r = color & 0xFF, g = (color >> 8) & 0xFF, b = (color >> 16) & 0xFF;
  int n = 0;
  for (std::size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    if (std::abs(img.rgba[i] - r) <= tolerance && std::abs(img.rgba[i + 1] - g) <= tolerance &&
        std::abs(img.rgba[i + 2] - b) <= tolerance)
      ++n;
  return n;
}

// Distinct colours (quantised to 5 bits per channel): a blank or single-colour frame has few.
inline std::size_t distinct_colors(const Image& img) {
  std::set<std::uint32_t> seen;
  for (std::size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    seen.insert((img.rgba[i] >> 3) << 10 | (img.rgba[i + 1] >> 3) << 5 | (img.rgba[i + 2] >> 3));
  return seen.size();
}

}  // namespace tilescope::testing
