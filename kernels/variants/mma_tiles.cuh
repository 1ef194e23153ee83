// The machinery of the mma.sync kernels that a reader of the kernel need not read first: the
// instruction of each input type (Tensor: mma_ptx.cuh's wrappers with the types they take), the
// XOR-swizzled shared-memory tiles (SmemTile), and which lane reads which element of a fragment
// (the TileCoord tables), which the kernel and its mapping model both use.
// This header is device-only (no host header, so NVRTC compiles it as a kernel text's include).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/core/gemm_basics.h"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/mma_ptx.cuh"

namespace tilescope {

// ---- the instruction per input type -----------------------------------------------------------
// The k of one instruction: m16n8k16 for the 16-bit types, m16n8k8 for tf32 and f64.
__host__ __device__ constexpr int instruction_k(Precision p) {
  return p == Precision::F16 || p == Precision::BF16 ? 16 : 8;
}
template <Precision P>
struct Tensor;
template <>
struct Tensor<Precision::F16> {
  using E = __half;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = instruction_k(Precision::F16);
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k16_f16(d, a, b); }
};
template <>
struct Tensor<Precision::BF16> {
  using E = __nv_bfloat16;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = instruction_k(Precision::BF16);
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k16_bf16(d, a, b); }
};
template <>
struct Tensor<Precision::TF32> {
  using E = float;
  using Acc = float;
  using Reg = std::uint32_t;
  static constexpr int kK = instruction_k(Precision::TF32);
  __device__ static Reg reg(float x) { return __float_as_uint(x); }
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k8_tf32(d, a, b); }
};
template <>
struct Tensor<Precision::F64> {
  using E = double;
  using Acc = double;
  using Reg = double;
  static constexpr int kK = instruction_k(Precision::F64);
  __device__ static Reg reg(double x) { return x; }
  __device__ static void mma(double (&d)[4], const Reg (&a)[4], const Reg (&b)[2]) { mma_m16n8k8_f64(d, a, b); }
};

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
// Whether the XOR keys of a pattern keep every chunk of a row of `chunks` chunks inside its row:
// the keys of Rows8 reach 7 (rows of 8 or more chunks) or 1 (rows of 2 or 6), those of RowPairs 6.
__host__ __device__ constexpr bool swizzle_fits(Swizzle sw, int chunks) {
  if (sw == Swizzle::None) return chunks >= 1;
  if (sw == Swizzle::RowPairs) return chunks >= 8 && chunks % 8 == 0;
  return chunks >= 8 ? chunks % 8 == 0 : chunks == 4 || (chunks >= 2 && chunks % 2 == 0);
}
// The rows after which a pattern's keys repeat.
__host__ __device__ constexpr int swizzle_period(Swizzle sw) {
  return sw == Swizzle::None ? 1 : sw == Swizzle::RowPairs ? 4 : 8;
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
  static_assert(swizzle_fits(kSwizzle, kChunks), "the XOR keeps every chunk inside its row");

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

// ---- fragment coordinates ----------------------------------------------------------------------
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

}  // namespace tilescope
