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
//   scalar and wait for the barrier (nothing is in flight while the tensor cores run); and the
//   fragment loads do not avoid bank conflicts. The next variant takes the lid off (mma.sync).
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), whose loads and stores also
//   record reads and writers, and whose k_end stops the K loop after p slabs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "block_order.h"
#include "block_tile_model.h"
#include "kernel_common.cuh"
#include "probe.cuh"
#include "variant.h"

namespace tilescope {

extern const VariantDescriptor kWmmaVariant;

namespace {

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

// The same for host code that has the precision as a value (f32 is refused before it gets here).
FragmentShape fragment_shape(Precision p) {
  switch (p) {
    case Precision::TF32:
      return WmmaTypes<Precision::TF32>::kShape;
    case Precision::F64:
      return WmmaTypes<Precision::F64>::kShape;
    case Precision::BF16:
      return WmmaTypes<Precision::BF16>::kShape;
    default:
      return WmmaTypes<Precision::F16>::kShape;
  }
}

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
constexpr bool wmma_compiled_here() {
#ifdef TILESCOPE_WMMA_SM80
  return true;
#else
  return P == Precision::F16;  // mma.h declares the f16 fragments from sm_70
#endif
}

// ---- the block's shape and its shared memory -------------------------------------------------

constexpr int kWarpSize = 32;
constexpr int kVecBytes = 16;

constexpr std::size_t round_up(std::size_t bytes, std::size_t to) {
  return (bytes + to - 1) / to * to;
}

// Rows of the shared slabs are padded by 16 bytes: load_matrix_sync needs leading dimensions of
// whole 16-byte units, and the pad moves consecutive rows to other banks.
constexpr int padded(int elements, int in_bytes) {
  return elements + kVecBytes / in_bytes;
}

// The slab of the A operand: gemm As[m][k] (BM rows of BK + pad), AᵀA At[k][m] (BK rows of
// BM + pad); one region large enough for either, rounded to the 32 bytes that fragment pointers
// need, then Bs[k][n] (BK rows of BN + pad). After the K loop the same memory holds each warp's
// FM x FN staging area for C.
constexpr std::size_t a_region_elements(int bm, int bk, int in_bytes) {
  const std::size_t gemm = static_cast<std::size_t>(bm) * padded(bk, in_bytes);
  const std::size_t ata = static_cast<std::size_t>(bk) * padded(bm, in_bytes);
  return round_up((gemm > ata ? gemm : ata) * in_bytes, 32) / in_bytes;
}
constexpr std::size_t shared_bytes_for(int bm, int bn, int bk, int warps, int in_bytes, int acc_bytes, int fm, int fn) {
  const std::size_t slabs =
      (a_region_elements(bm, bk, in_bytes) + static_cast<std::size_t>(bk) * padded(bn, in_bytes)) *
      static_cast<std::size_t>(in_bytes);
  const std::size_t staging = static_cast<std::size_t>(warps) * fm * fn * acc_bytes;
  return slabs > staging ? slabs : staging;
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
  static constexpr int kAccRegisters = FRAGS_M * FRAGS_N * FM * FN / kWarpSize * static_cast<int>(sizeof(Acc)) / 4;
  // k steps of a slab unrolled: all of them, but one at a time where the accumulators alone take
  // half the registers a thread may have (f64 with 32 fragments of 8 x 8 per warp: unrolled, it
  // spilled).
  static constexpr int kStepUnroll = kAccRegisters >= 128 ? 1 : BK / FK;
  static_assert(WM % FM == 0 && WN % FN == 0 && BK % FK == 0, "fragments must tile the warp tile and the slab");
  static_assert((FM * FN / W) % kWarpSize == 0, "a fragment's chunks are shared evenly by the lanes");
  static_assert(FRAGS_M * FRAGS_N <= kTraceSlots, "a writer id has room for the warp's fragments");
};

// ---- the kernel ------------------------------------------------------------------------------

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

// ---- the compiled set ---------------------------------------------------------------------
// One row per configuration, for every input type (BK = 32 is a whole number of k steps of each
// fragment shape); the descriptor's config list is built from the same rows.
struct WmmaParams {
  int bm, bn, bk, warps_m, warps_n;
  int warps() const { return warps_m * warps_n; }
};
constexpr WmmaParams kParams[] = {
    {64, 64, 32, 2, 2},    // 4 warps of 32 x 32: 2 x 2 fragments each in f16 (4 x 4 in f64)
    {128, 128, 32, 2, 4},  // 8 warps of 64 x 32: 4 x 2 fragments each in f16 (8 x 4 in f64)
};
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

template <Precision P, typename Probe>
struct WmmaKernel {
  using In = typename WmmaTypes<P>::In;
  using Acc = typename WmmaTypes<P>::Acc;
  void (*kernel)(const In*, const In*, Acc*, int, int, int, Probe) = nullptr;
  int warps = 0;
  std::size_t shared_bytes = 0;
};

template <Precision P, int C, typename Probe>
WmmaKernel<P, Probe> config_kernel(bool ata) {
  constexpr WmmaParams p = kParams[C];
  WmmaKernel<P, Probe> k;
  k.kernel = ata ? wmma_kernel<P, p.bm, p.bn, p.bk, p.warps_m, p.warps_n, true, Probe>
                 : wmma_kernel<P, p.bm, p.bn, p.bk, p.warps_m, p.warps_n, false, Probe>;
  k.warps = p.warps_m * p.warps_n;
  using Types = WmmaTypes<P>;
  k.shared_bytes = shared_bytes_for(p.bm, p.bn, p.bk, p.warps(), sizeof(typename Types::In),
                                    sizeof(typename Types::Acc), Types::kShape.m, Types::kShape.n);
  return k;
}

// The one kernel of a launch: its template arguments are chosen here and nowhere else, so that
// kernel_for names exactly the kernel the launch runs.
template <Precision P, typename Probe>
WmmaKernel<P, Probe> launch_kernel(const GemmArgs& g, int config_index) {
  const bool ata = g.problem == Problem::Ata;
  switch (config_index) {
    case 0:
      return config_kernel<P, 0, Probe>(ata);
    case 1:
      return config_kernel<P, 1, Probe>(ata);
    default:
      throw GpuError(config_index_error(kWmmaVariant, config_index));
  }
}
static_assert(kNumConfigs == 2, "add a case to launch_kernel for every row of kParams");

// The grid: one block per block tile (gemm), or per upper-triangle block tile (AᵀA).
std::int64_t block_count(Problem problem, const Shape& s, const WmmaParams& p) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

template <Precision P, typename Probe>
void launch_typed(const GemmArgs& g, int config_index, const Probe& probe) {
  using In = typename WmmaTypes<P>::In;
  using Acc = typename WmmaTypes<P>::Acc;
  const WmmaKernel<P, Probe> k = launch_kernel<P, Probe>(g, config_index);
  // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
  if (k.shared_bytes > 48 * 1024)
    CUDA_CHECK(
        cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(k.shared_bytes)));
  const Shape s = normalised(g.problem, g.shape);
  const int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
  const dim3 grid = checked_grid(block_count(g.problem, s, kParams[config_index]), 1);
  const dim3 block(kWarpSize, k.warps);
  const In* a = static_cast<const In*>(g.a);
  const In* b = g.problem == Problem::Ata ? a : static_cast<const In*>(g.b);
  const auto kernel = k.kernel;
  kernel<<<grid, block, k.shared_bytes, g.stream>>>(a, b, static_cast<Acc*>(g.c), M, N, K, probe);
  CUDA_CHECK_LAUNCH("wmma_kernel");
}

// The input types this variant computes, each to its typed launch.
template <typename Probe>
void launch_any(const GemmArgs& g, int config_index, const Probe& probe) {
  switch (g.precision) {
    case Precision::F16:
      return launch_typed<Precision::F16>(g, config_index, probe);
    case Precision::BF16:
      return launch_typed<Precision::BF16>(g, config_index, probe);
    case Precision::TF32:
      return launch_typed<Precision::TF32>(g, config_index, probe);
    case Precision::F64:
      return launch_typed<Precision::F64>(g, config_index, probe);
    default:
      throw GpuError(variant_refusal(kWmmaVariant, config_index, g.problem, g.precision));
  }
}

void wmma_launch(const GemmArgs& g, int config_index) {
  launch_any(g, config_index, NoProbe{});
}

void wmma_launch_traced(const GemmArgs& g, int config_index, const TraceBuffers& trace) {
  launch_any(g, config_index, TraceProbe{trace});
}

template <Precision P>
KernelLaunchShape launch_shape(const GemmArgs& g, int config_index) {
  const WmmaKernel<P, NoProbe> k = launch_kernel<P, NoProbe>(g, config_index);
  KernelLaunchShape s;
  s.kernel = reinterpret_cast<const void*>(k.kernel);
  s.threads_per_block = kWarpSize * k.warps;
  s.dynamic_shared_bytes = k.shared_bytes;
  return s;
}

KernelLaunchShape wmma_kernel_for(const GemmArgs& g, int config_index) {
  switch (g.precision) {
    case Precision::F16:
      return launch_shape<Precision::F16>(g, config_index);
    case Precision::BF16:
      return launch_shape<Precision::BF16>(g, config_index);
    case Precision::TF32:
      return launch_shape<Precision::TF32>(g, config_index);
    case Precision::F64:
      return launch_shape<Precision::F64>(g, config_index);
    default:
      throw GpuError(variant_refusal(kWmmaVariant, config_index, g.problem, g.precision));
  }
}

std::string wmma_refuses(Problem problem, Precision, const TileConfig& cfg) {
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  return "";
}

std::size_t wmma_shared_bytes(const TileConfig& cfg, Precision p) {
  const FragmentShape f = fragment_shape(p);
  return shared_bytes_for(cfg.bm, cfg.bn, cfg.bk, cfg.threads() / kWarpSize, static_cast<int>(element_bytes(p)),
                          static_cast<int>(output_bytes(p)), f.m, f.n);
}

// FP64 wmma (8 x 8 x 4 double fragments) exists from sm_80, beyond the sm_70 of f16.
int wmma_min_cc_for(Precision p) {
  return p == Precision::F64 ? 80 : 0;
}

// ---- the mapping model ---------------------------------------------------------------------
// What wmma_kernel does, as plain host code, for one row of kParams and one input type (the
// fragment shape and the chunk width W of the copy-out depend on it). Blocks are numbered as
// the 1-D grid launches them: block_x = the linear index, block_y = 0.
class WmmaModel final : public BlockTileModel {
 public:
  WmmaModel(const WmmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, p.warps()}, problem, shape), p_(p), f_(fragment_shape(precision)) {
    chunk_ = kVecBytes / static_cast<int>(output_bytes(precision));
    wm_ = p.bm / p.warps_m;
    wn_ = p.bn / p.warps_n;
    frags_n_ = wn_ / f_.n;
  }

