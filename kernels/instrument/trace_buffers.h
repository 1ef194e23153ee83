// What an instrumented kernel records into (trace.h tells the whole story): the buffers its
// TraceProbe (probe.cuh) carries by value, and how a writer is numbered. Device-safe, no host
// header, so that NVRTC compiles the instrumented build of a typed tile as the build does.
#pragma once

#include "kernels/core/gemm_basics.h"

namespace tilescope {

// What the instrumented kernels record into, passed by value inside their TraceProbe. Device
// pointers; the timed kernels never see it (their NoProbe is empty).
struct TraceBuffers {
  // Per element of C (row-major): the id of the thread that stored it (trace_writer_id), -1
  // when nothing stored it, -2 when it was stored more than once. Initialise to -1.
  int* writer = nullptr;
  // Per element of the stored A and B: global loads, a vector load counting each of its
  // elements. AᵀA: b_reads must be the same buffer as a_reads (B is A), as the model counts.
  unsigned* a_reads = nullptr;
  unsigned* b_reads = nullptr;
  // p >= 0: run only the first p phases of the K loop (tiled variants: the k < p * BK slabs;
  // naive, whose K loop is one phase: p = 0 computes nothing, p >= 1 all of K). Loads of later
  // phases, prefetches included, are not issued. C is still stored, so it holds the partial
  // sums. p < 0: the whole loop.
  int phase_limit = -1;
  // Accumulator slots per thread in the writer ids (the model's writer_slots()).
  int slots = kTraceSlots;
};

// The writer id: ((block_linear * threads_per_block) + thread_linear) * slots + slot, with
// block_linear = blockIdx.y * gridDim.x + blockIdx.x, thread_linear = threadIdx.y *
// blockDim.x + threadIdx.x and slot the accumulator of the thread (regtile_prefetch: i * TN + j
// of acc[i][j]; the tensor-core kernels: the accumulator register of the lane), below `slots`,
// the model's writer_slots(). An AᵀA mirror store carries the id of the accumulator it copies.
TILESCOPE_HOST_DEVICE constexpr int trace_writer_id(int block_linear, int threads_per_block, int thread_linear,
                                                    int slot, int slots = kTraceSlots) {
  return (block_linear * threads_per_block + thread_linear) * slots + slot;
}

}  // namespace tilescope
