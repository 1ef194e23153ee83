// PNG files, written atomically (into memory with stb_image_write from Debian's libstb-dev,
// then a temporary file in the same folder and a rename, through export/atomic_file).
// libstb-dev ships stb's implementation compiled in libstb (pkg-config `stb`): include the
// headers only, never define STB_IMAGE_WRITE_IMPLEMENTATION / STB_IMAGE_IMPLEMENTATION.
#pragma once

#include <string>

#include "app/platform/image.h"

namespace tilescope {

// False and *error ("cannot write /x/y.png: No such file or directory") on failure; nothing is
// left behind then, and an existing file at `path` is kept as it was.
bool write_png(const std::string& path, const Image& image, std::string* error);
// Reads a PNG as RGBA8, top row first (tests, and to check what was written).
bool read_png(const std::string& path, Image* out, std::string* error);

}  // namespace tilescope
