// 04 wmma — the first tensor-core step: a warp multiplies whole fragments of A and B with one
// call, through nvcuda::wmma, and never says which of its lanes holds what.
//
// Idea: tensor cores do not multiply numbers, they multiply small matrices, and a whole warp
// issues each multiplication together. nvcuda::wmma is CUDA's portable face of them: a fragment
// is an opaque object that holds an FM x FK tile of A, an FK x FN tile of B or an FM x FN tile of
// C spread over the 32 lanes of a warp; load_matrix_sync fills one from memory, mma_sync does
// C += A B on it, store_matrix_sync writes it back. The fragment shapes per input type:
//   f16, bf16: 16 x 16 x 16, FP32 accumulate;   tf32: 16 x 16 x 8, FP32 accumulate;
//   f64:        8 x  8 x  4, FP64 (the DMMA units of sm_80 and newer).
// A block owns a BM x BN tile of C and walks K in BK-deep slabs staged in shared memory, exactly as
// smem_tiled does; each of its warps owns a WM x WN warp tile of that block tile, kept as
// (WM / FM) x (WN / FN) accumulator fragments, and for each k step of the slab loads its
// fragments of A and B from shared memory and issues one mma_sync per accumulator.
// Changed from regtile_prefetch: the unit of work is a warp, not a thread (blockDim = (32, warps):
//   threadIdx.x is the lane, threadIdx.y the warp); the FMA loop is one mma_sync per fragment;
//   no prefetch (one buffer, two barriers per slab, as smem_tiled); the grid is 1-D, its blocks
//   visiting the block tiles in bands of block rows (block_order.h) so that the blocks in flight
//   share panels of A and B in L2; C leaves through shared memory, because a fragment may only be
//   stored as a whole; and there is no f32: float data takes the tensor-core path as tf32.
// Block -> C: block b computes block tile gemm_block_tile(b, ceil(M / BM), ceil(N / BN)); warp w
//   the warp tile (w / (BN / WN), w % (BN / WN)) of it; accumulator fragment f = i * (WN / FN) + j
//   rows i * FM .. and columns j * FN .. of the warp tile.
// Thread -> C: store_matrix_sync writes fragment f into the warp's FM x FN staging area in shared
//   memory; then lane l copies chunks v = l, l + 32, .. of W = 16 bytes / sizeof(C) consecutive
//   elements (4 floats, 2 doubles): chunk v is row v / (FN / W), columns (v % (FN / W)) * W + [0, W)
//   of the fragment (gemm: 16-byte stores when N is a multiple of W; otherwise, and for AᵀA,
//   element by element, by the same lanes). The trace records that lane as the writer, with slot f (writer_slots() =
//   fragments per warp): who *computed* an element inside the fragment is the hardware's secret.
// AᵀA (C = AᵀA, A is K x N): BM == BN; the 1-D grid holds only the upper-triangle block tiles
//   (upper_block_tile); in a diagonal block, warp tiles wholly below the diagonal compute nothing.
//   Each element C(i, j) with i <= j is stored once, with its mirror C(j, i), by the same lane and
//   writer id. The A operand is Aᵀ: its slab is a BK x BM slice of rows of A, k-major in shared
//   memory, and wmma reads it as a col_major matrix_a fragment — no transposing anywhere.
// Ragged sizes: slab elements outside A or B are stored as 0 (each thread loads elements
//   tid, tid + threads, .. of the slab, row by row, one at a time); fragments that start outside C
//   are not stored; elements outside C are skipped.
// What to look for: the fragments are opaque — the mapping view can say which warp and which
//   fragment computed an element, but not which lane (the PTX mma instructions document their
//   register layouts; wmma promises none). The owners drawn are the lanes that copy C out.
//   What it costs: every element of C makes a detour through shared memory; the staging loads are
//   scalar and wait for the barrier (nothing is in flight while the tensor cores run); and only the
//   16-bit fragments avoid bank conflicts (tf32's B, FP64's fragments and store_matrix_sync's float
//   pairs conflict 2-way: the Memory view). The next variant takes the lid off (mma.sync).
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), whose loads and stores also
//   record reads and writers, and whose k_end stops the K loop after p slabs; it also records one
//   warp's addresses, the slabs' and the staging area's through probe.shared (the Mapping tab's
//   memory view). The fragments' loads and stores are not among them: they happen inside wmma.
// A tile (a row of the compiled set, or one a learner typed) is the kernel's template arguments:
//   BM, BN, BK and the grid of warps WARPS_M x WARPS_N over the block tile; the rules a tile must
//   keep are one function (wmma_tile_fault) that WmmaShape asserts and the launch file puts in words.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (04_wmma.cu: descriptor, compiled set, tiles a learner types, launch, mapping model), and NVRTC
// compiles it alone (a CPU test, and a typed tile's launch).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels/core/block_order.h"
#include "kernels/core/gemm_basics.h"
#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_traits.cuh"
#include "kernels/ptx/device_types.cuh"

