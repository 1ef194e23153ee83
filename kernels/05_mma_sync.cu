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
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "block_order.h"
#include "block_tile_model.h"
#include "kernel_common.cuh"
#include "mma_ptx.cuh"
#include "probe.cuh"
#include "variant.h"

namespace tilescope {

extern const VariantDescriptor kMmaSyncVariant;

namespace {

// ---- the instruction per input type -----------------------------------------------------------
template <Precision P>
struct Tensor;
template <>
struct Tensor<Precision::F16> {
  using E = __half;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = 16;
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k16_f16(d, a, b); }
};
template <>
struct Tensor<Precision::BF16> {
  using E = __nv_bfloat16;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = 16;
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k16_bf16(d, a, b); }
};
template <>
struct Tensor<Precision::TF32> {
  using E = float;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = 8;
  __device__ static Reg reg(float x) { return __float_as_uint(x); }
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k8_tf32(d, a, b); }
};
template <>
struct Tensor<Precision::F64> {
  using E = double;
  using Acc = double;
  using Reg = double;
  static constexpr int kK = 8;
  __device__ static Reg reg(double x) { return x; }
  __device__ static void mma(double (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k8_f64(d, a, b); }
};

// ---- the compiled set -------------------------------------------------------------------------
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
constexpr int kNumConfigs = sizeof(kParams) / sizeof(kParams[0]);

constexpr Family family_of(Precision p) {
  return p == Precision::TF32 ? Family::Tf32 : p == Precision::F64 ? Family::F64 : Family::Bits16;
}

// ---- shared-memory tiles ----------------------------------------------------------------------
// A ROWS x COLS tile stored row by row in 16-byte chunks. With a swizzle, chunk c of row r sits at
// chunk c ^ f(r): Rows8 spreads the 8 rows of an ldmatrix phase (or of a fragment load reading 8
// rows at one column) over 8 chunks; RowPairs spreads 4 rows x 2 adjacent chunks (a fragment load
// reading rows t = 0..3 at two columns g = 0..7) over 8 chunks.
enum class Swizzle { None, Rows8, RowPairs };

// The XOR applied to the chunks of row `row` of a tile with `chunks` chunks per row.
__host__ __device__ constexpr int chunk_xor(Swizzle sw, int chunks, int row) {
  if (sw == Swizzle::RowPairs) return (row & 3) << 1;
  if (sw == Swizzle::None) return 0;
  // Rows8: 8 rows to 8 chunks; rows narrower than 8 chunks share a 128-byte line with their
  // neighbours, so the rows of a line take different chunk groups first.
  return chunks >= 8 ? (row & 7) : chunks == 4 ? ((row >> 1) & 3) : ((row >> 2) & 1);
}
// Element offset of (row, col) in a tile of `cols` elements of elem_bytes per row.
__host__ __device__ constexpr int swizzled_offset(Swizzle sw, int elem_bytes, int cols, int row, int col) {
  const int chunk_elems = 16 / elem_bytes;
  return row * cols + ((col / chunk_elems) ^ chunk_xor(sw, cols / chunk_elems, row)) * chunk_elems + col % chunk_elems;
}
// The pattern of a tile: the 16-bit types' ldmatrix rows and TF32's gemm A (read 8 rows at one
// column) take Rows8; the other TF32 and FP64 tiles (read 4 rows at two columns) RowPairs.
__host__ __device__ constexpr Swizzle tile_swizzle(bool swizzled, Precision p, bool ata, bool a_operand) {
  if (!swizzled) return Swizzle::None;
  const bool bits16 = p == Precision::F16 || p == Precision::BF16;
  return bits16 || (p == Precision::TF32 && a_operand && !ata) ? Swizzle::Rows8 : Swizzle::RowPairs;
}

template <int kElemBytes, int ROWS, int COLS, Swizzle kSwizzle>
struct SmemTile {
  static constexpr int kChunkElems = 16 / kElemBytes;
  static constexpr int kChunks = COLS / kChunkElems;  // per row
  static constexpr int kElems = ROWS * COLS;
  static_assert(COLS % kChunkElems == 0, "rows are whole 16-byte chunks");
  static_assert(kSwizzle != Swizzle::RowPairs || kChunks >= 8, "the pair swizzle needs 8 chunks per row");
  static_assert(kSwizzle != Swizzle::Rows8 || kChunks >= 2, "the row swizzle needs 2 chunks per row");

