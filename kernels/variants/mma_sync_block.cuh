// What the three mma_sync kernels (05_mma_sync.cuh) share: MmaBlock, one block's state (its place
// in C and its warp's, its ring) with the steps every kernel takes, in the order they take them:
// zero the accumulators, copy slabs into the ring, load the fragments of a k step, multiply them,
// write C through shared-memory strips; and before it what those steps use (load_tile, the lanes'
// fragment offsets). Each kernel keeps its own pipeline: when it waits, copies and multiplies.
// S is the shape of a tile's block (MmaShape, 05_mma_sync.cuh).
// This header is device-only (no host header, so NVRTC compiles it as a kernel text's include).
#pragma once

#include "kernels/core/block_order.h"
#include "kernels/core/gemm_basics.h"
#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/mma_ptx.cuh"
#include "kernels/ptx/vector_access.cuh"
#include "kernels/variants/mma_tiles.cuh"

namespace tilescope {

// The shared-memory accesses the instrumented build records one warp of (probe.shared beside
// each), numbered after the probe's own global streams; the mapping model's access sites name the
// same (05_mma_sync.cu). Nothing of it is compiled into the timed build (NoProbe).
enum MmaShared {
  kMmaAStored = kRecordShared,  // a slab of A into its stage (cp.async's write, or a thread's store)
  kMmaBStored,
  kMmaARead,        // A's fragments out of the stage (ldmatrix, or plain loads)
  kMmaBRead,        // B's
  kMmaStripStore,   // accumulators parked in the warp's strip
  kMmaStripRow,     // a row piece of the strip on its way to C
  kMmaStripColumn,  // AᵀA: a column piece of the strip on its way to C's mirror
};

// cp.async, ldmatrix and these mma shapes came with sm_80: the descriptor refuses older GPUs, and
// their compilation of a kernel keeps no body (it would only trap); the shape is still checked.
template <typename S>
__device__ __forceinline__ void trap_below_sm80() {
  static_assert(S::MI > 0 && S::NI > 0 && S::KSTEPS > 0 && S::kVec > 0, "the shape is still checked");
  __trap();
}

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
  constexpr int kStored = kOp == Operand::A ? kMmaAStored : kMmaBStored;
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
      for (int l = 0; l < kPer; ++l) {
        probe.shared(kStored, d + l * kRowStep * kCols);
        probe.copy_async(kOp, d + l * kRowStep * kCols, src, first + l * step, Tile::kChunkElems);
      }
    } else {
      const int left = cols - (c0 + c);  // elements of the row from this chunk on
      const int inside = left <= 0 ? 0 : left < Tile::kChunkElems ? left : Tile::kChunkElems;
#pragma unroll
      for (int l = 0; l < kPer; ++l) {
        // Outside the matrix the copy reads nothing and still writes its 16 bytes of zeros.
        probe.shared(kStored, d + l * kRowStep * kCols);
        probe.copy_async(kOp, d + l * kRowStep * kCols, src, first + l * step,
                         r0 + r + l * kRowStep < rows ? inside : 0);
      }
    }
  } else {
    for (int e = tid; e < kRows * kCols; e += NT) {
      const int r = e / kCols, c = e % kCols;
      const int gr = r0 + r, gc = c0 + c;
      probe.shared(kStored, dst + Tile::offset(r, c));
      dst[Tile::offset(r, c)] =
          (gr < rows && gc < cols) ? probe.load(kOp, src, static_cast<std::int64_t>(gr) * ld + gc) : E(0.0f);
    }
  }
}

// The block's dynamic shared memory: the ring of stages, reused by the epilogue's strips, then
// the mbarriers of the kernel that has them (MmaShape's shared_bytes). Named here, not in each
// kernel, so that every step addresses it from its fixed start, as the kernel itself would.
extern __shared__ __align__(128) unsigned char shared_raw[];

// The lane's accumulators: instruction tile (mi, ni), register r (mma_ptx.cuh's C fragment).
template <typename S>
using MmaAccumulators = typename S::Acc[S::MI][S::NI][4];
// The registers of one k step: A's for each instruction row mi, B's for each column ni.
template <typename S>
using MmaAFragments = typename S::T::Reg[S::MI][4];
template <typename S>
using MmaBFragments = typename S::T::Reg[S::NI][2];