  // The writer ids' slot is the warp's accumulator fragment.
  int writer_slots() const override { return (wm_ / f_.m) * frags_n_; }
  // No fragment picture: wmma promises no lane layout for its fragments (that is the lesson;
  // mma.sync, the next variant, has one). Owners are lanes as the copy-out assigns them.
  const FragmentPicture* fragments() const override { return nullptr; }

 private:
  // The warp tile, the fragment in it (the slot), and the lane whose chunk of the fragment holds
  // the element (copy_fragment_out). Slabs are staged element by element (stage_slab): the
  // base's tile_loads.
  void owner_in_block(int r, int c, Owner* o) const override {
    const int fr = (r % wm_) / f_.m, fc = (c % wn_) / f_.n;
    const int chunk = (r % f_.m) * (f_.n / chunk_) + (c % f_.n) / chunk_;
    o->thread_x = chunk % kWarpSize;
    o->thread_y = (r / wm_) * p_.warps_n + c / wn_;
    o->slot = fr * frags_n_ + fc;
  }

  // The threads stage the slab element by element (stage_slab); every working warp loads its
  // fragments of each k step from shared memory and issues one mma_sync per accumulator fragment.
  void describe_phase(int bx, int, PhaseWork* w) const override {
    const Workers working = workers(bx, wm_, wn_, true);
    const int warps = p_.warps(), frags_m = wm_ / f_.m, steps = p_.bk / f_.k;
    w->outputs = working.outputs;
    const std::string wm = std::to_string(wm_), wn = std::to_string(wn_);
    w->shared = {static_cast<std::int64_t>(working.warps) * (wm_ + wn_),
                 working.warps < warps ? "working warps x (WM + WN)" : "warps x (WM + WN)",
                 std::to_string(working.warps) + " x (" + wm + " + " + wn + ")"};
    const std::string bm = std::to_string(p_.bm), bn = std::to_string(p_.bn), bk = std::to_string(p_.bk);
    w->words.push_back("The block's " + std::to_string(warps * kWarpSize) + " threads loaded the slab (" +
                       (ata() ? "A as Aᵀ: BK x BM = " + bk + " x " + bm : "A: BM x BK = " + bm + " x " + bk) +
                       ", B: BK x BN = " + bk + " x " + bn +
                       ") from global memory and stored it in shared memory, element by element (0 outside the "
                       "matrices); a barrier.");
    w->words.push_back(
        "Each warp loaded its fragments from shared memory (wmma::load_matrix_sync: " + std::to_string(frags_m) +
        " of A and " + std::to_string(frags_n_) + " of B per k step) and issued " + std::to_string(frags_m * frags_n_) +
        " wmma::mma_sync of " + std::to_string(f_.m) + " x " + std::to_string(f_.n) + " x " + std::to_string(f_.k) +
        " per k step, " + std::to_string(steps) + " k steps: " + std::to_string(frags_m * frags_n_ * steps) +
        " in this phase, into accumulator fragments in its registers; a second barrier.");
    if (working.warps < warps)
      w->words.push_back(
          "Warps whose tiles lie below the diagonal compute nothing here: " + std::to_string(warps - working.warps) +
          " of the " + std::to_string(warps) + ", mirrors of tiles above it.");
  }