  __host__ __device__ static constexpr int chunk_xor(int row) { return tilescope::chunk_xor(kSwizzle, kChunks, row); }
  __host__ __device__ static constexpr int offset(int row, int col) {
    return swizzled_offset(kSwizzle, kElemBytes, COLS, row, col);
  }
  // offset(r + R, c + C) from lane_offset = offset(r, c): the XOR key of a row repeats every 8
  // rows (4 for RowPairs), so moving R rows (a multiple of 8) moves by R whole rows; and when the
  // chunk bits of C and of c do not overlap (C a multiple of a power of two above c's chunk), the
  // chunk C adds is a XOR on the chunk bits of lane_offset. Every fragment load is of that form
  // (C is a k step, an instruction row or column; c is a lane's few chunks), so the lane's part
  // is computed once and each load adds two constants.
  __host__ __device__ static constexpr int fragment_offset(int lane_offset, int R, int C) {
    return (lane_offset ^ (C / kChunkElems * kChunkElems)) + R * COLS;
  }
};

// Shared memory of a configuration: the ring of stages, then reused by the epilogue's strips (per
// warp 16 rows of the warp tile, rows padded by 32 (float) or 64 (double) bytes so that the
// lanes' fragment stores spread over the banks), with the writer ids beside them in the trace.
// Warps of a block: one per warp tile.
constexpr int warps_of(const MmaParams& p) {
  return (p.bm / p.wm) * (p.bn / p.wn);
}
constexpr int strip_ld(const MmaParams& p) {
  return p.wn + 8;
}
constexpr std::size_t strip_bytes(const MmaParams& p, std::size_t bytes) {
  return static_cast<std::size_t>(warps_of(p)) * 16 * strip_ld(p) * bytes;
}
// The decoupled configurations keep their 2 x stages mbarriers (8 bytes each) after both.
constexpr std::size_t barriers_offset(const MmaParams& p, std::size_t elem_bytes, std::size_t acc_bytes,
                                      bool with_ids) {
  const std::size_t pipeline = static_cast<std::size_t>(p.stages) * (p.bm + p.bn) * p.bk * elem_bytes;
  const std::size_t epilogue = strip_bytes(p, acc_bytes) + (with_ids ? strip_bytes(p, sizeof(int)) : 0);
  return ((pipeline > epilogue ? pipeline : epilogue) + 15) / 16 * 16;
}
constexpr std::size_t shared_bytes_of(const MmaParams& p, std::size_t elem_bytes, std::size_t acc_bytes,
                                      bool with_ids) {
  return barriers_offset(p, elem_bytes, acc_bytes, with_ids) +
         (p.decoupled ? 2 * static_cast<std::size_t>(p.stages) * sizeof(std::uint64_t) : 0);
}

// Which lane reads which element for one fragment, shared by the kernel and its model. 16-bit
// types: the address lane `lane` gives ldmatrix.x4 (row, col of the tile, both in elements).
struct TileCoord {
  int row, col;
};
// Which operand tiles are read by ldmatrix: every 16-bit one; and TF32's A of gemm, whose rows
// run along k: ldmatrix's 8 x 8 matrices of 16-bit values are then 8 x 4 matrices of 32-bit ones,
// and lane 4g + t receives word t of row g, the place tf32's A fragment wants (mma_ptx.cuh). (Its
// B, and the A of AᵀA, run along n or m and would need a transpose of 32-bit values: ldmatrix's
// .trans moves 16-bit halves.)
__host__ __device__ constexpr bool ldmatrix_operand(Precision p, bool ata, bool a_operand) {
  return p == Precision::F16 || p == Precision::BF16 || (p == Precision::TF32 && a_operand && !ata);
}
// A of gemm, tile rows m x cols k, no transpose: matrices (m 0-7, k chunk 0), (m 8-15, chunk 0),
// (m 0-7, chunk 1), (m 8-15, chunk 1) are a[0..3]; a chunk is 16 bytes, chunk_elems elements.
__host__ __device__ constexpr TileCoord ldmatrix_a_rows(int lane, int chunk_elems) {
  return {lane % 16, (lane / 16) * chunk_elems};
}
// A of AᵀA, tile rows k x cols m, transposed: matrix q = lane / 8 covers m 8 (q % 2), k 8 (q / 2).
__host__ __device__ constexpr TileCoord ldmatrix_a_trans(int lane) {
  return {lane % 8 + (lane / 16) * 8, ((lane / 8) % 2) * 8};
}
// B, tile rows k x cols n, transposed, two 8-column instruction tiles at once: matrix q covers
// k 8 (q % 2), n 8 (q / 2); registers 0, 1 are b[0..1] of the first tile, 2, 3 of the second.
__host__ __device__ constexpr TileCoord ldmatrix_b_trans(int lane) {
  return {lane % 8 + ((lane / 8) % 2) * 8, (lane / 16) * 8};
}
// TF32 and FP64 fragments, element i of the lane (mma_ptx.cuh): A (m, k), B (k, n).
__host__ __device__ constexpr TileCoord scalar_a(int lane, int i) {
  return {lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i / 2)};
}
__host__ __device__ constexpr TileCoord scalar_b(int lane, int i) {
  return {lane % 4 + 4 * i, lane / 4};
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
  static constexpr std::size_t shared_bytes(bool with_ids) {
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

// "h128x256x32_s3": the family (h: 16-bit, tf32_, d: double), block tile and slab, stages, and
// _plain without the swizzle.
std::string config_name(const MmaParams& p) {
  const char* family = p.family == Family::Bits16 ? "h" : p.family == Family::Tf32 ? "tf32_" : "d";
  return std::string(family) + std::to_string(p.bm) + "x" + std::to_string(p.bn) + "x" + std::to_string(p.bk) + "_s" +
         std::to_string(p.stages) + (p.swizzle ? "" : "_plain") + (p.fragment_pipeline ? "_fp" : "") +
         (p.decoupled ? "_mb" : "");
}

// ---- launching --------------------------------------------------------------------------------
// One compiled kernel: input type, row of kParams, problem, probe.
template <Precision P, int CFG, bool kAta, typename Probe>
struct Instance {
  using S = MmaShape<P, CFG, kAta>;
  static constexpr auto kernel = mma_sync_kernel<P, CFG, kAta, Probe>;
  static constexpr std::size_t shared = S::shared_bytes(Probe::kRecordsWriters);
};

// Calls fn(Instance<...>{}) for the kernel of these arguments; the template arguments are chosen
// here and nowhere else, so that kernel_for names exactly the kernel the launch runs.
template <typename Probe, int CFG, typename Fn>
void visit_config(const GemmArgs& g, Fn&& fn) {
  constexpr Family f = kParams[CFG].family;
  const bool ata = g.problem == Problem::Ata;
  auto by_problem = [&](auto precision_tag) {
    constexpr Precision P = decltype(precision_tag)::value;
    if (!ata)
      fn(Instance<P, CFG, false, Probe>{});
    else if constexpr (kParams[CFG].bm == kParams[CFG].bn)  // AᵀA needs square blocks: no other is compiled
      fn(Instance<P, CFG, true, Probe>{});
    else
      throw GpuError("configuration " + config_name(kParams[CFG]) + " has no AᵀA kernel: BM must equal BN");
  };
  if constexpr (f == Family::Bits16) {
    if (g.precision == Precision::BF16)
      by_problem(std::integral_constant<Precision, Precision::BF16>{});
    else
      by_problem(std::integral_constant<Precision, Precision::F16>{});
  } else if constexpr (f == Family::Tf32) {
    by_problem(std::integral_constant<Precision, Precision::TF32>{});
  } else {
    by_problem(std::integral_constant<Precision, Precision::F64>{});
  }
}

template <typename Probe, typename Fn, int... C>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn, std::integer_sequence<int, C...>) {
  const bool found = ((config_index == C ? (visit_config<Probe, C>(g, fn), true) : false) || ...);
  if (!found) throw GpuError(config_index_error(kMmaSyncVariant, config_index));
}

template <typename Probe, typename Fn>
void visit_kernel(const GemmArgs& g, int config_index, Fn&& fn) {
  visit_kernel<Probe>(g, config_index, fn, std::make_integer_sequence<int, kNumConfigs>{});
}

// 16-byte copies need every row start aligned: the leading dimension a multiple of the chunk.
bool rows_aligned(const void* base, std::int64_t ld, std::size_t elem_bytes) {
  return reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && (ld * static_cast<std::int64_t>(elem_bytes)) % 16 == 0;
}

std::int64_t grid_blocks(const MmaParams& p, Problem problem, const Shape& s) {
  return block_tile_count(problem == Problem::Ata, static_cast<int>(ceil_div(s.M, p.bm)),
                          static_cast<int>(ceil_div(s.N, p.bn)));
}

template <typename Probe>
void launch_with(const GemmArgs& g, int config_index, const Probe& probe) {
  visit_kernel<Probe>(g, config_index, [&](auto instance) {
    using I = decltype(instance);
    using S = typename I::S;
    using E = typename S::E;
    using Acc = typename S::Acc;
    const auto kernel = I::kernel;
    // Above 48 KB a block's dynamic shared memory must be allowed explicitly.
    if (I::shared > 48 * 1024)
      CUDA_CHECK(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(I::shared)));
    const Shape& s = g.shape;
    const bool ata = g.problem == Problem::Ata;
    const E* a = static_cast<const E*>(g.a);
    const E* b = ata ? a : static_cast<const E*>(g.b);
    const bool vec_a = rows_aligned(a, ata ? s.N : s.K, sizeof(E));
    const bool vec_b = rows_aligned(b, s.N, sizeof(E));
    const bool vec_c = rows_aligned(g.c, s.N, sizeof(Acc));
    const dim3 grid = checked_grid(grid_blocks(S::p, g.problem, s), 1);
    const dim3 block(32, S::WARPS);
    kernel<<<grid, block, I::shared, g.stream>>>(a, b, static_cast<Acc*>(g.c), static_cast<int>(s.M),
                                                 static_cast<int>(s.N), static_cast<int>(s.K), vec_a, vec_b, vec_c,
                                                 probe);
    CUDA_CHECK_LAUNCH("mma_sync_kernel");
  });
}