// Every accumulator 0, before the first slab.
template <typename Acc, int MI, int NI>
__device__ __forceinline__ void zero_accumulators(Acc (&acc)[MI][NI][4]) {
#pragma unroll
  for (int mi = 0; mi < MI; ++mi)
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[mi][ni][r] = Acc(0);
}

// One block of a mma_sync kernel: the kernel's arguments and where this thread works, with the
// steps the kernels share. Every member function is inlined into the kernel, so the state lives in
// registers as if the kernel had declared it itself; the accumulators and fragments are the
// kernel's own arrays, passed to the steps that use them.
template <typename S, bool kAta, typename Probe>
struct MmaBlock {
  using T = typename S::T;
  using E = typename S::E;
  using Acc = typename S::Acc;
  using Reg = typename T::Reg;
  static constexpr auto p = S::p;
  static constexpr int MI = S::MI, NI = S::NI;

  using Accumulators = MmaAccumulators<S>;
  using AFragments = MmaAFragments<S>;
  using BFragments = MmaBFragments<S>;

  // The kernel's arguments.
  const E* A;
  const E* B;
  Acc* C;
  int M, N, K;
  bool vec_a, vec_b, vec_c;
  const Probe& probe;
  // Where this thread works: block tile (m0, n0) of C, warp tile (warp_m, warp_n) of it, lane.
  int lane, warp, tid, warp_m, warp_n, m0, n0;
  bool computes;       // false: a warp of a diagonal AᵀA block whose tile lies wholly below the diagonal
  E* ring;             // stage s: A tile, then B tile
  int k_end, slabs;    // K (a trace's phase limit may end it sooner) and the slabs that cover it
  int lane_a, lane_b;  // the lane's own part of every fragment address

  __device__ __forceinline__ MmaBlock(const E* A, const E* B, Acc* C, int M, int N, int K, bool vec_a, bool vec_b,
                                      bool vec_c, const Probe& probe)
      : A(A), B(B), C(C), M(M), N(N), K(K), vec_a(vec_a), vec_b(vec_b), vec_c(vec_c), probe(probe) {
    const int grid_n = static_cast<int>(ceil_div(N, p.bn));
    const BlockTile tile = block_tile(kAta, static_cast<int>(blockIdx.x), static_cast<int>(ceil_div(M, p.bm)), grid_n);
    lane = threadIdx.x;
    warp = threadIdx.y;
    tid = warp * 32 + lane;
    warp_m = warp / S::WARPS_N;
    warp_n = warp % S::WARPS_N;
    m0 = tile.row * p.bm;
    n0 = tile.col * p.bn;
    // A diagonal block of AᵀA: a warp tile wholly below the diagonal has no element i <= j.
    computes = !kAta || tile.row != tile.col || warp_m * p.wm <= (warp_n + 1) * p.wn - 1;
    ring = reinterpret_cast<E*>(shared_raw);
    // Nothing at k >= k_end is copied.
    k_end = probe.k_end(K, p.bk);
    slabs = static_cast<int>(ceil_div(k_end, p.bk));
  }

  // The lane's own part of every fragment address (a TileCoord of the tile, plus the warp's
  // corner); what each k step, instruction row mi and column ni add is known at compile time
  // (SmemTile::fragment_offset). A step of its own, taken after the first copies are issued:
  // that order of the address arithmetic is the one the measured machine code has.
  __device__ __forceinline__ void locate_fragments() {
    lane_a = a_lane_offset<S, kAta>(lane, warp_m * p.wm);
    lane_b = b_lane_offset<S>(lane, warp_n * p.wn);
  }

  // The first stages - 1 slabs in flight, one commit group each (empty groups past the end keep
  // the count of groups, and so the waits that follow, the same for every slab).
  __device__ __forceinline__ void prologue() const {
#pragma unroll
    for (int s = 0; s < p.stages - 1; ++s) {
      if (s < slabs) copy_slab(s);
      cp_async_commit();
    }
  }

