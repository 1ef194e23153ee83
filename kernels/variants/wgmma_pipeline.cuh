// wgmma_tma's bookkeeping, kept out of its kernel text (06_wgmma_tma.cuh) so that the text reads
// as the algorithm: where the ring of stages lies in shared memory, a position in the ring, the
// tiles a block computes, a consumer thread's place in its warpgroup, where C goes, and the
// swizzled address of a float in a box of C. S is a configuration's WgShape (06_wgmma_tma.cuh).
// This header is device-only (no host header, so NVRTC compiles it as the kernel text's include).
#pragma once

#include "kernels/core/block_order.h"
#include "kernels/core/gemm_basics.h"
#include "kernels/core/stream_k.h"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/wgmma_ptx.cuh"

namespace tilescope {

// The block's dynamic shared memory, as shared_bytes_of sizes it: the ring on a 1024-byte boundary
// (the swizzle works on address bits), its stages one after the other (A's tile, then B's); then
// the stages' mbarriers, "full" then "empty", in a block of 1024 bytes; then the C boxes.
template <typename S>
struct Ring {
  unsigned char* base;
  std::uint64_t* full;     // full[s]: the producer arrived and stage s's bytes have all landed
  std::uint64_t* empty;    // empty[s]: every consumer warp of the cluster is done with stage s
  unsigned char* c_boxes;  // two boxes of C per consumer warpgroup (tma_store configurations)

  __device__ __forceinline__ explicit Ring(unsigned char* shared_raw) {
    const std::uint32_t raw = shared_address(shared_raw);
    base = shared_raw + ((raw + kSwizzleAtom - 1) / kSwizzleAtom * kSwizzleAtom - raw);
    full = reinterpret_cast<std::uint64_t*>(base + S::p.stages * S::kStageBytes);
    empty = full + S::p.stages;
    c_boxes = base + S::p.stages * S::kStageBytes + kSwizzleAtom;
  }
  __device__ __forceinline__ unsigned char* a_tile(int stage) const { return base + stage * S::kStageBytes; }
  __device__ __forceinline__ unsigned char* b_tile(int stage) const { return a_tile(stage) + S::kATileBytes; }
};

// A position in the ring: the stage, the parity of the ring's pass its barriers are waited on
// with, and n, the block's slab count (the timeline's stamps are numbered by it). The producer,
// the observer and each consumer keep their own and step it alike, slab by slab.
template <int kStages>
struct RingCursor {
  int stage = 0, n = 0;
  std::uint32_t phase = 0;

  // Past the last stage: stage 0 again, in the next pass (the other parity).
  __device__ __forceinline__ void advance() {
    const bool wrap = ++stage == kStages;
    stage = wrap ? 0 : stage;
    phase ^= wrap ? 1u : 0u;
    ++n;
  }
};

// Split K: the slabs of one part, K being cut in `split` parts of whole slabs `bk` deep (the last
// part's slabs past K are zeros). BlockWork (below) and the launch's timeline layout both count
// so. (By value: a kernel passes its constexpr shape's members, which device code may not bind.)
__host__ __device__ constexpr int part_slabs_of(std::int64_t k, int bk, int split) {
  return static_cast<int>(ceil_div(ceil_div(k, bk), split));
}

// What a block computes: C is M x N, each tile `slabs` slabs of bk deep (the traced build may stop
// early). The work: tiles in block_order.h's order (bands of p.band block rows), or for clusters groups of p.cluster
// block rows of one block column in that order, the block taking the group's row of its rank. A block takes works
// first, first + step, ... below `works`: one, or for the persistent configurations every grid-th.
// Split K (p.split parts): work w is part w % split of tile w / split, `part_slabs` slabs from slab
// part * part_slabs on. Every part has as many (the last one's slabs past `slabs` are zeros).
// Stream-K: the whole tiles as above, then the block's run of the shared-out iterations (StreamShare),
// cut where it crosses into the next tile. The producer, the observer and each consumer walk the
// runs alike: for (WorkRun r = work.begin(); work.more(r); work.next(r)).
template <typename S, bool kAta>
struct BlockWork {
  int M, N, K;
  int grid_m, grid_n;
  unsigned rank;  // the block's rank in its cluster (0 without clusters)
  int group_rows, works, first, step, slabs, part_slabs;
  StreamShare share;  // stream-K's (unused without it)

  __device__ __forceinline__ BlockWork(int m, int n, int k, int k_end)
      : M(m),
        N(n),
        K(k),
        grid_m(static_cast<int>(ceil_div(m, S::p.bm))),
        grid_n(static_cast<int>(ceil_div(n, S::p.bn))),
        rank(S::p.cluster > 1 ? cluster_rank() : 0),
        group_rows(static_cast<int>(ceil_div(grid_m, S::p.cluster))),
        works(S::p.split *
              (S::p.cluster > 1 ? group_rows * grid_n : static_cast<int>(block_tile_count(kAta, grid_m, grid_n)))),
        first(static_cast<int>(blockIdx.x) / S::p.cluster),
        step(S::p.persistent ? static_cast<int>(gridDim.x) / S::p.cluster : works),
        slabs(static_cast<int>(ceil_div(k_end, S::p.bk))),
        part_slabs(part_slabs_of(k_end, S::p.bk, S::p.split)) {
    if constexpr (S::p.stream_k) share = StreamShare(works, slabs, step);
  }

