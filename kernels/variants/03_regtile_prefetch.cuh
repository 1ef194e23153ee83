// 03 regtile_prefetch — register tiles per thread, shared-memory slabs per block, and the next
// slab prefetched from global memory into registers while the current one is computed.
//
// Idea (the seed project's design, grown to cuBLAS class): a block owns a BM x BN tile of C and
// walks K in BK-deep slabs. A slab of A (BM x BK) and of B (BK x BN) sits in shared memory; each
// thread keeps TM x TN accumulators in registers and, for every k of the slab, reads TM values
// of A and TN values of B from shared memory to do TM * TN multiply-adds (an outer product).
// While it computes slab s, its loads of slab s+1 are already in flight into prefetch registers
// (ra, rb); after the compute they are written to the other shared-memory buffer, so one
// __syncthreads per slab suffices (double buffering; the seed used one buffer and two barriers).
// Deep slabs are prefetched in pieces: with BK = 32 in 4 pieces, the loads for rows 0-7 of the
// next slab are issued at k = 0, parked in shared memory at k = 8 when rows 8-15 are issued, and
// so on, so a deep slab (few barriers) costs no more prefetch registers than a shallow one.
// Changed from smem_tiled: each thread computes TM x TN outputs instead of 1, so each value read
// from shared memory feeds TN (or TM) FMAs instead of 1; global memory latency is hidden behind
// compute by the prefetch; A is stored transposed in shared memory (As[k][m]) so the TM values a
// thread needs are contiguous (16-byte vector reads), and rows are padded by 16 bytes so the
// transposing stores do not collide in one bank (kPadded; the _nopad configuration, pad=0, shows
// the collision).
// Thread -> C: thread (tx, ty) of the block computing tile (tr, tc) (tile (by, bx) of block (bx, by)
//   in the plain order, see "Block order") owns, for i < TM and j < TN,
//   C(tr*BM + (i/W)*W*TY + ty*W + i%W,  tc*BN + (j/W)*W*TX + tx*W + j%W)
//   with TX = BN/TN, TY = BM/TM threads, and W = 16 bytes / sizeof(T) when TM and TN are multiples
//   of it (W consecutive rows/columns, then a jump of W*TY), else W = 1 (rows ty, ty+TY, ty+2TY..,
//   the seed's 48 x 48 / 3 x 3 layout).
// AᵀA (C = AᵀA, A is K x N): BM == BN; only the upper triangle's tiles (tr <= tc) compute;
//   each writes C(i, j) and its mirror C(j, i) for i <= j, as the seed does. The A-operand slab is
//   a BK x BM slice of rows of A, contiguous along m, so it needs no transposing at all. Above the
//   diagonal (and N a multiple of the vector) a thread stores each CW x CW chunk of its
//   accumulators as CW row vectors of C and, transposed, CW row vectors of the mirror, 16 bytes
//   each; one float at a time, the mirror's stores reached each 32-byte sector of C with 4 bytes.
// Block order (kBands): with 0, block (bx, by) computes tile (by, bx), so the blocks in flight
//   sweep whole rows of tiles and, at large N, every column panel of B is fetched from DRAM again
//   for each row of blocks (AᵀA: the lower-triangle blocks return at once). With 1, the block
//   index walks down bands of kGroupRows tile rows (block_order.h, as the tensor-core kernels do),
//   so the blocks in flight share a few panels of A and B and find them in L2; AᵀA's grid is then
//   1-D and holds the upper-triangle tiles only.
// Ragged sizes: loads outside A or B give 0; stores outside C are skipped. 16-byte vector loads
//   are used only when the leading dimensions are multiples of the vector (kVec), else scalars.
// What to look for: reads of each element of A drop to ceil(N / BN), of B to ceil(M / BM); the
//   prefetch registers in the tile animation; registers per thread and occupancy in the table.
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), whose loads and stores also
//   record reads and writers, and whose k_end stops the K loop after p slabs, prefetches included;
//   it also records one warp's addresses, shared-memory ones through probe.shared.
// Memory, one warp at a time: 16-byte loads of rows of A and B (4 sectors of 32 bytes per 8
//   lanes: coalesced); the transposing stores of A, one element each, would hit one bank with
//   several words without the padding; the reads of As and Bs are 16-byte vectors, the lanes of a
//   row of threads on one address of As (broadcast) and on neighbouring vectors of Bs; AᵀA's
//   mirror vectors, two lanes (ty, ty + 1) filling each 32-byte sector of a row of C.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (03_regtile_prefetch.cu: descriptor, launch, compiled set, mapping model), and NVRTC compiles
// it alone (a CPU test).
#pragma once

