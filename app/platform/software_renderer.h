// Whether a GL_RENDERER string names one of Mesa's software rasterisers (llvmpipe, softpipe),
// which draw on the CPU: there GL_TIME_ELAPSED undercounts runs of several passes, the draws of
// all contexts of one display share one rasterizer, and work that a GPU does in milliseconds
// takes seconds.
#pragma once

#include <string>

namespace tilescope {

inline bool software_renderer(const std::string& gl_renderer) {
  return gl_renderer.find("llvmpipe") != std::string::npos || gl_renderer.find("softpipe") != std::string::npos;
}

}  // namespace tilescope
