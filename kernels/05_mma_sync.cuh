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
// One block barrier per slab keeps every warp in step; the `_mb` configurations wait on per-stage
// mbarriers instead (one completes when every thread's copies of a slab have landed, one when
// every thread is done reading it), so a warp waits only for what it needs and warps may drift a
// slab apart: the two warps sharing a scheduler stall less often at the same moment.
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
//   without the swizzle, the stages in flight; % of the measured mma.sync ceiling in the Roofline.
// Trace build (trace.h): the same kernel with a TraceProbe; the accumulators' writer ids travel
//   through the shared-memory strip with their values, so the trace records the (warp, lane,
//   register) that computed each element of C, not the lane that happened to store it.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (05_mma_sync.cu: descriptor, launch, mapping model), and NVRTC compiles it alone (a CPU test).
// The instruction wrappers, the swizzled tiles and the lanes' fragment coordinates are in
// mma_tiles.cuh.
#pragma once

#include "block_order.h"
#include "device_types.cuh"
#include "gemm_basics.h"
#include "mma_ptx.cuh"
#include "mma_tiles.cuh"
#include "no_probe.cuh"
#include "vector_access.cuh"

namespace tilescope {

// ---- the compiled set -------------------------------------------------------------------------
// A kernel takes the index of its row (CFG), so the table is part of the kernel text; the
// descriptor's configuration list (05_mma_sync.cu) is built from the same rows.
// Which input types a row of the table computes (the tile sizes that suit them differ).
enum class Family { Bits16, Tf32, F64 };

struct MmaParams {
  Family family;
  int bm, bn, bk;                  // block tile of C and slab depth
  int wm, wn;                      // warp tile
  int stages;                      // buffers of the cp.async ring
  bool swizzle;                    // XOR-swizzled tiles (false: plain row-major, with bank conflicts)
  bool fragment_pipeline = false;  // the next k step's fragments load while this one multiplies
  bool decoupled = false;          // per-stage mbarriers instead of one block barrier per slab
};
// Measured on an H100 at 8192 (docs/benchmarks/): deeper slabs and per-stage barriers (_mb) are
// what made the 16-bit, TF32 and FP64 rows faster; the fragment pipeline (_fp) did not pay, and
// stays for comparison.
constexpr MmaParams kParams[] = {
    {Family::Bits16, 128, 128, 32, 64, 64, 3, true},   // 4 warps
    {Family::Bits16, 128, 256, 32, 64, 64, 3, true},   // 8 warps
    {Family::Bits16, 128, 256, 32, 64, 64, 2, true},   // double buffering only
    {Family::Bits16, 128, 256, 32, 64, 64, 4, true},   // one more slab in flight
    {Family::Bits16, 128, 256, 32, 64, 64, 3, false},  // the same without the swizzle
    {Family::Bits16, 128, 256, 64, 64, 64, 3, true},   // half the barriers
    {Family::Tf32, 128, 128, 32, 64, 64, 3, true},
    {Family::Tf32, 128, 256, 32, 64, 64, 4, true, true},
    {Family::F64, 128, 128, 16, 64, 32, 3, true},  // 8 warps of 64 x 32
    {Family::F64, 128, 128, 16, 64, 32, 4, true, true},
    {Family::F64, 128, 128, 32, 64, 32, 3, true},
    {Family::Bits16, 128, 128, 64, 64, 64, 3, true},   // 4 warps, two blocks per SM
    {Family::Bits16, 128, 256, 128, 64, 64, 2, true},  // a quarter of the barriers, two stages
    {Family::Tf32, 128, 256, 64, 64, 64, 2, true},
    {Family::Bits16, 128, 256, 64, 64, 64, 4, true, false, true},  // per-stage barriers
    {Family::Bits16, 128, 128, 64, 64, 64, 3, true, false, true},
    {Family::F64, 128, 128, 32, 64, 32, 3, true, false, true},
};

__host__ __device__ constexpr Family family_of(Precision p) {
  return p == Precision::TF32 ? Family::Tf32 : p == Precision::F64 ? Family::F64 : Family::Bits16;
}

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
// The decoupled configurations keep their 2 x stages mbarriers (8 bytes each) after both.
__host__ __device__ constexpr std::size_t barriers_offset(const MmaParams& p, std::size_t elem_bytes,
                                                          std::size_t acc_bytes, bool with_ids) {
  const std::size_t pipeline = static_cast<std::size_t>(p.stages) * (p.bm + p.bn) * p.bk * elem_bytes;
  const std::size_t epilogue = strip_bytes(p, acc_bytes) + (with_ids ? strip_bytes(p, sizeof(int)) : 0);
  return ((pipeline > epilogue ? pipeline : epilogue) + 15) / 16 * 16;
}
__host__ __device__ constexpr std::size_t shared_bytes_of(const MmaParams& p, std::size_t elem_bytes,
                                                          std::size_t acc_bytes, bool with_ids) {
  return barriers_offset(p, elem_bytes, acc_bytes, with_ids) +
         (p.decoupled ? 2 * static_cast<std::size_t>(p.stages) * sizeof(std::uint64_t) : 0);
}

template <Precision P, int CFG, bool kAta>
struct MmaShape {
  using T = Tensor<P>;
  using E = typename T::E;
  using Acc = typename T::Acc;
  static constexpr MmaParams p = kParams[CFG];
  static constexpr int WARPS_N = p.bn / p.wn, WARPS = warps_of(p), NT = WARPS * 32;
  static constexpr int MI = p.wm / 16, NI = p.wn / 8, KSTEPS = p.bk / T::kK;
  static_assert(family_of(P) == p.family, "a row of kParams computes its own family of types");
  static_assert(p.bm % p.wm == 0 && p.bn % p.wn == 0 && p.wm % 16 == 0 && p.wn % 16 == 0, "warp tiling");
  static_assert(p.bk % T::kK == 0, "slabs are whole instructions deep");
  static constexpr bool kLdmatrixA = ldmatrix_operand(P, kAta, true), kLdmatrixB = ldmatrix_operand(P, kAta, false);
  static_assert(!p.fragment_pipeline || KSTEPS >= 2, "the pipeline copies a slab one k step before it waits");
  static_assert(!p.decoupled || (p.stages >= 3 && !p.fragment_pipeline),
                "a decoupled ring refills the stage of the slab before last: it needs a third");
  using ATile = SmemTile<sizeof(E), kAta ? p.bk : p.bm, kAta ? p.bm : p.bk,
                         tile_swizzle(p.swizzle, P, kAta, true)>;                          // gemm [m][k], AᵀA [k][m]
  using BTile = SmemTile<sizeof(E), p.bk, p.bn, tile_swizzle(p.swizzle, P, kAta, false)>;  // [k][n]
  static constexpr int kStageElems = ATile::kElems + BTile::kElems;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Acc));  // accumulators per 16-byte store
  static constexpr int kStripLd = strip_ld(p);
  static constexpr std::size_t kStripBytes = strip_bytes(p, sizeof(Acc));
  __host__ __device__ static constexpr std::size_t shared_bytes(bool with_ids) {
    return shared_bytes_of(p, sizeof(E), sizeof(Acc), with_ids);
  }
};

