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
  // when nothing stored it, -2 when it was stored more than once. Initialise to -1. nullptr (with
  // a_reads and b_reads): not recorded, as in a run that only records one warp's addresses.
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
  // One warp's addresses (the Mapping tab's memory view; warp_access.h): the lanes of warp
  // record_warp of block record_block (block_order.h's tile index for persistent kernels) write,
  // at each of their first record_steps executions of a recorded stream (RecordedStream in
  // recorded_streams.h), the byte
  // address they accessed: from the start of the matrix for global memory, from the start of the
  // block's shared memory for shared memory. addresses[(stream * record_steps + step) * 32 + lane];
  // initialise to -1. nullptr: nothing recorded.
  long long* addresses = nullptr;
  // The recorded warp's executions of each stream so far, per lane: [stream * 32 + lane],
  // initialised to 0 (in memory rather than in every thread's registers: only 32 threads use it).
  int* executions = nullptr;
  int record_block = -1;
  int record_warp = 0;
  int record_steps = 0;
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
