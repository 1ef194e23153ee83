// 90 naive_columns — naive with the threads turned the wrong way (an example variant, tests only).
//
// Idea: the same one-thread-per-element product as 01 naive, but threadIdx.x runs down a column
// of C instead of along a row. Nothing else changes, and the result is the same to the bit.
// Changed from naive: the thread -> C mapping only.
// Thread -> C: a block covers a BM x BN tile of C with BM = blockDim.x and BN = blockDim.y;
//   C(row, col) with row = blockIdx.y * BM + threadIdx.x, col = blockIdx.x * BN + threadIdx.y.
//   The 32 threads of a warp now hold 32 consecutive rows of one column: at every k they read
//   B[k][col] (one address: a broadcast) and A[row][k] for 32 rows, 32 addresses K elements apart
//   (gemm) — one memory transaction per thread instead of one per warp. Their stores to C are
//   strided by N as well. AᵀA: the A^T operand A[k][row] is contiguous again (a column of A^T is
//   a row of A), so only the stores stay uncoalesced.
// What to look for: the mapping view shows the same counts of reads as naive (each element of A
//   read N times, of B M times: the work is identical); the difference is only in which threads
//   of a warp read neighbouring addresses. That is why coalescing is a matter of thread order,
//   not of how much is read — compare the timings of naive and naive_columns.
// Trace build (trace.h): the same kernel with a TraceProbe (probe.cuh), as in naive; the K loop
//   is one phase, so a phase limit p = 0 computes nothing.
//
// This file is the example variant's kernel text, device-only: the build compiles it into the
// launch file (90_naive_columns.cu: descriptor, launch, mapping model), and NVRTC compiles it
// alone (a CPU test), as every product variant's. The variant is built through the same CMake
// function as the product's and registered in test_registry.cpp only, so that the generic
// per-variant test suites show that a new variant needs no test code of its own.
#pragma once

#include "kernels/instrument/no_probe.cuh"
#include "kernels/ptx/device_types.cuh"

namespace tilescope {

// Probe: NoProbe in the timed build, TraceProbe in the instrumented one (probe.cuh).
template <typename T, bool kAta, typename Probe>
__global__ void naive_columns_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N,
                                     int K, Probe probe) {
  const int row = blockIdx.y * blockDim.x + threadIdx.x;  // threadIdx.x runs down a column of C
  const int col = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  // K; a trace's phase limit may end it sooner. The whole K loop is one phase, as in naive.
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