// The lane's part of its fragment offsets in the A and B tiles (k step 0, instruction row and
// column 0), with the warp's corner: row wm0 of C (A), column wn0 (B).
template <typename S, bool kAta>
__device__ __forceinline__ int a_lane_offset(int lane, int wm0) {
  if constexpr (S::kLdmatrixA) {
    if constexpr (kAta) {
      const TileCoord c = ldmatrix_a_trans(lane);  // tile [k][m]
      return S::ATile::offset(c.row, wm0 + c.col);
    } else {
      const TileCoord c = ldmatrix_a_rows(lane, S::ATile::kChunkElems);  // tile [m][k]
      return S::ATile::offset(wm0 + c.row, c.col);
    }
  } else {
    const TileCoord c = scalar_a(lane, 0);  // A (m, k)
    return kAta ? S::ATile::offset(c.col, wm0 + c.row) : S::ATile::offset(wm0 + c.row, c.col);
  }
}
template <typename S>
__device__ __forceinline__ int b_lane_offset(int lane, int wn0) {
  const TileCoord c = S::kLdmatrixB ? ldmatrix_b_trans(lane) : scalar_b(lane, 0);  // B (k, n)
  return S::BTile::offset(c.row, wn0 + c.col);
}

// Copies rows [r0, r0 + ROWS) x columns [c0, c0 + COLS) of a row-major matrix (leading dimension
// ld; rows x cols of it valid) into a tile, zeros outside. vec: 16-byte cp.async chunks (every row
// start 16-byte aligned), else element by element through registers.
// Thread tid copies chunk column tid % kChunks of rows tid / kChunks + l * kRowStep: the same
// column and, the swizzle repeating every kRowStep rows, the same XOR in every row it copies, so
// its addresses are one base plus constant steps. A tile wholly inside the matrix (every tile but
// the edges) needs no bounds at all.
template <typename Tile, int NT, Operand kOp, typename E, typename Probe>
__device__ __forceinline__ void load_tile(E* dst, const E* __restrict__ src, std::int64_t ld, int r0, int c0, int rows,
                                          int cols, int tid, bool vec, const Probe& probe) {
  constexpr int kCols = Tile::kChunks * Tile::kChunkElems;
  constexpr int kRows = Tile::kElems / kCols;
  if (vec) {
    static_assert(NT % Tile::kChunks == 0, "a thread keeps its chunk column");
    constexpr int kRowStep = NT / Tile::kChunks, kPer = kRows / kRowStep;
    static_assert(kRows % kRowStep == 0, "every thread copies the same number of chunks");
    static_assert(
        Tile::chunk_xor(kRowStep) == Tile::chunk_xor(0) && Tile::chunk_xor(kRowStep + 1) == Tile::chunk_xor(1),
        "the swizzle repeats every kRowStep rows");
    const int r = tid / Tile::kChunks, c = (tid % Tile::kChunks) * Tile::kChunkElems;
    E* const d = dst + Tile::offset(r, c);
    const std::int64_t first = static_cast<std::int64_t>(r0 + r) * ld + c0 + c, step = kRowStep * ld;
    if (r0 + kRows <= rows && c0 + kCols <= cols) {
#pragma unroll
      for (int l = 0; l < kPer; ++l)
        probe.copy_async(kOp, d + l * kRowStep * kCols, src, first + l * step, Tile::kChunkElems);
    } else {
      const int left = cols - (c0 + c);  // elements of the row from this chunk on
      const int inside = left <= 0 ? 0 : left < Tile::kChunkElems ? left : Tile::kChunkElems;
#pragma unroll
      for (int l = 0; l < kPer; ++l)
        probe.copy_async(kOp, d + l * kRowStep * kCols, src, first + l * step,
                         r0 + r + l * kRowStep < rows ? inside : 0);
    }
  } else {
    for (int e = tid; e < kRows * kCols; e += NT) {
      const int r = e / kCols, c = e % kCols;
      const int gr = r0 + r, gc = c0 + c;
      dst[Tile::offset(r, c)] =
          (gr < rows && gc < cols) ? probe.load(kOp, src, static_cast<std::int64_t>(gr) * ld + gc) : E(0.0f);
    }
  }
}