void mma_launch(const GemmArgs& g, int config_index) {
  launch_with(g, config_index, NoProbe{});
}

void mma_launch_traced(const GemmArgs& g, int config_index, const TraceBuffers& trace) {
  launch_with(g, config_index, TraceProbe{trace});
}

KernelLaunchShape mma_kernel_for(const GemmArgs& g, int config_index) {
  KernelLaunchShape out;
  visit_kernel<NoProbe>(g, config_index, [&](auto instance) {
    using I = decltype(instance);
    out.kernel = reinterpret_cast<const void*>(I::kernel);
    out.threads_per_block = I::S::NT;
    out.dynamic_shared_bytes = I::shared;
  });
  return out;
}

const MmaParams* params_of(const TileConfig& cfg) {
  for (const MmaParams& p : kParams)
    if (config_name(p) == cfg.name) return &p;
  return nullptr;
}

const char* family_types(Family f) {
  return f == Family::Bits16 ? "f16 and bf16" : f == Family::Tf32 ? "tf32" : "f64";
}

std::string mma_refuses(Problem problem, Precision precision, const TileConfig& cfg) {
  const MmaParams* p = params_of(cfg);
  if (!p) return "unknown configuration " + cfg.name;
  if (family_of(precision) != p->family)
    return "configuration " + cfg.name + " is tiled for " + family_types(p->family) + "; choose one of " +
           family_types(family_of(precision));
  if (problem == Problem::Ata && cfg.bm != cfg.bn)
    return "AᵀA mirrors square blocks across the diagonal: BM must equal BN";
  return "";
}

