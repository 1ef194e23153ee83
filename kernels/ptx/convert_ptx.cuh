// FP32 values rounded to a 16-bit type on their way out (C stored in the input type). Device-only
// (no host header), so that NVRTC compiles it as an include of a kernel text.
#pragma once

#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// Two floats rounded to nearest (even) into one word of two 16-bit values, `lo` in the lower half,
// which is the lower address in memory. cvt's packed forms put their first source in the upper half.
__device__ __forceinline__ std::uint32_t pack_bf16x2(float lo, float hi) {
  std::uint32_t d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}
__device__ __forceinline__ std::uint32_t pack_f16x2(float lo, float hi) {
  std::uint32_t d;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}

}  // namespace tilescope
