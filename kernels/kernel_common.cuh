// Small helpers shared by the CUDA variants.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda_check.h"
#include "gemm_types.h"
#include "trace.h"

namespace tilescope {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// A launch grid, refused (not launched) when the matrix needs more blocks than CUDA allows.
inline dim3 checked_grid(std::int64_t x, std::int64_t y) {
  if (x > 2147483647 || y > 65535)
    throw GpuError("the matrix needs a grid of " + std::to_string(x) + " x " + std::to_string(y) +
                   " blocks; CUDA allows 2147483647 x 65535");
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

// ---- the instrumented build (kTrace) ---------------------------------------------------------
// Called only under `if constexpr (kTrace)`, so the timed kernels compile as if absent.

// One global load of element `index` of an operand.
__device__ __forceinline__ void trace_load(unsigned* reads, std::int64_t index) { atomicAdd(&reads[index], 1u); }

// One store to element `index` of C by this thread's accumulator `slot`. A second store to the
// same element leaves -2, whatever the order: only the first exchange sees -1, and every later
// one writes -2 after its own exchange.
__device__ __forceinline__ void trace_store(int* writer, std::int64_t index, int slot) {
  const int id = trace_writer_id(static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x),
                                 static_cast<int>(blockDim.x * blockDim.y),
                                 static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x), slot);
  if (atomicExch(&writer[index], id) != -1) atomicExch(&writer[index], -2);
}

}  // namespace tilescope