// Probe: NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
// Longer than most functions here, on purpose: prologue, the ring loop and the epilogue read top to
// bottom as the algorithm.
template <Precision P, int CFG, bool kAta, typename Probe>
__global__ void __launch_bounds__(MmaShape<P, CFG, kAta>::NT)
    mma_sync_kernel(const typename Tensor<P>::E* __restrict__ A, const typename Tensor<P>::E* __restrict__ B,
                    typename Tensor<P>::Acc* __restrict__ C, int M, int N, int K, bool vec_a, bool vec_b, bool vec_c,
                    Probe probe) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  // cp.async, ldmatrix and these mma shapes came with sm_80: the descriptor refuses older GPUs, and
  // their compilation keeps no body (it would only trap).
  using S = MmaShape<P, CFG, kAta>;
  static_assert(S::MI > 0 && S::NI > 0 && S::KSTEPS > 0 && S::kVec > 0, "the shape is still checked");
  __trap();
#else
  using S = MmaShape<P, CFG, kAta>;
  using T = typename S::T;
  using E = typename S::E;
  using Acc = typename S::Acc;
  using Reg = typename T::Reg;
  constexpr MmaParams p = S::p;
  constexpr int MI = S::MI, NI = S::NI;

  const int grid_n = static_cast<int>(ceil_div(N, p.bn));
  const BlockTile tile = block_tile(kAta, static_cast<int>(blockIdx.x), static_cast<int>(ceil_div(M, p.bm)), grid_n);
  const int lane = threadIdx.x, warp = threadIdx.y, tid = warp * 32 + lane;
  const int warp_m = warp / S::WARPS_N, warp_n = warp % S::WARPS_N;
  const int m0 = tile.row * p.bm, n0 = tile.col * p.bn;
  // A diagonal block of AᵀA: a warp tile wholly below the diagonal has no element i <= j.
  const bool computes = !kAta || tile.row != tile.col || warp_m * p.wm <= (warp_n + 1) * p.wn - 1;

  extern __shared__ __align__(128) unsigned char shared_raw[];
  E* const ring = reinterpret_cast<E*>(shared_raw);  // stage s: A tile, then B tile

  // K; a trace's phase limit may end it after fewer slabs: nothing at k >= k_end is copied.
  const int k_end = probe.k_end(K, p.bk);
  const int slabs = static_cast<int>(ceil_div(k_end, p.bk));

  auto copy_slab = [&](int slab) {
    E* a_dst = ring + (slab % p.stages) * S::kStageElems;
    E* b_dst = a_dst + S::ATile::kElems;
    const int k0 = slab * p.bk;
    if constexpr (kAta)
      load_tile<typename S::ATile, S::NT, Operand::A>(a_dst, A, N, k0, m0, k_end, N, tid, vec_a, probe);
    else
      load_tile<typename S::ATile, S::NT, Operand::A>(a_dst, A, K, m0, k0, M, k_end, tid, vec_a, probe);
    load_tile<typename S::BTile, S::NT, Operand::B>(b_dst, kAta ? A : B, N, k0, n0, k_end, N, tid, vec_b, probe);
  };

  Acc acc[MI][NI][4];
