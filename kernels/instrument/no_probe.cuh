// Probes: how one kernel text gives both the timed kernel and the instrumented one (trace.h).
// This header is device-only (no host header, so NVRTC compiles it as a kernel text's include):
// the protocol, and NoProbe, the timed build's probe. TraceProbe is in probe.cuh.
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
//   probe.shared(stream, p)         the shared-memory access at p that the next statement makes
//                                   (or the one before it), recorded as `stream` (trace_buffers.h:
//                                   a kernel numbers its shared accesses from kRecordShared)
// Kernels whose copies are TMA boxes (one thread issues a whole tile) report each box with
// probe.tma_box(op, x0, y0, box_x, box_y, width, height): the box at column x0, row y0 of a
// matrix `width` columns wide and `height` rows high, of which only what lies inside is read.
// A box of the operand's transposed copy (whose rows are the operand's columns) is reported as
// probe.tma_box_transposed(op, x0, y0, box_x, box_y, width, height): x runs along the operand's
// rows, y along its columns; width and height are still the operand's own.
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

#include "kernels/instrument/recorded_streams.h"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/mma_ptx.cuh"
#include "kernels/ptx/vector_access.cuh"

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
  __device__ __forceinline__ void tma_box_transposed(Operand, std::int64_t, std::int64_t, int, int, std::int64_t,
                                                     std::int64_t) const {}
  __device__ __forceinline__ void at_block(int /*linear*/) {}
  __device__ __forceinline__ void staged(std::int64_t /*i*/, int /*slot*/) const {}

  __device__ __forceinline__ int k_end(int K, int /*depth*/) const { return K; }
  __device__ __forceinline__ void shared(int /*stream*/, const void* /*p*/) const {}

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

}  // namespace tilescope
