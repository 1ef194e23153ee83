// An RGBA8 image in memory, rows top to bottom: screenshots and exported plots.
#pragma once

#include <cstdint>
#include <vector>

namespace tilescope {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
};

// The part of `image` from (x, y), w x h pixels, clipped to the image (empty where nothing is left).
inline Image cropped(const Image& image, int x, int y, int w, int h) {
  const int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
  const int x1 = x + w > image.width ? image.width : x + w, y1 = y + h > image.height ? image.height : y + h;
  Image out;
  if (x1 <= x0 || y1 <= y0) return out;
  out.width = x1 - x0;
  out.height = y1 - y0;
  out.rgba.resize(static_cast<std::size_t>(out.width) * out.height * 4);
  for (int row = 0; row < out.height; ++row)
    for (int b = 0; b < out.width * 4; ++b)
      out.rgba[(static_cast<std::size_t>(row) * out.width * 4) + b] =
          image.rgba[(static_cast<std::size_t>(y0 + row) * image.width + x0) * 4 + b];
  return out;
}

}  // namespace tilescope