#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[mi][ni][r] = Acc(0);

  // Prologue: stages - 1 slabs in flight, one commit group each (empty groups past the end keep
  // the count of groups, and so the waits below, the same for every slab).
  if constexpr (!p.decoupled) {
#pragma unroll
    for (int s = 0; s < p.stages - 1; ++s) {
      if (s < slabs) copy_slab(s);
      cp_async_commit();
    }
  }

  // The lane's own part of every fragment address (a TileCoord of the tile, plus the warp's
  // corner); what each k step, instruction row mi and column ni add is known at compile time
  // (SmemTile::fragment_offset).
  const int lane_a = a_lane_offset<S, kAta>(lane, warp_m * p.wm);
  const int lane_b = b_lane_offset<S>(lane, warp_n * p.wn);

  // The fragments of k step ks of the slab in ring buffer `stage`: A for each instruction row mi,
  // B for each column ni.
  auto load_fragments = [&](int stage, int ks, Reg(&a)[MI][4], Reg(&b)[NI][2]) {
    const E* as = ring + stage * S::kStageElems;
    const E* bs = as + S::ATile::kElems;
    const int k0 = ks * T::kK;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      if constexpr (S::kLdmatrixA) {
        // gemm: tile [m][k], rows as they are; AᵀA: tile [k][m], transposed on the way.
        const E* at = as + (kAta ? S::ATile::fragment_offset(lane_a, k0, mi * 16)
                                 : S::ATile::fragment_offset(lane_a, mi * 16, k0));
        if constexpr (kAta)
          ldmatrix_x4_trans(a[mi], shared_address(at));
        else
          ldmatrix_x4(a[mi], shared_address(at));
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          // Element i adds 8 rows (i % 2) and 4 columns (i / 2) of the instruction's A (scalar_a).
          const int m = mi * 16 + 8 * (i % 2), k = k0 + 4 * (i / 2);
          a[mi][i] =
              T::reg(as[kAta ? S::ATile::fragment_offset(lane_a, k, m) : S::ATile::fragment_offset(lane_a, m, k)]);
        }
      }
    }
