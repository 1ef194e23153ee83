// `tilescope tune --png`: the landscape of a sweep drawn headless (an EGL context of its own, the
// PNG's size) and written as a PNG. The window build installs it into the tune command (main.cpp).
#pragma once

#include <string>

#include "app/cli/tune_points.h"

namespace tilescope {

// False with *error when no OpenGL context can be made, the table has no points, or the file
// cannot be written.
bool write_landscape_png(const std::string& path, int width, int height, const TuneTable& table,
                         const std::string& x_key, const std::string& y_key, std::string* error);

}  // namespace tilescope
