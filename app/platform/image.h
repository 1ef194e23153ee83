// An RGBA8 image in memory, rows top to bottom: screenshots and exported plots.
#pragma once

#include <cstdint>
#include <vector>

namespace tilescope {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
};

}  // namespace tilescope
