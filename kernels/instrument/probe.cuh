// TraceProbe, the instrumented build's probe (trace.h): the protocol every probe follows, and
// NoProbe, the timed build's, are in no_probe.cuh, the device-only header that kernel texts
// include; this one is device-safe too (trace_buffers.h), so that NVRTC compiles a typed tile's
// instrumented build, but the kernel texts do not include it: the launch files choose the probe.
#pragma once

#include "kernels/instrument/no_probe.cuh"
#include "kernels/instrument/trace_buffers.h"

namespace tilescope {

// The recording of one address, out of line: a kernel's unrolled loops call it at every access,
// and inlined it would hold the addresses of all of them in registers at once.
__device__ __noinline__ inline void note_address(const TraceBuffers& trace, int block, int stream, long long address) {
  const int linear = block >= 0 ? block : static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x);
  const int thread = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  if (linear != trace.record_block || thread / 32 != trace.record_warp) return;
  const int step = trace.executions[stream * 32 + thread % 32]++;
  if (step < trace.record_steps)
    trace.addresses[(static_cast<long long>(stream) * trace.record_steps + step) * 32 + thread % 32] = address;
}

struct TraceProbe : NoPipelineStamps {
  static constexpr bool kRecordsWriters = true;
  TraceBuffers trace;
  int block = -1;  // at_block's tile index; -1: the launch's own block index

  __host__ __device__ explicit TraceProbe(const TraceBuffers& t) : trace(t) {}

  // Counts the box's elements that lie inside the matrix (the TMA reads no others).
  __device__ __forceinline__ void tma_box(Operand op, std::int64_t x0, std::int64_t y0, int box_x, int box_y,
                                          std::int64_t width, std::int64_t height) const {
    for (std::int64_t y = y0; y < y0 + box_y && y < height; ++y)
      for (std::int64_t x = x0; x < x0 + box_x && x < width; ++x) count(op, y * width + x);
  }
  __device__ __forceinline__ void tma_box_transposed(Operand op, std::int64_t x0, std::int64_t y0, int box_x, int box_y,
                                                     std::int64_t width, std::int64_t height) const {
    for (std::int64_t y = y0; y < y0 + box_y && y < width; ++y)
      for (std::int64_t x = x0; x < x0 + box_x && x < height; ++x) count(op, x * width + y);
  }
  __device__ __forceinline__ void at_block(int linear) { block = linear; }
  __device__ __forceinline__ void shared(int stream, const void* p) const {
    note(stream, static_cast<long long>(__cvta_generic_to_shared(p)));
  }
  // Element i of C is stored by a copy engine (a TMA store) from what this thread's accumulator
  // `slot` wrote into shared memory: recorded as this thread's store.
  __device__ __forceinline__ void staged(std::int64_t i, int slot) const { wrote(i, slot); }

  template <typename T>
  __device__ __forceinline__ void copy_async(Operand op, T* shared_dst, const T* src, std::int64_t i, int n) const {
    cp_async_16(shared_dst, n > 0 ? src + i : src, n * static_cast<int>(sizeof(T)));
    if (n > 0) note(op == Operand::A ? kRecordLoadA : kRecordLoadB, i * static_cast<long long>(sizeof(T)));
    for (int w = 0; w < n; ++w) count(op, i + w);
  }

  // The id of accumulator `slot` of this thread (trace_writer_id).
  __device__ __forceinline__ int writer_id(int slot) const {
    return trace_writer_id(block >= 0 ? block : static_cast<int>(blockIdx.y * gridDim.x + blockIdx.x),
                           static_cast<int>(blockDim.x * blockDim.y),
                           static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x), slot, trace.slots);
  }
  template <typename T>
  __device__ __forceinline__ void store_from(T* dst, std::int64_t i, T v, int id) const {
    dst[i] = v;
    note(kRecordStoreC, i * static_cast<long long>(sizeof(T)));
    record(i, id);
  }
  template <typename T, int W>
  __device__ __forceinline__ void store_from(T* dst, std::int64_t i, const T (&v)[W], const int (&ids)[W]) const {
    store_vec<T, W>(dst + i, v);
    note(kRecordStoreC, i * static_cast<long long>(sizeof(T)));
#pragma unroll
    for (int w = 0; w < W; ++w) record(i + w, ids[w]);
  }

  // Phase limit p >= 0: the K loop stops after p phases (k < p * depth), or at K if sooner.
  // A kernel whose whole K loop is one phase passes depth = K: p = 0 ends it at 0, p >= 1 at K.
  __device__ __forceinline__ int k_end(int K, int depth) const {
    if (trace.phase_limit < 0) return K;
    const std::int64_t end = static_cast<std::int64_t>(trace.phase_limit) * depth;
    return end < K ? static_cast<int>(end) : K;
  }

  template <typename T>
  __device__ __forceinline__ T load(Operand op, const T* src, std::int64_t i) const {
    count(op, i);
    note(op == Operand::A ? kRecordLoadA : kRecordLoadB, i * static_cast<long long>(sizeof(T)));
    return src[i];
  }
  // A vector load counts each of its elements, as the mapping models do.
  template <typename T, int W>
  __device__ __forceinline__ void load(Operand op, const T* src, std::int64_t i, T (&r)[W]) const {
    load_vec<T, W>(src + i, r);
    note(op == Operand::A ? kRecordLoadA : kRecordLoadB, i * static_cast<long long>(sizeof(T)));
#pragma unroll
    for (int w = 0; w < W; ++w) count(op, i + w);
  }

  template <typename T>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, T v, int slot) const {
    dst[i] = v;
    note(kRecordStoreC, i * static_cast<long long>(sizeof(T)));
    wrote(i, slot);
  }
  template <typename T, int W>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, const T (&v)[W], int slot) const {
    store_vec<T, W>(dst + i, v);
    note(kRecordStoreC, i * static_cast<long long>(sizeof(T)));
#pragma unroll
    for (int w = 0; w < W; ++w) wrote(i + w, slot + w);
  }

 private:
  // The address of this thread's next execution of `stream`, kept where it belongs to the
  // recorded warp (trace.record_*) and within the steps recorded.
  __device__ __forceinline__ void note(int stream, long long address) const {
    if (trace.addresses) note_address(trace, block, stream, address);
  }
  __device__ __forceinline__ void count(Operand op, std::int64_t i) const {
    if (trace.a_reads) atomicAdd(&(op == Operand::A ? trace.a_reads : trace.b_reads)[i], 1u);
  }
  // A second store to the same element leaves -2, whatever the order: only the first exchange
  // sees -1, and every later one writes -2 after its own exchange.
  __device__ __forceinline__ void wrote(std::int64_t i, int slot) const {
    record(i, writer_id(slot));
  }
  __device__ __forceinline__ void record(std::int64_t i, int id) const {
    if (trace.writer && atomicExch(&trace.writer[i], id) != -1) atomicExch(&trace.writer[i], -2);
  }
};

}  // namespace tilescope