#pragma unroll
    for (int ni = 0; ni < NI; ni += (S::kLdmatrixB ? 2 : 1)) {
      if constexpr (S::kLdmatrixB) {
        Reg r[4];
        ldmatrix_x4_trans(r, shared_address(bs + S::BTile::fragment_offset(lane_b, k0, ni * 8)));
        b[ni][0] = r[0];
        b[ni][1] = r[1];
        b[ni + 1][0] = r[2];
        b[ni + 1][1] = r[3];
      } else {
#pragma unroll
        for (int i = 0; i < 2; ++i) b[ni][i] = T::reg(bs[S::BTile::fragment_offset(lane_b, k0 + 4 * i, ni * 8)]);
      }
    }
  };
  auto multiply = [&](const Reg(&a)[MI][4], const Reg(&b)[NI][2]) {
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
      for (int ni = 0; ni < NI; ++ni) T::mma(acc[mi][ni], a[mi], b[ni]);
  };
  // The slab in `stage`, one k step at a time: its fragments, then its instructions (unrolled, so
  // that every fragment address is the lane's offset and two constants).
  auto multiply_slab = [&](int stage) {
#pragma unroll
    for (int ks = 0; ks < S::KSTEPS; ++ks) {
      Reg a[MI][4], b[NI][2];
      load_fragments(stage, ks, a, b);
      multiply(a, b);
    }
  };

  if constexpr (p.decoupled) {
    // Per-stage barriers instead of the block's: full[s] completes when every thread's copies of
    // the slab in stage s have landed, empty[s] when every thread is done reading it. A warp waits
    // only for the slab it multiplies and for the stage it refills, so the warps may drift up to a
    // slab apart and the two warps of a scheduler need not stall at the same moment. A stage is
    // refilled after the next slab is multiplied: stages - 2 slabs are in flight.
    std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(
        shared_raw + barriers_offset(p, sizeof(E), sizeof(Acc), Probe::kRecordsWriters));
    std::uint64_t* const empty = full + p.stages;
    if (tid == 0)
      for (int s = 0; s < p.stages; ++s) {
        mbarrier_init(&full[s], S::NT);
        mbarrier_init(&empty[s], S::NT);
      }
    __syncthreads();
    // Slab t into stage t % stages: once the slab that stage held (t - stages) is read by all,
    // then my copies, and my arrival once they have landed. Element-by-element copies (rows not
    // 16-byte aligned) are plain stores: the thread waits for its own copies and arrives itself.
    auto produce = [&](int t) {
      const int stage = t % p.stages;
      if (t >= p.stages) mbarrier_wait(&empty[stage], (t / p.stages - 1) & 1);
      copy_slab(t);
      cp_async_commit();
      if (vec_a && vec_b) {
        cp_async_mbarrier_arrive(&full[stage]);
      } else {
        cp_async_wait<0>();
        mbarrier_arrive(&full[stage]);
      }
    };
    for (int t = 0; t < p.stages - 1 && t < slabs; ++t) produce(t);
    for (int slab = 0; slab < slabs; ++slab) {
      const int stage = slab % p.stages;
      mbarrier_wait(&full[stage], (slab / p.stages) & 1);
      if (computes) multiply_slab(stage);
      mbarrier_arrive(&empty[stage]);
      if (slab + p.stages - 1 < slabs) produce(slab + p.stages - 1);
    }
  } else if constexpr (p.fragment_pipeline) {
    // The fragments of the next k step load while this one multiplies, across slabs too: the
    // wait for the next slab comes before the last k step's instructions, so the barrier's
    // latency and the first loads of the next slab hide behind them.
    Reg a[2][MI][4], b[2][NI][2];
    cp_async_wait<p.stages - 2>();
    __syncthreads();
    if (computes && slabs > 0) load_fragments(0, 0, a[0], b[0]);
    for (int slab = 0; slab < slabs; ++slab) {
      const int stage = slab % p.stages, next_stage = (slab + 1) % p.stages;
      const bool more = slab + 1 < slabs;
#pragma unroll
      for (int ks = 0; ks < S::KSTEPS; ++ks) {
        if (ks == S::KSTEPS - 1) {
          // Slab + 1 has landed once at most stages - 2 younger groups are pending; after the
          // barrier nobody reads the buffer that slab's copy, issued at the next ks == 0, reuses.
          cp_async_wait<p.stages - 2>();
          __syncthreads();
        }
        if (computes) {
          if (ks + 1 < S::KSTEPS)
            load_fragments(stage, ks + 1, a[(ks + 1) % 2], b[(ks + 1) % 2]);
          else if (more)
            load_fragments(next_stage, 0, a[(ks + 1) % 2], b[(ks + 1) % 2]);
          multiply(a[ks % 2], b[ks % 2]);
        }
        if (ks == 0) {
          // After the instructions: their fragments are dead, so the copy's addresses find
          // registers (mma and cp.async are both volatile asm, so they stay in this order).
          if (slab + p.stages - 1 < slabs) copy_slab(slab + p.stages - 1);
          cp_async_commit();
        }
      }
    }
  } else {
    for (int slab = 0; slab < slabs; ++slab) {
      // Slab `slab` has landed once at most stages - 2 younger groups are pending; the barrier
      // makes every thread's copies visible, and tells that everyone is done with slab - 1, whose
      // buffer the next copy reuses.
      cp_async_wait<p.stages - 2>();
      __syncthreads();
      if (slab + p.stages - 1 < slabs) copy_slab(slab + p.stages - 1);
      cp_async_commit();
      if (computes) multiply_slab(slab % p.stages);
    }
  }
  // The ring is reused for the epilogue's strips: every copy landed, every warp done reading.
  cp_async_wait<0>();
  __syncthreads();
  if (!computes) return;

  // Epilogue: a 16-row strip of the warp tile at a time, registers -> shared -> C.
  constexpr int LD = S::kStripLd, V = S::kVec;
  Acc* strip = reinterpret_cast<Acc*>(shared_raw) + warp * 16 * LD;
  int* ids = reinterpret_cast<int*>(shared_raw + S::kStripBytes) + warp * 16 * LD;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < MI; ++mi) {
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int at = (g + 8 * h) * LD + ni * 8 + 2 * t;
        strip[at] = acc[mi][ni][2 * h];
        strip[at + 1] = acc[mi][ni][2 * h + 1];
        if constexpr (Probe::kRecordsWriters) {
          ids[at] = probe.writer_id((mi * NI + ni) * 4 + 2 * h);
          ids[at + 1] = probe.writer_id((mi * NI + ni) * 4 + 2 * h + 1);
        }
      }
    __syncwarp();
    const int i0 = m0 + warp_m * p.wm + mi * 16, j0 = n0 + warp_n * p.wn;
    // Rows of the strip: lanes side by side write side by side in C.
    constexpr int kVecsPerRow = p.wn / V;
    for (int item = lane; item < 16 * kVecsPerRow; item += 32) {
      const int r = item / kVecsPerRow, c = (item % kVecsPerRow) * V;
      const int i = i0 + r, j = j0 + c;
      if (i >= M) continue;
      Acc v[V];
      int id[V];
      load_vec<Acc, V>(strip + r * LD + c, v);
#pragma unroll
      for (int w = 0; w < V; ++w) id[w] = Probe::kRecordsWriters ? ids[r * LD + c + w] : 0;
      if (vec_c && j + V <= N && (!kAta || i <= j)) {
        probe.store_from(C, static_cast<std::int64_t>(i) * N + j, v, id);
      } else {
#pragma unroll
        for (int w = 0; w < V; ++w)
          if (j + w < N && (!kAta || i <= j + w))
            probe.store_from(C, static_cast<std::int64_t>(i) * N + j + w, v[w], id[w]);
      }
    }
    if constexpr (kAta) {
      // The mirrors: column c of the strip is the piece of row j0 + c of C at columns i0 ..
      constexpr int kVecsPerCol = 16 / V;
      for (int item = lane; item < p.wn * kVecsPerCol; item += 32) {
        const int c = item / kVecsPerCol, r = (item % kVecsPerCol) * V;
        const int j = j0 + c, i = i0 + r;  // C(j, i .. i + V - 1) = C(i .., j)
        if (j >= N) continue;
        Acc v[V];
        int id[V];
#pragma unroll
        for (int w = 0; w < V; ++w) {
          v[w] = strip[(r + w) * LD + c];
          id[w] = Probe::kRecordsWriters ? ids[(r + w) * LD + c] : 0;
        }
        if (vec_c && i + V - 1 < j) {
          probe.store_from(C, static_cast<std::int64_t>(j) * N + i, v, id);
        } else {
#pragma unroll
          for (int w = 0; w < V; ++w)
            if (i + w < j) probe.store_from(C, static_cast<std::int64_t>(j) * N + i + w, v[w], id[w]);
        }
      }
    }
    __syncwarp();
  }
#endif
}

}  // namespace tilescope
