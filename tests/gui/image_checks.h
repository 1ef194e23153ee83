// Pixel checks shared by the GUI tests: is a screenshot blank, does a colour appear in it, is a
// pixel exactly a colour, is a read-back whole.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <set>

#include "app/platform/image.h"

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

struct Rgba {
  int r, g, b, a;
};

inline Rgba rgba_at(const Image& image, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + x) * 4;
  return {image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
}

// Exact colours, to the unit: where nothing is blended (inside an opaque filled rectangle, the
// clear colour) llvmpipe and NVIDIA agree.
inline void expect_pixel(const Image& image, int x, int y, Rgba want) {
  const Rgba got = rgba_at(image, x, y);
  EXPECT_NEAR(got.r, want.r, 1) << "red at (" << x << ", " << y << ")";
  EXPECT_NEAR(got.g, want.g, 1) << "green at (" << x << ", " << y << ")";
  EXPECT_NEAR(got.b, want.b, 1) << "blue at (" << x << ", " << y << ")";
  EXPECT_NEAR(got.a, want.a, 1) << "alpha at (" << x << ", " << y << ")";
}

// Whether `image` is width x height with every pixel's four bytes there: what a read-back must
// be before its pixels can be looked at.
inline ::testing::AssertionResult has_size(const Image& image, int width, int height) {
  const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  if (image.width == width && image.height == height && image.rgba.size() == bytes)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the image is " << image.width << " x " << image.height << " with "
                                       << image.rgba.size() << " bytes, not " << width << " x " << height << " with "
                                       << bytes;
}

}  // namespace tilescope::testing