  // The block's runs in turn.
  __device__ __forceinline__ WorkRun begin() const {
    if constexpr (S::p.stream_k) return share.first_run(first);
    WorkRun r;
    r.w = first;
    whole_run(r);
    return r;
  }
  __device__ __forceinline__ bool more(const WorkRun& r) const {
    if constexpr (S::p.stream_k) return share.more(first, r);
    return r.w < works;
  }
  __device__ __forceinline__ void next(WorkRun& r) const {
    if constexpr (S::p.stream_k) {
      share.next_run(first, r);
    } else {
      r.w += step;
      whole_run(r);
    }
  }
  // Where a stream-K run takes the shared-out iterations of its tile: from the tile's first iteration
  // (the block that adds the others' sums) or from inside it.
  __device__ __forceinline__ bool starts_tile(const WorkRun& r) const { return r.slab0 == 0; }
  __device__ __forceinline__ bool ends_tile(const WorkRun& r) const { return r.slab0 + r.slabs == slabs; }

  __device__ __forceinline__ BlockTile tile(int index) const {
    if (S::p.cluster == 1) return block_tile(kAta, index, grid_m, grid_n, S::p.band);
    const BlockTile group = gemm_block_tile(index, group_rows, grid_n, S::p.band);
    return BlockTile{group.row * S::p.cluster + static_cast<int>(rank), group.col};
  }
  // The slabs this block goes through, for the timeline's last stamp.
  __device__ __forceinline__ int block_slabs() const {
    if constexpr (S::p.stream_k) return share.block_slabs(first);
    return part_slabs * ((works - first + step - 1) / step);
  }

 private:
  // Work r.w's tile and slabs (split K: its part's).
  __device__ __forceinline__ void whole_run(WorkRun& r) const {
    r.tile = r.w / S::p.split;
    r.slab0 = (r.w % S::p.split) * part_slabs;
    r.slabs = part_slabs;
  }
};

// The workspace of split K and stream-K (the launch allocates it; unused without them): slots of a
// consumer warpgroup's partial sums (128 threads x their accumulators), each with its mark, 0 until
// the slot is filled (the launch zeroes the marks first). Split K: per tile, per part but the last and
// per consumer warpgroup; stream-K: per block and consumer warpgroup (a block's first shared-out run
// is the only one that may begin inside a tile).
struct SplitParts {
  float* partials;
  unsigned* marks;
};

// A consumer thread: its warpgroup among the consumers (0 for the block's warpgroup 1), its warp
// in the group and its lane; the group's leader (its thread 0) stamps the timeline and issues the
// C stores.
struct ConsumerThread {
  int group, warp, lane;
  bool leader;

  __device__ __forceinline__ explicit ConsumerThread(int warpgroup)
      : group(warpgroup - 1),
        warp((static_cast<int>(threadIdx.x) / 32) % 4),
        lane(static_cast<int>(threadIdx.x) % 32),
        leader(threadIdx.x % 128 == 0) {}
};

// Where C goes: the matrix, of elements T (float, or the 16-bit input type's bits), for the stores
// from the registers (vec: a pair of neighbours in one store) and, for the TMA stores, its maps:
// c_map boxes of 64 rows of 128 bytes (32 floats or 64 16-bit values), m_map (AᵀA's mirrors) 32 x
// 32 floats; use_maps false where C's rows are not 16-byte aligned.
template <typename T>
struct CDestination {
  T* C;
  bool vec;
  const CUtensorMap* c_map;
  const CUtensorMap* m_map;
  bool use_maps;
};

// Float `col` of row `row` in a box of 128-byte rows, 128-byte swizzled as the TMA reads it:
// 16-byte chunk c of row r sits at chunk c ^ (r % 8).
__device__ __forceinline__ float* sw128_float(unsigned char* box, int row, int col) {
  return reinterpret_cast<float*>(box + row * 128 + ((col / 4) ^ (row % 8)) * 16) + col % 4;
}
// The same place as a byte offset, for the mapping model (host code) and the register-sourced
// consumers' fragment places (worked out once per tile). sw128_float keeps its own spelling:
// written through this function, the compiler schedules the timed kernels' epilogues differently.
__host__ __device__ constexpr int sw128_float_byte(int row, int col) {
  return row * 128 + ((col / 4) ^ (row % 8)) * 16 + (col % 4) * 4;
}
// A 16-bit element's place, `col` of row `row` (64 to a 128-byte row), as a byte offset: a box of C
// stored in the input type.
__host__ __device__ constexpr int sw128_half_byte(int row, int col) {
  return row * 128 + ((col / 8) ^ (row % 8)) * 16 + (col % 8) * 2;
}

}  // namespace tilescope
