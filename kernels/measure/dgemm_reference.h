// The FP64 reference of large checks, on the GPU: cublasDgemm summed in blocks of K.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "kernels/core/gemm_types.h"

namespace tilescope {

// C in FP64 by blocked summation: K cut into about sqrt(K) slabs, each a cublasDgemm added onto
// the sum of the previous ones (beta = 1). Every kernel here sums each element in one FMA chain
// over k, and so does a plain cublasDgemm: as a reference it would round exactly like a double
// kernel and report an error of 0, whatever the arithmetic. The blocked sum rounds differently
// and more tightly (about (K/B + B)·u instead of K·u), so a double run shows its real rounding.
// ra (and rb; unused for AᵀA) are the inputs widened to double, row-major as every matrix here;
// ref receives the M x N row-major C, enqueued on `stream` (the handle's math mode is set to the
// default). Throws GpuError on a failed call.
void blocked_dgemm_reference(cublasHandle_t cublas, cudaStream_t stream, Problem problem, const Shape& s,
                             const double* ra, const double* rb, double* ref);

}  // namespace tilescope
