// 05 mma_sync — the tensor cores with their fragments in the open: mma.sync PTX, ldmatrix,
// a ring of cp.async stages and an XOR-swizzled shared memory.
//
// Idea: a tensor core multiplies small matrices, not numbers. One mma.sync instruction makes the
// 32 lanes of a warp compute a 16 x 8 tile of C from a 16 x K tile of A and a K x 8 tile of B
// (K = 16 for FP16/BF16, 8 for TF32 and FP64), each lane holding a fixed piece of every operand
// in its registers — the fragment layouts of the PTX ISA, written out in mma_ptx.cuh. A warp owns
// a WM x WN warp tile of C (64 x 64: 4 x 8 instructions per k step, 128 accumulators per lane;
// 64 x 32 in FP64, whose accumulators take two registers each), a block 2 x 2 or 2 x 4 warps.
// Changed from wmma: the fragments are registers we name. Their operands come from shared memory
// through ldmatrix (one instruction gives each lane its A or B registers, four 8 x 8 matrices of
// 16-bit values at once: every 16-bit tile, and TF32's A of gemm read as 8 x 4 matrices of 32-bit
// ones) or plain loads (the other TF32 tiles, FP64). Shared memory is filled by cp.async, which
// copies global -> shared without passing through registers: a ring of `stages` buffers keeps
// stages - 1 slabs of K in flight while one is multiplied (cp.async.wait_group says how many may
// still be pending). Rows of a tile are 16-byte chunks stored at chunk c XOR f(row), so that the
// 8 rows one ldmatrix phase reads (or the rows a plain fragment load touches) fall into distinct
// banks: without the swizzle they collide (the "plain" configuration shows the cost). As f
// repeats every 8 rows, a fragment's address is the lane's own offset with the k step's chunk
// XORed in and whole rows added: two constants per load, nothing recomputed per k step.
// Three kernels, one lesson each: a tile (MmaTile: a row of the compiled set, or one a learner
// typed) names its pipeline, and the launch runs that pipeline's kernel.
//   mma_sync_kernel (Pipeline::BlockBarrier, the rows without a suffix): one block barrier per
//     slab keeps every warp in step.
//   mma_sync_fragment_pipeline_kernel (Pipeline::Fragments, the `_fp` rows): the same ring, and the
//     next k step's fragments load while this one multiplies, across slabs too, so that the wait
//     for the next slab hides behind the last k step's instructions.
//   mma_sync_mbarrier_kernel (Pipeline::Mbarriers, the `_mb` rows): per-stage mbarriers instead of
//     the block barrier (one completes when every thread's copies of a slab have landed, one when
//     every thread is done reading it), so a warp waits only for what it needs and warps may drift
//     a slab apart: the two warps sharing a scheduler stall less often at the same moment.
//   The rest is the same in all three and written once (MmaBlock, mma_sync_block.cuh): the
//   block's place in C, the copy of a slab, the fragments of a k step, the instructions and the
//   epilogue, called by each kernel in its own order.
// Thread -> C: block b of the 1-D grid owns block tile gemm_block_tile(b) (block_order.h: bands
//   of 8 block rows, so concurrent blocks share panels in L2); warp w = threadIdx.y owns warp tile
//   (w / WARPS_N, w % WARPS_N); inside it, instruction tile (mi, ni) of 16 x 8, and lane
//   l = threadIdx.x = 4g + t holds accumulator r: C(16 mi + g + 8 (r / 2), 8 ni + 2t + r % 2).
//   The trace's slot of that accumulator is (mi * NI + ni) * 4 + r.
// AᵀA (C = AᵀA, A is K x N): a 1-D grid of the upper-triangle block tiles only (upper_block_tile);
//   in a diagonal block the warps whose tile lies wholly below the diagonal only help to load.
//   C(i, j) with i <= j is stored with its mirror C(j, i). The A-operand slab is a k-major slice of
//   A: ldmatrix.trans turns it into the row fragment the instruction wants.
// Ragged sizes: copies are 16 bytes with a source size of what lies inside the matrix; the rest of
//   the chunk is zero-filled (a source size of 0 outside). Rows whose start is not 16-byte aligned
//   (a leading dimension not a multiple of 8 halves, 4 floats, 2 doubles) are copied element by
//   element instead. C is written through shared memory: each warp parks a 16-row strip of its
//   accumulators there and writes whole rows of C in 16-byte stores.
// What to look for: the fragment picture (which lane holds what), the bank picture with and
//   without the swizzle, the stages in flight; % of the measured mma.sync roof in the Roofline.
// Trace build (trace.h): the same kernels with a TraceProbe; the accumulators' writer ids travel
//   through the shared-memory strip with their values, so the trace records the (warp, lane,
//   register) that computed each element of C, not the lane that happened to store it.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (05_mma_sync.cu: descriptor, launch, mapping model), and NVRTC compiles it alone (a CPU test).
// The instruction wrappers, the swizzled tiles and the lanes' fragment coordinates are in
// mma_tiles.cuh; the shape of a tile's block (MmaShape), its shared memory and the rules a tile
// must keep (mma_tile_fault) follow the kernels.
#pragma once

