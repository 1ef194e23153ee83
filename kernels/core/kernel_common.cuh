// Small helpers shared by the CUDA variants' launch files: the host ones here; the device ones are
// in device-only headers that kernel texts include (vector_access.cuh comes along from here too).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/core/gemm_types.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/ptx/vector_access.cuh"

namespace tilescope {

// A launch grid, refused (not launched) when the matrix needs more blocks than CUDA allows.
inline dim3 checked_grid(std::int64_t x, std::int64_t y) {
  if (x > 2147483647 || y > 65535)
    throw GpuError("the matrix needs a grid of " + std::to_string(x) + " x " + std::to_string(y) +
                   " blocks; CUDA allows 2147483647 x 65535");
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

}  // namespace tilescope