std::size_t mma_shared_bytes(const TileConfig& cfg, Precision precision) {
  const MmaParams* p = params_of(cfg);
  return p ? shared_bytes_of(*p, element_bytes(precision), output_bytes(precision), false) : 0;
}

int mma_min_cc(Precision p) {
  return p == Precision::F64 ? 90 : 0;  // mma.sync m16n8k8 in FP64 came with sm_90
}

// ---- the mapping model ---------------------------------------------------------------------------
// What mma_sync_kernel does, as plain host code, for one row of kParams, problem and input type.
class MmaModel final : public BlockTileModel {
 public:
  MmaModel(const MmaParams& p, Problem problem, Precision precision, const Shape& shape)
      : BlockTileModel({p.bm, p.bn, p.bk, warps_of(p), "copied", ", straight into shared memory (cp.async)"}, problem,
                       shape),
        p_(p),
        precision_(precision) {
    kk_ = precision == Precision::F16 || precision == Precision::BF16 ? 16 : 8;
    eb_ = static_cast<int>(element_bytes(precision));
    warps_n_ = p.bn / p.wn;
    mi_ = p.wm / 16;
    ni_ = p.wn / 8;
    // As the launch decides for buffers of their own (cudaMalloc aligns them to 256 bytes).
    const int chunk = 16 / eb_;
    vec_a_ = (ata() ? shape.N : shape.K) % chunk == 0;
    vec_b_ = shape.N % chunk == 0;
    build_picture();
  }