  WmmaParams p_;
  FragmentShape f_;
  int chunk_ = 4, wm_ = 1, wn_ = 1, frags_n_ = 1;
};

std::unique_ptr<MappingModel> wmma_model(int config_index, Problem problem, Precision precision, const Shape& shape) {
  return std::make_unique<WmmaModel>(kParams[config_index], problem, precision, normalised(problem, shape));
}

std::vector<TileConfig> wmma_configs() {
  std::vector<TileConfig> out;
  for (const WmmaParams& p : kParams) {
    TileConfig c;
    const int wm = p.bm / p.warps_m, wn = p.bn / p.warps_n;
    c.name = std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_w" +
             std::to_string(wm) + "x" + std::to_string(wn);
    c.bm = p.bm;
    c.bn = p.bn;
    c.bk = p.bk;
    c.warp_m = wm;
    c.warp_n = wn;
    c.threads_x = kWarpSize;
    c.threads_y = p.warps();
    c.math = "tensor cores (nvcuda::wmma): f16, bf16 16x16x16 and tf32 16x16x8 with FP32 accumulation; f64 8x8x4";
    out.push_back(c);
  }
  return out;
}

}  // namespace

extern const VariantDescriptor kWmmaVariant = [] {
  VariantDescriptor v;
  v.id = "wmma";
  v.label = "Tensor cores (wmma)";
  v.summary =
      "The first tensor-core kernel: each warp multiplies 16 x 16 fragments of A and B (8 x 8 in "
      "double) with one wmma::mma_sync, from slabs staged in shared memory as in the tiled kernel. "
      "The fragments are opaque: which lane holds which element is not said, so C leaves through "
      "shared memory. For AᵀA only the upper-triangle blocks are launched, and mirrored.";
  v.role = Role::Kernel;
  v.backend = Backend::Cuda;
  v.configs = wmma_configs();
  v.default_config = 0;  // 4 warps of 32 x 32: the smallest picture of warps and fragments
  v.precisions = {Precision::TF32, Precision::F16, Precision::BF16, Precision::F64};
  v.precision_note = "f32 runs on the FMA cores; tf32 is the tensor-core path for float data";
  v.min_compute_capability = 70;
  v.architecture_note = "wmma needs tensor cores: f16 from compute capability 7.0; tf32, bf16 and f64 from 8.0";
  v.precisions_need_tensor_cores = true;
  v.min_compute_capability_for = wmma_min_cc_for;
  v.refuses = wmma_refuses;
  v.launch = wmma_launch;
  v.launch_traced = wmma_launch_traced;
  v.kernel_for = wmma_kernel_for;
  v.shared_bytes = wmma_shared_bytes;
  v.model = wmma_model;
  v.model_caps.staged_phases = true;
  v.model_caps.prefetch = false;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
