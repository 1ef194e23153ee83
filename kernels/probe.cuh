// Probes: how one kernel text gives both the timed kernel and the instrumented one (trace.h).
//
// A kernel takes a last template parameter `typename Probe` and a last argument `Probe probe`,
// and lets the probe do three things, one short call at each site:
//   probe.k_end(K, depth)           the end of the K loop, whose phases are `depth` deep
//   probe.load(Operand::A, A, i)    returns A[i]; with a last argument T (&r)[W], loads the W
//                                   elements A[i .. i+W) into r as one vector instead
//   probe.store(C, i, v, slot)      C[i] = v, stored by accumulator `slot` of this thread; v may
//                                   be T (&)[W], stored as one vector by slots slot .. slot+W-1
//   probe.copy_async(op, dst, A, i, n)  cp.async of the 16 bytes at A + i into shared dst, of
//                                   which the first n elements are inside the matrix (the rest
//                                   zero-filled; n = 0 reads nothing)
// Kernels whose copies are TMA boxes (one thread issues a whole tile) report each box with
// probe.tma_box(op, x0, y0, box_x, box_y, width, height): the box at column x0, row y0 of a
// matrix `width` columns wide and `height` rows high, of which only what lies inside is read.
// A persistent kernel, whose block computes several tiles, says which tile's block it works as with
// probe.at_block(linear) (the tile's index in block_order.h's order), so its stores carry the
// writer ids of the model's one-block-per-tile grid. A kernel whose C leaves shared memory by TMA
// stores says which element each accumulator went to with probe.staged(i, slot).
// Pipelined kernels also stamp their ring of stages (timeline.h): block_begin, issued(n),
// arrived(n), started(consumer, n), done(consumer, n), block_end(slabs); only TimelineProbe
// (timeline_probe.cuh) records them, and kObserves tells the kernel to run the observer that
// stamps arrivals.
// Kernels whose accumulators reach C through shared memory (a lane other than the owner stores
// them) pass the owner's id along: probe.writer_id(slot) in the owner lane, then
// probe.store_from(C, i, v, id) (v and id may be arrays of W) in the storing lane; kRecordsWriters
// says whether the ids are kept at all (the timed build drops them).
// NoProbe, the timed build, does exactly that and nothing else: it is empty, its loads and
// stores are the plain accesses and k_end returns K, so the timed kernel compiles as if no probe
// existed. TraceProbe, the instrumented build, also counts every element loaded, records the
// writer of every element stored, and ends the K loop after the trace's phase limit.
#pragma once

#include <cstdint>

#include "kernel_common.cuh"
#include "mma_ptx.cuh"
#include "trace.h"

namespace tilescope {

// Which read counter a load of the instrumented build adds to. The second operand of AᵀA is A,
// but its loads are still Operand::B (trace.h: b_reads is then the same buffer as a_reads).
enum class Operand { A, B };

// The pipeline stamps, empty: the timed and the traced builds record no times.
struct NoPipelineStamps {
  static constexpr bool kObserves = false;
  __device__ __forceinline__ void block_begin() const {}
  __device__ __forceinline__ void issued(int /*slab*/) const {}
  __device__ __forceinline__ void arrived(int /*slab*/) const {}
  __device__ __forceinline__ void started(int /*consumer*/, int /*slab*/) const {}
  __device__ __forceinline__ void done(int /*consumer*/, int /*slab*/) const {}
  __device__ __forceinline__ void block_end(int /*slabs*/) const {}
};

struct NoProbe : NoPipelineStamps {
  static constexpr bool kRecordsWriters = false;

  __device__ __forceinline__ void tma_box(Operand, std::int64_t, std::int64_t, int, int, std::int64_t,
                                          std::int64_t) const {}
  __device__ __forceinline__ void at_block(int /*linear*/) {}
  __device__ __forceinline__ void staged(std::int64_t /*i*/, int /*slot*/) const {}

  __device__ __forceinline__ int k_end(int K, int /*depth*/) const { return K; }

  template <typename T>
  __device__ __forceinline__ void copy_async(Operand, T* shared_dst, const T* src, std::int64_t i, int n) const {
    cp_async_16(shared_dst, n > 0 ? src + i : src, n * static_cast<int>(sizeof(T)));
  }

  __device__ __forceinline__ int writer_id(int /*slot*/) const { return 0; }
  template <typename T>
  __device__ __forceinline__ void store_from(T* dst, std::int64_t i, T v, int /*id*/) const {
    dst[i] = v;
  }
  template <typename T, int W>
  __device__ __forceinline__ void store_from(T* dst, std::int64_t i, const T (&v)[W], const int (&)[W]) const {
    store_vec<T, W>(dst + i, v);
  }

  template <typename T>
  __device__ __forceinline__ T load(Operand, const T* src, std::int64_t i) const {
    return src[i];
  }
  template <typename T, int W>
  __device__ __forceinline__ void load(Operand, const T* src, std::int64_t i, T (&r)[W]) const {
    load_vec<T, W>(src + i, r);
  }

  template <typename T>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, T v, int /*slot*/) const {
    dst[i] = v;
  }
  template <typename T, int W>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, const T (&v)[W], int /*slot*/) const {
    store_vec<T, W>(dst + i, v);
  }
};

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
  __device__ __forceinline__ void at_block(int linear) { block = linear; }
  // Element i of C is stored by a copy engine (a TMA store) from what this thread's accumulator
  // `slot` wrote into shared memory: recorded as this thread's store.
  __device__ __forceinline__ void staged(std::int64_t i, int slot) const { wrote(i, slot); }

  template <typename T>
  __device__ __forceinline__ void copy_async(Operand op, T* shared_dst, const T* src, std::int64_t i, int n) const {
    cp_async_16(shared_dst, n > 0 ? src + i : src, n * static_cast<int>(sizeof(T)));
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
    record(i, id);
  }
  template <typename T, int W>
  __device__ __forceinline__ void store_from(T* dst, std::int64_t i, const T (&v)[W], const int (&ids)[W]) const {
    store_vec<T, W>(dst + i, v);
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
    return src[i];
  }
  // A vector load counts each of its elements, as the mapping models do.
  template <typename T, int W>
  __device__ __forceinline__ void load(Operand op, const T* src, std::int64_t i, T (&r)[W]) const {
    load_vec<T, W>(src + i, r);
#pragma unroll
    for (int w = 0; w < W; ++w) count(op, i + w);
  }

  template <typename T>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, T v, int slot) const {
    dst[i] = v;
    wrote(i, slot);
  }
  template <typename T, int W>
  __device__ __forceinline__ void store(T* dst, std::int64_t i, const T (&v)[W], int slot) const {
    store_vec<T, W>(dst + i, v);
#pragma unroll
    for (int w = 0; w < W; ++w) wrote(i + w, slot + w);
  }

 private:
  __device__ __forceinline__ void count(Operand op, std::int64_t i) const {
    atomicAdd(&(op == Operand::A ? trace.a_reads : trace.b_reads)[i], 1u);
  }
  // A second store to the same element leaves -2, whatever the order: only the first exchange
  // sees -1, and every later one writes -2 after its own exchange.
  __device__ __forceinline__ void wrote(std::int64_t i, int slot) const {
    record(i, writer_id(slot));
  }
  __device__ __forceinline__ void record(std::int64_t i, int id) const {
    if (atomicExch(&trace.writer[i], id) != -1) atomicExch(&trace.writer[i], -2);
  }
};

}  // namespace tilescope