  // Slab `slab` of A and B into its stage of the ring, slab % stages.
  __device__ __forceinline__ void copy_slab(int slab) const {
    E* a_dst = ring + (slab % p.stages) * S::kStageElems;
    E* b_dst = a_dst + S::ATile::kElems;
    const int k0 = slab * p.bk;
    if constexpr (kAta)
      load_tile<typename S::ATile, S::NT, Operand::A>(a_dst, A, N, k0, m0, k_end, N, tid, vec_a, probe);
    else
      load_tile<typename S::ATile, S::NT, Operand::A>(a_dst, A, K, m0, k0, M, k_end, tid, vec_a, probe);
    load_tile<typename S::BTile, S::NT, Operand::B>(b_dst, kAta ? A : B, N, k0, n0, k_end, N, tid, vec_b, probe);
  }

  // The fragments of k step ks of the slab in ring buffer `stage`.
  __device__ __forceinline__ void load_fragments(int stage, int ks, AFragments& a, BFragments& b) const {
    const E* as = ring + stage * S::kStageElems;
    const E* bs = as + S::ATile::kElems;
    const int k0 = ks * T::kK;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      if constexpr (S::kLdmatrixA) {
        // gemm: tile [m][k], rows as they are; AᵀA: tile [k][m], transposed on the way.
        const E* at = as + (kAta ? S::ATile::fragment_offset(lane_a, k0, mi * 16)
                                 : S::ATile::fragment_offset(lane_a, mi * 16, k0));
        probe.shared(kMmaARead, at);
        if constexpr (kAta)
          ldmatrix_x4_trans(a[mi], shared_address(at));
        else
          ldmatrix_x4(a[mi], shared_address(at));
      } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          // Element i adds 8 rows (i % 2) and 4 columns (i / 2) of the instruction's A (scalar_a).
          const int m = mi * 16 + 8 * (i % 2), k = k0 + 4 * (i / 2);
          const E* at = as + (kAta ? S::ATile::fragment_offset(lane_a, k, m) : S::ATile::fragment_offset(lane_a, m, k));
          probe.shared(kMmaARead, at);
          a[mi][i] = T::reg(*at);
        }
      }
    }
