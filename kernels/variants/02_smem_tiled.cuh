// 02 smem_tiled — TILE x TILE tiles of A and B staged in shared memory.
//
// Idea: the threads of a block compute a TILE x TILE tile of C together. The K loop runs in
// phases; in each phase every thread loads ONE element of A's tile and ONE of B's tile into
// shared memory, the block synchronises, and then every thread reads TILE values of each tile
// from fast shared memory instead of global memory.
// Changed from naive: global reads drop by a factor TILE (each element of A is now read
//   ceil(N / TILE) times instead of N), at the price of two __syncthreads per phase.
// Thread -> C: C(row, col) with row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x
//   (the same one-element-per-thread mapping as naive; only the data path changed).
// Ragged sizes: elements of a tile outside A or B are loaded as 0, which adds nothing to the sum;
//   threads outside C compute but do not store.
// AᵀA: the A-operand tile is A^T's; it is loaded as A[k][m] (contiguous along m, so coalesced)
//   and read transposed from shared memory.
// What to look for: the phase structure in the tile animation; the read heatmaps drop by TILE.
//   TILE = 32 means 1024 threads per block, the most a block may have.
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), whose loads and store also
//   record reads and writers, and whose k_end stops the K loop after p phases; it also records one
//   warp's addresses, shared-memory ones through probe.shared (the Mapping tab's memory view).
// Memory, one warp at a time: A's tile is stored row by row, so a warp's stores fill consecutive
//   banks; in gemm the compiler reads As[ty][kk .. kk + 3] as one 16-byte vector (all lanes of a
//   row on one address: a broadcast), in AᵀA As[kk][ty] one element at a time; Bs[kk][tx] is a row,
//   32 lanes on 32 banks. No access of this kernel has a bank conflict: padding would buy nothing.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (02_smem_tiled.cu: descriptor, launch, mapping model), and NVRTC compiles it alone (a CPU test).
#pragma once

#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// The shared-memory accesses an instrumented run records (probe.shared; nothing in the timed build).
enum SmemTiledShared { kSmemAsStored = kRecordShared, kSmemBsStored, kSmemAsRead, kSmemBsRead };

// Probe: NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
template <typename T, int TILE, bool kAta, typename Probe>
__global__ void smem_tiled_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N,
                                  int K, Probe probe) {
  __shared__ T As[TILE][TILE];  // gemm: As[m][k];  ata: As[k][m]
  __shared__ T Bs[TILE][TILE];  // Bs[k][n]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  // K; a trace's phase limit may end it after fewer phases.
  const int k_end = probe.k_end(K, TILE);
  T acc = 0;
  for (int k0 = 0; k0 < k_end; k0 += TILE) {
    if (kAta) {
      const int k = k0 + ty, m = blockIdx.y * TILE + tx;
      As[ty][tx] = (k < K && m < M) ? probe.load(Operand::A, A, (std::int64_t)k * N + m) : T(0);
    } else {
      const int k = k0 + tx;
      As[ty][tx] = (row < M && k < K) ? probe.load(Operand::A, A, (std::int64_t)row * K + k) : T(0);
    }
    probe.shared(kSmemAsStored, &As[ty][tx]);
    {
      const int k = k0 + ty;
      Bs[ty][tx] = (k < K && col < N) ? probe.load(Operand::B, B, (std::int64_t)k * N + col) : T(0);
    }
    probe.shared(kSmemBsStored, &Bs[ty][tx]);
    // Every tile element must be in shared memory before anyone reads it.
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TILE; ++kk) {
      acc += (kAta ? As[kk][ty] : As[ty][kk]) * Bs[kk][tx];
      probe.shared(kSmemAsRead, kAta ? &As[kk][ty] : &As[ty][kk]);
      probe.shared(kSmemBsRead, &Bs[kk][tx]);
    }
    // Nobody may overwrite the tiles for the next phase while a slower thread still reads them.
    __syncthreads();
  }
  if (row < M && col < N) probe.store(C, (std::int64_t)row * N + col, acc, 0);
}

}  // namespace tilescope