#include "kernels/core/block_order.h"
#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_types.cuh"
#include "kernels/ptx/vector_access.cuh"

namespace tilescope {

// Host and device: the kernel's shapes and the launch file's compiled set and model use them.
constexpr int kVecBytes = 16;
template <typename T>
__host__ __device__ constexpr int vec_width() {
  return kVecBytes / static_cast<int>(sizeof(T));
}
// The widest vector (<= 16 bytes) that divides `cols`.
template <typename T>
__host__ __device__ constexpr int widest_dividing(int cols) {
  int w = vec_width<T>();
  while (w > 1 && cols % w != 0) w /= 2;
  return w;
}

// The shared-memory accesses an instrumented run records (probe.shared; nothing in the timed build).
enum RegtileShared { kRegtileAsStored = kRecordShared, kRegtileBsStored, kRegtileAsRead, kRegtileBsRead };

// A ROWS x COLS piece of a row-major matrix (leading dimension ld, `rows` x `cols` valid
// elements in all), starting at (r0, c0), moved global -> registers -> shared memory in
// vectors of LW along a row. Thread `tid` of NT handles vectors tid, tid + NT, ... kOperand:
// the operand it moves, for the probe's read counters.
template <typename T, int ROWS, int COLS, int NT, int LW, Operand kOperand>
struct TileMover {
  static constexpr int kVecsPerRow = COLS / LW;
  static constexpr int kVecs = ROWS * kVecsPerRow;
  static constexpr int kPerThread = (kVecs + NT - 1) / NT;
  static_assert(COLS % LW == 0, "vector width must divide the tile row");

  T regs[kPerThread][LW];

  template <typename Probe>
  __device__ __forceinline__ void load(const T* __restrict__ src, std::int64_t ld, int r0, int c0, int rows, int cols,
                                       int tid, const Probe& probe) {
#pragma unroll
    for (int l = 0; l < kPerThread; ++l) {
      const int v = tid + l * NT;
      if (kVecs % NT != 0 && v >= kVecs) break;
      const int r = v / kVecsPerRow, c = (v % kVecsPerRow) * LW;
      const int gr = r0 + r, gc = c0 + c;
      // With LW > 1 the caller guarantees cols % LW == 0, so a vector is all in or all out.
      if (gr < rows && gc < cols) {
        probe.load(kOperand, src, gr * ld + gc, regs[l]);
      } else {
#pragma unroll
        for (int w = 0; w < LW; ++w) regs[l][w] = T(0);
      }
    }
  }

  // Stores as dst[r][c] (row stride `stride`), or transposed as dst[c][r].
  template <bool kTransposed, typename Probe>
  __device__ __forceinline__ void store(T* dst, int stride, int tid, const Probe& probe) const {
    constexpr int kStored = kOperand == Operand::A ? kRegtileAsStored : kRegtileBsStored;
#pragma unroll
    for (int l = 0; l < kPerThread; ++l) {
      const int v = tid + l * NT;
      if (kVecs % NT != 0 && v >= kVecs) break;
      const int r = v / kVecsPerRow, c = (v % kVecsPerRow) * LW;
      if constexpr (kTransposed) {
#pragma unroll
        for (int w = 0; w < LW; ++w) {
          dst[(c + w) * stride + r] = regs[l][w];
          probe.shared(kStored, &dst[(c + w) * stride + r]);
        }
      } else {
        store_vec<T, LW>(dst + r * stride + c, regs[l]);
        probe.shared(kStored, dst + r * stride + c);
      }
    }
  }
};

template <typename T, int BM, int BN, int BK, int TM, int TN, int kPadded>
struct RegtileShape {
  static constexpr int TX = BN / TN;
  static constexpr int TY = BM / TM;
  static constexpr int NT = TX * TY;
  // Compute-side vector: W consecutive rows/cols per chunk when both thread tiles allow it.
  static constexpr int CW = (TM % vec_width<T>() == 0 && TN % vec_width<T>() == 0) ? vec_width<T>() : 1;
  // kPadded (1 or 0, the typed `pad`): 16 bytes at the end of every row. A row of BM elements spans whole rounds of the
  // 32 banks for the usual tiles (64, 128), so without it the transposing stores of A (As[c + w][r]) of the BKP / LW
  // threads that hold one row r of the piece land in one bank: a conflict of that degree, replayed. 16 bytes (not 4)
  // keep every row's start aligned for the vector loads.
  static constexpr int PAD = kPadded ? vec_width<T>() : 0;
  static constexpr int LDA = BM + PAD;                       // row length of As[k][m]
  static constexpr int LDB = BN + PAD;                       // row length of Bs[k][n]
  static constexpr int kSharedElems = 2 * BK * (LDA + LDB);  // two buffers
  static_assert(BM % TM == 0 && BN % TN == 0, "thread tile must divide block tile");
  static_assert(NT <= 1024, "too many threads per block");

