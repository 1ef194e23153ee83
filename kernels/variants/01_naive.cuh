// 01 naive — one thread per element of C.
//
// Idea: the textbook definition C[i][j] = sum_k A[i][k] * B[k][j], one thread per (i, j), every
// operand read straight from global memory.
// Changed from cuBLAS: everything — this is the starting point of the lesson.
// Thread -> C: along a row (kDownColumns false, the default): C(row, col) with
//   row = blockIdx.y * BY + threadIdx.y, col = blockIdx.x * BX + threadIdx.x (BX x BY = blockDim).
//   threadIdx.x runs along a row of C, so a warp reads one row of B contiguously (coalesced), all
//   its threads read the same A[row][k] (a broadcast), and its stores to C are contiguous.
//   Down a column (kDownColumns true, the configurations named _columns and order=1): the block
//   covers BX rows and BY columns, row = blockIdx.y * BX + threadIdx.x, col = blockIdx.x * BY +
//   threadIdx.y. The warp's threads now hold consecutive rows of one column: at every k they read
//   one B[k][col] (a broadcast) but A[row][k] for 32 rows, K elements apart, and they store C N
//   elements apart: each thread's access has a 32-byte sector of its own instead of the warp
//   sharing a few (uncoalesced). AᵀA: A^T[row][k] = A[k][row] is contiguous again (a column of Aᵀ
//   is a row of A), so there only the stores stay uncoalesced. The same products, the same sums,
//   the same result to the bit: only which thread does which changed.
//   The block's shape is blockDim, chosen at launch and no template argument: the compiled
//   configurations and a block shape a learner types (block_x, block_y) run the same kernel.
// AᵀA: A is K x N, and A^T[i][k] = A[k][i]; the thread reads column i and column j of A. It
//   computes every element of C, both triangles, the same way.
// What to look for: each element of A is read N times and each of B M times from global memory
//   (the heatmaps are flat); arithmetic intensity ~ 1/4 FLOP per byte on paper. On big-cache GPUs
//   (Hopper: 50 MB L2) the caches hide much of it, so naive is slower than tiling by less than
//   textbooks suggest. Down a column the counts are the same and the time is not: coalescing is a
//   matter of which thread reads which address, not of how much is read.
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), whose loads and store also
//   record reads and writers; the K loop is one phase, so a phase limit p = 0 computes nothing.
// This file is the variant's kernel text, device-only: the build compiles it into the launch file
// (01_naive.cu: descriptor, launch, mapping model), and NVRTC compiles it alone (a CPU test).
#pragma once

#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// kDownColumns: threadIdx.x runs down a column of C instead of along a row (above). Probe:
// NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
template <typename T, bool kAta, bool kDownColumns, typename Probe>
__global__ void naive_gemm_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N,
                                  int K, Probe probe) {
  const int row = kDownColumns ? blockIdx.y * blockDim.x + threadIdx.x : blockIdx.y * blockDim.y + threadIdx.y;
  const int col = kDownColumns ? blockIdx.x * blockDim.y + threadIdx.y : blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  // K; a trace's phase limit may end it sooner. The whole K loop is naive's one phase.
  const int k_end = probe.k_end(K, K);
  T acc = 0;
  for (int k = 0; k < k_end; ++k) {
    // AᵀA: A^T[row][k] = A[k][row], and B is A.
    const T a = probe.load(Operand::A, A, kAta ? (std::int64_t)k * N + row : (std::int64_t)row * K + k);
    const T b = probe.load(Operand::B, kAta ? A : B, (std::int64_t)k * N + col);
    acc += a * b;
  }
  probe.store(C, (std::int64_t)row * N + col, acc, 0);
}

}  // namespace tilescope
