// How many kernel compiles the window runs at once.
#pragma once

#include <algorithm>
#include <thread>

namespace tilescope {

// Every core but one: NVRTC keeps a core busy for each compile, and the core left over draws the
// window's frames (on a machine without a GPU, llvmpipe draws them on the CPU too).
inline int window_compile_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
}

}  // namespace tilescope