  int writer_slots() const override { return mi_ * ni_ * 4; }
  const FragmentPicture* fragments() const override { return &picture_; }

 private:
  // Warp (r / WM, c / WN); in its tile, instruction tile (mi, ni) of 16 x 8; in that, lane 4g + t
  // holds accumulator (r16 / 8) * 2 + c8 % 2 (mma_ptx.cuh).
  void owner_in_block(int r, int c, Owner* o) const override {
    const int mi = (r % p_.wm) / 16, r16 = r % 16, ni = (c % p_.wn) / 8, c8 = c % 8;
    o->thread_x = (r16 % 8) * 4 + c8 / 2;  // lane 4g + t
    o->thread_y = (r / p_.wm) * warps_n_ + c / p_.wn;
    o->slot = (mi * ni_ + ni) * 4 + (r16 / 8) * 2 + c8 % 2;
  }

  // The slab arrived by cp.async in a stage of the ring; every working warp reads its fragments of
  // each k step from shared memory and issues MI x NI instructions, while the next slabs' copies
  // are in flight.
  void describe_phase(int bx, int phase, PhaseWork* w) const override {
    const Workers working = workers(bx, p_.wm, p_.wn, true);
    const int warps = warps_of(p_), steps = p_.bk / kk_, per_step = mi_ * ni_;
    w->outputs = working.outputs;
    const std::string wm = std::to_string(p_.wm), wn = std::to_string(p_.wn);
    w->shared = {static_cast<std::int64_t>(working.warps) * (p_.wm + p_.wn),
                 working.warps < warps ? "working warps x (WM + WN)" : "warps x (WM + WN)",
                 std::to_string(working.warps) + " x (" + wm + " + " + wn + ")"};
    // Rows that are not 16-byte aligned cannot be copied in cp.async's 16-byte chunks.
    auto how = [](bool vec) {
      return std::string(vec ? "by cp.async, straight into shared memory in 16-byte chunks"
                             : "element by element through registers (its rows are not 16-byte aligned)");
    };
    const std::string ring = ", into stage " + std::to_string(phase % p_.stages) + " of a ring of " +
                             std::to_string(p_.stages) +
                             (p_.swizzle ? ", its rows XOR-swizzled." : ", its rows plain (no swizzle).");
    w->words.push_back(vec_a_ == vec_b_ ? "The slab was copied from global memory " + how(vec_a_) + ring
                                        : "The slab's A was copied from global memory " + how(vec_a_) + " and its B " +
                                              how(vec_b_) + ring);
    w->words.push_back(p_.decoupled
                           ? "The stage's mbarrier said when every thread's copies had landed: a warp waits only "
                             "for the slab it multiplies."
                           : "A block barrier per slab: every thread's copies had landed.");
    w->words.push_back("Each warp read its fragments from shared memory (" + picture_.a_reads.instruction + " for A, " +
                       picture_.b_reads.instruction + " for B: WM = " + wm + " rows of A and WN = " + wn +
                       " columns of B per k) and issued " + std::to_string(mi_) + " x " + std::to_string(ni_) + " = " +
                       std::to_string(per_step) + " mma.sync m16n8k" + std::to_string(kk_) + " per k step, " +
                       std::to_string(steps) + " k steps: " + std::to_string(per_step * steps) +
                       " in this phase, into its accumulator registers.");
    if (working.warps < warps)
      w->words.push_back(
          "Warps whose tiles lie below the diagonal only copy here: " + std::to_string(warps - working.warps) +
          " of the " + std::to_string(warps) + ", mirrors of tiles above it.");
    const int ahead = std::min(picture_.in_flight, phases() - phase - 1);
    w->words.push_back(ahead > 0 ? "Meanwhile the next " + std::to_string(ahead) +
                                       " slab(s) were being copied into other stages."
                                 : std::string("Nothing was left to copy: no slab is in flight."));
  }

