// The part of the shared vocabulary (gemm_types.h, which includes this) that device code uses
// too: the problem and the input type (kernel texts take them as template arguments) and
// ceil_div. No host header, so that the kernel texts, which NVRTC compiles alone, include it, and
// gemm_types.h keeps the one definition.
#pragma once

#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// The two problems of the product card.
//   Gemm: C (M x N) = A (M x K) * B (K x N), all row-major.
//   Ata:  C (N x N) = A^T * A with A (K x N) row-major (the seed project's problem);
//         C is symmetric, M == N.
enum class Problem { Gemm, Ata };
// The input type of a run. F32 and F64 keep their values 0 and 1 (settings and histories
// stored them before the others existed). TF32 inputs are floats with a 10-bit mantissa (stored
// as float, the tensor cores' own format); F16 and BF16 are stored in 2 bytes. Every type but
// F64 accumulates and writes C in float (F16 and BF16 in their own type where a configuration says
// so: OutputType, gemm_types.h); F64 in double.
enum class Precision { F32, F64, TF32, F16, BF16 };

// Accumulator slots per thread that writer ids leave room for, unless a model says otherwise
// (MappingModel::writer_slots).
constexpr int kTraceSlots = 64;

// How many pieces of length b (> 0) cover a: tiles, blocks, chunks.
TILESCOPE_HOST_DEVICE constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace tilescope