#include "kernels/core/gemm_basics.h"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/mma_ptx.cuh"
#include "kernels/variants/mma_sync_block.cuh"
#include "kernels/variants/mma_tiles.cuh"

namespace tilescope {

// ---- a tile's values ---------------------------------------------------------------------------
// How a tile keeps its ring of stages in step; each has a kernel of its own below.
enum class Pipeline {
  BlockBarrier,  // one block barrier per slab: mma_sync_kernel
  Fragments,     // the same, with the next k step's fragments loading during this one's (_fp)
  Mbarriers,     // per-stage mbarriers instead of the block barrier (_mb)
};

// What a tile is (the defaults: the first row of the compiled set, 05_mma_sync.cu: a 128 x 128
// block of 4 warps of 64 x 64, 32-deep slabs, 3 stages, swizzled, one block barrier per slab).
struct MmaParams {
  int bm = 128, bn = 128, bk = 32;  // block tile of C and slab depth
  int wm = 64, wn = 64;             // warp tile
  int stages = 3;                   // buffers of the cp.async ring
  bool swizzle = true;              // XOR-swizzled tiles (false: plain row-major, with bank conflicts)
  Pipeline pipeline = Pipeline::BlockBarrier;
};

// A tile's values as one type, the kernels' template argument: the kernel's name then holds every
// value, so a row of the compiled set and a tile typed by a learner (compiled at run time) are the
// same template with other numbers.
template <int BM, int BN, int BK, int WM, int WN, int STAGES, bool SWIZZLE, Pipeline PIPELINE>
struct MmaTile {
  static constexpr MmaParams p = {BM, BN, BK, WM, WN, STAGES, SWIZZLE, PIPELINE};
};

// The shape of a tile's block for an input type and problem: after the kernels.
template <Precision P, typename Tile, bool kAta>
struct MmaShape;

// ---- one block barrier per slab ---------------------------------------------------------------
// The ring in its plainest form: stages - 1 slabs in flight, and one block barrier per slab, after
// which every thread's copies of it have landed and every warp is done with the slab before.
// blockDim = (32, warps), a 1-D grid of block tiles. Probe: NoProbe in the timed build, TraceProbe
// in the instrumented one (probe.cuh); the same for the three kernels.
template <Precision P, typename Tile, bool kAta, typename Probe>
__global__ void __launch_bounds__(MmaShape<P, Tile, kAta>::NT)
    mma_sync_kernel(const typename Tensor<P>::E* __restrict__ A, const typename Tensor<P>::E* __restrict__ B,
                    typename Tensor<P>::Acc* __restrict__ C, int M, int N, int K, bool vec_a, bool vec_b, bool vec_c,
                    Probe probe) {
  using S = MmaShape<P, Tile, kAta>;
  static_assert(S::p.pipeline == Pipeline::BlockBarrier, "the other pipelines have kernels of their own");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  trap_below_sm80<S>();
#else
  MmaBlock<S, kAta, Probe> block(A, B, C, M, N, K, vec_a, vec_b, vec_c, probe);
  MmaAccumulators<S> acc;
  zero_accumulators(acc);
  block.prologue();
  block.locate_fragments();
  for (int slab = 0; slab < block.slabs; ++slab) {
    // Slab `slab` has landed once at most stages - 2 younger groups are pending; the barrier
    // makes every thread's copies visible, and tells that everyone is done with slab - 1, whose
    // buffer the next copy reuses.
    cp_async_wait<S::p.stages - 2>();
    __syncthreads();
    if (slab + S::p.stages - 1 < block.slabs) block.copy_slab(slab + S::p.stages - 1);
    cp_async_commit();
    if (block.computes) block.multiply_slab(acc, slab % S::p.stages);
  }
  block.write_c(acc);
#endif
}

// ---- the fragment pipeline --------------------------------------------------------------------
// The fragments of the next k step load while this one multiplies, across slabs too: the wait for
// the next slab comes before the last k step's instructions, so the barrier's latency and the
// first loads of the next slab hide behind them.
template <Precision P, typename Tile, bool kAta, typename Probe>
__global__ void __launch_bounds__(MmaShape<P, Tile, kAta>::NT)
    mma_sync_fragment_pipeline_kernel(const typename Tensor<P>::E* __restrict__ A,
                                      const typename Tensor<P>::E* __restrict__ B,
                                      typename Tensor<P>::Acc* __restrict__ C, int M, int N, int K, bool vec_a,
                                      bool vec_b, bool vec_c, Probe probe) {
  using S = MmaShape<P, Tile, kAta>;
  static_assert(S::p.pipeline == Pipeline::Fragments, "this kernel is the fragment pipeline's");
  static_assert(S::KSTEPS >= 2, "the pipeline copies a slab one k step before it waits");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  trap_below_sm80<S>();
#else
  MmaBlock<S, kAta, Probe> block(A, B, C, M, N, K, vec_a, vec_b, vec_c, probe);
  MmaAccumulators<S> acc;
  MmaAFragments<S> a[2];  // this k step's and the next one's
  MmaBFragments<S> b[2];
  zero_accumulators(acc);
  block.prologue();
  block.locate_fragments();
  cp_async_wait<S::p.stages - 2>();
  __syncthreads();
  if (block.computes && block.slabs > 0) block.load_fragments(0, 0, a[0], b[0]);
  for (int slab = 0; slab < block.slabs; ++slab) {
    const int stage = slab % S::p.stages, next_stage = (slab + 1) % S::p.stages;
    const bool more = slab + 1 < block.slabs;
#pragma unroll
    for (int ks = 0; ks < S::KSTEPS; ++ks) {
      if (ks == S::KSTEPS - 1) {
        // Slab + 1 has landed once at most stages - 2 younger groups are pending; after the
        // barrier nobody reads the buffer that slab's copy, issued at the next ks == 0, reuses.
        cp_async_wait<S::p.stages - 2>();
        __syncthreads();
      }
      if (block.computes) {
        if (ks + 1 < S::KSTEPS)
          block.load_fragments(stage, ks + 1, a[(ks + 1) % 2], b[(ks + 1) % 2]);
        else if (more)
          block.load_fragments(next_stage, 0, a[(ks + 1) % 2], b[(ks + 1) % 2]);
        block.multiply(acc, a[ks % 2], b[ks % 2]);
      }
      if (ks == 0) {
        // After the instructions: their fragments are dead, so the copy's addresses find
        // registers (mma and cp.async are both volatile asm, so they stay in this order).
        if (slab + S::p.stages - 1 < block.slabs) block.copy_slab(slab + S::p.stages - 1);
        cp_async_commit();
      }
    }
  }
  block.write_c(acc);
#endif
}

// ---- per-stage mbarriers ----------------------------------------------------------------------
// Per-stage barriers instead of the block's: full[s] completes when every thread's copies of the
// slab in stage s have landed, empty[s] when every thread is done reading it. A warp waits only
// for the slab it multiplies and for the stage it refills, so the warps may drift up to a slab
// apart and the two warps of a scheduler need not stall at the same moment. A stage is refilled
// after the next slab is multiplied: stages - 2 slabs are in flight.
template <Precision P, typename Tile, bool kAta, typename Probe>
__global__ void __launch_bounds__(MmaShape<P, Tile, kAta>::NT)
    mma_sync_mbarrier_kernel(const typename Tensor<P>::E* __restrict__ A, const typename Tensor<P>::E* __restrict__ B,
                             typename Tensor<P>::Acc* __restrict__ C, int M, int N, int K, bool vec_a, bool vec_b,
                             bool vec_c, Probe probe) {
  using S = MmaShape<P, Tile, kAta>;
  static_assert(S::p.pipeline == Pipeline::Mbarriers, "this kernel is the per-stage mbarriers'");
  static_assert(S::p.stages >= 3, "a decoupled ring refills the stage of the slab before last: it needs a third");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  trap_below_sm80<S>();
#else
  MmaBlock<S, kAta, Probe> block(A, B, C, M, N, K, vec_a, vec_b, vec_c, probe);
  constexpr MmaParams p = S::p;
  MmaAccumulators<S> acc;
  zero_accumulators(acc);
  block.locate_fragments();
  // The mbarriers: after the ring and the strips.
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(shared_raw + S::barriers_at(Probe::kRecordsWriters));
  std::uint64_t* const empty = full + p.stages;
  if (block.tid == 0)
    for (int s = 0; s < p.stages; ++s) {
      mbarrier_init(&full[s], S::NT);
      mbarrier_init(&empty[s], S::NT);
    }
  __syncthreads();
  // Slab t into stage t % stages: once the slab that stage held (t - stages) is read by all, then
  // my copies, and my arrival once they have landed. Element-by-element copies (rows not 16-byte
  // aligned) are plain stores: the thread waits for its own copies and arrives itself.
  auto produce = [&](int t) {
    const int stage = t % p.stages;
    if (t >= p.stages) mbarrier_wait(&empty[stage], (t / p.stages - 1) & 1);
    block.copy_slab(t);
    cp_async_commit();
    if (vec_a && vec_b) {
      cp_async_mbarrier_arrive(&full[stage]);
    } else {
      cp_async_wait<0>();
      mbarrier_arrive(&full[stage]);
    }
  };
  for (int t = 0; t < p.stages - 1 && t < block.slabs; ++t) produce(t);
  for (int slab = 0; slab < block.slabs; ++slab) {
    const int stage = slab % p.stages;
    mbarrier_wait(&full[stage], (slab / p.stages) & 1);
    if (block.computes) block.multiply_slab(acc, stage);
    mbarrier_arrive(&empty[stage]);
    if (slab + p.stages - 1 < block.slabs) produce(slab + p.stages - 1);
  }
  block.write_c(acc);
#endif
}

// ---- the shape of a tile's block and its shared memory -----------------------------------------
// Shared memory of a configuration: the ring of stages, then reused by the epilogue's strips (per
// warp 16 rows of the warp tile, rows padded by 32 (float) or 64 (double) bytes so that the
// lanes' fragment stores spread over the banks), with the writer ids beside them in the trace.
// Warps of a block: one per warp tile.
__host__ __device__ constexpr int warps_of(const MmaParams& p) {
  return (p.bm / p.wm) * (p.bn / p.wn);
}
__host__ __device__ constexpr int strip_ld(const MmaParams& p) {
  return p.wn + 8;
}
__host__ __device__ constexpr std::size_t strip_bytes(const MmaParams& p, std::size_t bytes) {
  return static_cast<std::size_t>(warps_of(p)) * 16 * strip_ld(p) * bytes;
}
// The mbarrier kernel keeps its 2 x stages mbarriers (8 bytes each) after both.
__host__ __device__ constexpr std::size_t barriers_offset(const MmaParams& p, std::size_t elem_bytes,
                                                          std::size_t acc_bytes, bool with_ids) {
  const std::size_t pipeline = static_cast<std::size_t>(p.stages) * (p.bm + p.bn) * p.bk * elem_bytes;
  const std::size_t epilogue = strip_bytes(p, acc_bytes) + (with_ids ? strip_bytes(p, sizeof(int)) : 0);
  return ((pipeline > epilogue ? pipeline : epilogue) + 15) / 16 * 16;
}
__host__ __device__ constexpr std::size_t shared_bytes_of(const MmaParams& p, std::size_t elem_bytes,
                                                          std::size_t acc_bytes, bool with_ids) {
  return barriers_offset(p, elem_bytes, acc_bytes, with_ids) +
         (p.pipeline == Pipeline::Mbarriers ? 2 * static_cast<std::size_t>(p.stages) * sizeof(std::uint64_t) : 0);
}

// The shared-memory tiles of a slab: A is [m][k] in gemm, a k-major slice [k][m] of A in AᵀA; B is
// [k][n]. Their shapes and swizzles, for MmaShape and for the rules below.
struct MmaTileDims {
  int rows, cols;
  Swizzle swizzle;
};
__host__ __device__ constexpr MmaTileDims a_tile_dims(const MmaParams& p, Precision q, bool ata) {
  return {ata ? p.bk : p.bm, ata ? p.bm : p.bk, tile_swizzle(p.swizzle, q, ata, true)};
}
__host__ __device__ constexpr MmaTileDims b_tile_dims(const MmaParams& p, Precision q, bool ata) {
  return {p.bk, p.bn, tile_swizzle(p.swizzle, q, ata, false)};
}

// ---- what a tile must be ------------------------------------------------------------------------
// Every rule of the templates (MmaShape's, SmemTile's and load_tile's static_asserts, the fragment
// offsets' XOR) as a function of a tile's values, so that a tile typed by a learner is refused in
// words before anything compiles (05_mma_sync.cu), and MmaShape asserts the same function.
// Why a slab's tile of `elem_bytes` elements cannot be stored or copied by `threads` threads:
enum class TileFault {
  None,
  SwizzleWidth,  // the XOR would move a chunk out of its row (swizzle_fits)
  CopyColumns,   // the threads are not a whole number of rows' chunks: a thread keeps its chunk column
  CopyRows,      // the rows are not a whole number of the threads' row steps
  CopySwizzle,   // the row step is not a multiple of the swizzle's period
};
__host__ __device__ constexpr TileFault tile_fault(MmaTileDims d, int elem_bytes, int threads) {
  const int chunks = d.cols * elem_bytes / 16;
  if (!swizzle_fits(d.swizzle, chunks)) return TileFault::SwizzleWidth;
  if (threads % chunks != 0) return TileFault::CopyColumns;
  const int step = threads / chunks;
  if (d.rows % step != 0) return TileFault::CopyRows;
  if (step % swizzle_period(d.swizzle) != 0) return TileFault::CopySwizzle;
  return TileFault::None;
}

__host__ __device__ constexpr bool is_power_of_two(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}

// The first rule a tile breaks for input type P and the problem, in the order checked; None: the
// kernels compile for it.
enum class MmaFault {
  None,
  WarpTile,       // wm or wn not a multiple of 16: whole instruction tiles, B's 8-column tiles in pairs
  WarpTiling,     // the warp tiles do not tile the block tile
  Warps,          // more than 32 warps (1024 threads)
  SlabDepth,      // bk not a whole number of instructions deep
  PowerOfTwo,     // bk or wn (AᵀA: wm) not a power of two (SmemTile::fragment_offset XORs within them)
  Stages,         // fewer than 2 stages (3 with per-stage mbarriers)
  FragmentSteps,  // the fragment pipeline with a single k step per slab
  Registers,      // more accumulator registers per lane than a thread has (255)
  TileA,          // A's tile: tile_fault says why
  TileB,          // B's tile
};
template <Precision P>
__host__ __device__ constexpr MmaFault mma_tile_fault(const MmaParams& p, bool ata) {
  using T = Tensor<P>;
  if (p.wm < 16 || p.wn < 16 || p.wm % 16 != 0 || p.wn % 16 != 0) return MmaFault::WarpTile;
  if (p.bm < p.wm || p.bn < p.wn || p.bm % p.wm != 0 || p.bn % p.wn != 0) return MmaFault::WarpTiling;
  if (warps_of(p) > 32) return MmaFault::Warps;
  if (p.bk < T::kK || p.bk % T::kK != 0) return MmaFault::SlabDepth;
  if (!is_power_of_two(p.bk) || !is_power_of_two(p.wn) || (ata && !is_power_of_two(p.wm))) return MmaFault::PowerOfTwo;
  if (p.stages < (p.pipeline == Pipeline::Mbarriers ? 3 : 2)) return MmaFault::Stages;
  if (p.pipeline == Pipeline::Fragments && p.bk / T::kK < 2) return MmaFault::FragmentSteps;
  if (p.wm / 16 * (p.wn / 8) * 4 * static_cast<int>(sizeof(typename T::Acc) / 4) > 255) return MmaFault::Registers;
  const int threads = warps_of(p) * 32, bytes = static_cast<int>(sizeof(typename T::E));
  if (tile_fault(a_tile_dims(p, P, ata), bytes, threads) != TileFault::None) return MmaFault::TileA;
  if (tile_fault(b_tile_dims(p, P, ata), bytes, threads) != TileFault::None) return MmaFault::TileB;
  return MmaFault::None;
}

template <Precision P, typename Tile, bool kAta>
struct MmaShape {
  using T = Tensor<P>;
  using E = typename T::E;
  using Acc = typename T::Acc;
  static constexpr MmaParams p = Tile::p;
  static_assert(mma_tile_fault<P>(p, kAta) == MmaFault::None, "the tile breaks a rule of mma_tile_fault");
  static constexpr int WARPS_N = p.bn / p.wn, WARPS = warps_of(p), NT = WARPS * 32;
  static constexpr int MI = p.wm / 16, NI = p.wn / 8, KSTEPS = p.bk / T::kK;
  static_assert(p.bm % p.wm == 0 && p.bn % p.wn == 0 && p.wm % 16 == 0 && p.wn % 16 == 0, "warp tiling");
  static_assert(p.bk % T::kK == 0, "slabs are whole instructions deep");
  static constexpr bool kLdmatrixA = ldmatrix_operand(P, kAta, true), kLdmatrixB = ldmatrix_operand(P, kAta, false);
  static constexpr MmaTileDims kA = a_tile_dims(p, P, kAta), kB = b_tile_dims(p, P, kAta);
  using ATile = SmemTile<sizeof(E), kA.rows, kA.cols, kA.swizzle>;  // gemm [m][k], AᵀA [k][m]
  using BTile = SmemTile<sizeof(E), kB.rows, kB.cols, kB.swizzle>;  // [k][n]
  static constexpr int kStageElems = ATile::kElems + BTile::kElems;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Acc));  // accumulators per 16-byte store
  static constexpr int kStripLd = strip_ld(p);
  static constexpr std::size_t kStripBytes = strip_bytes(p, sizeof(Acc));
  __host__ __device__ static constexpr std::size_t shared_bytes(bool with_ids) {
    return shared_bytes_of(p, sizeof(E), sizeof(Acc), with_ids);
  }
  __host__ __device__ static constexpr std::size_t barriers_at(bool with_ids) {
    return barriers_offset(p, sizeof(E), sizeof(Acc), with_ids);
  }
};

}  // namespace tilescope