  // load_tile: with 16-byte copies, chunk tid + l * NT of the tile, the part inside the matrix;
  // otherwise element by element.
  void tile_loads(bool a_operand, int tile_rows, int tile_cols, std::int64_t r0, std::int64_t c0, std::int64_t rows,
                  std::int64_t cols, int tid, std::vector<ElementRef>* out) const override {
    if (!(a_operand ? vec_a_ : vec_b_)) return element_loads(tile_rows, tile_cols, r0, c0, rows, cols, tid, out);
    const int chunk = 16 / eb_, per_row = tile_cols / chunk;
    for (int q = tid; q < tile_rows * per_row; q += 32 * tiling().warps) {
      const std::int64_t gr = r0 + q / per_row, gc = c0 + static_cast<std::int64_t>(q % per_row) * chunk;
      if (gr >= rows) continue;
      for (std::int64_t c = gc; c < std::min<std::int64_t>(gc + chunk, cols); ++c) out->push_back({gr, c});
    }
  }

  // ---- the fragment picture: the same formulas as the kernel ----
  void build_picture() {
    FragmentPicture& f = picture_;
    f.mma_m = 16;
    f.mma_n = 8;
    f.mma_k = kk_;
    f.warps_m = p_.bm / p_.wm;
    f.warps_n = warps_n_;
    f.warp_m = p_.wm;
    f.warp_n = p_.wn;
    f.stages = p_.stages;
    f.in_flight = p_.decoupled ? p_.stages - 2 : p_.stages - 1;
    f.swizzled = p_.swizzle;
    const bool bits16 = kk_ == 16;
    const char* type = precision_ == Precision::F16    ? "f16"
                       : precision_ == Precision::BF16 ? "bf16"
                       : precision_ == Precision::TF32 ? "tf32"
                                                       : "f64";
    const char* acc = precision_ == Precision::F64 ? "f64" : "f32";
    f.instruction = std::string("mma.sync.aligned.m16n8k") + std::to_string(kk_) + ".row.col." + acc + "." + type +
                    "." + type + "." + acc;
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      for (int r = 0; r < 4; ++r) f.c.push_back({lane, r, g + 8 * (r / 2), 2 * t + r % 2});
      if (bits16) {
        for (int i = 0; i < 4; ++i)
          for (int e = 0; e < 2; ++e) f.a.push_back({lane, i, g + 8 * (i % 2), 2 * t + 8 * (i / 2) + e});
        for (int i = 0; i < 2; ++i)
          for (int e = 0; e < 2; ++e) f.b.push_back({lane, i, 2 * t + 8 * i + e, g});
      } else {
        for (int i = 0; i < 4; ++i) f.a.push_back({lane, i, scalar_a(lane, i).row, scalar_a(lane, i).col});
        for (int i = 0; i < 2; ++i) f.b.push_back({lane, i, scalar_b(lane, i).row, scalar_b(lane, i).col});
      }
    }
    // The patterns the kernel's swizzled tiles take (the plain configurations' included: the
    // picture compares the two layouts).
    const Swizzle a_pattern = tile_swizzle(true, precision_, ata(), true);
    const Swizzle b_pattern = tile_swizzle(true, precision_, ata(), false);
    const int a_rows = ata() ? p_.bk : p_.bm, a_cols = ata() ? p_.bm : p_.bk;
    f.a_reads = operand_reads(true, a_pattern, a_rows, a_cols);
    f.b_reads = operand_reads(false, b_pattern, p_.bk, p_.bn);
  }

  // Warp 0's reads of its first A (or B) fragment at k step 0, as the kernel issues them.
  OperandReads operand_reads(bool is_a, Swizzle pattern, int rows, int cols) const {
    OperandReads out;
    out.tile_rows = rows;
    out.tile_cols = cols;
    out.element_bytes = eb_;
    const bool ldmatrix = ldmatrix_operand(precision_, ata(), is_a);
    auto requests = [&](Swizzle sw) {
      std::vector<SharedRequest> reqs;
      if (ldmatrix) {
        // ldmatrix.x4: four phases of 8 lanes, 16 bytes each.
        for (int q = 0; q < 4; ++q) {
          SharedRequest r;
          for (int lane = 8 * q; lane < 8 * q + 8; ++lane) {
            const TileCoord c =
                is_a ? (ata() ? ldmatrix_a_trans(lane) : ldmatrix_a_rows(lane, 16 / eb_)) : ldmatrix_b_trans(lane);
            r.reads.push_back({lane, std::int64_t{swizzled_offset(sw, eb_, cols, c.row, c.col)} * eb_, 16});
          }
          reqs.push_back(r);
        }
      } else {
        // One load instruction of register 0: 32 lanes of 4 bytes, or two half-warps of 8.
        const int lanes_per_request = eb_ == 8 ? 16 : 32;
        for (int first = 0; first < 32; first += lanes_per_request) {
          SharedRequest r;
          for (int lane = first; lane < first + lanes_per_request; ++lane) {
            const TileCoord c = is_a ? scalar_a(lane, 0) : scalar_b(lane, 0);  // A (m, k), B (k, n)
            const TileCoord at = (is_a && ata()) ? TileCoord{c.col, c.row} : c;
            r.reads.push_back({lane, std::int64_t{swizzled_offset(sw, eb_, cols, at.row, at.col)} * eb_, eb_});
          }
          reqs.push_back(r);
        }
      }
      return reqs;
    };
    out.instruction = ldmatrix ? (is_a && !ata() ? "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
                                                 : "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
                               : (eb_ == 8 ? "ld.shared.f64" : "ld.shared.b32");
    out.swizzled = requests(pattern);
    out.unswizzled = requests(Swizzle::None);
    return out;
  }

  MmaParams p_;
  Precision precision_;
  int kk_ = 16, eb_ = 2, warps_n_ = 1, mi_ = 1, ni_ = 1;
  bool vec_a_ = false, vec_b_ = false;
  FragmentPicture picture_;
};