namespace tilescope {

namespace wmma = nvcuda::wmma;

// ---- the input types -----------------------------------------------------------------------

// A fragment shape: FM x FK of A times FK x FN of B into FM x FN of C.
struct FragmentShape {
  int m, n, k;
};

// Stored types (gemm_types.h) and the fragment shape of each input type.
template <Precision P>
struct WmmaTypes;
template <>
struct WmmaTypes<Precision::F16> {
  using In = __half;
  using Acc = float;
  static constexpr FragmentShape kShape{16, 16, 16};
};
template <>
struct WmmaTypes<Precision::BF16> {
  using In = __nv_bfloat16;
  using Acc = float;
  static constexpr FragmentShape kShape{16, 16, 16};
};
template <>
struct WmmaTypes<Precision::TF32> {
  using In = float;  // values that are exact in TF32
  using Acc = float;
  static constexpr FragmentShape kShape{16, 16, 8};
};
template <>
struct WmmaTypes<Precision::F64> {
  using In = double;
  using Acc = double;
  static constexpr FragmentShape kShape{8, 8, 4};
};

// The element type wmma::fragment names. The tf32, bf16 and double fragments exist only when
// compiling for sm_80 and newer (and in the host pass); a device pass for an older architecture
// gets a kernel that traps in their place, which nothing launches (the descriptor refuses).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define TILESCOPE_WMMA_SM80 1
#endif

template <Precision P>
struct WmmaElement;
template <>
struct WmmaElement<Precision::F16> {
  using type = __half;
};
#ifdef TILESCOPE_WMMA_SM80
template <>
struct WmmaElement<Precision::BF16> {
  using type = __nv_bfloat16;
};
template <>
struct WmmaElement<Precision::TF32> {
  using type = wmma::precision::tf32;
};
template <>
struct WmmaElement<Precision::F64> {
  using type = double;
};
#endif

template <Precision P>
__host__ __device__ constexpr bool wmma_compiled_here() {
#ifdef TILESCOPE_WMMA_SM80
  return true;
#else
  return P == Precision::F16;  // mma.h declares the f16 fragments from sm_70
#endif
}

// ---- the block's shape and its shared memory -------------------------------------------------
// Host and device: the kernel's shapes and the launch file's compiled set and model use them.

constexpr int kWarpSize = 32;
constexpr int kVecBytes = 16;

__host__ __device__ constexpr std::size_t round_up(std::size_t bytes, std::size_t to) {
  return (bytes + to - 1) / to * to;
}

// Rows of the shared slabs are padded by 16 bytes: load_matrix_sync needs leading dimensions of
// whole 16-byte units, and the pad moves consecutive rows to other banks.
__host__ __device__ constexpr int padded(int elements, int in_bytes) {
  return elements + kVecBytes / in_bytes;
}

// The slab of the A operand: gemm As[m][k] (BM rows of BK + pad), AᵀA At[k][m] (BK rows of
// BM + pad); one region large enough for either, rounded to the 32 bytes that fragment pointers
// need, then Bs[k][n] (BK rows of BN + pad). After the K loop the same memory holds each warp's
// FM x FN staging area for C.
__host__ __device__ constexpr std::size_t a_region_elements(int bm, int bk, int in_bytes) {
  const std::size_t gemm = static_cast<std::size_t>(bm) * padded(bk, in_bytes);
  const std::size_t ata = static_cast<std::size_t>(bk) * padded(bm, in_bytes);
  return round_up((gemm > ata ? gemm : ata) * in_bytes, 32) / in_bytes;
}
__host__ __device__ constexpr std::size_t shared_bytes_for(int bm, int bn, int bk, int warps, int in_bytes,
                                                           int acc_bytes, int fm, int fn) {
  const std::size_t slabs =
      (a_region_elements(bm, bk, in_bytes) + static_cast<std::size_t>(bk) * padded(bn, in_bytes)) *
      static_cast<std::size_t>(in_bytes);
  const std::size_t staging = static_cast<std::size_t>(warps) * fm * fn * acc_bytes;
  return slabs > staging ? slabs : staging;
}

// ---- what a tile must be ----------------------------------------------------------------------
// A tile's values: a BM x BN block tile of C, BK-deep slabs, WM x WN warp tiles (the kernel takes
// the grid of warps, BM / WM x BN / WN).
struct WmmaTile {
  int bm, bn, bk, wm, wn;
};
__host__ __device__ constexpr int warps_of(const WmmaTile& t) {
  return (t.bm / t.wm) * (t.bn / t.wn);
}
// Accumulator registers per lane of a warp tile: its fragments' elements spread over 32 lanes.
__host__ __device__ constexpr int accumulator_registers(const WmmaTile& t, FragmentShape f, int acc_bytes) {
  return (t.wm / f.m) * (t.wn / f.n) * (f.m * f.n / kWarpSize) * acc_bytes / 4;
}

// The first rule a tile breaks for input type P, in the order checked; None: the kernel compiles
// for it. Every rule of WmmaShape as a function of a tile's values, so that a tile typed by a
// learner is refused in words before anything compiles (04_wmma.cu), and WmmaShape asserts the
// same function.
enum class WmmaFault {
  None,
  WarpTiling,  // the warp tiles do not tile the block tile
  Warps,       // more than 32 warps (1024 threads)
  WarpTile,    // the warp tile is not whole fragments
  SlabDepth,   // the slab is not whole fragments deep
  Registers,   // more accumulator registers per lane than a thread has (255)
};
template <Precision P>
__host__ __device__ constexpr WmmaFault wmma_tile_fault(const WmmaTile& t) {
  constexpr FragmentShape f = WmmaTypes<P>::kShape;
  if (t.wm < 1 || t.wn < 1 || t.bm < t.wm || t.bn < t.wn || t.bm % t.wm != 0 || t.bn % t.wn != 0)
    return WmmaFault::WarpTiling;
  if (warps_of(t) > 32) return WmmaFault::Warps;
  if (t.wm % f.m != 0 || t.wn % f.n != 0) return WmmaFault::WarpTile;
  if (t.bk < f.k || t.bk % f.k != 0) return WmmaFault::SlabDepth;
  if (accumulator_registers(t, f, static_cast<int>(sizeof(typename WmmaTypes<P>::Acc))) > 255)
    return WmmaFault::Registers;
  return WmmaFault::None;
}

template <Precision P, int BM, int BN, int BK, int WARPS_M, int WARPS_N>
struct WmmaShape {
  using In = typename WmmaTypes<P>::In;
  using Acc = typename WmmaTypes<P>::Acc;
  static constexpr int FM = WmmaTypes<P>::kShape.m, FN = WmmaTypes<P>::kShape.n, FK = WmmaTypes<P>::kShape.k;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;  // the warp tile
  static constexpr int FRAGS_M = WM / FM, FRAGS_N = WN / FN;  // accumulator fragments per warp
  static constexpr int NT = kWarpSize * WARPS_M * WARPS_N;
  static constexpr int kInBytes = static_cast<int>(sizeof(In));
  static constexpr int LDA = padded(BK, kInBytes);  // gemm: row length of As[m][k]
  static constexpr int LDT = padded(BM, kInBytes);  // AᵀA: row length of At[k][m]
  static constexpr int LDB = padded(BN, kInBytes);  // row length of Bs[k][n]
  static constexpr int kAElems = static_cast<int>(a_region_elements(BM, BK, kInBytes));
  static constexpr int W = kVecBytes / static_cast<int>(sizeof(Acc));  // C elements per 16-byte chunk
  static constexpr int kAccRegisters =
      accumulator_registers({BM, BN, BK, WM, WN}, WmmaTypes<P>::kShape, static_cast<int>(sizeof(Acc)));
  // k steps of a slab unrolled: all of them, but one at a time where the accumulators alone take
  // half the registers a thread may have (f64 with 32 fragments of 8 x 8 per warp: unrolled, it
  // spilled).
  static constexpr int kStepUnroll = kAccRegisters >= 128 ? 1 : BK / FK;
  static_assert(BM % WARPS_M == 0 && BN % WARPS_N == 0, "the warps split the block tile evenly");
  static_assert(wmma_tile_fault<P>({BM, BN, BK, WM, WN}) == WmmaFault::None,
                "a tile the kernel cannot take (wmma_tile_fault says which rule)");
  // A traced lane's writer ids number the warp's fragments (trace.h); the register rule keeps
  // every warp within them.
  static_assert(FRAGS_M * FRAGS_N <= kTraceSlots, "a writer id has room for the warp's fragments");
  static_assert((FM * FN / W) % kWarpSize == 0, "a fragment's chunks are shared evenly by the lanes");
};

// ---- the kernel ------------------------------------------------------------------------------

// The shared-memory accesses an instrumented run records (probe.shared; nothing in the timed build).
// load_matrix_sync and store_matrix_sync are not among them: which lane touches which element
// inside them is the compiler's.
enum WmmaShared { kWmmaAStored = kRecordShared, kWmmaBStored, kWmmaStagingRead };

// One ROWS x COLS slab of a row-major matrix (leading dimension ld, rows x cols valid elements),
// from (r0, c0), into shared dst (row length ldd): thread tid of NT stores elements tid,
// tid + NT, .. row by row, 0 outside the matrix.
template <int ROWS, int COLS, int NT, Operand kOperand, typename T, typename Probe>
__device__ __forceinline__ void stage_slab(T* dst, int ldd, const T* __restrict__ src, std::int64_t ld, int r0, int c0,
                                           int rows, int cols, int tid, const Probe& probe) {
#pragma unroll 4
  for (int e = tid; e < ROWS * COLS; e += NT) {
    const int r = e / COLS, c = e % COLS;
    const int gr = r0 + r, gc = c0 + c;
    dst[r * ldd + c] = (gr < rows && gc < cols) ? probe.load(kOperand, src, gr * ld + gc) : static_cast<T>(0.0f);
    probe.shared(kOperand == Operand::A ? kWmmaAStored : kWmmaBStored, &dst[r * ldd + c]);
  }
}

// The tensor cores read only the top 19 bits of a TF32 operand; wmma asks the program to round
// the loaded elements itself (inputs that hold TF32 values are unchanged by it).
template <Precision P, typename Fragment>
__device__ __forceinline__ void round_operand(Fragment& f) {
#ifdef TILESCOPE_WMMA_SM80
  if constexpr (P == Precision::TF32) {
#pragma unroll
    for (int t = 0; t < f.num_elements; ++t) f.x[t] = wmma::__float_to_tf32(f.x[t]);
  }
#endif
}

// Fragment f of a warp, staged in shared memory (FM x FN, row-major), copied to C at (r0, c0) by
// the warp's lanes as the header says: lane l moves chunks l, l + 32, .. of W elements.
template <typename S, bool kAta, typename Probe>
__device__ __forceinline__ void copy_fragment_out(const typename S::Acc* stage, typename S::Acc* __restrict__ C, int r0,
                                                  int c0, int M, int N, bool vector_stores, int lane, int id,
                                                  const Probe& probe) {
  using Acc = typename S::Acc;
  constexpr int W = S::W, kChunksPerRow = S::FN / W, kChunksPerLane = S::FM * S::FN / W / kWarpSize;
#pragma unroll
  for (int t = 0; t < kChunksPerLane; ++t) {
    const int v = lane + t * kWarpSize;
    const int r = v / kChunksPerRow, c = (v % kChunksPerRow) * W;
    const int row = r0 + r, col = c0 + c;
    if (row >= M) continue;
    const Acc* s = stage + r * S::FN + c;
    if constexpr (!kAta) {
      // Gemm reads the lane's chunk of the staging area as one 16-byte load, whichever way it
      // stores it: the compiler merges the element path's s[0 .. W - 1] too (LDS.128), and
      // loads it for every row inside C, before it looks at the columns.
      probe.shared(kWmmaStagingRead, s);
      if (vector_stores) {
        // N is a multiple of W and chunks start at multiples of it: all in or all out.
        if (col < N) {
          Acc values[W];
          int ids[W];
#pragma unroll
          for (int w = 0; w < W; ++w) values[w] = s[w], ids[w] = id;
          probe.store_from(C, (std::int64_t)row * N + col, values, ids);
        }
        continue;
      }
    }
#pragma unroll
    for (int w = 0; w < W; ++w) {
      const int cw = col + w;
      if (cw >= N) break;
      if constexpr (kAta) {
        // Only row <= col is stored, with its mirror, so no element is stored twice; the mirror
        // carries the writer id of the element it copies.
        if (row > cw) continue;
        probe.shared(kWmmaStagingRead, s + w);
        probe.store_from(C, (std::int64_t)row * N + cw, s[w], id);
        if (row != cw) probe.store_from(C, (std::int64_t)cw * N + row, s[w], id);
      } else {
        probe.store_from(C, (std::int64_t)row * N + cw, s[w], id);
      }
    }
  }
}

// What one block does (the kernel below calls it where the architecture has the fragments).
template <Precision P, int BM, int BN, int BK, int WARPS_M, int WARPS_N, bool kAta, typename Probe>
__device__ __forceinline__ void wmma_block(const typename WmmaTypes<P>::In* __restrict__ A,
                                           const typename WmmaTypes<P>::In* __restrict__ B,
                                           typename WmmaTypes<P>::Acc* __restrict__ C, int M, int N, int K,
                                           const Probe& probe) {
  using S = WmmaShape<P, BM, BN, BK, WARPS_M, WARPS_N>;
  using In = typename S::In;
  using Acc = typename S::Acc;
  using E = typename WmmaElement<P>::type;
  // AᵀA's A operand is Aᵀ, stored k-major (At[k][m]): column-major as an FM x FK matrix.
  using ALayout = std::conditional_t<kAta, wmma::col_major, wmma::row_major>;
  using FragA = wmma::fragment<wmma::matrix_a, S::FM, S::FN, S::FK, E, ALayout>;
  using FragB = wmma::fragment<wmma::matrix_b, S::FM, S::FN, S::FK, E, wmma::row_major>;
  using FragC = wmma::fragment<wmma::accumulator, S::FM, S::FN, S::FK, Acc>;

  extern __shared__ __align__(128) unsigned char wmma_shared[];
  In* As = reinterpret_cast<In*>(wmma_shared);  // gemm: As[BM][LDA]; AᵀA: At[BK][LDT]
  In* Bs = As + S::kAElems;                     // Bs[BK][LDB]

  const int lane = threadIdx.x, warp = threadIdx.y;
  const int tid = warp * kWarpSize + lane;
  const int grid_cols = static_cast<int>(ceil_div(N, BN));
  const BlockTile tile = block_tile(kAta, blockIdx.x, static_cast<int>(ceil_div(M, BM)), grid_cols);
  const int m0 = tile.row * BM, n0 = tile.col * BN;
  const int wm = warp / WARPS_N, wn = warp % WARPS_N;      // the warp's tile in the block
  const int wm0 = m0 + wm * S::WM, wn0 = n0 + wn * S::WN;  // its first row and column of C
  // AᵀA, diagonal block: a warp tile wholly below the diagonal is the mirror of one above it.
  const bool idle = kAta && wm0 > wn0 + S::WN - 1;

  FragC acc[S::FRAGS_M][S::FRAGS_N];
#pragma unroll
  for (int i = 0; i < S::FRAGS_M; ++i)
#pragma unroll
    for (int j = 0; j < S::FRAGS_N; ++j) wmma::fill_fragment(acc[i][j], static_cast<Acc>(0));

  // K; a trace's phase limit may end it after fewer slabs.
  const int k_end = probe.k_end(K, BK);
  for (int k0 = 0; k0 < k_end; k0 += BK) {
    if constexpr (kAta)
      stage_slab<BK, BM, S::NT, Operand::A>(As, S::LDT, A, N, k0, m0, k_end, N, tid, probe);
    else
      stage_slab<BM, BK, S::NT, Operand::A>(As, S::LDA, A, K, m0, k0, M, k_end, tid, probe);
    stage_slab<BK, BN, S::NT, Operand::B>(Bs, S::LDB, kAta ? A : B, N, k0, n0, k_end, N, tid, probe);
    // The whole slab must be in shared memory before any warp loads a fragment of it.
    __syncthreads();
    if (!idle) {
#pragma unroll S::kStepUnroll
      for (int kk = 0; kk < BK; kk += S::FK) {
        // The warp's B fragments of this k step, then one A fragment at a time against all of
        // them (a row of accumulators per A fragment keeps few operand fragments alive).
        FragB b[S::FRAGS_N];
#pragma unroll
        for (int j = 0; j < S::FRAGS_N; ++j) {
          wmma::load_matrix_sync(b[j], Bs + kk * S::LDB + wn * S::WN + j * S::FN, S::LDB);
          round_operand<P>(b[j]);
        }
#pragma unroll
        for (int i = 0; i < S::FRAGS_M; ++i) {
          const int m = wm * S::WM + i * S::FM;
          FragA a;
          if constexpr (kAta)
            wmma::load_matrix_sync(a, As + kk * S::LDT + m, S::LDT);
          else
            wmma::load_matrix_sync(a, As + m * S::LDA + kk, S::LDA);
          round_operand<P>(a);
#pragma unroll
          for (int j = 0; j < S::FRAGS_N; ++j) wmma::mma_sync(acc[i][j], a, b[j], acc[i][j]);
        }
      }
    }
    // Nobody may overwrite the slab (or, after the last one, use it for staging C) while a
    // slower warp still reads it.
    __syncthreads();
  }

  // Epilogue: fragment -> the warp's staging area -> C. Fragments are stored whole, by the warp
  // together, so a fragment that starts outside C (or lies below AᵀA's diagonal) is skipped by
  // the whole warp.
  if (idle) return;
  Acc* stage = reinterpret_cast<Acc*>(wmma_shared) + warp * S::FM * S::FN;
  const bool vector_stores = N % S::W == 0 && reinterpret_cast<std::uintptr_t>(C) % kVecBytes == 0;
#pragma unroll
  for (int i = 0; i < S::FRAGS_M; ++i)
#pragma unroll
    for (int j = 0; j < S::FRAGS_N; ++j) {
      const int r0 = wm0 + i * S::FM, c0 = wn0 + j * S::FN;
      if (r0 >= M || c0 >= N || (kAta && r0 > c0 + S::FN - 1)) continue;
      wmma::store_matrix_sync(stage, acc[i][j], S::FN, wmma::mem_row_major);
      __syncwarp();  // the whole fragment is in the staging area before any lane reads it
      copy_fragment_out<S, kAta>(stage, C, r0, c0, M, N, vector_stores, lane, probe.writer_id(i * S::FRAGS_N + j),
                                 probe);
      __syncwarp();  // every lane has read it before the next fragment overwrites it
    }
}

// blockDim = (32, WARPS_M * WARPS_N), a 1-D grid of block tiles (block_order.h). Probe: NoProbe
// in the timed build, TraceProbe in the instrumented one (probe.cuh).
template <Precision P, int BM, int BN, int BK, int WARPS_M, int WARPS_N, bool kAta, typename Probe>
__global__ void __launch_bounds__((WARPS_M * WARPS_N) * kWarpSize)
    wmma_kernel(const typename WmmaTypes<P>::In* __restrict__ A, const typename WmmaTypes<P>::In* __restrict__ B,
                typename WmmaTypes<P>::Acc* __restrict__ C, int M, int N, int K, Probe probe) {
  if constexpr (wmma_compiled_here<P>())
    wmma_block<P, BM, BN, BK, WARPS_M, WARPS_N, kAta>(A, B, C, M, N, K, probe);
  else
    __trap();  // this architecture has no such fragment: never launched (the descriptor refuses)
}

}  // namespace tilescope
