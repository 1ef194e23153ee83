#include "kernels/measure/dgemm_reference.h"

#include <algorithm>
#include <cmath>

#include "kernels/cuda/cuda_check.h"

namespace tilescope {

// Row-major storage seen column-major, as in the cuBLAS baseline: gemm computes C^T = B^T A^T,
// AᵀA computes X X^T with X = A^T (N x K, leading dimension N).
void blocked_dgemm_reference(cublasHandle_t cublas, cudaStream_t stream, Problem problem, const Shape& s,
                             const double* ra, const double* rb, double* ref) {
  CUBLAS_CHECK(cublasSetStream(cublas, stream));
  CUBLAS_CHECK(cublasSetMathMode(cublas, CUBLAS_DEFAULT_MATH));
  const int M = static_cast<int>(s.M), N = static_cast<int>(s.N), K = static_cast<int>(s.K);
  const int slab = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(K)))));
  const double one = 1.0, zero = 0.0;
  for (int k0 = 0; k0 < K; k0 += slab) {
    const int kc = std::min(slab, K - k0);
    const double* beta = k0 == 0 ? &zero : &one;
    if (problem == Problem::Gemm)
      CUBLAS_CHECK(cublasDgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, kc, &one, rb + std::size_t(k0) * N, N, ra + k0,
                               K, beta, ref, N));
    else
      CUBLAS_CHECK(cublasDgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_T, N, N, kc, &one, ra + std::size_t(k0) * N, N,
                               ra + std::size_t(k0) * N, N, beta, ref, N));
  }
}

}  // namespace tilescope