  __host__ __device__ static constexpr int row_in_tile(int i, int ty) {
    return (i / CW) * (CW * TY) + ty * CW + i % CW;
  }
  __host__ __device__ static constexpr int col_in_tile(int j, int tx) {
    return (j / CW) * (CW * TX) + tx * CW + j % CW;
  }
};

// kPieces: the next slab is fetched in kPieces pieces of BK / kPieces rows of k, each issued
// while the current slab's computation is 1/kPieces further along and written to the other
// buffer one piece later. Deep slabs (fewer barriers) then need no more prefetch registers than
// shallow ones. kMinBlocks: blocks per multiprocessor the compiler must make room for
// (__launch_bounds__), which caps the registers per thread. kBands: the block order (above).
// Probe: NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
// Longer than most functions here, on purpose: it reads top to bottom as the algorithm (prologue,
// slab loop with its prefetch, epilogue), and moving the epilogue into a function of its own
// changed the register allocation of the timed vectorised kernels.
template <typename T, int BM, int BN, int BK, int TM, int TN, int kPieces, int kMinBlocks, int kPadded, int kBands,
          bool kAta, bool kVec, typename Probe>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), kMinBlocks)
    regtile_prefetch_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K,
                            Probe probe) {
  using S = RegtileShape<T, BM, BN, BK, TM, TN, kPadded>;
  static_assert(BK % kPieces == 0, "pieces must split the slab evenly");
  constexpr int BKP = BK / kPieces;  // rows of k per prefetch piece

  extern __shared__ __align__(16) unsigned char shared_raw[];
  T* As = reinterpret_cast<T*>(shared_raw);  // [2][BK][LDA]
  T* Bs = As + 2 * BK * S::LDA;              // [2][BK][LDB]

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * S::TX + tx;
  BlockTile tile{static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.x)};
  if (kBands && kAta) tile = upper_block_tile(blockIdx.x, (N + BN - 1) / BN);
  if (kBands && !kAta) tile = gemm_block_tile(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x);
  if (kAta && tile.row > tile.col) return;  // lower-triangle block: its mirror computes it
  const int m0 = tile.row * BM, n0 = tile.col * BN;

  // A-operand piece: gemm reads BM x BKP of A (rows m, along k) and stores it transposed;
  // ata reads BKP x BM of A (rows k, along m) and stores it as is.
  constexpr int kACols = kAta ? BM : BKP;
  constexpr int kARows = kAta ? BKP : BM;
  using AMover = TileMover<T, kARows, kACols, S::NT, kVec ? widest_dividing<T>(kACols) : 1, Operand::A>;
  using BMover = TileMover<T, BKP, BN, S::NT, kVec ? widest_dividing<T>(BN) : 1, Operand::B>;
  AMover a_next;  // the prefetch registers (ra in the seed)
  BMover b_next;  // (rb)

  // K; a trace's phase limit may end it after fewer slabs. Elements at k >= k_end are never
  // loaded (like those past K, they are 0), so no slab beyond it is fetched, prologue included.
  const int k_end = probe.k_end(K, BK);

  // Global -> registers for rows [k0, k0 + BKP) of k.
  auto fetch = [&](int k0) {
    if constexpr (kAta)
      a_next.load(A, N, k0, m0, k_end, N, tid, probe);
    else
      a_next.load(A, K, m0, k0, M, k_end, tid, probe);
    b_next.load(kAta ? A : B, N, k0, n0, k_end, N, tid, probe);
  };
  // Registers -> shared buffer `buf`, at piece `piece` of the slab.
  auto stash = [&](int buf, int piece) {
    a_next.template store<!kAta>(As + (buf * BK + piece * BKP) * S::LDA, S::LDA, tid, probe);
    b_next.template store<false>(Bs + (buf * BK + piece * BKP) * S::LDB, S::LDB, tid, probe);
  };

  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = T(0);

  const int slabs = (k_end + BK - 1) / BK;
