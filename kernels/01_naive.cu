// 01 naive — one thread per element of C.
//
// Idea: the textbook definition C[i][j] = sum_k A[i][k] * B[k][j], one thread per (i, j), every
// operand read straight from global memory.
// Changed from cuBLAS: everything — this is the starting point of the lesson.
// Thread -> C: C(row, col) with row = blockIdx.y * BY + threadIdx.y, col = blockIdx.x * BX + threadIdx.x.
//   threadIdx.x runs along a row of C, so a warp reads one row of B contiguously (coalesced) and
//   all its threads read the same A[row][k] (a broadcast).
// AᵀA: A is K x N, and A^T[i][k] = A[k][i]; the thread reads column i and column j of A. It
//   computes every element of C, both triangles, the same way.
// What to look for: each element of A is read N times and each of B M times from global memory
//   (the heatmaps are flat); arithmetic intensity ~ 1/4 FLOP per byte on paper. On big-cache GPUs
//   (Hopper: 50 MB L2) the caches hide much of it, so naive is slower than tiling by less than
//   textbooks suggest.
#include "kernel_common.cuh"
#include "variant.h"

namespace tilescope {

extern const VariantDescriptor kNaiveVariant;

namespace {

template <typename T, bool kAta>
__global__ void naive_gemm_kernel(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                                  int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  T acc = 0;
  for (int k = 0; k < K; ++k) {
    const T a = kAta ? A[(std::int64_t)k * N + row] : A[(std::int64_t)row * K + k];
    const T b = kAta ? A[(std::int64_t)k * N + col] : B[(std::int64_t)k * N + col];
    acc += a * b;
  }
  C[(std::int64_t)row * N + col] = acc;
}

template <typename T>
const void* naive_kernel(Problem p) {
  return p == Problem::Ata ? reinterpret_cast<const void*>(naive_gemm_kernel<T, true>)
                           : reinterpret_cast<const void*>(naive_gemm_kernel<T, false>);
}

KernelLaunchShape naive_kernel_for(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kNaiveVariant.configs[config_index];
  KernelLaunchShape k;
  k.kernel = g.precision == Precision::F32 ? naive_kernel<float>(g.problem) : naive_kernel<double>(g.problem);
  k.threads_per_block = cfg.threads();
  return k;
}

template <typename T>
void launch_typed(const GemmArgs& g, const TileConfig& cfg) {
  const int M = static_cast<int>(g.shape.M), N = static_cast<int>(g.shape.N), K = static_cast<int>(g.shape.K);
  const dim3 block(cfg.threads_x, cfg.threads_y);
  const dim3 grid = checked_grid(ceil_div(N, cfg.threads_x), ceil_div(M, cfg.threads_y));
  const T* a = static_cast<const T*>(g.a);
  const T* b = static_cast<const T*>(g.b);
  T* c = static_cast<T*>(g.c);
  if (g.problem == Problem::Ata)
    naive_gemm_kernel<T, true><<<grid, block, 0, g.stream>>>(a, a, c, M, N, K);
  else
    naive_gemm_kernel<T, false><<<grid, block, 0, g.stream>>>(a, b, c, M, N, K);
  CUDA_CHECK_LAUNCH("naive_gemm_kernel");
}

void naive_launch(const GemmArgs& g, int config_index) {
  const TileConfig& cfg = kNaiveVariant.configs[config_index];
  if (g.precision == Precision::F32) launch_typed<float>(g, cfg);
  else launch_typed<double>(g, cfg);
}

TileConfig naive_config(int bx, int by) {
  TileConfig c;
  c.name = std::to_string(bx) + "x" + std::to_string(by);
  c.bm = by;
  c.bn = bx;
  c.threads_x = bx;
  c.threads_y = by;
  c.math = "FP32 / FP64 FMA";
  return c;
}

}  // namespace

extern const VariantDescriptor kNaiveVariant = {
    "naive",
    "Naive",
    "One thread computes one element of C, reading a whole row of A and a whole column of B "
    "straight from global memory. Simple and correct, but every element of A and B is fetched "
    "again and again.",
    Backend::Cuda,
    {naive_config(16, 16), naive_config(32, 32)},
    nullptr,
    naive_launch,
    naive_kernel_for,
    nullptr,
};

}  // namespace tilescope