#pragma unroll
    for (int ni = 0; ni < NI; ni += (S::kLdmatrixB ? 2 : 1)) {
      if constexpr (S::kLdmatrixB) {
        Reg r[4];
        probe.shared(kMmaBRead, bs + S::BTile::fragment_offset(lane_b, k0, ni * 8));
        ldmatrix_x4_trans(r, shared_address(bs + S::BTile::fragment_offset(lane_b, k0, ni * 8)));
        b[ni][0] = r[0];
        b[ni][1] = r[1];
        b[ni + 1][0] = r[2];
        b[ni + 1][1] = r[3];
      } else {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          probe.shared(kMmaBRead, bs + S::BTile::fragment_offset(lane_b, k0 + 4 * i, ni * 8));
          b[ni][i] = T::reg(bs[S::BTile::fragment_offset(lane_b, k0 + 4 * i, ni * 8)]);
        }
      }
    }
  }

  // The MI x NI instructions of one k step, into the accumulators.
  __device__ __forceinline__ void multiply(Accumulators& acc, const AFragments& a, const BFragments& b) const {
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
      for (int ni = 0; ni < NI; ++ni) T::mma(acc[mi][ni], a[mi], b[ni]);
  }

  // The slab in `stage`, one k step at a time: its fragments, then its instructions (unrolled, so
  // that every fragment address is the lane's offset and two constants).
  __device__ __forceinline__ void multiply_slab(Accumulators& acc, int stage) const {
#pragma unroll
    for (int ks = 0; ks < S::KSTEPS; ++ks) {
      AFragments a;
      BFragments b;
      load_fragments(stage, ks, a, b);
      multiply(acc, a, b);
    }
  }

  // Epilogue: a 16-row strip of the warp tile at a time, registers -> shared -> C. The ring is
  // reused for the strips: every copy landed, every warp done reading.
  __device__ __forceinline__ void write_c(const Accumulators& acc) const {
    cp_async_wait<0>();
    __syncthreads();
    if (!computes) return;
    Acc* const strip = reinterpret_cast<Acc*>(shared_raw) + strip_start();
    int* const ids = reinterpret_cast<int*>(shared_raw + S::kStripBytes) + strip_start();
    const int g = lane / 4, t = lane % 4;  // the lane's row and column pair in an instruction tile
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      park_strip(acc, mi, g, t, strip, ids);
      __syncwarp();
      const int i0 = m0 + warp_m * p.wm + mi * 16, j0 = n0 + warp_n * p.wn;
      store_rows(i0, j0);
      if constexpr (kAta) store_mirrors(i0, j0);
      __syncwarp();
    }
  }

  // The warp's strip: 16 rows of the warp tile, kStripLd accumulators apart, where the ring was;
  // the writer ids of the trace after all the strips, as far into theirs. Each step forms its
  // pointers from shared_raw itself (this returns an offset, not a pointer): the compiler then
  // folds every address into one sum from the start, the form the measured machine code has.
  __device__ __forceinline__ int strip_start() const {
    return warp * 16 * S::kStripLd;
  }

  // Instruction row mi of the accumulators into the warp's strip, with their writer ids beside
  // them in the trace.
  __device__ __forceinline__ void park_strip(const Accumulators& acc, int mi, int g, int t, Acc* strip,
                                             int* ids) const {
    constexpr int LD = S::kStripLd;
#pragma unroll
    for (int ni = 0; ni < NI; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int at = (g + 8 * h) * LD + ni * 8 + 2 * t;
        probe.shared(kMmaStripStore, strip + at);
        strip[at] = acc[mi][ni][2 * h];
        probe.shared(kMmaStripStore, strip + at + 1);
        strip[at + 1] = acc[mi][ni][2 * h + 1];
        if constexpr (Probe::kRecordsWriters) {
          ids[at] = probe.writer_id((mi * NI + ni) * 4 + 2 * h);
          ids[at + 1] = probe.writer_id((mi * NI + ni) * 4 + 2 * h + 1);
        }
      }
  }

  // Rows of the strip, whose corner is C(i0, j0): lanes side by side write side by side in C.
  __device__ __forceinline__ void store_rows(int i0, int j0) const {
    constexpr int LD = S::kStripLd, V = S::kVec;
    const Acc* const strip = reinterpret_cast<const Acc*>(shared_raw) + strip_start();
    const int* const ids = reinterpret_cast<const int*>(shared_raw + S::kStripBytes) + strip_start();
    constexpr int kVecsPerRow = p.wn / V;
    for (int item = lane; item < 16 * kVecsPerRow; item += 32) {
      const int r = item / kVecsPerRow, c = (item % kVecsPerRow) * V;
      const int i = i0 + r, j = j0 + c;
      if (i >= M) continue;
      Acc v[V];
      int id[V];
      probe.shared(kMmaStripRow, strip + r * LD + c);
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
  }

  // AᵀA's mirrors: column c of the strip is the piece of row j0 + c of C at columns i0 ..
  __device__ __forceinline__ void store_mirrors(int i0, int j0) const {
    constexpr int LD = S::kStripLd, V = S::kVec;
    const Acc* const strip = reinterpret_cast<const Acc*>(shared_raw) + strip_start();
    const int* const ids = reinterpret_cast<const int*>(shared_raw + S::kStripBytes) + strip_start();
    constexpr int kVecsPerCol = 16 / V;
    for (int item = lane; item < p.wn * kVecsPerCol; item += 32) {
      const int c = item / kVecsPerCol, r = (item % kVecsPerCol) * V;
      const int j = j0 + c, i = i0 + r;  // C(j, i .. i + V - 1) = C(i .., j)
      if (j >= N) continue;
      Acc v[V];
      int id[V];
#pragma unroll
      for (int w = 0; w < V; ++w) {
        probe.shared(kMmaStripColumn, strip + (r + w) * LD + c);
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
};

}  // namespace tilescope