#pragma unroll
  for (int piece = 0; piece < kPieces; ++piece) {
    fetch(piece * BKP);
    stash(0, piece);
  }
  __syncthreads();

  for (int s = 0; s < slabs; ++s) {
    const int cur = s & 1;
    const bool more = s + 1 < slabs;
    const T* as = As + cur * BK * S::LDA;
    const T* bs = Bs + cur * BK * S::LDB;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      if (kk % BKP == 0 && more) {
        // The piece fetched one piece ago has arrived by now: park it in the other buffer
        // (nobody reads that buffer during this slab), then issue the next piece's loads,
        // which complete while the following BKP values of k are computed.
        if (kk > 0) stash(cur ^ 1, kk / BKP - 1);
        fetch((s + 1) * BK + kk);
      }
      T a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; i += S::CW) {
        T v[S::CW];
        load_vec<T, S::CW>(as + kk * S::LDA + S::row_in_tile(i, ty), v);
        probe.shared(kRegtileAsRead, as + kk * S::LDA + S::row_in_tile(i, ty));
#pragma unroll
        for (int w = 0; w < S::CW; ++w) a[i + w] = v[w];
      }
#pragma unroll
      for (int j = 0; j < TN; j += S::CW) {
        T v[S::CW];
        load_vec<T, S::CW>(bs + kk * S::LDB + S::col_in_tile(j, tx), v);
        probe.shared(kRegtileBsRead, bs + kk * S::LDB + S::col_in_tile(j, tx));
#pragma unroll
        for (int w = 0; w < S::CW; ++w) b[j + w] = v[w];
      }
      // The outer product: TM x TN multiply-adds from TM + TN values. (This loop order lets
      // the compiler keep a[i] in the operand reuse cache; j-outer measured 15% slower.)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }

    // The last piece, then one barrier: the next slab is complete in the other buffer, and
    // every thread is done reading this one before anyone overwrites it in the next iteration.
    if (more) stash(cur ^ 1, kPieces - 1);
    __syncthreads();
  }

  // Epilogue: registers -> C.
  if constexpr (kAta && kVec && S::CW == vec_width<T>()) {
    if (tile.row < tile.col) {
      // An AᵀA tile above the diagonal: every element is stored, with its mirror, as 16-byte
      // vectors. A thread's CW consecutive columns of a row are one vector of C(row, ·); its CW
      // consecutive rows of a column, transposed, are one vector of the mirror C(col, ·). N is a
      // multiple of the vector and chunks start at multiples of it: all in or all out.
#pragma unroll
      for (int i = 0; i < TM; i += S::CW) {
#pragma unroll
        for (int j = 0; j < TN; j += S::CW) {
          const int row = m0 + S::row_in_tile(i, ty), col = n0 + S::col_in_tile(j, tx);
          if (row >= M || col >= N) continue;
#pragma unroll
          for (int r = 0; r < S::CW; ++r) {
            T v[S::CW];
#pragma unroll
            for (int w = 0; w < S::CW; ++w) v[w] = acc[i + r][j + w];
            probe.store(C, (std::int64_t)(row + r) * N + col, v, (i + r) * TN + j);
          }
#pragma unroll
          for (int c = 0; c < S::CW; ++c) {
            T v[S::CW];
            int ids[S::CW];
#pragma unroll
            for (int w = 0; w < S::CW; ++w) {
              v[w] = acc[i + w][j + c];
              ids[w] = probe.writer_id((i + w) * TN + j + c);  // the mirror carries its accumulator's id
            }
            probe.store_from(C, (std::int64_t)(col + c) * N + row, v, ids);
          }
        }
      }
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + S::row_in_tile(i, ty);
    if (row >= M) continue;
    if constexpr (kAta) {
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const int col = n0 + S::col_in_tile(j, tx);
        // Only i <= j is written (with its mirror), so no element is stored twice.
        if (col < N && row <= col) {
          probe.store(C, (std::int64_t)row * N + col, acc[i][j], i * TN + j);
          // The mirror carries the writer id of the accumulator it copies.
          if (row != col) probe.store(C, (std::int64_t)col * N + row, acc[i][j], i * TN + j);
        }
      }
    } else if constexpr (kVec && S::CW == vec_width<T>()) {
      // N is a multiple of the vector and chunks start at multiples of it: all in or all out.
#pragma unroll
      for (int j = 0; j < TN; j += S::CW) {
        const int col = n0 + S::col_in_tile(j, tx);
        if (col < N) {
          T v[S::CW];
#pragma unroll
          for (int w = 0; w < S::CW; ++w) v[w] = acc[i][j + w];
          probe.store(C, (std::int64_t)row * N + col, v, i * TN + j);
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const int col = n0 + S::col_in_tile(j, tx);
        if (col < N) probe.store(C, (std::int64_t)row * N + col, acc[i][j], i * TN + j);
      }
    }
  }
}

}  // namespace tilescope