std::unique_ptr<MappingModel> mma_model(int config_index, Problem problem, Precision precision, const Shape& shape) {
  return std::make_unique<MmaModel>(kParams[config_index], problem, precision, normalised(problem, shape));
}

std::vector<TileConfig> mma_configs() {
  std::vector<TileConfig> out;
  for (const MmaParams& p : kParams) {
    TileConfig c;
    c.name = config_name(p);
    c.bm = p.bm;
    c.bn = p.bn;
    c.bk = p.bk;
    c.warp_m = p.wm;
    c.warp_n = p.wn;
    c.stages = p.stages;
    c.threads_x = 32;
    c.threads_y = warps_of(p);
    c.math = p.family == Family::Bits16 ? "mma.sync m16n8k16 tensor cores, FP32 accumulation"
             : p.family == Family::Tf32 ? "mma.sync m16n8k8 TF32 tensor cores, FP32 accumulation"
                                        : "mma.sync m16n8k8 FP64 tensor cores (DMMA)";
    out.push_back(c);
  }
  return out;
}

}  // namespace

extern const VariantDescriptor kMmaSyncVariant = [] {
  VariantDescriptor v;
  v.id = "mma_sync";
  v.label = "mma.sync tensor cores";
  v.summary =
      "The tensor cores with nothing hidden: each warp issues mma.sync instructions on fragments held in "
      "named registers, fed from shared memory by ldmatrix; slabs of A and B arrive by cp.async in a ring "
      "of stages, laid out with an XOR swizzle so no two lanes collide in a bank. For AᵀA only the "
      "upper-triangle blocks run and are mirrored.";
  v.role = Role::Kernel;
  v.backend = Backend::Cuda;
  v.configs = mma_configs();
  v.default_config = 15;  // h128x128x64_s3_mb: per-stage barriers, fits an A100, the fastest 16-bit AᵀA
  v.precisions = {Precision::F16, Precision::BF16, Precision::TF32, Precision::F64};
  v.precision_note =
      "tensor cores take no FP32 inputs; float data go through them as TF32 (choose tf32), or through the FMA "
      "kernels as f32";
  v.min_compute_capability = 80;
  v.architecture_note = "cp.async and the mma.sync shapes used here came with Ampere (sm_80); FP64 m16n8k8 with Hopper";
  v.precisions_need_tensor_cores = true;
  v.min_compute_capability_for = mma_min_cc;
  v.refuses = mma_refuses;
  v.launch = mma_launch;
  v.launch_traced = mma_launch_traced;
  v.kernel_for = mma_kernel_for;
  v.shared_bytes = mma_shared_bytes;
  v.model = mma_model;
  v.model_caps.staged_phases = true;
  v.model_caps.prefetch = false;
  v.model_caps.mirrored_ata = true;
  v.model_caps.warp_level = true;
  return v;
}();

}  // namespace tilescope
