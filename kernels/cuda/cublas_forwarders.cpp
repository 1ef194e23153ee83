// The cuBLAS functions tilescope calls, defined here as forwarders into the library loaded at run
// time (cuda_libraries.h), so that the program carries no link-time dependency on libcublas. The
// callers (00_cublas.cu, measure.cu, device_info.cu) use cuBLAS's own header and names unchanged.
// Without the library every forwarder returns CUBLAS_STATUS_NOT_INITIALIZED, which CUBLAS_CHECK
// turns into an error; the device probe has already switched the GPU path off with the reason.
//
// A new cuBLAS call needs one forwarder below, in the same form.
#include <cublasXt.h>
#include <cublas_v2.h>

#include "kernels/cuda/cuda_libraries.h"

namespace {

void* cublas_symbol(const char* symbol) {
  static const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  return tilescope::runtime_symbol(soname, symbol);
}

}  // namespace

// The library's function of the same name, looked up once; NOT_INITIALIZED when it is missing.
#define TILESCOPE_CUBLAS_FORWARD_AS(name, pointer_type)                          \
  static const auto real = reinterpret_cast<pointer_type>(cublas_symbol(#name)); \
  if (!real) return CUBLAS_STATUS_NOT_INITIALIZED
#define TILESCOPE_CUBLAS_FORWARD(name) TILESCOPE_CUBLAS_FORWARD_AS(name, decltype(&name))

// cublasGemmEx has a C++ overload in the header (a cudaDataType compute type): the C one is named
// by its type.
using GemmExFunction = cublasStatus_t(CUBLASWINAPI*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                     int, const void*, const void*, cudaDataType, int, const void*,
                                                     cudaDataType, int, const void*, void*, cudaDataType, int,
                                                     cublasComputeType_t, cublasGemmAlgo_t);

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
  TILESCOPE_CUBLAS_FORWARD(cublasCreate_v2);
  return real(handle);
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
  TILESCOPE_CUBLAS_FORWARD(cublasDestroy_v2);
  return real(handle);
}

cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType type, int* value) {
  TILESCOPE_CUBLAS_FORWARD(cublasGetProperty);
  return real(type, value);
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  TILESCOPE_CUBLAS_FORWARD(cublasSetStream_v2);
  return real(handle, stream);
}

cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  TILESCOPE_CUBLAS_FORWARD(cublasSetMathMode);
  return real(handle, mode);
}

cublasStatus_t CUBLASWINAPI cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                           int m, int n, int k, const float* alpha, const float* A, int lda,
                                           const float* B, int ldb, const float* beta, float* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasSgemm_v2);
  return real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                           int m, int n, int k, const double* alpha, const double* A, int lda,
                                           const double* B, int ldb, const double* beta, double* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasDgemm_v2);
  return real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasSsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n,
                                           int k, const float* alpha, const float* A, int lda, const float* beta,
                                           float* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasSsyrk_v2);
  return real(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasDsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n,
                                           int k, const double* alpha, const double* A, int lda, const double* beta,
                                           double* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasDsyrk_v2);
  return real(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                         int lda, const void* B, cudaDataType Btype, int ldb, const void* beta, void* C,
                                         cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                         cublasGemmAlgo_t algo) {
  TILESCOPE_CUBLAS_FORWARD_AS(cublasGemmEx, GemmExFunction);
  return real(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc, computeType,
              algo);
}

cublasStatus_t CUBLASWINAPI cublasSaxpy_v2(cublasHandle_t handle, int n, const float* alpha, const float* x, int incx,
                                           float* y, int incy) {
  TILESCOPE_CUBLAS_FORWARD(cublasSaxpy_v2);
  return real(handle, n, alpha, x, incx, y, incy);
}

cublasStatus_t CUBLASWINAPI cublasDaxpy_v2(cublasHandle_t handle, int n, const double* alpha, const double* x, int incx,
                                           double* y, int incy) {
  TILESCOPE_CUBLAS_FORWARD(cublasDaxpy_v2);
  return real(handle, n, alpha, x, incx, y, incy);
}

// The transpose the AᵀA split's triangle makes of a slice of A (C = alpha op(A) + beta op(B)).
cublasStatus_t CUBLASWINAPI cublasSgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                        int m, int n, const float* alpha, const float* A, int lda, const float* beta,
                                        const float* B, int ldb, float* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasSgeam);
  return real(handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasDgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                        int m, int n, const double* alpha, const double* A, int lda, const double* beta,
                                        const double* B, int ldb, double* C, int ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasDgeam);
  return real(handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}

// cuBLASXt (in the same library): the library's own split of a product across GPUs.
cublasStatus_t CUBLASWINAPI cublasXtCreate(cublasXtHandle_t* handle) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtCreate);
  return real(handle);
}

cublasStatus_t CUBLASWINAPI cublasXtDestroy(cublasXtHandle_t handle) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtDestroy);
  return real(handle);
}

cublasStatus_t CUBLASWINAPI cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[]) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtDeviceSelect);
  return real(handle, nbDevices, deviceId);
}

cublasStatus_t CUBLASWINAPI cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtSetBlockDim);
  return real(handle, blockDim);
}

cublasStatus_t CUBLASWINAPI cublasXtSgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          size_t m, size_t n, size_t k, const float* alpha, const float* A, size_t lda,
                                          const float* B, size_t ldb, const float* beta, float* C, size_t ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtSgemm);
  return real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasXtDgemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          size_t m, size_t n, size_t k, const double* alpha, const double* A,
                                          size_t lda, const double* B, size_t ldb, const double* beta, double* C,
                                          size_t ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtDgemm);
  return real(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasXtSsyrk(cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                                          size_t n, size_t k, const float* alpha, const float* A, size_t lda,
                                          const float* beta, float* C, size_t ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtSsyrk);
  return real(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasXtDsyrk(cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                                          size_t n, size_t k, const double* alpha, const double* A, size_t lda,
                                          const double* beta, double* C, size_t ldc) {
  TILESCOPE_CUBLAS_FORWARD(cublasXtDsyrk);
  return real(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

}  // extern "C"
